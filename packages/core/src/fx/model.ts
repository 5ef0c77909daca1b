import { z } from "zod";
import { Currency, CURRENCIES, minorUnits, toDecimalString } from "../money/model";

/**
 * Safe to import from the browser: FX pairs, rates as exact decimals, and the quote arithmetic
 * (docs/money-operations.md#fx-and-treasury). No floats: a rate is a decimal string, held as a
 * BigInt scaled by 10^RATE_DECIMALS; products round down to the target currency's minor unit.
 */

/** How long a quote's customer rate is locked. */
export const QUOTE_TTL_MS = 30_000;
/** Decimal places a mid rate keeps (cross rates derived through EUR are rounded half-up to them). */
export const RATE_DECIMALS = 8;
/** Decimal places a spread keeps: 0.0050 is half a percent. */
export const SPREAD_DECIMALS = 6;
/** The largest spread an admin may set: a tenth of the amount. */
export const MAX_SPREAD = "0.1";
export const DEFAULT_SPREAD = "0.0050";
/** Days of history a rates chart or the revenue report may ask for. */
export const FX_DEFAULT_DAYS = 30;
export const FX_MAX_DAYS = 366;

/**
 * Market order of base currencies: a pair's base is the one listed first (EURUSD, GBPUSD,
 * USDJPY, ...), as the ECB and dealers quote them.
 */
const BASE_ORDER: readonly Currency[] = ["EUR", "GBP", "USD", "INR", "JPY"];
export const FX_CURRENCIES: readonly Currency[] = BASE_ORDER.filter((currency) => currency in CURRENCIES);

export type FxPair = `${Currency}${Currency}`;
/** Every pair the platform quotes, each once, base first. */
export const FX_PAIRS: readonly FxPair[] = FX_CURRENCIES.flatMap((base, index) =>
  FX_CURRENCIES.slice(index + 1).map((quote) => `${base}${quote}` as FxPair),
);
export const FxPairSchema = z.enum(FX_PAIRS as [FxPair, ...FxPair[]], {
  error: `Pair must be one of ${FX_PAIRS.join(", ")}`,
});

export const pairOf = (from: Currency, to: Currency): { pair: FxPair; inverted: boolean } | null => {
  if (from === to) return null;
  const direct = `${from}${to}` as FxPair;
  if (FX_PAIRS.includes(direct)) return { pair: direct, inverted: false };
  return { pair: `${to}${from}` as FxPair, inverted: true };
};
export const baseOf = (pair: FxPair) => pair.slice(0, 3) as Currency;
export const quoteOf = (pair: FxPair) => pair.slice(3, 6) as Currency;

export const FX_MESSAGES = {
  invalidRate: `Rate must be a positive decimal with at most ${RATE_DECIMALS} decimal places`,
  invalidSpread: `Spread must be a decimal fraction from 0 to ${MAX_SPREAD} with at most ${SPREAD_DECIMALS} decimal places (0.0050 is 0.5 %)`,
  nothingToSet: "Send a rate, a spread or both",
  sameCurrency: "Choose two different currencies",
  amountTooSmall: "The amount is too small to convert after the spread",
  quoteNotFound: "Quote not found: get a new quote",
  quoteExpired: "Quote expired, get a new one",
  quoteUsed: "This quote was already used: get a new quote",
  quoteMismatch: "The quote is for other currencies or another amount than this transfer",
  invalidQuoteId: "quote_id is not valid",
} as const;

const RATE_TEXT = new RegExp(`^\\d{1,9}(\\.\\d{1,${RATE_DECIMALS}})?$`);
const SPREAD_TEXT = new RegExp(`^0(\\.\\d{1,${SPREAD_DECIMALS}})?$|^0?\\.\\d{1,${SPREAD_DECIMALS}}$`);

