import type { UseQueryResult } from "@tanstack/react-query";
import type { RailMetrics } from "../api/rails";
import { subtleTextClass } from "../ledger/ui";
import { ErrorRateBar, TimeBar } from "./Bars";
import { Loaded } from "./Loaded";
import { Panel } from "./Panel";
import { performanceBars } from "./traffic";

/** Per rail over the metrics' window: attempts, the error-rate bar and the time bar from real attempts. */
export function RailPerformancePanel({ metrics }: { metrics: UseQueryResult<RailMetrics> }) {
  return (
    <Panel
      title="Rail performance"
      description="Error rate and average time per rail from real payment attempts over the last 30 days (time bar: out of 3 s)."
    >
      <Loaded query={metrics} what="rail performance">
        {(data) => (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.perRail.map((rail) => {
              const bars = performanceBars(rail);
              return (
                <li
                  key={rail.railId}
                  data-rail={rail.railId}
                  className="min-w-0 rounded-xl border border-slate-200 p-3 text-xs dark:border-slate-700"
                >
                  <p className="flex items-baseline justify-between gap-2 text-sm">
                    <span className="font-semibold text-slate-900 dark:text-white">{rail.rail}</span>
                    <span className="tabular-nums text-slate-700 dark:text-slate-200">
                      {rail.transactions} {rail.transactions === 1 ? "attempt" : "attempts"}
                    </span>
                  </p>
                  {bars ? (
                    <div className="mt-2 space-y-2">
                      <ErrorRateBar errorRate={bars.errorRate} />
                      <TimeBar seconds={bars.avgSeconds} />
                    </div>
                  ) : (
                    <p className={`mt-2 ${subtleTextClass}`}>No attempts in the last 30 days.</p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Loaded>
    </Panel>
  );
}
