import { divideHalfUp } from "./cost";

/**
 * Cost as a percentage of the amount and its colour band
 * (docs/product/payment-rails.md#colour-bands). Browser-safe (the rails console imports it): zod,
 * money/model and the rails models only.
 */

export const COST_BANDS = ["green", "yellow", "red"] as const;
export type CostBand = (typeof COST_BANDS)[number];

/** Cost as a percentage of the amount, rounded half-up to 3 decimals (null when the amount is 0). */
export function costPercent(totalMinor: number, amountMinor: number): number | null {
  if (amountMinor <= 0) return null;
  return Number(divideHalfUp(BigInt(totalMinor) * 100_000n, BigInt(amountMinor))) / 1000;
}

/**
 * The bands of docs/product/payment-rails.md#colour-bands: green under 1 %, yellow under 2 %, red
 * otherwise. Decided on the exact ratio of the integers, not on the rounded percentage: a cost of
 * 0.99996 % shows as 1 (3 decimals) but is green, since it is under 1 %.
 */
export function costBand(totalMinor: number, amountMinor: number): CostBand | null {
  if (amountMinor <= 0) return null;
  if (totalMinor * 100 < amountMinor) return "green";
  if (totalMinor * 50 < amountMinor) return "yellow";
  return "red";
}

/** The same bands for a percentage already computed (e.g. a value a chart shows). */
export function costBandOfPercent(percent: number): CostBand {
  return percent < 1 ? "green" : percent < 2 ? "yellow" : "red";
}

/**
 * Error-rate bar colour (docs/product/payment-rails.md#colour-bands): under 1 % green, under 5 %
 * yellow, otherwise red.
 */
export function errorRateBand(errorRatePercent: number): CostBand {
  return errorRatePercent < 1 ? "green" : errorRatePercent < 5 ? "yellow" : "red";
}
