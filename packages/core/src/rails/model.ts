import { z } from "zod";
import {
  CURRENCIES,
  Currency as CurrencySchema,
  minorUnits,
  parseDecimal,
  toDecimalString,
  type Currency,
} from "../money/model";
import { convertMinor, rateText } from "./reference-rates";
import { coversCountry, coverageText, CURRENCY_HOME_COUNTRY, isRegionName } from "./regions";

/**
 * Payment rails (spec 001 §3 "Payment rail", §5 "Rail edit form", §9 "Rails console"): the
 * schemas, the edit form's validation and units, and THE cost formula. Safe to import from the
 * browser: zod and money/model only. The server (POST /api/v1/rails/quote, later the routing) and
 * the console's cost simulator call the same functions, so they cannot disagree.
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

/** The simulator's and the quote's currencies (spec §9): every currency the ledger keeps. */
export const QUOTE_CURRENCIES = Object.keys(CURRENCIES) as [Currency, ...Currency[]];
export type QuoteCurrency = Currency;

/** FX spreads are whole multiples of 1/SPREAD_SCALE (0.001 % = 0.00001). */
export const SPREAD_SCALE = 100_000;
/** Network fee of every rail: 0.1 % of the amount (spec §9), as a fraction NETWORK_FEE_PARTS / SPREAD_SCALE. */
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

/** A payment rail as stored and as the API returns it (spec §3, plus error injection and versioning). */
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
      "`sample`: volume, success/error rate and average time are spec 001 §9's sample figures; `payments`: computed from real payments",
    ),
  version: z.number().int().min(1),
  updated_at: z.string(),
  updated_by: z.string(),
  lastChange: RailChange.nullable().describe("The last admin change (null: as seeded)"),
});
export type Rail = z.infer<typeof Rail>;

/* ---------- the edit form (spec §5) ---------- */

export const RAIL_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: "Name is at most 60 characters",
  type: `Type must be one of ${RAIL_TYPES.join(", ")}`,
  status: `Status must be one of ${RAIL_STATUSES.join(", ")}`,
  fixedFeeRequired: "Fixed fee is required",
  fixedFee: "Fixed fee must be a number of US dollars from 0 to 10000",
  fixedFeeStep: "Fixed fee takes steps of 0.01 (USD)",
  fxSpreadRequired: "FX spread is required",
  fxSpread: "FX spread must be a percentage from 0 to 100",
  fxSpreadStep: "FX spread takes steps of 0.001 %",
  slaRequired: "SLA target is required",
  sla: "SLA target must be a percentage from 0 to 100",
  slaStep: "SLA target takes steps of 0.1 %",
  errorInjection: "Error injection rate must be a percentage from 0 to 100",
  errorInjectionStep: "Error injection rate takes steps of 0.1 %",
  version: "version must be a whole number from 1",
  feeCurrency: `Fee currency must be one of ${Object.keys(CURRENCIES).join(", ")}`,
  currencies: `Currencies must list 1 to ${Object.keys(CURRENCIES).length} of ${Object.keys(CURRENCIES).join(", ")}`,
  countries: "Countries must list 1 to 250 ISO country codes (e.g. US, DE) or region names (SEPA, WORLDWIDE)",
  unknownRegion: (name: string) => `Unknown region ${name.slice(0, 20)}: use SEPA or WORLDWIDE, or country codes`,
  unknownCountry: (code: string) => `${code.slice(0, 2)} is not an ISO 3166-1 country code`,
  minAmount: "Minimum amount must be a number from 0, in steps of 0.01",
  maxAmount: "Maximum amount must be empty (no maximum) or a number above 0, in steps of 0.01",
  minAboveMax: "Minimum amount cannot be above the maximum amount",
  wholeAmounts: (currency: string) =>
    `${currency} has no decimals: the fixed fee and amount limits must be whole numbers`,
  settlementSeconds: `Settlement time must be a whole number of seconds from 1 to ${MAX_SETTLEMENT_SECONDS}`,
} as const;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * A non-negative decimal (JSON number or decimal string, or "" / null for "missing") as a whole
 * number of 10^-decimals steps, exactly: 0.005 with 3 decimals is 5. More decimals than the step
 * allows is the step message, not a rounding.
 */
