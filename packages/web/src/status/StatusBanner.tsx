import { databaseStats } from "../api/health";
import type { HealthView } from "../api/healthView";
import { AlertTriangleIcon, CheckCircleIcon, ClockIcon, XCircleIcon } from "./icons";
import { TONE_CLASSES } from "./tones";
import { bannerFor, formatClock, type Tone } from "./view";

const ICONS: Record<Tone, typeof CheckCircleIcon> = {
  ok: CheckCircleIcon,
  degraded: AlertTriangleIcon,
  down: XCircleIcon,
  pending: ClockIcon,
};

/** The overall status from GET /health (refreshed every 30 s), docs/product/status.md#overall-banner. */
export function StatusBanner({ view }: { view: HealthView }) {
  const banner = bannerFor(view.health?.status, view.loading);
  const tone = TONE_CLASSES[banner.tone];
  const Icon = ICONS[banner.tone];
  // The server's message, unless it only repeats the title (ok: "All systems operational").
  const message = view.error ?? view.health?.message ?? "";
  const detail = message.toLowerCase() === banner.title.toLowerCase() ? "" : message;
  const database = view.health && !view.loading ? view.health.database : null;
  const stats = database ? databaseStats(database) : null;
  return (
    <section
      aria-labelledby="status-banner-title"
      data-testid="status-banner"
      data-status={view.loading ? "loading" : (view.health?.status ?? "error")}
      className={`flex flex-col gap-3 rounded-xl border p-5 sm:flex-row sm:items-center sm:p-6 ${tone.panel}`}
    >
      <Icon width="36" height="36" className={`shrink-0 ${tone.icon}`} />
      <div role="status" aria-live="polite" className="min-w-0 flex-1">
        <h2 id="status-banner-title" className="text-xl font-bold sm:text-2xl">
          {banner.title}
        </h2>
        {detail && <p className="mt-1 text-sm opacity-90">{detail}</p>}
        {database && stats && (
          <p className="mt-1 text-sm opacity-90" data-testid="banner-database">
            {database.connected
              ? `Database connected · ${stats.inUse} of ${stats.maxConnections} connections in use (${stats.utilization}% utilization), ${stats.idle} idle`
              : "Database not connected"}
          </p>
        )}
      </div>
      {view.health?.time ? (
        <p className="text-sm opacity-90 sm:text-right">
          Last checked <time dateTime={view.health.time}>{formatClock(view.health.time)}</time>
        </p>
      ) : null}
    </section>
  );
}
