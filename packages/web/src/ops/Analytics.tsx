import type { OpsAnalytics } from "@fintech/core/ops/model";
import { cardClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import { breakClassText, minutesSummary, railTotals, sparklinePoints, successRateText, volumeText } from "./format";

const SPARK_WIDTH = 240;
const SPARK_HEIGHT = 48;

function Tile({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  return (
    <div className={`${cardClass} min-w-0 !p-4`}>
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 text-xl font-bold tabular-nums text-slate-900 dark:text-white">{value}</dd>
      {children && <dd className="mt-2 text-xs text-slate-600 dark:text-slate-300">{children}</dd>}
    </div>
  );
}

/** The journals-per-minute line; the picture is labelled with what it shows, in words. */
function Sparkline({ perMinute }: { perMinute: OpsAnalytics["journalsPerMinute"] }) {
  return (
    <svg
      role="img"
      aria-label={`Journals per minute: ${minutesSummary(perMinute)}`}
      viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
      className="h-12 w-full text-indigo-600 dark:text-indigo-300"
      preserveAspectRatio="none"
    >
      <polyline
        points={sparklinePoints(perMinute.counts, SPARK_WIDTH, SPARK_HEIGHT)}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

/** The analytics tiles: journals per minute, payment attempts and their success, open breaks. */
export function OpsTiles({ analytics }: { analytics: OpsAnalytics }) {
  const totals = railTotals(analytics.rails);
  const journals = analytics.journalsPerMinute.counts.reduce((sum, count) => sum + count, 0);
  return (
    <dl aria-label="Analytics" className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      <Tile label="Journals, last hour" value={`${journals}${analytics.journalsPerMinute.capped ? "+" : ""}`}>
        <Sparkline perMinute={analytics.journalsPerMinute} />
        <span className="mt-1 block">Per minute, oldest on the left</span>
      </Tile>
      <Tile label={`Payment attempts, ${analytics.windowHours} h`} value={String(totals.attempts)}>
        Success rate {successRateText(totals.successRate)}
      </Tile>
      <Tile label="Open breaks" value={String(analytics.openBreaks.total)}>
        {analytics.openBreaks.byClass.length === 0
          ? "None open"
          : analytics.openBreaks.byClass.map((entry) => `${entry.count} ${breakClassText(entry.class)}`).join(" · ")}
      </Tile>
    </dl>
  );
}

/** Volume and success rate by rail. */
export function RailsTable({ analytics }: { analytics: OpsAnalytics }) {
  return (
    <section aria-labelledby="ops-rails-heading" className={`${cardClass} min-w-0`}>
      <h2 id="ops-rails-heading" className={sectionTitleClass}>
        Rails, last {analytics.windowHours} hours
      </h2>
      <p className={`mt-1 ${subtleTextClass}`}>Attempts, success rate and settled volume by rail.</p>
      <div className="-mx-1 mt-4 overflow-x-auto px-1" role="region" aria-label="Rails table" tabIndex={0}>
        <table className="w-full min-w-[32rem] border-collapse">
          <caption className="sr-only">Volume and success rate by rail</caption>
          <thead className="border-b border-slate-200 dark:border-slate-700">
            <tr>
              {["Rail", "Attempts", "Success rate", "Volume"].map((title) => (
                <th
                  key={title}
                  scope="col"
                  className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300"
                >
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {analytics.rails.map((rail) => (
              <tr key={rail.railId} data-rail-id={rail.railId}>
                <th scope="row" className="px-3 py-2 text-left text-sm font-medium text-slate-900 dark:text-white">
                  {rail.name}
                </th>
                <td className="px-3 py-2 text-sm tabular-nums text-slate-800 dark:text-slate-100">{rail.attempts}</td>
                <td className="px-3 py-2 text-sm text-slate-800 dark:text-slate-100">
                  <span className="flex items-center gap-2">
                    <span
                      aria-hidden="true"
                      className="h-2 w-20 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
                    >
                      <span
                        className="block h-full rounded-full bg-emerald-600 dark:bg-emerald-400"
                        style={{ width: `${Math.round((rail.successRate ?? 0) * 100)}%` }}
                      />
                    </span>
                    <span className="tabular-nums">{successRateText(rail.successRate)}</span>
                  </span>
                </td>
                <td className="px-3 py-2 text-sm tabular-nums text-slate-800 dark:text-slate-100">
                  {volumeText(rail.volume)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