function scaledDecimal(
  input: unknown,
  decimals: number,
): { ok: true; scaled: number } | { ok: false; reason: "missing" | "nan" | "step" } {
  if (input === undefined || input === null || input === "") return { ok: false, reason: "missing" };
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input) || input < 0) return { ok: false, reason: "nan" };
    text = String(input);
  } else if (typeof input === "string") text = input.trim();
  else return { ok: false, reason: "nan" };
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, reason: "nan" };
  const [, whole = "0", rawFraction = ""] = match;
  const fractionDigits = rawFraction.replace(/0+$/, "");
  if (fractionDigits.length > decimals) return { ok: false, reason: "step" };
  if (whole.replace(/^0+/, "").length > 9) return { ok: false, reason: "nan" };
  return { ok: true, scaled: Number(whole) * 10 ** decimals + Number(fractionDigits.padEnd(decimals, "0") || "0") };
}

/** A form field: number or decimal string, 0..max, in steps of 10^-decimals; parsed to the scaled integer. */
function toScaled(
  input: unknown,
  decimals: number,
  maxWhole: number,
  messages: { required: string; range: string; step: string },
  ctx: z.RefinementCtx,
): number {
  const parsed = scaledDecimal(input, decimals);
  if (!parsed.ok || parsed.scaled > maxWhole * 10 ** decimals) {
    ctx.addIssue({
      code: "custom",
      message: parsed.ok
        ? messages.range
        : parsed.reason === "missing"
          ? messages.required
          : parsed.reason === "step"
            ? messages.step
            : messages.range,
    });
    return 0;
  }
  return parsed.scaled;
}

function stepField(decimals: number, maxWhole: number, messages: { required: string; range: string; step: string }) {
  return z
    .union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined || issue.input === null ? messages.required : messages.range),
    })
    .transform((input, ctx): number => toScaled(input, decimals, maxWhole, messages, ctx));
}

/** The same, optional: missing, null or "" means none. */
function optionalStepField(
  decimals: number,
  maxWhole: number,
  messages: { required: string; range: string; step: string },
) {
  return z
    .union([z.number(), z.string(), z.null()], { error: messages.range })
    .optional()
    .transform((input, ctx): number | undefined =>
      input === undefined || input === null || input === ""
        ? undefined
        : toScaled(input, decimals, maxWhole, messages, ctx),
    );
}

/**
 * The edit form / PUT body: what an admin enters (spec §5). Fixed fee in USD (step 0.01), FX
 * spread and error injection in PERCENT (steps 0.001 % and 0.1 %), SLA target in percent (step
 * 0.1). `version` (optional) is the rail version the edit started from: a rail changed since is
 * not overwritten (409). Output: the stored units (see railPatchFromEdit).
 */
