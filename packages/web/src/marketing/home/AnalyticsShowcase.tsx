import { formatMoney } from "../../lib/money";
import { analyticsIntro, analyticsTiles, sampleTransactions, type SampleStatus } from "../marketingContent";
import { cardClass, containerClass, SampleBadge, SectionHeading, sectionClass } from "../ui";
import { BarChart } from "./BarChart";
import { HealthPanel } from "./HealthPanel";
import { SECTION_IDS } from "./sectionIds";

const STATUS_LABEL: Record<SampleStatus, string> = { completed: "Completed", pending: "Pending", failed: "Failed" };

const STATUS_CLASS: Record<SampleStatus, string> = {
  completed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-400/15 dark:text-emerald-200",
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-400/15 dark:text-amber-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-400/15 dark:text-red-200",
};

function RecentTransactions() {
  return (
    <section aria-labelledby="recent-title" className={`${cardClass} p-6`}>
      <div className="flex items-center gap-2">
        <h3 id="recent-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          Recent transactions
        </h3>
        <SampleBadge />
      </div>
      <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
        {sampleTransactions.map((txn) => (
          <li key={txn.id} className="flex items-center justify-between gap-4 py-3">
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-900 dark:text-white">{txn.counterparty}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {txn.rail} · {txn.when}
              </p>
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1">
              <span
                className={`font-semibold tabular-nums ${txn.amountMinor < 0 ? "text-slate-900 dark:text-white" : "text-emerald-700 dark:text-emerald-300"}`}
              >
                {txn.amountMinor > 0 ? "+" : ""}
                {formatMoney(txn.amountMinor, txn.currency)}
              </span>
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[txn.status]}`}>
                {STATUS_LABEL[txn.status]}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * docs/product/marketing-site.md#analytics-showcase: static tiles, the live health panel, four
 * sample transactions and the chart.
 */
export function AnalyticsShowcase() {
  return (
    <section
      id={SECTION_IDS.analytics}
      aria-labelledby="analytics-title"
      className={`${sectionClass} bg-slate-50 py-20 sm:py-24 dark:bg-slate-900/40`}
    >
      <div className={containerClass}>
        <SectionHeading id="analytics-title" {...analyticsIntro} />
        <div className="mt-12 flex items-center justify-end">
          <SampleBadge />
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-4 lg:grid-cols-4">
          {analyticsTiles.map((tile) => (
            <div key={tile.label} className={`${cardClass} flex flex-col p-5`}>
              <dt className="text-sm text-slate-600 dark:text-slate-400">{tile.label}</dt>
              <dd className="order-first text-2xl font-bold tabular-nums text-slate-900 sm:text-3xl dark:text-white">
                {tile.value}
              </dd>
              <dd className="mt-1 text-xs font-medium text-emerald-700 dark:text-emerald-300">{tile.change}</dd>
            </div>
          ))}
        </dl>
        <div className="mt-6 grid gap-6 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            <BarChart />
            <RecentTransactions />
          </div>
          <HealthPanel />
        </div>
      </div>
    </section>
  );
}
