import { useState } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router-dom";
import type { EventTypeInfo, WebhookEndpoint, WebhookSecretReveal } from "../../api/webhooks";
import { inputClass, labelClass, linkButtonClass, primaryButtonClass } from "../../components/styles";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { ConfirmDialog } from "../../ledger/ConfirmDialog";
import { formatDateTime, isoToLocalInput, localInputToIso } from "../../ledger/format";
import { cardClass, dangerButtonClass, errorTextClass, FieldError, sectionTitleClass, Spinner } from "../../ledger/ui";
import { Chip } from "./Chips";
import { DeliveryLog } from "./DeliveryLog";
import { EndpointForm } from "./EndpointForm";
import { useDeleteEndpoint, useReplaySince, useRotateSecret, useSendTestEvent, useUpdateEndpoint } from "./hooks";
import { SecretPanel } from "./SecretPanel";
import { smallButtonClass } from "./styles";
import {
  deliveryStatusLabel,
  endpointChanges,
  endpointFormOf,
  endpointStatusLabel,
  failingWarning,
  PREVIOUS_SECRET_WINDOW,
  replaySinceMessage,
  secretHintLabel,
  subscribedLabel,
  WEBHOOKS_PATH,
} from "./view";

const REPLAY_SINCE_ID = "webhook-replay-since";

