import { useHealth } from "../../api/hooks";
import { healthPanelModel, type HealthTone } from "../format";
import { cardClass } from "../ui";

const TONE: Record<HealthTone, { dot: string; pill: string }> = {
  loading: { dot: "bg-slate-400", pill: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200" },
  ok: { dot: "bg-emerald-500", pill: "bg-emerald-100 text-emerald-900 dark:bg-emerald-400/15 dark:text-emerald-200" },
  degraded: { dot: "bg-amber-500", pill: "bg-amber-100 text-amber-900 dark:bg-amber-400/15 dark:text-amber-200" },
  error: { dot: "bg-red-500", pill: "bg-red-100 text-red-900 dark:bg-red-400/15 dark:text-red-200" },
};

function formatTime(iso: string): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleTimeString("en-US");
}

/**
 * The live part of the analytics showcase: GET /health through useHealth (refreshed every 30 s,
 * docs/product/marketing-site.md#analytics-showcase). Every figure has a reserved slot, so loading
 * and refreshing move nothing.
 */
export function HealthPanel() {
  const view = useHealth();
  const model = healthPanelModel(view);
  const tone = TONE[model.tone];
  const stats = model.stats;
  const checkedAt = view.health && !view.error ? formatTime(view.health.time) : null;
  const figure = (value: number | undefined, suffix = "") => (value === undefined ? "—" : `${value}${suffix}`);
  const rows: [string, string][] = [
    ["Open connections", figure(stats?.openConnections)],
    ["In use", figure(stats?.inUse)],
    ["Idle", figure(stats?.idle)],
    ["Max connections", figure(stats?.maxConnections)],
  ];

  return (
    <section
      aria-labelledby="health-title"
      className={`${cardClass} flex flex-col p-6`}
      data-testid="health-panel"
      data-tone={model.tone}
    >
      <div className="flex items-center justify-between gap-3">
        <h3 id="health-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          Backend &amp; database health
        </h3>
        <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-400/15 dark:text-emerald-200">
          <span className="h-1.5 w-1.5 rounded-full bg-emerald-600 dark:bg-emerald-400" aria-hidden="true" />
          Live
        </span>
      </div>

      <div role="status" aria-live="polite" className="mt-4 min-h-[3.5rem]">
        <p className="flex items-center gap-2">
          <span className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold ${tone.pill}`}>
            <span className={`h-2 w-2 rounded-full ${tone.dot}`} aria-hidden="true" />
            <span className="sr-only">Status: </span>
            <span data-testid="health-status" data-status={model.status}>
              {model.statusLabel}
            </span>
          </span>
        </p>
        <p
          className="mt-2 truncate text-sm text-slate-700 dark:text-slate-300"
          data-testid="health-message"
          title={model.message}
        >
          {model.message}
        </p>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div className="col-span-2 flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
          <dt className="text-slate-600 dark:text-slate-300">Database</dt>
          <dd
            data-testid="health-database"
            className={`font-semibold ${model.connected ? "text-emerald-700 dark:text-emerald-300" : "text-slate-900 dark:text-white"}`}
          >
            {model.tone === "loading" ? "—" : model.connected ? "Connected" : "Disconnected"}
          </dd>
        </div>
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
            <dt className="text-xs text-slate-600 dark:text-slate-400">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900 dark:text-white">{value}</dd>
          </div>
        ))}
        {/* A dl holds only dt/dd groups, so the meter is a (hidden) dd of the group, not a div. */}
        <div className="col-span-2 flex flex-wrap items-center justify-between rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
          <dt className="text-xs text-slate-600 dark:text-slate-400">Utilization</dt>
          <dd className="font-semibold tabular-nums text-slate-900 dark:text-white" data-testid="health-utilization">
            {figure(stats?.utilization, "%")}
          </dd>
          <dd
            className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
            aria-hidden="true"
          >
            <span
              className="block h-full rounded-full bg-indigo-600 dark:bg-indigo-400"
              style={{ width: `${Math.min(100, stats?.utilization ?? 0)}%` }}
            />
          </dd>
        </div>
      </dl>

      <p className="mt-4 min-h-[1.25rem] text-xs text-slate-600 dark:text-slate-400">
        {model.detail ? (
          <span className="text-red-700 dark:text-red-300">{model.detail}</span>
        ) : checkedAt ? (
          `Checked at ${checkedAt} · refreshes every 30 s`
        ) : (
          "Refreshes every 30 s"
        )}
      </p>
    </section>
  );
}
