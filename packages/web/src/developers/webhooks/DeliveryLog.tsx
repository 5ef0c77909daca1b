import { useState } from "react";
import toast from "react-hot-toast";
import { DELIVERY_STATUSES } from "@fintech/core/webhooks/model";
import type { DeliveryStatusFilter, WebhookDelivery } from "../../api/webhooks";
import { inputClass, labelClass } from "../../components/styles";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { formatDateTime, humanize } from "../../ledger/format";
import { EmptyState, LoadError, Spinner, subtleTextClass } from "../../ledger/ui";
import { CopyButton } from "../explorer/CopyButton";
import { Chip } from "./Chips";
import { smallButtonClass } from "./styles";
import { useDeliveries, useReplayDelivery } from "./hooks";
import { attemptOutcome, deliveryFailureReason, deliveryStatusLabel, deliveryTone, TRIGGER_LABELS } from "./view";

function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempts.length === 0) return <p className={`mt-2 ${subtleTextClass}`}>Not attempted yet.</p>;
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-sm font-medium text-indigo-700 dark:text-indigo-300">
        {delivery.attempts.length === 1 ? "1 attempt" : `${delivery.attempts.length} attempts`}
      </summary>
      <ol className="mt-2 space-y-2">
        {[...delivery.attempts].reverse().map((attempt, index) => (
          <li
            // Attempts are append-only: their position from the first is their identity.
            key={`${delivery.attempts.length - index}-${attempt.at}`}
            className="rounded-lg border border-slate-200 p-2 text-xs dark:border-slate-700"
          >
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
              <dt className="text-slate-600 dark:text-slate-300">At</dt>
              <dd>{formatDateTime(attempt.at)}</dd>
              <dt className="text-slate-600 dark:text-slate-300">Trigger</dt>
              <dd>{TRIGGER_LABELS[attempt.trigger]}</dd>
              <dt className="text-slate-600 dark:text-slate-300">Status code</dt>
              <dd className="break-words font-mono">{attemptOutcome(attempt)}</dd>
              <dt className="text-slate-600 dark:text-slate-300">Latency</dt>
              <dd>{attempt.latency_ms} ms</dd>
            </dl>
            {attempt.response_excerpt && (
              <details className="mt-1">
                <summary className="cursor-pointer font-medium text-indigo-700 dark:text-indigo-300">
                  Response body
                </summary>
                <pre
                  role="group"
                  tabIndex={0}
                  aria-label="Response body excerpt"
                  className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 font-mono text-slate-900 dark:bg-slate-950 dark:text-slate-100"
                >
                  {attempt.response_excerpt}
                </pre>
              </details>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}

function DeliveryItem({
  delivery,
  onReplay,
  replaying,
}: {
  delivery: WebhookDelivery;
  onReplay: () => void;
  replaying: boolean;
}) {
  const last = delivery.attempts.at(-1);
  return (
    <li
      aria-label={`${delivery.event_type} delivery`}
      className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <Chip tone={deliveryTone(delivery)}>{deliveryStatusLabel(delivery)}</Chip>
            <code className="break-all font-mono text-sm font-semibold text-slate-900 dark:text-white">
              {delivery.event_type}
            </code>
            {deliveryFailureReason(delivery) && (
              <span className="text-xs text-slate-700 dark:text-slate-300">{deliveryFailureReason(delivery)}</span>
            )}
            {last && (
              <span className="text-xs text-slate-600 dark:text-slate-300">
                last answer <span className="font-mono">{attemptOutcome(last)}</span> in {last.latency_ms} ms
              </span>
            )}
          </p>
          <p className="mt-1 flex min-w-0 items-center gap-1 text-xs text-slate-700 dark:text-slate-300">
            <span className="shrink-0">webhook-id</span>
            <code className="min-w-0 break-all font-mono">{delivery.event_id}</code>
            <CopyButton text={delivery.event_id} label={`Copy webhook-id ${delivery.event_id}`} />
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-300">Created {formatDateTime(delivery.created_at)}</p>
        </div>
        <button
          type="button"
          className={smallButtonClass}
          onClick={onReplay}
          disabled={replaying}
          aria-label={`Replay ${delivery.event_type} ${delivery.event_id}`}
        >
          {replaying ? <Spinner label="Replaying…" /> : "Replay"}
        </button>
      </div>
      <Attempts delivery={delivery} />
    </li>
  );
}

/**
 * An endpoint's deliveries, newest first, a page at a time: each with its status, event type and
 * webhook-id (the event id), its attempts and the receiver's answers, and a Replay button.
 */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const [status, setStatus] = useState<DeliveryStatusFilter>("all");
  // The cursors of the pages walked so far: the last one is the page on screen (null: the newest).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors.at(-1) ?? null;
  const log = useDeliveries(endpointId, status, cursor);
  const replay = useReplayDelivery(endpointId);
  const deliveries = log.data?.deliveries ?? [];
  const nextCursor = log.data?.nextCursor ?? null;

  const replayOne = async (delivery: WebhookDelivery) => {
    try {
      const replayed = await replay.mutateAsync(delivery.id);
      toast.success(`Replayed ${replayed.event_type}: ${deliveryStatusLabel(replayed)}`);
    } catch (caught) {
      toast.error(writeErrorMessage(caught, "The delivery could not be replayed"));
    }
  };

  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <label htmlFor="webhook-delivery-status" className={labelClass}>
            Show
          </label>
          <select
            id="webhook-delivery-status"
            className={`${inputClass} w-auto`}
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as DeliveryStatusFilter);
              setCursors([null]);
            }}
          >
            <option value="all">All deliveries</option>
            {DELIVERY_STATUSES.map((value) => (
              <option key={value} value={value}>
                {humanize(value)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={smallButtonClass} onClick={() => void log.refetch()} disabled={log.isFetching}>
          {log.isFetching ? <Spinner label="Refreshing…" /> : "Refresh"}
        </button>
      </div>

      <div className="mt-3">
        {log.isError ? (
          <LoadError
            message={writeErrorMessage(log.error, "Failed to load the delivery log")}
            onRetry={() => void log.refetch()}
          />
        ) : log.isPending ? (
          <p className={subtleTextClass}>
            <Spinner label="Loading deliveries…" />
          </p>
        ) : deliveries.length === 0 ? (
          <EmptyState title={cursors.length > 1 ? "No older deliveries" : "No deliveries yet"}>
            Events this endpoint subscribes to appear here as they are delivered. Send a test event to try it.
          </EmptyState>
        ) : (
          <ol aria-label="Delivery log" className="space-y-2">
            {deliveries.map((delivery) => (
              <DeliveryItem
                key={delivery.id}
                delivery={delivery}
                replaying={replay.isPending && replay.variables === delivery.id}
                onReplay={() => void replayOne(delivery)}
              />
            ))}
          </ol>
        )}
      </div>

      {(cursors.length > 1 || nextCursor) && (
        <nav aria-label="Delivery log pages" className="mt-3 flex flex-wrap gap-3">
          <button
            type="button"
            className={smallButtonClass}
            disabled={cursors.length <= 1}
            onClick={() => setCursors((walked) => walked.slice(0, -1))}
          >
            Newer
          </button>
          <button
            type="button"
            className={smallButtonClass}
            disabled={!nextCursor}
            onClick={() => nextCursor && setCursors((walked) => [...walked, nextCursor])}
          >
            Older
          </button>
        </nav>
      )}
    </div>
  );
}