/** "Replay since": every delivery created at or after the chosen local time is attempted again. */
function ReplaySince({ endpointId }: { endpointId: string }) {
  const replaySince = useReplaySince(endpointId);
  const [value, setValue] = useState(() => isoToLocalInput(new Date(Date.now() - 3_600_000)));
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    const since = localInputToIso(value);
    if (!since) return setError("Choose a date and time");
    try {
      toast.success(replaySinceMessage(await replaySince.mutateAsync(since)));
    } catch (caught) {
      setError(writeErrorMessage(caught, "The deliveries could not be replayed"));
    }
  };

  return (
    <form
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div>
        <label htmlFor={REPLAY_SINCE_ID} className={labelClass}>
          Replay every delivery since
        </label>
        <input
          id={REPLAY_SINCE_ID}
          type="datetime-local"
          className={`${inputClass} w-auto`}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${REPLAY_SINCE_ID}-error` : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
        />
      </div>
      <button type="submit" className={smallButtonClass} disabled={replaySince.isPending}>
        {replaySince.isPending ? <Spinner label="Scheduling…" /> : "Replay since"}
      </button>
      <div className="basis-full">
        <FieldError id={`${REPLAY_SINCE_ID}-error`} message={error} />
      </div>
    </form>
  );
}

/**
 * One endpoint: what it is and its secret's hint, send a test event, rotate the secret (the old
 * one keeps signing for a day), edit, delete, replay since a time, and its delivery log.
 */
export function EndpointDetail({
  endpoint,
  catalogue,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  catalogue: readonly EventTypeInfo[];
  onDeleted: () => void;
}) {
  const update = useUpdateEndpoint(endpoint.id);
  const remove = useDeleteEndpoint(endpoint.id);
  const rotate = useRotateSecret(endpoint.id);
  const sendTest = useSendTestEvent(endpoint.id);
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<"rotate" | "delete" | null>(null);
  const [dialogFailure, setDialogFailure] = useState<string | null>(null);
  const [reveal, setReveal] = useState<WebhookSecretReveal | null>(null);
  const [testFailure, setTestFailure] = useState<string | null>(null);
  const warning = failingWarning(endpoint);
  const name = endpoint.description || endpoint.url;

  const closeDialog = () => {
    setDialog(null);
    setDialogFailure(null);
  };

  const confirmRotate = async () => {
    setDialogFailure(null);
    try {
      setReveal(await rotate.mutateAsync());
      closeDialog();
    } catch (caught) {
      setDialogFailure(writeErrorMessage(caught, "The secret could not be rotated"));
    }
  };

  const confirmDelete = async () => {
    setDialogFailure(null);
    try {
      await remove.mutateAsync();
      closeDialog();
      toast.success(`Endpoint ${name} deleted`);
      onDeleted();
    } catch (caught) {
      setDialogFailure(writeErrorMessage(caught, "The endpoint could not be deleted"));
    }
  };

  const test = async () => {
    setTestFailure(null);
    try {
      const delivery = await sendTest.mutateAsync();
      toast.success(`Test event sent: ${deliveryStatusLabel(delivery)}`);
    } catch (caught) {
      setTestFailure(writeErrorMessage(caught, "The test event could not be sent"));
    }
  };

  return (
    <div className="space-y-6">
      <section aria-labelledby="webhook-endpoint-title" className={cardClass}>
        <p className="text-sm">
          <Link to={WEBHOOKS_PATH} className={linkButtonClass}>
            ← All endpoints
          </Link>
        </p>
        <h2 id="webhook-endpoint-title" className={`mt-2 break-all font-mono ${sectionTitleClass}`}>
          {endpoint.url}
        </h2>
        {endpoint.description && (
          <p className="mt-1 break-words text-sm text-slate-700 dark:text-slate-300">{endpoint.description}</p>
        )}
        <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-600 dark:text-slate-300">Status</dt>
          <dd>
            <Chip tone={endpoint.status === "enabled" ? "success" : "neutral"}>{endpointStatusLabel(endpoint)}</Chip>
          </dd>
          <dt className="text-slate-600 dark:text-slate-300">Sends</dt>
          <dd className="break-words">
            {subscribedLabel(endpoint.event_types.length)}:{" "}
            <span className="font-mono text-xs">{endpoint.event_types.join(", ")}</span>
          </dd>
          <dt className="text-slate-600 dark:text-slate-300">Signing secret</dt>
          <dd>
            <span className="font-mono">{secretHintLabel(endpoint.secret_hint)}</span>
            {endpoint.previous_secret_expires_at && (
              <span className="block text-xs text-slate-600 dark:text-slate-300">
                The previous secret also signs until {formatDateTime(endpoint.previous_secret_expires_at)}
              </span>
            )}
          </dd>
          <dt className="text-slate-600 dark:text-slate-300">Created</dt>
          <dd>{formatDateTime(endpoint.created_at)}</dd>
        </dl>
        {warning && (
          <p className="mt-3 text-sm font-medium text-amber-900 dark:text-amber-200">
            <span aria-hidden="true">⚠ </span>
            {warning}
          </p>
        )}
        <div className="mt-4 flex flex-wrap gap-3">
          <button
            type="button"
            className={primaryButtonClass}
            onClick={() => void test()}
            disabled={sendTest.isPending}
          >
            {sendTest.isPending ? <Spinner label="Sending…" /> : "Send test event"}
          </button>
          <button
            type="button"
            className={smallButtonClass}
            onClick={() => setEditing((open) => !open)}
            aria-expanded={editing}
          >
            Edit
          </button>
          <button type="button" className={smallButtonClass} onClick={() => setDialog("rotate")}>
            Rotate secret
          </button>
          <button type="button" className={dangerButtonClass} onClick={() => setDialog("delete")}>
            Delete
          </button>
        </div>
        {testFailure && (
          <p role="alert" className={`mt-2 ${errorTextClass}`}>
            {testFailure}
          </p>
        )}
        {reveal && <SecretPanel reveal={reveal} rotated onDone={() => setReveal(null)} />}
      </section>

      {editing && (
        <section aria-labelledby="webhook-edit-title" className={cardClass}>
          <h2 id="webhook-edit-title" className={sectionTitleClass}>
            Edit endpoint
          </h2>
          <EndpointForm
            key={endpoint.updated_at}
            idPrefix="webhook-edit"
            catalogue={catalogue}
            defaultValues={endpointFormOf(endpoint)}
            submitLabel="Save changes"
            busyLabel="Saving…"
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              const changes = endpointChanges(endpoint, values);
              if (Object.keys(changes).length > 0) await update.mutateAsync(changes);
              setEditing(false);
              toast.success("Endpoint saved");
            }}
          />
        </section>
      )}

      <section aria-labelledby="webhook-deliveries-title" className={cardClass}>
        <h2 id="webhook-deliveries-title" className={sectionTitleClass}>
          Delivery log
        </h2>
        <div className="mt-3">
          <ReplaySince endpointId={endpoint.id} />
        </div>
        <div className="mt-4">
          <DeliveryLog endpointId={endpoint.id} />
        </div>
      </section>

      {dialog === "rotate" && (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          busyLabel="Rotating…"
          busy={rotate.isPending}
          tone="primary"
          onConfirm={() => void confirmRotate()}
          onCancel={closeDialog}
        >
          <p>
            A new secret signs every delivery from now on. The old secret keeps working for {PREVIOUS_SECRET_WINDOW}:
            each delivery carries both signatures until then, so update your receiver within that time.
          </p>
          {dialogFailure && (
            <p role="alert" className={errorTextClass}>
              {dialogFailure}
            </p>
          )}
        </ConfirmDialog>
      )}
      {dialog === "delete" && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          busyLabel="Deleting…"
          busy={remove.isPending}
          onConfirm={() => void confirmDelete()}
          onCancel={closeDialog}
        >
          <p>
            Nothing more is delivered to <strong className="break-all">{name}</strong>, and its delivery log is deleted
            with it. This cannot be undone.
          </p>
          {dialogFailure && (
            <p role="alert" className={errorTextClass}>
              {dialogFailure}
            </p>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}
