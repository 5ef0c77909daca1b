import type { Currency } from "../money/model";
import { NETWORK_FEE_PARTS, SPREAD_SCALE } from "./model";
import { convertMinor, rateText } from "./reference-rates";

/**
 * THE cost formula of a payment over a rail (docs/product/payment-rails.md#cost-simulator).
 * Browser-safe (the rails console imports it): zod, money/model and the rails models only.
 */

/**
 * Half-up division of non-negative integers, exact at any size (BigInt): 5/2 -> 3, 4/3 -> 1.
 * Costs are never negative, so "half-up" and "half away from zero" agree.
 */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** A rail's fee parameters: all the formula needs. */
export interface RailFees {
  fixedFeeMinor: number;
  fxSpread: number;
  /** The fixed fee's currency; absent: USD (a rail stored without a fee currency states its fee in USD). */
  feeCurrency?: Currency | undefined;
}

/** An FX spread fraction as whole 1/100,000 parts (0.005 -> 500). */
export const spreadParts = (fxSpread: number): number => Math.round(fxSpread * SPREAD_SCALE);

export interface CostBreakdownMinor {
  fixedFee: number;
  fxSpread: number;
  networkFee: number;
}

export interface RailCostMinor {
  totalMinor: number;
  breakdownMinor: CostBreakdownMinor;
  /** The fixed fee in the rail's own currency, and the rate it was converted at (null: same currency). */
  fixedFeeOriginal: { minor: number; currency: Currency; rate: string | null };
}

/**
 * THE cost of sending `amountMinor` of `currency` over a rail
 * (docs/product/payment-rails.md#cost-simulator), paid out in `payoutCurrency` (the same by
 * default: every payment on this platform arrives in the currency it was sent in):
 *
 *   total = fixed fee (in the amount's currency) + FX spread × amount (only when the payout
 *           currency differs) + 0.1 % × amount
 *
 * - The fixed fee is stated in the rail's fee currency and converted to the amount's currency at
 *   the reference rate (reference-rates.ts; the rate is returned so every screen can state it).
 * - The FX spread is the price of a conversion: a payment that is not converted pays none.
 * - Each part is rounded half-up to the currency's minor unit (JPY: whole yen) and the total is
 *   their sum, so the breakdown always adds up to the total shown.
 */
export function railCostMinor(
  rail: RailFees,
  amountMinor: number,
  currency: Currency,
  payoutCurrency: Currency = currency,
): RailCostMinor {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0)
    throw new RangeError("amountMinor must be a non-negative safe integer");
  const amount = BigInt(amountMinor);
  const feeCurrency = rail.feeCurrency ?? "USD";
  const fixedFee = convertMinor(rail.fixedFeeMinor, feeCurrency, currency);
  const fxSpread =
    payoutCurrency === currency
      ? 0
      : Number(divideHalfUp(amount * BigInt(spreadParts(rail.fxSpread)), BigInt(SPREAD_SCALE)));
  const networkFee = Number(divideHalfUp(amount * BigInt(NETWORK_FEE_PARTS), BigInt(SPREAD_SCALE)));
  return {
    totalMinor: fixedFee + fxSpread + networkFee,
    breakdownMinor: { fixedFee, fxSpread, networkFee },
    fixedFeeOriginal: { minor: rail.fixedFeeMinor, currency: feeCurrency, rate: rateText(feeCurrency, currency) },
  };
}
