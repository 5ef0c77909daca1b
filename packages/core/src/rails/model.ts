import { z } from "zod";
import { CURRENCIES, Currency as CurrencySchema, type Currency } from "../money/model";

/**
 * Payment rails (docs/product/payment-rails.md#data,
 * docs/product/payment-rails.md#rail-edit-drawer, docs/product/payment-rails.md#sample-rails): the
 * rail as stored and its constants. Safe to import from the browser: zod and money/model only, like
 * the rest of the rails' browser-safe modules: the edit form (edit-form.ts), THE cost formula
 * (cost.ts), what a rail can carry (eligibility.ts), cost bands (cost-bands.ts), quotes across
 * rails (quotes.ts) and the quote request (quote-input.ts). The server (POST /api/v1/rails/quote,
 * the routing) and the console's cost simulator call the same functions, so they cannot disagree.
 *
 * Units:
 * - Money is integer minor units inside. A rail's fixed fee, and its amount limits, are in the
 *   rail's fee currency (`feeCurrency`: USD for ACH, EUR for SEPA, INR for UPI), stored in its
 *   minor units (`fixedFeeMinor`, `minAmountMinor`, `maxAmountMinor`) and shown as decimal strings.
 *   The per-transaction cost (`cost`, `costMinor`) is a USD figure of the console.
 * - `fxSpread` and `errorInjection` are fractions (0.01 = 1 %); the edit form takes both in
 *   percent and divides by 100. An FX spread is a whole number of 0.001 % steps, i.e. of
 *   1/100,000 (SPREAD_SCALE), so the formula works on integers.
 * - `successRate`, `errorRate` and `slaTarget` are percentages (98.5 = 98.5 %); `avgProcessingTime`
 *   is seconds; `volume` is USD (major units).
 */

export const RAIL_TYPES = ["ACH", "Wire", "Card", "Crypto", "SWIFT", "SEPA", "UPI"] as const;
export type RailType = (typeof RAIL_TYPES)[number];
export const RAIL_STATUSES = ["active", "maintenance", "down"] as const;
export type RailStatus = (typeof RAIL_STATUSES)[number];

/**
 * The simulator's and the quote's currencies (docs/product/payment-rails.md#cost-simulator): every
 * currency the ledger keeps.
 */
export const QUOTE_CURRENCIES = Object.keys(CURRENCIES) as [Currency, ...Currency[]];
export type QuoteCurrency = Currency;

/** FX spreads are whole multiples of 1/SPREAD_SCALE (0.001 % = 0.00001). */
export const SPREAD_SCALE = 100_000;
/**
 * Network fee of every rail: 0.1 % of the amount (docs/product/payment-rails.md#cost-simulator), as
 * a fraction NETWORK_FEE_PARTS / SPREAD_SCALE.
 */
export const NETWORK_FEE_PARTS = 100;
/** Largest fixed fee the form accepts, in USD. */
export const MAX_FIXED_FEE_USD = 10_000;
/** A rail id: lowercase letters, digits and dashes ("ach", "sepa"); checked before it goes into a key. */
export const RAIL_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const isRailId = (value: string): boolean => RAIL_ID_PATTERN.test(value);

/** Where the traffic figures (volume, success and error rate, average time) come from. */
export const RAIL_METRICS_SOURCES = ["sample", "payments"] as const;

const fraction = z.number().min(0).max(1);

/** A country code (two capital letters) or a region name (regions.ts). */
export const COVERAGE_ENTRY = /^(?:[A-Z]{2}|[A-Z][A-Z_]{2,19})$/;
/** Longest settlement time a rail may state: 30 days. */
export const MAX_SETTLEMENT_SECONDS = 30 * 86_400;

export const RailChange = z.object({
  version: z.number().int().min(1).describe("The rail's version this change produced"),
  action: z.enum(["update", "start", "stop"]),
  at: z.string().describe("ISO time of the change"),
  by: z.string().describe("Who made it (the admin's email)"),
  before: z.record(z.string(), z.unknown()).describe("The changed fields before"),
  after: z.record(z.string(), z.unknown()).describe("The changed fields after"),
});
export type RailChange = z.infer<typeof RailChange>;

/**
 * A payment rail as stored and as the API returns it (docs/product/payment-rails.md#data, plus
 * error injection and versioning).
 */
export const Rail = z.object({
  id: z.string().regex(RAIL_ID_PATTERN),
  name: z.string(),
  type: z.enum(RAIL_TYPES),
  status: z.enum(RAIL_STATUSES),
  volume: z.number().min(0).describe("Volume in USD (major units)"),
  successRate: z.number().min(0).max(100).describe("Percent"),
  avgProcessingTime: z.number().min(0).describe("Seconds"),
  cost: z.string().describe("Cost per transaction, USD decimal string"),
  costMinor: z.number().int().min(0).describe("Cost per transaction in US cents"),
  fixedFee: z.string().describe("Fixed fee per payment, decimal string in the fee currency"),
  fixedFeeMinor: z.number().int().min(0).describe("Fixed fee in the fee currency's minor units"),
  fxSpread: fraction.describe("FX spread as a fraction (0.01 = 1 %); applies to non-USD amounts"),
  slaTarget: z.number().min(0).max(100).describe("Percent"),
  errorRate: z.number().min(0).max(100).describe("Percent"),
  description: z.string(),
  features: z.array(z.string()),
  lastPing: z
    .string()
    .nullable()
    .describe("ISO time of the rail's last health answer; null until rail health checks exist"),
  icon: z.string(),
  errorInjection: fraction.describe("Injected failure share for testing and demos (fraction, 0..1)"),
  currencies: z.array(CurrencySchema).min(1).describe("The currencies the rail carries"),
  countries: z
    .array(z.string().regex(COVERAGE_ENTRY))
    .min(1)
    .describe("Where it carries payments to: ISO 3166-1 alpha-2 codes and region names (SEPA, WORLDWIDE)"),
  feeCurrency: CurrencySchema.describe("The currency of the rail's fixed fee and amount limits"),
  minAmount: z.string().describe("Smallest payment, in the fee currency (decimal string)"),
  minAmountMinor: z.number().int().min(0),
  maxAmount: z.string().nullable().describe("Largest payment, in the fee currency; null: no maximum"),
  maxAmountMinor: z.number().int().min(1).nullable(),
  settlementSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_SETTLEMENT_SECONDS)
    .describe("How long until the money arrives, seconds"),
  metricsSource: z
    .enum(RAIL_METRICS_SOURCES)
    .describe(
      "`sample`: volume, success/error rate and average time are the sample figures of docs/product/payment-rails.md#sample-rails; `payments`: computed from real payments",
    ),
  version: z.number().int().min(1),
  updated_at: z.string(),
  updated_by: z.string(),
  lastChange: RailChange.nullable().describe("The last admin change (null: as seeded)"),
});
export type Rail = z.infer<typeof Rail>;
