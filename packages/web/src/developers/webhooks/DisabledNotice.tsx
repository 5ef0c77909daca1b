import { Link } from "react-router-dom";
import type { WebhookEndpoint } from "../../api/webhooks";
import { linkButtonClass } from "../../components/styles";
import { automaticallyDisabled, endpointStatusLabel, endpointLink } from "./view";

/**
 * The in-app notice for endpoints the server turned off (a 410 Gone answer, or days of failed
 * deliveries); the owner is mailed too. It stays while such an endpoint stays off.
 */
export function DisabledNotice({ endpoints }: { endpoints: readonly WebhookEndpoint[] }) {
  const disabled = automaticallyDisabled(endpoints);
  if (disabled.length === 0) return null;
  return (
    <section
      aria-labelledby="webhooks-disabled-notice"
      className="mt-6 rounded-xl border-2 border-amber-500 bg-amber-50 p-4 dark:border-amber-400 dark:bg-amber-950/60"
    >
      <h2 id="webhooks-disabled-notice" className="font-semibold text-slate-900 dark:text-white">
        {disabled.length === 1 ? "An endpoint was disabled" : `${disabled.length} endpoints were disabled`}
      </h2>
      <p className="mt-1 text-sm text-amber-900 dark:text-amber-200">
        Nothing is delivered to a disabled endpoint. Fix the receiver, enable the endpoint again, then replay what it
        missed.
      </p>
      <ul className="mt-2 space-y-1 text-sm">
        {disabled.map((endpoint) => (
          <li key={endpoint.id} className="break-all text-slate-900 dark:text-slate-100">
            <Link to={endpointLink(endpoint.id)} className={linkButtonClass}>
              {endpoint.description || endpoint.url}
            </Link>
            : {endpointStatusLabel(endpoint)}
          </li>
        ))}
      </ul>
    </section>
  );
}
