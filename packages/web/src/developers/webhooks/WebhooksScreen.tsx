import { useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { MAX_ENDPOINTS_PER_USER } from "@fintech/core/webhooks/model";
import type { WebhookSecretReveal } from "../../api/webhooks";
import { linkButtonClass, primaryButtonClass } from "../../components/styles";
import { writeErrorMessage } from "../../ledger/actionErrors";
import { keyFor, settled, type ActionKey } from "../../ledger/actionKey";
import { cardClass, EmptyState, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../../ledger/ui";
import { DisabledNotice } from "./DisabledNotice";
import { EndpointDetail } from "./EndpointDetail";
import { EndpointForm } from "./EndpointForm";
import { EndpointsList } from "./EndpointsList";
import { useCreateEndpoint, useEventTypes, useWebhookEndpoints } from "./hooks";
import { SecretPanel } from "./SecretPanel";
import { emptyEndpointForm, retryWindowLabel, STANDARD_WEBHOOKS_URL, WEBHOOKS_PATH } from "./view";

const ADD_BUTTON_ID = "webhook-add-endpoint";

/**
 * Developers > Webhooks: the user's endpoints (add one and see its signing secret once), and, for
 * the endpoint opened as ?endpoint=<id>, its settings, secret rotation, test send, replay and
 * delivery log. Deliveries are signed per Standard Webhooks (docs/webhooks.md#signatures).
 */
export function WebhooksScreen() {
  const endpoints = useWebhookEndpoints();
  const eventTypes = useEventTypes();
  const create = useCreateEndpoint();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const openId = params.get("endpoint");
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<WebhookSecretReveal | null>(null);
  const createKey = useRef<ActionKey | null>(null);
  const list = endpoints.data ?? [];
  const open = openId ? list.find((endpoint) => endpoint.id === openId) : undefined;
  const loadError = endpoints.error ?? eventTypes.error;
  const loading = endpoints.isPending || eventTypes.isPending;
  const formOpen = adding || (!loading && list.length === 0);

  const content = () => {
    if (loadError)
      return (
        <LoadError
          message={writeErrorMessage(loadError, "Failed to load your webhook endpoints")}
          onRetry={() => {
            void endpoints.refetch();
            void eventTypes.refetch();
          }}
        />
      );
    if (loading)
      return (
        <p className={subtleTextClass}>
          <Spinner label="Loading your webhook endpoints…" />
        </p>
      );
    if (openId && !open)
      return (
        <EmptyState title="Endpoint not found">
          It may have been deleted.{" "}
          <Link to={WEBHOOKS_PATH} className={linkButtonClass}>
            See all endpoints
          </Link>
        </EmptyState>
      );
    if (open)
      return (
        <EndpointDetail endpoint={open} catalogue={eventTypes.data ?? []} onDeleted={() => navigate(WEBHOOKS_PATH)} />
      );
    return (
      <>
        <section aria-labelledby="webhooks-add" className={cardClass}>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="webhooks-add" className={sectionTitleClass}>
              Add an endpoint
            </h2>
            {!formOpen && (
              <button
                id={ADD_BUTTON_ID}
                type="button"
                className={primaryButtonClass}
                onClick={() => setAdding(true)}
                disabled={list.length >= MAX_ENDPOINTS_PER_USER}
              >
                Add endpoint
              </button>
            )}
          </div>
          {list.length >= MAX_ENDPOINTS_PER_USER && (
            <p className={`mt-2 ${subtleTextClass}`}>
              You have {MAX_ENDPOINTS_PER_USER} endpoints, the most an account may have: delete one to add another.
            </p>
          )}
          {formOpen && (
            <EndpointForm
              idPrefix="webhook-new"
              catalogue={eventTypes.data ?? []}
              defaultValues={emptyEndpointForm()}
              submitLabel="Add endpoint"
              busyLabel="Adding…"
              onCancel={list.length > 0 ? () => setAdding(false) : undefined}
              onSubmit={async (values) => {
                const action = keyFor(createKey.current, values);
                createKey.current = action;
                const reveal = await create.mutateAsync({ input: values, idempotencyKey: action.key });
                createKey.current = settled(action);
                setCreated(reveal);
                setAdding(false);
              }}
            />
          )}
          {created && (
            <SecretPanel
              reveal={created}
              rotated={false}
              onDone={() => {
                setCreated(null);
                // The panel held focus; adding another endpoint is where the next action starts.
                document.getElementById(ADD_BUTTON_ID)?.focus();
              }}
            />
          )}
        </section>

        <section aria-labelledby="webhooks-list" className="mt-6">
          <h2 id="webhooks-list" className={sectionTitleClass}>
            Your endpoints
          </h2>
          <div className="mt-3">
            {list.length === 0 ? (
              <EmptyState title="No endpoints yet">
                Add one above: we send every event it subscribes to as a signed POST, and retry until it answers 2xx.
              </EmptyState>
            ) : (
              <EndpointsList endpoints={list} />
            )}
          </div>
        </section>
      </>
    );
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">Webhooks</h1>
        <p className={`mt-2 max-w-3xl ${subtleTextClass}`}>
          Your server gets a signed POST for every event it subscribes to (ledger, KYC and payments), with the{" "}
          <code className="font-mono">webhook-id</code>, <code className="font-mono">webhook-timestamp</code> and{" "}
          <code className="font-mono">webhook-signature</code> headers of Standard Webhooks. Failed deliveries are
          retried for {retryWindowLabel()}; the same event always carries the same{" "}
          <code className="font-mono">webhook-id</code>, so drop repeats by it. See the{" "}
          <a href={STANDARD_WEBHOOKS_URL} target="_blank" rel="noopener noreferrer" className={linkButtonClass}>
            Standard Webhooks specification
          </a>
          .
        </p>
      </header>

      {!loadError && <DisabledNotice endpoints={list} />}

      <div className="mt-6">{content()}</div>
    </div>
  );
}