export const RailEditInput = z
  .object({
    name: z
      .string({ error: RAIL_MESSAGES.nameRequired })
      .trim()
      .min(1, RAIL_MESSAGES.nameRequired)
      .max(60, RAIL_MESSAGES.nameTooLong),
    type: z.enum(RAIL_TYPES, { error: RAIL_MESSAGES.type }),
    status: z.enum(RAIL_STATUSES, { error: RAIL_MESSAGES.status }),
    fixedFee: stepField(2, MAX_FIXED_FEE_USD, {
      required: RAIL_MESSAGES.fixedFeeRequired,
      range: RAIL_MESSAGES.fixedFee,
      step: RAIL_MESSAGES.fixedFeeStep,
    }).describe("USD, step 0.01"),
    fxSpreadPercent: stepField(3, 100, {
      required: RAIL_MESSAGES.fxSpreadRequired,
      range: RAIL_MESSAGES.fxSpread,
      step: RAIL_MESSAGES.fxSpreadStep,
    }).describe("Percent, step 0.001 (stored as a fraction: ÷100)"),
    slaTarget: stepField(1, 100, {
      required: RAIL_MESSAGES.slaRequired,
      range: RAIL_MESSAGES.sla,
      step: RAIL_MESSAGES.slaStep,
    }).describe("Percent 0-100, step 0.1"),
    errorInjectionPercent: optionalStepField(1, 100, {
      required: RAIL_MESSAGES.errorInjection,
      range: RAIL_MESSAGES.errorInjection,
      step: RAIL_MESSAGES.errorInjectionStep,
    }).describe("Optional, percent 0-100 (step 0.1), for testing and demo only; stored as a fraction; empty: 0"),
    version: z
      .number({ error: RAIL_MESSAGES.version })
      .int(RAIL_MESSAGES.version)
      .min(1, RAIL_MESSAGES.version)
      .max(1_000_000_000, RAIL_MESSAGES.version)
      .optional(),
    feeCurrency: z
      .enum(Object.keys(CURRENCIES) as [Currency, ...Currency[]], { error: RAIL_MESSAGES.feeCurrency })
      .optional()
      .describe("The currency of the fixed fee and the amount limits; absent: unchanged"),
    currencies: z
      .array(z.enum(Object.keys(CURRENCIES) as [Currency, ...Currency[]], { error: RAIL_MESSAGES.currencies }), {
        error: RAIL_MESSAGES.currencies,
      })
      .min(1, RAIL_MESSAGES.currencies)
      .max(Object.keys(CURRENCIES).length, RAIL_MESSAGES.currencies)
      .transform((list) => [...new Set(list)])
      .optional()
      .describe("The currencies the rail carries; absent: unchanged"),
    countries: z
      .array(
        z
          .string({ error: RAIL_MESSAGES.countries })
          .trim()
          .toUpperCase()
          .regex(COVERAGE_ENTRY, RAIL_MESSAGES.countries),
        { error: RAIL_MESSAGES.countries },
      )
      .min(1, RAIL_MESSAGES.countries)
      .max(250, RAIL_MESSAGES.countries)
      .transform((list) => [...new Set(list)])
      .superRefine((list, ctx) => {
        const unknown = list.find((entry) => entry.length > 2 && !isRegionName(entry));
        if (unknown) ctx.addIssue({ code: "custom", message: RAIL_MESSAGES.unknownRegion(unknown) });
      })
      .optional()
      .describe("ISO 3166-1 alpha-2 codes and region names (SEPA, WORLDWIDE); absent: unchanged"),
    minAmount: optionalStepField(2, 1_000_000_000, {
      required: RAIL_MESSAGES.minAmount,
      range: RAIL_MESSAGES.minAmount,
      step: RAIL_MESSAGES.minAmount,
    }).describe("In the fee currency, step 0.01; absent: unchanged"),
    maxAmount: z
      .union([z.number(), z.string(), z.null()], { error: RAIL_MESSAGES.maxAmount })
      .optional()
      .transform((input, ctx): number | null | undefined => {
        if (input === undefined) return undefined;
        if (input === null || input === "") return null;
        const scaled = toScaled(
          input,
          2,
          1_000_000_000,
          { required: RAIL_MESSAGES.maxAmount, range: RAIL_MESSAGES.maxAmount, step: RAIL_MESSAGES.maxAmount },
          ctx,
        );
        if (scaled === 0) ctx.addIssue({ code: "custom", message: RAIL_MESSAGES.maxAmount });
        return scaled;
      })
      .describe("In the fee currency, step 0.01; null or empty: no maximum; absent: unchanged"),
    settlementSeconds: z
      .number({ error: RAIL_MESSAGES.settlementSeconds })
      .int(RAIL_MESSAGES.settlementSeconds)
      .min(1, RAIL_MESSAGES.settlementSeconds)
      .max(MAX_SETTLEMENT_SECONDS, RAIL_MESSAGES.settlementSeconds)
      .optional()
      .describe("Seconds until the money arrives; absent: unchanged"),
  })
  .strict()
  .superRefine((edit, ctx) => {
    if (typeof edit.minAmount === "number" && typeof edit.maxAmount === "number" && edit.minAmount > edit.maxAmount)
      ctx.addIssue({ code: "custom", path: ["minAmount"], message: RAIL_MESSAGES.minAboveMax });
  });
/** What the form holds (numbers or strings as typed). */
export type RailEditFormValues = z.input<typeof RailEditInput>;
/** The parsed form: scaled integers (fixedFee in cents, fxSpreadPercent in 0.001 %, slaTarget and errorInjectionPercent in 0.1 %). */
export type RailEditParsed = z.output<typeof RailEditInput>;

