import { z } from "zod";

/** Safe to import from the browser: currencies and exact decimal <-> minor-unit conversion. */

export const CURRENCIES = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2 } as const;
export type Currency = keyof typeof CURRENCIES;
export const Currency = z.enum(Object.keys(CURRENCIES) as [Currency, ...Currency[]], {
  error: `Currency must be one of ${Object.keys(CURRENCIES).join(", ")}`,
});

/** Largest amount one journal may move, in major units: keeps every sum a safe integer. */
export const MAX_AMOUNT_MAJOR = 1_000_000_000;

export const minorUnits = (currency: Currency): number => CURRENCIES[currency];

export type AmountResult = { ok: true; minor: number } | { ok: false; message: string };

export const AMOUNT_MESSAGES = {
  required: "Amount is required",
  notANumber: "Amount must be a number",
  notPositive: "Amount must be greater than 0",
  tooLarge: "Amount is too large",
  tooManyDecimals: (currency: Currency) =>
    minorUnits(currency) === 0
      ? `${currency} amounts cannot have decimals`
      : `${currency} amounts can have at most ${minorUnits(currency)} decimal places`,
} as const;

/**
 * Money is written in plain decimal notation only: digits, optionally a point and more digits
 * ("12", "12.5", "0.50", ".5"), or a minus sign in front (refused later as "greater than 0").
 * Nothing that JavaScript's Number() would also read: no "0x10", "0b1", "1e3", "Infinity",
 * surrounding spaces or a trailing point: Number() would read "0x0", "0b0" and "1e-400" as zero,
 * which passes where zero is allowed (an account's opening balance).
 */
const DECIMAL_NOTATION = /^(-)?(?:(\d+)(?:\.(\d+))?|\.(\d+))$/;

/** The text a JSON number stands for: its shortest round-trip form (100.1 -> "100.1", 1e-7 -> "1e-7", refused). */
function amountText(input: unknown): string | AmountResult {
  if (typeof input === "string") return input;
  if (typeof input === "number")
    return Number.isFinite(input) ? String(input) : { ok: false, message: AMOUNT_MESSAGES.notANumber };
  return {
    ok: false,
    message: input === undefined || input === null ? AMOUNT_MESSAGES.required : AMOUNT_MESSAGES.notANumber,
  };
}

/**
 * Parses a decimal amount (JSON number or decimal string) into integer minor units, exactly: no
 * float arithmetic. Zero is allowed here (an optional opening balance or threshold of "0" means
 * none); more decimals than the currency has is an error, not a rounding.
 */
export function parseDecimal(input: unknown, currency: Currency): AmountResult {
  const text = amountText(input);
  if (typeof text !== "string") return text;
  const match = DECIMAL_NOTATION.exec(text);
  if (!match) return { ok: false, message: AMOUNT_MESSAGES.notANumber };
  const [, negative, whole = "0", wholeFraction, bareFraction] = match;
  const fraction = (wholeFraction ?? bareFraction ?? "").replace(/0+$/, "");
  const decimals = minorUnits(currency);
  if (fraction.length > decimals) return { ok: false, message: AMOUNT_MESSAGES.tooManyDecimals(currency) };
  if (whole.replace(/^0+/, "").length > String(MAX_AMOUNT_MAJOR).length)
    return { ok: false, message: AMOUNT_MESSAGES.tooLarge };
  const minor = Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, "0") || "0");
  if (negative && minor !== 0) return { ok: false, message: AMOUNT_MESSAGES.notPositive };
  if (minor > MAX_AMOUNT_MAJOR * 10 ** decimals) return { ok: false, message: AMOUNT_MESSAGES.tooLarge };
  return { ok: true, minor };
}

/** A signed figure such as an expected balance: "-12.50" or -12.5 as well as positive ones. */
export function parseSignedDecimal(input: unknown, currency: Currency): AmountResult {
  const negative =
    (typeof input === "string" && input.trim().startsWith("-")) || (typeof input === "number" && input < 0);
  const magnitude =
    typeof input === "string" ? input.trim().replace(/^-/, "") : typeof input === "number" ? Math.abs(input) : input;
  const parsed = parseDecimal(magnitude, currency);
  return parsed.ok && negative ? { ok: true, minor: -parsed.minor } : parsed;
}

/** An amount to move: decimal notation (see parseDecimal), greater than zero. */
export function parseAmount(input: unknown, currency: Currency): AmountResult {
  const parsed = parseDecimal(input, currency);
  if (parsed.ok && parsed.minor === 0) return { ok: false, message: AMOUNT_MESSAGES.notPositive };
  return parsed;
}

/** "1234.50" style: the API's decimal string, exact, no grouping. */
export function toDecimalString(minor: number, currency: Currency): string {
  const decimals = minorUnits(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  return decimals === 0 ? sign + digits : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * Parses an API decimal string back to minor units (for clients reading replies), exactly and at
 * any size a reply carries: balances and report totals may exceed what one journal may move.
 * Not-a-decimal gives 0. Not parseAmount: its per-journal cap would read a figure above
 * 1,000,000,000 (a trial balance's system counterparty, say) as 0, and the trial balance would
 * report itself unbalanced.
 */
export function fromDecimalString(text: string, currency: Currency): number {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return 0;
  const [, negative, whole, fraction = ""] = match;
  const decimals = minorUnits(currency);
  if (fraction.replace(/0+$/, "").length > decimals) return 0;
  const minor = Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, "0").slice(0, decimals) || "0");
  return negative && minor !== 0 ? -minor : minor;
}
