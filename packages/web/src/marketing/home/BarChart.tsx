import { useMemo } from "react";
import { barHeights } from "../chart";
import { CHART_SEED, chartPeriods } from "../marketingContent";
import { cardClass, SampleBadge } from "../ui";

const HOURS = ["00:00", "06:00", "12:00", "18:00", "23:00"];

/**
 * docs/product/marketing-site.md#analytics-showcase: a 24-bar chart of sample volumes (seeded, so
 * it is stable) with 24H/7D/30D buttons that do nothing: they are marked aria-disabled and say
 * 'Coming soon'.
 */
export function BarChart() {
  const bars = useMemo(() => barHeights(CHART_SEED), []);
  const peak = Math.max(...bars);
  const low = Math.min(...bars);
  return (
    <section aria-labelledby="chart-title" className={`${cardClass} p-6`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <h3 id="chart-title" className="text-lg font-semibold text-slate-900 dark:text-white">
            Transaction volume
          </h3>
          <SampleBadge />
        </div>
        <div
          role="group"
          aria-label="Chart period (coming soon)"
          className="flex rounded-lg bg-slate-100 p-1 dark:bg-slate-800"
        >
          {chartPeriods.map((period, index) => (
            <button
              key={period}
              type="button"
              aria-disabled="true"
              aria-pressed={index === 0}
              title="Coming soon"
              onClick={(event) => event.preventDefault()}
              className={`cursor-not-allowed rounded-md px-3 py-1 text-xs font-semibold ${
                index === 0
                  ? "bg-white text-slate-900 shadow-sm dark:bg-slate-700 dark:text-white"
                  : "text-slate-600 dark:text-slate-300"
              }`}
            >
              {period}
            </button>
          ))}
        </div>
      </div>
      <div
        role="img"
        aria-label={`Sample hourly transaction volume for the last 24 hours, between ${low}% and ${peak}% of capacity`}
        className="mt-6 flex h-48 items-end gap-1 sm:gap-1.5"
        data-testid="bar-chart"
      >
        {bars.map((height, index) => (
          <div
            key={index}
            data-bar
            className={`flex-1 rounded-t ${height === peak ? "bg-indigo-600 dark:bg-indigo-400" : "bg-indigo-300 dark:bg-indigo-500/60"}`}
            style={{ height: `${height}%` }}
          />
        ))}
      </div>
      <div className="mt-2 flex justify-between text-xs text-slate-600 dark:text-slate-400" aria-hidden="true">
        {HOURS.map((hour) => (
          <span key={hour}>{hour}</span>
        ))}
      </div>
    </section>
  );
}
