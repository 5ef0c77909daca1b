import type { DashboardStats, ReviewPeriod } from "../api/kycReview";
import { cardClass } from "../ledger/ui";
import { statCards, type StatCardView } from "./format";

const TONES: Record<StatCardView["tone"], string> = {
  good: "text-emerald-700 dark:text-emerald-300",
  bad: "text-red-700 dark:text-red-300",
  neutral: "text-slate-600 dark:text-slate-300",
};

/**
 * The four cards of docs/product/kyc.md#dashboard, each with its real change against the previous
 * period of the same length; zeros without a trend when the stats failed to load.
 */
export function StatCards({
  stats,
  period,
  loading,
}: {
  stats: DashboardStats | null;
  period: ReviewPeriod;
  loading: boolean;
}) {
  return (
    <dl aria-busy={loading} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {statCards(stats, period).map((card) => (
        <div key={card.label} className={`${cardClass} min-w-0 !p-4`}>
          <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{card.label}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums text-slate-900 dark:text-white">{card.value}</dd>
          <dd className={`mt-1 text-xs font-semibold ${TONES[card.tone]}`}>
            <span aria-hidden="true">
              {card.trend.text}
              <span className="font-normal text-slate-600 dark:text-slate-400"> vs previous</span>
            </span>
            <span className="sr-only">{card.trend.description}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
