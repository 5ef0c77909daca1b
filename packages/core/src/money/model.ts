import { z } from "zod";

/** Safe to import from the browser: currencies and exact decimal <-> minor-unit conversion. */

export const CURRENCIES = { USD: 2, EUR: 2, GBP: 2, JPY: 0 } as const;
export type Currency = keyof typeof CURRENCIES;
export const Currency = z.enum(Object.keys(CURRENCIES) as [Currency, ...Currency[]], {
  error: `Currency must be one of ${Object.keys(CURRENCIES).join(", ")}`,
});

/** Largest amount one journal may move, in major units: keeps every sum a safe integer. */
export const MAX_AMOUNT_MAJOR = 1_000_000_000;

export const minorUnits = (currency: Currency): number => CURRENCIES[currency];

export type AmountResult = { ok: true; minor: number } | { ok: false; message: string };

/**
 * Parses an amount given as a JSON number or a decimal string into integer minor units, exactly:
 * no float arithmetic. More decimals than the currency has is an error, not a rounding.
 */
export function parseAmount(input: unknown, currency: Currency): AmountResult {
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { ok: false, message: "Amount must be a number" };
    // Shortest round-trip representation: 100.1 -> "100.1", 1e-7 -> "1e-7" (refused below).
    text = String(input);
  } else if (typeof input === "string") {
    text = input.trim();
  } else {
    return { ok: false, message: input === undefined || input === null ? "Amount is required" : "Amount must be a number" };
  }
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { ok: false, message: "Amount must be a number" };
  const [, negative, whole, fraction = ""] = match;
  const decimals = minorUnits(currency);
  const trimmedFraction = fraction.replace(/0+$/, "");
  if (trimmedFraction.length > decimals) {
    return {
      ok: false,
      message: decimals === 0 ? `${currency} amounts cannot have decimals` : `${currency} amounts can have at most ${decimals} decimal places`,
    };
  }
  if (whole!.replace(/^0+/, "").length > String(MAX_AMOUNT_MAJOR).length) return { ok: false, message: "Amount is too large" };
  const minor = Number(whole) * 10 ** decimals + Number(trimmedFraction.padEnd(decimals, "0") || "0");
  if (negative || minor === 0) return { ok: false, message: "Amount must be greater than 0" };
  if (minor > MAX_AMOUNT_MAJOR * 10 ** decimals) return { ok: false, message: "Amount is too large" };
  return { ok: true, minor };
}

/** "1234.50" style: the API's decimal string, exact, no grouping. */
export function toDecimalString(minor: number, currency: Currency): string {
  const decimals = minorUnits(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  return decimals === 0 ? sign + digits : `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** en-US display: 2 decimals (JPY none), grouped: "1,234.50". */
export function formatAmount(minor: number, currency: Currency): string {
  const decimals = minorUnits(currency);
  return (minor / 10 ** decimals).toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/**
 * Parses an API decimal string back to minor units (for clients reading replies), exactly and at
 * any size a reply carries: balances and report totals may exceed what one journal may move.
 * Not-a-decimal gives 0. (Before, this went through parseAmount and its per-journal cap, so a
 * trial balance whose system counterparty exceeded 1,000,000,000 summed it as 0 and reported
 * itself unbalanced. Found by ledger.property.test.ts, property (e).)
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
