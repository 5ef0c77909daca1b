/**
 * The one money formatter of the SPA: "$1,234.56", "−€20.00", "+£5.00", "¥1,200".
 *
 * Money is exact here: amounts arrive as integer minor units (number or bigint) or as the API's
 * decimal strings (major units, "120.50") and
 * are handed to Intl.NumberFormat as decimal *strings* (Intl formats those exactly, at any size),
 * so no float ever touches a figure. Negatives use a true minus sign (U+2212), not a hyphen.
 * A missing figure is zero ("$0.00"), never "-".
 */

/** A money amount: integer minor units (number or bigint) or a decimal string such as "120.50". */
export type MoneyAmount = number | bigint | string | null | undefined;

/** auto: "−$5.00" / "$5.00"; always: "+$5.00" / "−$5.00" / "+$0.00"; exceptZero: like always but "$0.00". */
export type SignDisplay = "auto" | "always" | "exceptZero" | "never";

export interface MoneyFormatOptions {
  /** Whether a positive amount gets a "+". Default "auto" (only negatives are signed). */
  signDisplay?: SignDisplay;
}

export const MINUS_SIGN = "\u2212";
const LOCALE = "en-US";

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string, signDisplay: SignDisplay): Intl.NumberFormat {
  const key = `${currency}|${signDisplay}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALE, { style: "currency", currency, signDisplay });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Decimal places of a currency as Intl knows them (USD 2, JPY 0). */
export function currencyDecimals(currency: string): number {
  return formatterFor(currency, "auto").resolvedOptions().maximumFractionDigits ?? 2;
}

const DECIMAL = /^([-+])?(\d+)(?:\.(\d*))?$|^([-+])?\.(\d+)$/;

/** A decimal string normalised for Intl ("-.5" -> "-0.5"); null when it is not a plain decimal. */
function normaliseDecimal(text: string): `${number}` | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const sign = (match[1] ?? match[4]) === "-" ? "-" : "";
  const whole = match[2] ?? "0";
  const fraction = match[3] ?? match[5] ?? "";
  return `${sign}${whole}${fraction ? `.${fraction}` : ""}` as `${number}`;
}

/** Integer minor units as an exact decimal string: 123450 USD -> "1234.50". */
export function minorToDecimal(minor: number | bigint, currency: string): `${number}` {
  const decimals = currencyDecimals(currency);
  const value = typeof minor === "bigint" ? minor : BigInt(Math.trunc(minor));
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return `${negative ? "-" : ""}${text}` as `${number}`;
}

/** Numbers and bigints are minor units; strings are decimal amounts in major units. */
function asDecimal(amount: MoneyAmount, currency: string): `${number}` {
  if (amount === null || amount === undefined || amount === "") return "0";
  if (typeof amount === "string") return normaliseDecimal(amount) ?? "0";
  return minorToDecimal(amount, currency);
}

/**
 * Formats an amount with the currency's symbol: formatMoney(123456, "USD") is "$1,234.56",
 * formatMoney("-20", "EUR") is "−€20.00", formatMoney(500, "GBP", {signDisplay: "always"}) "+£5.00".
 */
export function formatMoney(amount: MoneyAmount, currency: string, options: MoneyFormatOptions = {}): string {
  const parts = formatterFor(currency, options.signDisplay ?? "auto").formatToParts(asDecimal(amount, currency));
  return parts.map((part) => (part.type === "minusSign" ? MINUS_SIGN : part.value)).join("");
}

/** The sign of an amount without float maths: -1, 0 or 1 (unparsable counts as 0). */
export function moneySign(amount: MoneyAmount, currency: string): -1 | 0 | 1 {
  const decimal = asDecimal(amount, currency);
  if (/^-?0*(\.0*)?$/.test(decimal)) return 0;
  return decimal.startsWith("-") ? -1 : 1;
}

const compactFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A short label for chart axes: "$1.5K", "−€20", "$2M". Ticks are round figures, so the
 * compact form loses nothing a reader needs and keeps labels narrow enough not to overlap.
 */
export function formatMoneyCompact(amount: MoneyAmount, currency: string): string {
  let formatter = compactFormatters.get(currency);
  if (!formatter) {
    // Up to the currency's decimals, so small ticks stay exact ("$0.25", not "$0.3").
    formatter = new Intl.NumberFormat(LOCALE, {
      style: "currency",
      currency,
      notation: "compact",
      minimumFractionDigits: 0,
      maximumFractionDigits: currencyDecimals(currency),
    });
    compactFormatters.set(currency, formatter);
  }
  return formatter
    .formatToParts(asDecimal(amount, currency))
    .map((part) => (part.type === "minusSign" ? MINUS_SIGN : part.value))
    .join("");
}
