import { Link } from "react-router-dom";
import type { WebhookEndpoint } from "../../api/webhooks";
import { secondaryButtonClass } from "../../components/styles";
import { Chip } from "./Chips";
import { endpointStatusLabel, failingWarning, secretHintLabel, subscribedLabel, endpointLink } from "./view";

/** Every endpoint of the user as a card: where, what for, whether it is on, and what it receives. */
export function EndpointsList({ endpoints }: { endpoints: readonly WebhookEndpoint[] }) {
  return (
    <ul aria-label="Webhook endpoints" className="space-y-3">
      {endpoints.map((endpoint) => {
        const warning = failingWarning(endpoint);
        const name = endpoint.description || endpoint.url;
        return (
          <li
            key={endpoint.id}
            aria-label={name}
            className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 flex-1">
                <p className="break-all font-mono text-sm font-semibold text-slate-900 dark:text-white">
                  {endpoint.url}
                </p>
                {endpoint.description && (
                  <p className="mt-0.5 break-words text-sm text-slate-700 dark:text-slate-300">
                    {endpoint.description}
                  </p>
                )}
                <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
                  <Chip tone={endpoint.status === "enabled" ? "success" : "neutral"}>
                    {endpointStatusLabel(endpoint)}
                  </Chip>
                  <span>{subscribedLabel(endpoint.event_types.length)}</span>
                  <span>
                    Secret <span className="font-mono">{secretHintLabel(endpoint.secret_hint)}</span>
                  </span>
                </p>
                {warning && (
                  <p className="mt-2 text-sm font-medium text-amber-900 dark:text-amber-200">
                    <span aria-hidden="true">⚠ </span>
                    {warning}
                  </p>
                )}
              </div>
              <Link to={endpointLink(endpoint.id)} className={secondaryButtonClass} aria-label={`Open ${name}`}>
                Open
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
