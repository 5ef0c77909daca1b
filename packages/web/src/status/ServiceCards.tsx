import type { ServiceCheck, ServiceId } from "@fintech/core/status/model";
import { SERVICE_IDS, SERVICE_NAMES } from "@fintech/core/status/model";
import {
  AlertTriangleIcon,
  BucketIcon,
  CheckCircleIcon,
  DatabaseIcon,
  KeyIcon,
  ServerIcon,
  XCircleIcon,
} from "./icons";
import { STATUS_MESSAGES } from "./constants";
import { TONE_CLASSES, cardClass } from "./tones";
import { SERVICE_STATUS_LABELS, formatClock, formatMs, toneOfService } from "./view";

const SERVICE_ICONS: Record<ServiceId, typeof ServerIcon> = {
  api: ServerIcon,
  database: DatabaseIcon,
  storage: BucketIcon,
  auth: KeyIcon,
};

const STATUS_ICONS = { ok: CheckCircleIcon, degraded: AlertTriangleIcon, down: XCircleIcon, pending: CheckCircleIcon };

/** What the API check's latency means, next to what the other checks' latency means. */
const LATENCY_LABEL: Record<ServiceId, string> = {
  api: "Median latency",
  database: "Check latency",
  storage: "Check latency",
  auth: "Check latency",
};

function ServiceCard({ service }: { service: ServiceCheck }) {
  const tone = toneOfService(service.status);
  const classes = TONE_CLASSES[tone];
  const Icon = SERVICE_ICONS[service.id];
  const StatusIcon = STATUS_ICONS[tone];
  const titleId = `service-${service.id}-name`;
  return (
    <li
      aria-labelledby={titleId}
      data-testid={`service-${service.id}`}
      data-status={service.status}
      className={`${cardClass} flex flex-col gap-3`}
    >
      <div className="flex items-center justify-between gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
          <Icon />
        </span>
        <span
          className={`inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset ${classes.pill}`}
        >
          <StatusIcon width="14" height="14" />
          {SERVICE_STATUS_LABELS[service.status]}
        </span>
      </div>
      <h3 id={titleId} className="text-base font-semibold text-slate-900 dark:text-white">
        {service.name}
      </h3>
      <p className="-mt-1 text-sm text-slate-600 dark:text-slate-300">{service.detail}</p>
      <dl className="mt-auto grid grid-cols-2 gap-2 border-t border-slate-100 pt-3 text-sm dark:border-slate-800">
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">{LATENCY_LABEL[service.id]}</dt>
          <dd className="font-semibold tabular-nums text-slate-900 dark:text-white">{formatMs(service.latency_ms)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500 dark:text-slate-400">Checked</dt>
          <dd className="font-semibold tabular-nums text-slate-900 dark:text-white">
            <time dateTime={service.checked_at}>{formatClock(service.checked_at)}</time>
          </dd>
        </div>
      </dl>
    </li>
  );
}

const CHECKING = "Checking…";

function PendingCard({ id, text }: { id: ServiceId; text: string }) {
  const Icon = SERVICE_ICONS[id];
  return (
    <li
      data-testid={`service-${id}`}
      data-status="pending"
      className={`${cardClass} flex flex-col gap-3`}
      aria-busy={text === CHECKING}
    >
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        <Icon />
      </span>
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">{SERVICE_NAMES[id]}</h3>
      <p className="text-sm text-slate-600 dark:text-slate-300">{text}</p>
    </li>
  );
}

export function ServiceCards({
  services,
  loading,
  error,
}: {
  services: ServiceCheck[] | undefined;
  loading: boolean;
  error: string | null;
}) {
  return (
    <section aria-labelledby="services-title">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id="services-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          Services
        </h2>
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {STATUS_MESSAGES.servicesFailed}: {error}
          </p>
        )}
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {services && services.length > 0
          ? services.map((service) => <ServiceCard key={service.id} service={service} />)
          : SERVICE_IDS.map((id) => (
              <PendingCard key={id} id={id} text={loading || !error ? CHECKING : "Status unavailable"} />
            ))}
      </ul>
    </section>
  );
}
