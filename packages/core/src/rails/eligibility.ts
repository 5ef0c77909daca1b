import { toDecimalString, type Currency } from "../money/model";
import type { Rail } from "./model";
import { convertMinor } from "./reference-rates";
import { coversCountry, coverageText } from "./regions";

/**
 * What a rail can carry (currencies, countries, amount limits) and when the money arrives.
 * Browser-safe (the rails console imports it): zod, money/model and the rails models only.
 */

/** What eligibility needs of a rail (a stored Rail has it all). */
export type RailCoverage = Pick<
  Rail,
  "name" | "currencies" | "countries" | "feeCurrency" | "minAmountMinor" | "maxAmountMinor"
>;

/** A payment as eligibility sees it: the amount in its currency, and where it goes (regions.ts destinationCountry). */
export interface CarriedPayment {
  amountMinor: number;
  currency: Currency;
  country: string;
}

/**
 * Why `rail` cannot carry the payment, in words a payer reads, or null when it can: the currency
 * (the payout currency: what arrives), the destination country, then the amount limits, which are
 * in the rail's fee currency and compared with the amount converted at the reference rate.
 */
export function ineligibility(rail: RailCoverage, payment: CarriedPayment): string | null {
  if (!rail.currencies.includes(payment.currency)) return `${rail.name} carries ${rail.currencies.join(", ")} only`;
  if (!coversCountry(rail.countries, payment.country))
    return `${rail.name} does not reach ${payment.country} (it covers ${coverageText(rail.countries)})`;
  const inFeeCurrency = convertMinor(payment.amountMinor, payment.currency, rail.feeCurrency);
  const converted =
    rail.feeCurrency === payment.currency
      ? ""
      : ` (${toDecimalString(payment.amountMinor, payment.currency)} ${payment.currency} is about ${toDecimalString(inFeeCurrency, rail.feeCurrency)} ${rail.feeCurrency})`;
  if (inFeeCurrency < rail.minAmountMinor)
    return `${rail.name} carries at least ${toDecimalString(rail.minAmountMinor, rail.feeCurrency)} ${rail.feeCurrency} per payment${converted}`;
  if (rail.maxAmountMinor !== null && inFeeCurrency > rail.maxAmountMinor)
    return `${rail.name} carries at most ${toDecimalString(rail.maxAmountMinor, rail.feeCurrency)} ${rail.feeCurrency} per payment${converted}`;
  return null;
}

/** A settlement time as a payer reads it: "within a minute", "within 4 hours", "within 1 business day". */
export function arrivalEstimate(settlementSeconds: number): string {
  if (settlementSeconds <= 60) return "within a minute";
  if (settlementSeconds < 3_600) return `within ${Math.ceil(settlementSeconds / 60)} minutes`;
  if (settlementSeconds < 86_400) {
    const hours = Math.ceil(settlementSeconds / 3_600);
    return `within ${hours} hour${hours === 1 ? "" : "s"}`;
  }
  const days = Math.ceil(settlementSeconds / 86_400);
  return `within ${days} business day${days === 1 ? "" : "s"}`;
}
