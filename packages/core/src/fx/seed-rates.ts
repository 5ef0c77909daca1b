import { REFERENCE_RATES_AS_OF, REFERENCE_RATES_PER_USD_MICRO } from "../rails/reference-rates";
import { baseOf, DEFAULT_SPREAD, type FX_PAIRS, formatScaled, quoteOf, RATE_DECIMALS, type PairRate } from "./model";

/**
 * THE SEED RATES: what a pair's rate is before an admin sets or imports one (a fresh install).
 * Derived from the rails' reference rates (rails/reference-rates.ts, per USD) so the two never
 * disagree on a new install; every pair starts with the default spread. Not stored: a pair's
 * first set or import writes its first history item.
 */
export function seedRate(pair: (typeof FX_PAIRS)[number]): PairRate {
  const scale = 10n ** BigInt(RATE_DECIMALS);
  const base = BigInt(REFERENCE_RATES_PER_USD_MICRO[baseOf(pair)]);
  const quote = BigInt(REFERENCE_RATES_PER_USD_MICRO[quoteOf(pair)]);
  const mid = (2n * quote * scale + base) / (2n * base);
  return {
    pair,
    mid: formatScaled(mid, RATE_DECIMALS),
    spread: DEFAULT_SPREAD,
    as_of: REFERENCE_RATES_AS_OF,
    updated_at: `${REFERENCE_RATES_AS_OF}T00:00:00.000Z`,
    source: "seed",
  };
}
