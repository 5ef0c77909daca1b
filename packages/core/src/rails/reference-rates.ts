import { minorUnits, type Currency } from "../money/model";

/**
 * THE REFERENCE RATES: what a rail's fee in its own currency, and its amount limits, come to in
 * the payment's currency. Data, not market prices: the platform holds no FX position, so these
 * only price fees and compare amounts with limits; every screen that converts states the rate it
 * used (rateText). Each rate is the units of the currency that one US dollar buys, in millionths,
 * so conversion is exact integer arithmetic. To change a rate, edit this list (and its date).
 */
export const REFERENCE_RATES_AS_OF = "2026-01-15";

export const REFERENCE_RATES_PER_USD_MICRO: Readonly<Record<Currency, number>> = {
  USD: 1_000_000,
  EUR: 920_000,
  GBP: 790_000,
  JPY: 150_000_000,
  INR: 83_000_000,
};

/** Half-up division of non-negative BigInts. */
const halfUp = (numerator: bigint, denominator: bigint): bigint => (2n * numerator + denominator) / (2n * denominator);

/** `minor` of `from` in `to`'s minor units at the reference rate, rounded half-up (same currency: unchanged). */
export function convertMinor(minor: number, from: Currency, to: Currency): number {
  if (!Number.isSafeInteger(minor) || minor < 0)
    throw new RangeError("convertMinor: minor must be a non-negative safe integer");
  if (from === to) return minor;
  const numerator = BigInt(minor) * 10n ** BigInt(minorUnits(to)) * BigInt(REFERENCE_RATES_PER_USD_MICRO[to]);
  const denominator = 10n ** BigInt(minorUnits(from)) * BigInt(REFERENCE_RATES_PER_USD_MICRO[from]);
  return Number(halfUp(numerator, denominator));
}

/** "1 EUR = 1.0870 USD" (four decimals; "1 USD = 1 USD" never shown: null for one currency). */
export function rateText(from: Currency, to: Currency): string | null {
  if (from === to) return null;
  const tenThousandths = halfUp(
    BigInt(REFERENCE_RATES_PER_USD_MICRO[to]) * 10_000n,
    BigInt(REFERENCE_RATES_PER_USD_MICRO[from]),
  );
  const digits = tenThousandths.toString().padStart(5, "0");
  return `1 ${from} = ${digits.slice(0, -4)}.${digits.slice(-4)} ${to}`;
}
