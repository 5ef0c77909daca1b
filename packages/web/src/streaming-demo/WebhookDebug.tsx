import type { UseQueryResult } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { linkButtonClass } from "../components/styles";
import { EmptyState, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import { Loaded } from "../rails/Loaded";
import { classifyDelivery } from "./demoEvents";
import type { EndpointWithDeliveries } from "./hooks";

const timeOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString([], { hour12: false });
};

/** The user's real webhook endpoints and each one's latest deliveries, from the webhooks API. */
export function WebhookDebug({ query }: { query: UseQueryResult<EndpointWithDeliveries[]> }) {
  return (
    <div className="space-y-4">
      <p className={subtleTextClass}>
        Every event your endpoints subscribe to is delivered, signed per Standard Webhooks, with the event's id as
        <code className="mx-1 font-mono">webhook-id</code>. Register endpoints, reveal and rotate secrets, replay and
        send test events on the{" "}
        <Link to="/developers/webhooks" className={linkButtonClass}>
          Webhooks page
        </Link>
        .
      </p>
      <Loaded query={query} what="your webhook endpoints">
        {(endpoints) =>
          endpoints.length === 0 ? (
            <EmptyState title="No webhook endpoints yet">
              Add one on the{" "}
              <Link to="/developers/webhooks" className={linkButtonClass}>
                Webhooks page
              </Link>{" "}
              and its deliveries show here.
            </EmptyState>
          ) : (
            <ul className="space-y-4" aria-label="Webhook endpoints">
              {endpoints.map(({ endpoint, deliveries }) => (
                <li
                  key={endpoint.id}
                  className="min-w-0 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
                  data-endpoint-id={endpoint.id}
                >
                  <h3 className={`${sectionTitleClass} break-all !text-base`}>{endpoint.url}</h3>
                  <p className={subtleTextClass}>
                    {endpoint.status === "enabled" ? "Enabled" : `Disabled (${endpoint.disabled_reason ?? "manual"})`}
                    {endpoint.failing_since ? ` · failing since ${timeOf(endpoint.failing_since)}` : ""} ·{" "}
                    {endpoint.event_types.length} event {endpoint.event_types.length === 1 ? "type" : "types"}
                    {endpoint.description ? ` · ${endpoint.description}` : ""}
                  </p>
                  {deliveries.length === 0 ? (
                    <p className={`mt-2 ${subtleTextClass}`}>No deliveries yet.</p>
                  ) : (
                    <ul className="mt-2 space-y-2" aria-label={`Latest deliveries to ${endpoint.url}`}>
                      {deliveries.map((delivery) => {
                        const view = classifyDelivery(delivery);
                        return (
                          <li
                            key={delivery.id}
                            data-delivery-status={delivery.status}
                            className="min-w-0 rounded-lg bg-slate-50 p-2 text-sm dark:bg-slate-950"
                          >
                            <p className="font-semibold text-slate-900 dark:text-white">{view.title}</p>
                            <p className="text-slate-700 dark:text-slate-200">
                              {view.detail} · created {timeOf(delivery.created_at)}
                              {delivery.next_attempt_at ? ` · next attempt ${timeOf(delivery.next_attempt_at)}` : ""}
                            </p>
                            <p className="break-all font-mono text-xs text-slate-600 dark:text-slate-300">
                              webhook-id {delivery.event_id}
                            </p>
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </div>
  );
}
