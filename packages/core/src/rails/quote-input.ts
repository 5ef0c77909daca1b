import { z } from "zod";
import { CURRENCIES, parseDecimal, type Currency } from "../money/model";
import { QUOTE_CURRENCIES } from "./model";
import { CURRENCY_HOME_COUNTRY } from "./regions";

/**
 * The quote request (POST /api/v1/rails/quote) and the simulator's amount. Browser-safe (the rails
 * console imports it): zod, money/model and the rails models only.
 */

export const QUOTE_MESSAGES = {
  currency: `Currency must be one of ${QUOTE_CURRENCIES.join(", ")}`,
  payoutCurrency: `payoutCurrency must be one of ${QUOTE_CURRENCIES.join(", ")}`,
  country: "country must be an ISO 3166-1 alpha-2 country code (e.g. DE)",
  amountNegative: "Amount must be 0 or more",
} as const;

/**
 * POST /api/v1/rails/quote: amount as a decimal string or number, 0 or more, in `currency`;
 * optionally the currency it arrives in (`payoutCurrency`, default the same) and where it goes
 * (`country`, default the payout currency's home country).
 */
export const QuoteInput = z
  .object({
    amount: z
      .union([z.string(), z.number()], { error: "Amount is required" })
      .describe("Decimal string or number, 0 or more, at most the currency's decimals"),
    currency: z.enum(QUOTE_CURRENCIES, { error: QUOTE_MESSAGES.currency }),
    payoutCurrency: z
      .enum(QUOTE_CURRENCIES, { error: QUOTE_MESSAGES.payoutCurrency })
      .optional()
      .describe("The currency that arrives; default: `currency` (no conversion, no FX spread)"),
    country: z
      .string({ error: QUOTE_MESSAGES.country })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, QUOTE_MESSAGES.country)
      .optional()
      .describe("Destination country; default: the payout currency's home country"),
  })
  .strict()
  .transform((input, ctx) => {
    const parsed = parseDecimal(input.amount, input.currency);
    if (!parsed.ok) {
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: parsed.message === "Amount must be greater than 0" ? QUOTE_MESSAGES.amountNegative : parsed.message,
      });
      return z.NEVER;
    }
    return {
      currency: input.currency,
      amountMinor: parsed.minor,
      payoutCurrency: input.payoutCurrency ?? input.currency,
      country: input.country ?? CURRENCY_HOME_COUNTRY[input.payoutCurrency ?? input.currency],
    };
  });
export type QuoteInput = z.output<typeof QuoteInput>;

/**
 * The simulator's amount (docs/product/payment-rails.md#cost-simulator): floored at 0, invalid
 * input counts as 0. Extra decimals beyond the currency's are cut off (floor), so typing "10.999"
 * in USD simulates 10.99.
 */
export function simulatorAmountMinor(text: string | number, currency: Currency): number {
  const raw = typeof text === "number" ? (Number.isFinite(text) ? String(text) : "") : text.trim();
  if (raw.startsWith("-")) return 0;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(raw);
  if (!match || (match[1] === "" && (match[2] ?? "") === "")) return 0;
  const decimals = CURRENCIES[currency];
  const cut = `${match[1] || "0"}${decimals > 0 ? `.${(match[2] ?? "").slice(0, decimals)}` : ""}`;
  const parsed = parseDecimal(cut.endsWith(".") ? cut.slice(0, -1) : cut, currency);
  return parsed.ok ? parsed.minor : 0;
}