/** The stored fields an edit sets, in stored units. */
export interface RailPatch {
  name: string;
  type: RailType;
  status: RailStatus;
  fixedFee: string;
  fixedFeeMinor: number;
  fxSpread: number;
  slaTarget: number;
  errorInjection: number;
  feeCurrency: Currency;
  currencies: Currency[];
  countries: string[];
  minAmount: string;
  minAmountMinor: number;
  maxAmount: string | null;
  maxAmountMinor: number | null;
  settlementSeconds: number;
}

/** What a rail carries, as an edit falls back to when a field is absent. */
export type RailCarriage = Pick<
  Rail,
  "feeCurrency" | "currencies" | "countries" | "minAmountMinor" | "maxAmountMinor" | "settlementSeconds"
>;

/** Hundredths (the form's step) in a currency's minor units; null when the currency has no such fraction (JPY 0.50). */
function hundredthsToMinor(hundredths: number, currency: Currency): number | null {
  const decimals = minorUnits(currency);
  if (decimals >= 2) return hundredths * 10 ** (decimals - 2);
  const divisor = 10 ** (2 - decimals);
  return hundredths % divisor === 0 ? hundredths / divisor : null;
}

/**
 * Form units to stored units: percent ÷ 100 for FX spread and error injection (exact: an FX
 * spread of 0.5 % is 500 thousandths of a percent = 500 / 100,000 = 0.005); the fixed fee and the
 * amount limits in the fee currency's minor units. Fields the edit leaves out keep `current`'s
 * values (the amounts, when only the fee currency changes, keep their minor units). Throws a
 * RangeError with the message when an amount has decimals its currency lacks.
 */
export function railPatchFromEdit(edit: RailEditParsed, current: RailCarriage): RailPatch {
  const injectionTenths = typeof edit.errorInjectionPercent === "number" ? edit.errorInjectionPercent : 0;
  const feeCurrency = edit.feeCurrency ?? current.feeCurrency;
  const minor = (hundredths: number) => {
    const value = hundredthsToMinor(hundredths, feeCurrency);
    if (value === null) throw new RangeError(RAIL_MESSAGES.wholeAmounts(feeCurrency));
    return value;
  };
  const fixedFeeMinor = minor(edit.fixedFee);
  const minAmountMinor = edit.minAmount === undefined ? current.minAmountMinor : minor(edit.minAmount);
  const maxAmountMinor =
    edit.maxAmount === undefined ? current.maxAmountMinor : edit.maxAmount === null ? null : minor(edit.maxAmount);
  if (maxAmountMinor !== null && minAmountMinor > maxAmountMinor) throw new RangeError(RAIL_MESSAGES.minAboveMax);
  return {
    name: edit.name,
    type: edit.type,
    status: edit.status,
    fixedFee: toDecimalString(fixedFeeMinor, feeCurrency),
    fixedFeeMinor,
    fxSpread: edit.fxSpreadPercent / SPREAD_SCALE,
    slaTarget: edit.slaTarget / 10,
    errorInjection: injectionTenths / 1000,
    feeCurrency,
    currencies: edit.currencies ?? current.currencies,
    countries: edit.countries ?? current.countries,
    minAmount: toDecimalString(minAmountMinor, feeCurrency),
    minAmountMinor,
    maxAmount: maxAmountMinor === null ? null : toDecimalString(maxAmountMinor, feeCurrency),
    maxAmountMinor,
    settlementSeconds: edit.settlementSeconds ?? current.settlementSeconds,
  };
}

/** A rail's editable fields as the form shows them (percent for FX spread and error injection). */
export function railEditDefaults(rail: Rail): RailEditFormValues {
  return {
    name: rail.name,
    type: rail.type,
    status: rail.status,
    fixedFee: rail.fixedFee,
    fxSpreadPercent: fractionToPercentText(rail.fxSpread, 3),
    slaTarget: String(rail.slaTarget),
    errorInjectionPercent: fractionToPercentText(rail.errorInjection, 1),
    version: rail.version,
    feeCurrency: rail.feeCurrency,
    currencies: rail.currencies,
    countries: rail.countries,
    minAmount: rail.minAmount,
    maxAmount: rail.maxAmount ?? "",
    settlementSeconds: rail.settlementSeconds,
  };
}

