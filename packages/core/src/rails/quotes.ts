import { toDecimalString, type Currency } from "../money/model";
import { costBand, costPercent, type CostBand } from "./cost-bands";
import { railCostMinor, type CostBreakdownMinor, type RailFees } from "./cost";
import { ineligibility, type RailCoverage } from "./eligibility";
import type { RailStatus } from "./model";
import { convertMinor } from "./reference-rates";
import { CURRENCY_HOME_COUNTRY } from "./regions";

/**
 * Quotes across rails (docs/product/payment-rails.md#cost-simulator): every active rail's cost for
 * an amount, which can carry it, and the Best Option. Browser-safe (the rails console imports it):
 * zod, money/model and the rails models only.
 */

export interface QuoteRail extends RailFees, RailCoverage {
  id: string;
  status: RailStatus;
  avgProcessingTime: number;
  successRate: number;
  settlementSeconds: number;
  feeCurrency: Currency;
}

/** A rail's cost result (docs/product/payment-rails.md#cost-simulator), with minor units beside the decimal strings. */
export interface RailCostResult {
  railId: string;
  name: string;
  totalCost: string;
  totalCostMinor: number;
  breakdown: { fixedFee: string; fxSpread: string; networkFee: string };
  breakdownMinor: CostBreakdownMinor;
  /** The fixed fee in the rail's own currency and the rate it was converted at (null: not converted). */
  fixedFeeOriginal: { amount: string; currency: Currency; rate: string | null };
  /** The cheapest ELIGIBLE rail (exactly one when any rail is eligible). */
  isOptimal: boolean;
  eligible: boolean;
  /** Why the rail cannot carry this payment; null when it can. */
  ineligibleReason: string | null;
  /** The rail's average processing time, seconds. */
  estimatedTime: number;
  settlementSeconds: number;
  costPercent: number;
  costBand: CostBand;
}

export interface QuoteOptions {
  /** What arrives; the amount's currency by default (no conversion: no FX spread). */
  payoutCurrency?: Currency | undefined;
  /** Where it goes; the payout currency's home country by default (regions.ts). */
  country?: string | undefined;
}

/**
 * Every ACTIVE rail's cost for the amount, in the given rails' order, each marked eligible or not
 * (with the reason). Exactly one ELIGIBLE rail is `isOptimal`
 * (docs/product/payment-rails.md#cost-simulator "Best Option"): the lowest total; ties (equal
 * totals in minor units) go to the faster rail (lower average time), then the higher success rate,
 * then the rail id alphabetically. A rail that cannot carry the payment is never the Best Option,
 * however cheap. Costs only when the amount is above 0
 * (docs/product/payment-rails.md#cost-simulator): an amount of 0 gives no results.
 */
export function quoteRails(
  rails: readonly QuoteRail[],
  amountMinor: number,
  currency: Currency,
  options: QuoteOptions = {},
): RailCostResult[] {
  if (amountMinor <= 0) return [];
  const payoutCurrency = options.payoutCurrency ?? currency;
  const country = options.country ?? CURRENCY_HOME_COUNTRY[payoutCurrency];
  const active = rails.filter((rail) => rail.status === "active");
  const results: RailCostResult[] = active.map((rail) => {
    const { totalMinor, breakdownMinor, fixedFeeOriginal } = railCostMinor(rail, amountMinor, currency, payoutCurrency);
    const reason = ineligibility(rail, {
      amountMinor: convertMinor(amountMinor, currency, payoutCurrency),
      currency: payoutCurrency,
      country,
    });
    return {
      railId: rail.id,
      name: rail.name,
      totalCost: toDecimalString(totalMinor, currency),
      totalCostMinor: totalMinor,
      breakdown: {
        fixedFee: toDecimalString(breakdownMinor.fixedFee, currency),
        fxSpread: toDecimalString(breakdownMinor.fxSpread, currency),
        networkFee: toDecimalString(breakdownMinor.networkFee, currency),
      },
      breakdownMinor,
      fixedFeeOriginal: {
        amount: toDecimalString(fixedFeeOriginal.minor, fixedFeeOriginal.currency),
        currency: fixedFeeOriginal.currency,
        rate: fixedFeeOriginal.rate,
      },
      isOptimal: false,
      eligible: reason === null,
      ineligibleReason: reason,
      estimatedTime: rail.avgProcessingTime,
      settlementSeconds: rail.settlementSeconds,
      costPercent: costPercent(totalMinor, amountMinor) ?? 0,
      costBand: costBand(totalMinor, amountMinor) ?? "green",
    };
  });
  const best = optimalIndex(active, results);
  if (best >= 0) results[best]!.isOptimal = true;
  return results;
}

function optimalIndex(rails: readonly QuoteRail[], results: readonly RailCostResult[]): number {
  let best = -1;
  results.forEach((result, index) => {
    if (!result.eligible) return;
    if (best < 0) {
      best = index;
      return;
    }
    const a = result;
    const b = results[best]!;
    const railA = rails[index]!;
    const railB = rails[best]!;
    const better =
      a.totalCostMinor !== b.totalCostMinor
        ? a.totalCostMinor < b.totalCostMinor
        : railA.avgProcessingTime !== railB.avgProcessingTime
          ? railA.avgProcessingTime < railB.avgProcessingTime
          : railA.successRate !== railB.successRate
            ? railA.successRate > railB.successRate
            : railA.id < railB.id;
    if (better) best = index;
  });
  return best;
}

/**
 * The simulator's savings: the Best Option against a baseline, the default rail (the first
 * eligible rail in console order, what a fixed priority order would use). The Best Option is the
 * cheapest eligible rail and the baseline is eligible, so the saving is never negative; with no
 * eligible rail there is neither.
 */
export interface QuoteSavings {
  baselineRailId: string;
  baselineName: string;
  optimalRailId: string;
  savingMinor: number;
}

export function quoteSavings(results: readonly RailCostResult[]): QuoteSavings | null {
  const baseline = results.find((result) => result.eligible);
  const optimal = results.find((result) => result.isOptimal);
  if (!baseline || !optimal) return null;
  return {
    baselineRailId: baseline.railId,
    baselineName: baseline.name,
    optimalRailId: optimal.railId,
    savingMinor: baseline.totalCostMinor - optimal.totalCostMinor,
  };
}
