import type { CostBand } from "@fintech/core/rails/cost-bands";
import { fileStatusOf, type FileStatus } from "@fintech/core/reconciliation/model";

/** Pure presentation rules of the rails console (docs/product/payment-rails.md#colour-bands). */

export const NO_PAYMENTS_YET =
  "No payments yet: routing decisions, savings and throughput appear here once payments run";
export const SETTLEMENT_EMPTY = "No settlement file has been reconciled yet";
/** What a signed-in user who is not an administrator reads instead of the files (they are admin data). */
export const SETTLEMENT_ADMINS_ONLY =
  "Settlement files and their variances are shown to administrators, who reconcile them on the reconciliation console.";

/** The monitor's tabs: the ranges GET /rails/throughput takes. */
export { THROUGHPUT_RANGE_NAMES as THROUGHPUT_RANGES, type ThroughputRange } from "@fintech/core/rails/metrics-model";

/**
 * The colour bands of docs/product/payment-rails.md#colour-bands (cost percentage, error rate):
 * core/rails/model decides them.
 */
export type Band = CostBand;

/** The time bar's fill: average time out of 3 s, as a percentage clamped to 0..100. */
export const TIME_BAR_SECONDS = 3;
export function timeBarPercent(avgSeconds: number): number {
  if (!Number.isFinite(avgSeconds) || avgSeconds <= 0) return 0;
  return Math.min(100, (avgSeconds / TIME_BAR_SECONDS) * 100);
}

/** The error bar's fill: the error rate itself (percent), clamped to 0..100. */
export function errorBarPercent(errorRatePercent: number): number {
  if (!Number.isFinite(errorRatePercent) || errorRatePercent <= 0) return 0;
  return Math.min(100, errorRatePercent);
}

/** Text colours with AA contrast in both themes, and bar fills, per band. */
export const BAND_TEXT: Record<Band, string> = {
  green: "text-emerald-700 dark:text-emerald-300",
  yellow: "text-amber-800 dark:text-amber-300",
  red: "text-red-700 dark:text-red-300",
};
export const BAND_FILL: Record<Band, string> = {
  green: "bg-emerald-600 dark:bg-emerald-400",
  yellow: "bg-amber-500 dark:bg-amber-300",
  red: "bg-red-600 dark:bg-red-400",
};

/**
 * A fraction shown as a percentage with no float noise: 0.01 -> "1%", 0.005 -> "0.5%",
 * 0.00125 -> "0.125%". Up to `digits` decimals, trailing zeros dropped.
 */
export function fractionAsPercent(fraction: number, digits = 3): string {
  return `${percentText(fraction * 100, digits)}%`;
}

/** A number of percent, rounded to `digits` decimals, trailing zeros dropped: 98.5 -> "98.5". */
export function percentText(percent: number, digits = 2): string {
  if (!Number.isFinite(percent)) return "0";
  const rounded = Number(percent.toFixed(digits));
  return String(rounded === 0 ? 0 : rounded);
}

/** Average time in seconds: 1.2 -> "1.2 s", 0.1 -> "0.1 s". */
export function secondsText(seconds: number): string {
  return `${percentText(seconds, 2)} s`;
}

/** How each stored field of a rail change reads (stored units: fractions, USD strings, percent). */
const CHANGE_FIELDS: Record<string, { label: string; show: (value: unknown) => string }> = {
  name: { label: "Name", show: String },
  type: { label: "Type", show: String },
  status: { label: "Status", show: String },
  fixedFee: { label: "Fixed fee", show: (value) => `$${String(value)}` },
  fxSpread: {
    label: "FX spread",
    show: (value) => (typeof value === "number" ? fractionAsPercent(value) : String(value)),
  },
  slaTarget: {
    label: "SLA target",
    show: (value) => (typeof value === "number" ? `${percentText(value)}%` : String(value)),
  },
  errorInjection: {
    label: "Error injection",
    show: (value) => (typeof value === "number" ? fractionAsPercent(value, 1) : String(value)),
  },
};

/**
 * A recorded change as lines a person reads: "FX spread 5% → 4.5%". Fields the form does not show
 * (fixedFeeMinor repeats fixedFee in cents) are left out; unknown fields keep their own name.
 */
export function changeLines(change: { before: Record<string, unknown>; after: Record<string, unknown> }): string[] {
  return Object.keys(change.after)
    .filter((field) => field !== "fixedFeeMinor")
    .map((field) => {
      const known = CHANGE_FIELDS[field];
      const show = known?.show ?? ((value: unknown) => String(value));
      return `${known?.label ?? field} ${show(change.before[field])} → ${show(change.after[field])}`;
    });
}

/** A file's colour band follows its status: Auto-Reconciled green, the warning band yellow, Requires Review red. */
export const FILE_STATUS_BAND: Record<FileStatus, Band> = { success: "green", warning: "yellow", error: "red" };

/**
 * docs/product/payment-rails.md#colour-bands: a settlement variance (percent) is green under 0.1,
 * yellow under 1, red otherwise: the band of the status core's fileStatusOf gives it.
 */
export function varianceBand(variancePercent: number): Band {
  return FILE_STATUS_BAND[fileStatusOf(Number.isFinite(variancePercent) ? Math.max(0, variancePercent) : 100)];
}

/** The variance bar's fill: ten times the variance (percent), clamped to 0..100, so 1 % and above is full. */
export function varianceBarPercent(variancePercent: number): number {
  if (!Number.isFinite(variancePercent) || variancePercent <= 0) return 0;
  return Math.min(100, variancePercent * 10);
}

/** A variance as read beside its bar: 0.05 -> "0.05%", 0.12345 -> "0.123%". */
export function varianceText(variancePercent: number): string {
  return `${percentText(variancePercent, 3)}%`;
}