/** "1.0850" -> 108500000n (scaled by 10^decimals); null if not plain decimal notation with that many places. */
export function scaledDecimal(text: string, decimals: number): bigint | null {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || text === "" || text === ".") return null;
  const [, whole = "", fraction = ""] = match;
  if (fraction.length > decimals) return null;
  return BigInt(whole || "0") * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0");
}

/** 108500000n -> "1.085" with at least `keep` decimals (trailing zeros beyond them dropped). */
export function formatScaled(value: bigint, decimals: number, keep = 4): string {
  const digits = value.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "").padEnd(Math.min(keep, decimals), "0");
  return fraction ? `${whole}.${fraction}` : whole;
}

const halfUp = (numerator: bigint, denominator: bigint): bigint => (2n * numerator + denominator) / (2n * denominator);
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
const SPREAD_SCALE = 10n ** BigInt(SPREAD_DECIMALS);

export const RateText = z
  .string({ error: FX_MESSAGES.invalidRate })
  .trim()
  .refine((text) => RATE_TEXT.test(text) && (scaledDecimal(text, RATE_DECIMALS) ?? 0n) > 0n, {
    error: FX_MESSAGES.invalidRate,
  })
  .transform((text) => formatScaled(scaledDecimal(text, RATE_DECIMALS)!, RATE_DECIMALS));
export const SpreadText = z
  .string({ error: FX_MESSAGES.invalidSpread })
  .trim()
  .refine(
    (text) =>
      SPREAD_TEXT.test(text) &&
      (scaledDecimal(text, SPREAD_DECIMALS) ?? SPREAD_SCALE) <= scaledDecimal(MAX_SPREAD, SPREAD_DECIMALS)!,
    { error: FX_MESSAGES.invalidSpread },
  )
  .transform((text) => formatScaled(scaledDecimal(text, SPREAD_DECIMALS)!, SPREAD_DECIMALS));

/** PUT /fx/rates/{pair}: an admin sets the mid rate, the spread, or both. */
export const SetRateInput = z
  .object({ rate: RateText.optional(), spread: SpreadText.optional() })
  .strict()
  .refine((input) => input.rate !== undefined || input.spread !== undefined, { error: FX_MESSAGES.nothingToSet });
export type SetRateInput = z.infer<typeof SetRateInput>;

export const QuoteInput = z
  .object({
    fromCurrency: Currency,
    toCurrency: Currency,
    amount: z.union([z.number(), z.string()], { error: "Amount is required" }),
  })
  .refine((input) => input.fromCurrency !== input.toCurrency, { error: FX_MESSAGES.sameCurrency });
export type QuoteInput = z.infer<typeof QuoteInput>;

/** A pair's rate as stored and shown: the mid (base -> quote) and the spread, decimal strings. */
export const PairRate = z.object({
  pair: FxPairSchema,
  mid: z.string(),
  spread: z.string(),
  /** The market day the mid is for (an ECB file's date, or the day an admin set it). */
  as_of: z.string(),
  updated_at: z.string(),
  source: z.enum(["seed", "manual", "ecb"]),
});
export type PairRate = z.infer<typeof PairRate>;

/** The mid rate from `from` to `to`, 8 decimals: the pair's, or its inverse rounded half-up. */
export function directionalMid(rate: Pick<PairRate, "mid">, inverted: boolean): bigint {
  const mid = scaledDecimal(rate.mid, RATE_DECIMALS)!;
  return inverted ? halfUp(RATE_SCALE * RATE_SCALE, mid) : mid;
}

/** What a customer gets when selling the base (bid) and pays when buying it (ask): mid × (1 ∓ spread). */
export function bidAsk(rate: Pick<PairRate, "mid" | "spread">): { bid: string; ask: string } {
  const mid = scaledDecimal(rate.mid, RATE_DECIMALS)!;
  const spread = scaledDecimal(rate.spread, SPREAD_DECIMALS)!;
  return {
    bid: formatScaled(halfUp(mid * (SPREAD_SCALE - spread), SPREAD_SCALE), RATE_DECIMALS),
    ask: formatScaled(halfUp(mid * (SPREAD_SCALE + spread), SPREAD_SCALE), RATE_DECIMALS),
  };
}

