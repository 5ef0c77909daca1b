import { FILE_STATUS_LABELS, type FileStatus } from "@fintech/core/reconciliation/model";
import { BAND_FILL, BAND_TEXT, varianceBand, varianceBarPercent, varianceText } from "../rails/format";

/**
 * A file's variance as text and bar in its colour band (docs/product/payment-rails.md#colour-bands):
 * the text carries the meaning, the bar (ten times the variance wide, full from 1 %) is decoration.
 */
export function VarianceBar({ variance }: { variance: number }) {
  const band = varianceBand(variance);
  return (
    <div className="min-w-24">
      <span className={`text-sm font-semibold tabular-nums ${BAND_TEXT[band]}`}>{varianceText(variance)}</span>
      <div aria-hidden="true" className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
        <div
          data-variance-bar
          className={`h-full rounded-full ${BAND_FILL[band]}`}
          style={{ width: `${varianceBarPercent(variance)}%` }}
        />
      </div>
    </div>
  );
}

const STATUS_CHIP: Record<FileStatus, string> = {
  success: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  error: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** Auto-Reconciled, Warning or Requires Review, in the status's colour. */
export function FileStatusChip({ status }: { status: FileStatus }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CHIP[status]}`}
    >
      {FILE_STATUS_LABELS[status]}
    </span>
  );
}
