import { useId, useState } from "react";
import { NO_PAYMENTS_YET, THROUGHPUT_RANGES, type ThroughputRange } from "./format";
import { useRailThroughput } from "./hooks";
import { Loaded } from "./Loaded";
import { EmptyState, Panel } from "./Panel";
import { describeThroughput, railTotals } from "./throughput";
import { ThroughputChart } from "./ThroughputChart";

const RANGE_LABELS: Record<ThroughputRange, string> = {
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
  "30d": "30 days",
};

/** Throughput monitor: attempts per rail over the chosen range, as a chart and as a table. */
export function ThroughputMonitor() {
  const [range, setRange] = useState<ThroughputRange>("24h");
  const groupId = useId();
  const throughput = useRailThroughput(range);
  return (
    <Panel
      title="Throughput monitor"
      description="Payment attempts per rail over time (finished attempts: succeeded and failed)."
    >
      <div role="radiogroup" aria-labelledby={groupId} className="flex flex-wrap items-center gap-2">
        <span id={groupId} className="text-sm font-medium text-slate-700 dark:text-slate-200">
          Range
        </span>
        {THROUGHPUT_RANGES.map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={range === value}
            title={RANGE_LABELS[value]}
            onClick={() => setRange(value)}
            className={`rounded-lg border px-3 py-1 text-sm font-semibold ${
              range === value
                ? "border-indigo-600 bg-indigo-600 text-white dark:border-indigo-400 dark:bg-indigo-400 dark:text-slate-950"
                : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
            }`}
          >
            {value}
          </button>
        ))}
      </div>
      <div className="mt-4">
        <Loaded query={throughput} what="throughput">
          {(data) => {
            const totals = railTotals(data).filter((total) => total.transactions > 0);
            if (totals.length === 0)
              return (
                <EmptyState title={NO_PAYMENTS_YET}>
                  No payment attempts in the last {RANGE_LABELS[data.range]}.
                </EmptyState>
              );
            return (
              <>
                <ThroughputChart throughput={data} description={describeThroughput(data, RANGE_LABELS[data.range])} />
                <table className="mt-3 w-full table-fixed text-left text-sm">
                  <caption className="sr-only">Attempts per rail over the last {RANGE_LABELS[data.range]}</caption>
                  <thead className="text-xs text-slate-600 dark:text-slate-300">
                    <tr>
                      <th scope="col" className="py-1 font-medium">
                        Rail
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Attempts
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Succeeded
                      </th>
                      <th scope="col" className="py-1 text-right font-medium">
                        Failed
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200 tabular-nums text-slate-800 dark:divide-slate-800 dark:text-slate-100">
                    {totals.map((total) => (
                      <tr key={total.railId} data-rail={total.railId}>
                        <th scope="row" className="truncate py-1 font-semibold">
                          {total.rail}
                        </th>
                        <td className="py-1 text-right">{total.transactions}</td>
                        <td className="py-1 text-right">{total.succeeded}</td>
                        <td className="py-1 text-right">{total.failed}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            );
          }}
        </Loaded>
      </div>
    </Panel>
  );
}