export interface QuoteFigures {
  midRate: string;
  customerRate: string;
  spread: string;
  sellMinor: number;
  spreadMinor: number;
  buyMinor: number;
}

/**
 * The quote for selling `sellMinor` of `from`: the spread is its own amount (half-up to the
 * source's minor unit), and what arrives is (sell − spread) × mid, rounded down to the target's
 * minor unit. The customer rate is only the ratio of the two amounts, for display.
 */
export function quoteFigures(
  rate: Pick<PairRate, "mid" | "spread">,
  from: Currency,
  to: Currency,
  sellMinor: number,
): QuoteFigures | null {
  const direction = pairOf(from, to);
  if (!direction) return null;
  const mid = directionalMid(rate, direction.inverted);
  const spread = scaledDecimal(rate.spread, SPREAD_DECIMALS)!;
  const sell = BigInt(sellMinor);
  const spreadMinor = halfUp(sell * spread, SPREAD_SCALE);
  const net = sell - spreadMinor;
  const fromScale = 10n ** BigInt(minorUnits(from));
  const toScale = 10n ** BigInt(minorUnits(to));
  const buy = net > 0n ? (net * mid * toScale) / (RATE_SCALE * fromScale) : 0n;
  if (buy <= 0n) return null;
  const customer = (buy * fromScale * RATE_SCALE) / (sell * toScale);
  return {
    midRate: formatScaled(mid, RATE_DECIMALS),
    customerRate: formatScaled(customer, RATE_DECIMALS),
    spread: rate.spread,
    sellMinor,
    spreadMinor: Number(spreadMinor),
    buyMinor: Number(buy),
  };
}

/** A quote as the API shows it (amounts as decimal strings). */
export const QuoteReply = z.object({
  id: z.string(),
  fromCurrency: Currency,
  toCurrency: Currency,
  midRate: z.string(),
  customerRate: z.string(),
  spread: z.string(),
  sellAmount: z.string(),
  buyAmount: z.string(),
  spreadAmount: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  used: z.boolean(),
});
export type QuoteReply = z.infer<typeof QuoteReply>;

export const quoteMoney = (minor: number, currency: Currency) => toDecimalString(minor, currency);

/** Seconds a quote has left at `now` (0 once expired): the screen's countdown. */
export const secondsLeft = (expiresAt: string, now: number): number =>
  Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));

/** One rate as GET /fx/rates lists it. */
export const RateReply = PairRate.extend({ bid: z.string(), ask: z.string() });
export type RateReply = z.infer<typeof RateReply>;
export const RatesReply = z.object({ data: z.array(RateReply) });

export const RateHistoryReply = z.object({
  pair: FxPairSchema,
  days: z.number().int(),
  data: z.array(PairRate.extend({ recorded_by: z.string().nullable() })),
});
export type RateHistoryReply = z.infer<typeof RateHistoryReply>;

export const PositionReply = z.object({
  currency: Currency,
  /** The FX position account's posted balance (asset side): what the platform holds of this currency from conversions. */
  position: z.string(),
  position_minor: z.number().int(),
  pending: z.string(),
  /** FX revenue earned in this currency, posted. */
  revenue: z.string(),
  revenue_minor: z.number().int(),
});
export const PositionsReply = z.object({ data: z.array(PositionReply) });
export type PositionReply = z.infer<typeof PositionReply>;

export const RevenueDay = z.object({
  date: z.string(),
  currency: Currency,
  revenue: z.string(),
  revenue_minor: z.number().int(),
  conversions: z.number().int(),
});
export const RevenueReply = z.object({ days: z.number().int(), data: z.array(RevenueDay) });
export type RevenueDay = z.infer<typeof RevenueDay>;

export const ImportReply = z.object({
  message: z.string(),
  as_of: z.string(),
  pairs: z.array(FxPairSchema),
  ignored: z.array(z.string()),
});