/** 0.005 -> "0.5" (percent, at most `decimals` places, trailing zeros dropped). */
export function fractionToPercentText(value: number, decimals = 3): string {
  const scaled = Math.round(value * 100 * 10 ** decimals);
  const digits = String(scaled).padStart(decimals + 1, "0");
  if (decimals === 0) return digits;
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`.replace(/\.?0+$/, "");
}

/* ---------- the cost formula (spec §9) ---------- */

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
  /** The fixed fee's currency; absent: USD (the console's figures before rails had a fee currency). */
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
 * THE cost of sending `amountMinor` of `currency` over a rail (spec §9), paid out in
 * `payoutCurrency` (the same by default: every payment on this platform arrives in the currency
 * it was sent in):
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

/* ---------- what a rail can carry ---------- */

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

/* ---------- cost percentage and colour band ---------- */

export const COST_BANDS = ["green", "yellow", "red"] as const;
export type CostBand = (typeof COST_BANDS)[number];

/** Cost as a percentage of the amount, rounded half-up to 3 decimals (null when the amount is 0). */
export function costPercent(totalMinor: number, amountMinor: number): number | null {
  if (amountMinor <= 0) return null;
  return Number(divideHalfUp(BigInt(totalMinor) * 100_000n, BigInt(amountMinor))) / 1000;
}

/**
 * Spec §9: green under 1 %, yellow under 2 %, red otherwise. Decided on the exact ratio of the
 * integers, not on the rounded percentage: a cost of 0.99996 % shows as 1 (3 decimals) but is
 * green, since it is under 1 %.
 */
export function costBand(totalMinor: number, amountMinor: number): CostBand | null {
  if (amountMinor <= 0) return null;
  if (totalMinor * 100 < amountMinor) return "green";
  if (totalMinor * 50 < amountMinor) return "yellow";
  return "red";
}

/** The same bands for a percentage already computed (e.g. a value a chart shows). */
export function costBandOfPercent(percent: number): CostBand {
  return percent < 1 ? "green" : percent < 2 ? "yellow" : "red";
}

/** Error-rate bar colour (spec §9): under 1 % green, under 5 % yellow, otherwise red. */
export function errorRateBand(errorRatePercent: number): CostBand {
  return errorRatePercent < 1 ? "green" : errorRatePercent < 5 ? "yellow" : "red";
}

/* ---------- quotes across rails ---------- */

export interface QuoteRail extends RailFees, RailCoverage {
  id: string;
  status: RailStatus;
  avgProcessingTime: number;
  successRate: number;
  settlementSeconds: number;
  feeCurrency: Currency;
}

/** The spec's Rail cost result, with minor units beside the decimal strings. */
export interface RailCostResult {
  railId: string;
  name: string;
  totalCost: string;
  totalCostMinor: number;
  breakdown: { fixedFee: string; fxSpread: string; networkFee: string };
  breakdownMinor: CostBreakdownMinor;
  /** The fixed fee in the rail's own currency and the rate it was converted at (null: not converted). */
  fixedFeeOriginal: { amount: string; currency: Currency; rate: string | null };
  /** The cheapest ELIGIBLE rail (exactly one when any rail is eligible). */
  isOptimal: boolean;
  eligible: boolean;
  /** Why the rail cannot carry this payment; null when it can. */
  ineligibleReason: string | null;
  /** The rail's average processing time, seconds. */
  estimatedTime: number;
  settlementSeconds: number;
  costPercent: number;
  costBand: CostBand;
}

export interface QuoteOptions {
  /** What arrives; the amount's currency by default (no conversion: no FX spread). */
  payoutCurrency?: Currency | undefined;
  /** Where it goes; the payout currency's home country by default (regions.ts). */
  country?: string | undefined;
}

/**
 * Every ACTIVE rail's cost for the amount, in the given rails' order, each marked eligible or not
 * (with the reason). Exactly one ELIGIBLE rail is `isOptimal` (spec §9 "Best Option"): the lowest
 * total; ties (equal totals in minor units) go to the faster rail (lower average time), then the
 * higher success rate, then the rail id alphabetically. A rail that cannot carry the payment is
 * never the Best Option, however cheap. Costs only when the amount is above 0 (spec §5): an
 * amount of 0 gives no results.
 */
export function quoteRails(
  rails: readonly QuoteRail[],
  amountMinor: number,
  currency: Currency,
  options: QuoteOptions = {},
): RailCostResult[] {
  if (amountMinor <= 0) return [];
  const payoutCurrency = options.payoutCurrency ?? currency;
  const country = options.country ?? CURRENCY_HOME_COUNTRY[payoutCurrency];
  const active = rails.filter((rail) => rail.status === "active");
  const results: RailCostResult[] = active.map((rail) => {
    const { totalMinor, breakdownMinor, fixedFeeOriginal } = railCostMinor(rail, amountMinor, currency, payoutCurrency);
    const reason = ineligibility(rail, {
      amountMinor: convertMinor(amountMinor, currency, payoutCurrency),
      currency: payoutCurrency,
      country,
    });
    return {
      railId: rail.id,
      name: rail.name,
      totalCost: toDecimalString(totalMinor, currency),
      totalCostMinor: totalMinor,
      breakdown: {
        fixedFee: toDecimalString(breakdownMinor.fixedFee, currency),
        fxSpread: toDecimalString(breakdownMinor.fxSpread, currency),
        networkFee: toDecimalString(breakdownMinor.networkFee, currency),
      },
      breakdownMinor,
      fixedFeeOriginal: {
        amount: toDecimalString(fixedFeeOriginal.minor, fixedFeeOriginal.currency),
        currency: fixedFeeOriginal.currency,
        rate: fixedFeeOriginal.rate,
      },
      isOptimal: false,
      eligible: reason === null,
      ineligibleReason: reason,
      estimatedTime: rail.avgProcessingTime,
      settlementSeconds: rail.settlementSeconds,
      costPercent: costPercent(totalMinor, amountMinor) ?? 0,
      costBand: costBand(totalMinor, amountMinor) ?? "green",
    };
  });
  const best = optimalIndex(active, results);
  if (best >= 0) results[best]!.isOptimal = true;
  return results;
}

function optimalIndex(rails: readonly QuoteRail[], results: readonly RailCostResult[]): number {
  let best = -1;
  results.forEach((result, index) => {
    if (!result.eligible) return;
    if (best < 0) {
      best = index;
      return;
    }
    const a = result;
    const b = results[best]!;
    const railA = rails[index]!;
    const railB = rails[best]!;
    const better =
      a.totalCostMinor !== b.totalCostMinor
        ? a.totalCostMinor < b.totalCostMinor
        : railA.avgProcessingTime !== railB.avgProcessingTime
          ? railA.avgProcessingTime < railB.avgProcessingTime
          : railA.successRate !== railB.successRate
            ? railA.successRate > railB.successRate
            : railA.id < railB.id;
    if (better) best = index;
  });
  return best;
}

/**
 * The simulator's savings: the Best Option against a baseline, the default rail (the first
 * eligible rail in console order, what a fixed priority order would use). The Best Option is the
 * cheapest eligible rail and the baseline is eligible, so the saving is never negative; with no
 * eligible rail there is neither.
 */
export interface QuoteSavings {
  baselineRailId: string;
  baselineName: string;
  optimalRailId: string;
  savingMinor: number;
}

export function quoteSavings(results: readonly RailCostResult[]): QuoteSavings | null {
  const baseline = results.find((result) => result.eligible);
  const optimal = results.find((result) => result.isOptimal);
  if (!baseline || !optimal) return null;
  return {
    baselineRailId: baseline.railId,
    baselineName: baseline.name,
    optimalRailId: optimal.railId,
    savingMinor: baseline.totalCostMinor - optimal.totalCostMinor,
  };
}

/* ---------- the quote request ---------- */

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
 * The simulator's amount (spec §5): floored at 0, invalid input counts as 0. Extra decimals
 * beyond the currency's are cut off (floor), so typing "10.999" in USD simulates 10.99.
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
