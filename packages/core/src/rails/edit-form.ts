import { z } from "zod";
import { CURRENCIES, minorUnits, toDecimalString, type Currency } from "../money/model";
import {
  COVERAGE_ENTRY,
  MAX_FIXED_FEE_USD,
  MAX_SETTLEMENT_SECONDS,
  RAIL_STATUSES,
  RAIL_TYPES,
  SPREAD_SCALE,
  type Rail,
  type RailStatus,
  type RailType,
} from "./model";
import { isRegionName } from "./regions";

/**
 * The rail edit form (docs/product/payment-rails.md#validation): what an admin enters, its
 * validation and messages, and the conversion between form units and stored units (model.ts says
 * which is which). Browser-safe (the rails console imports it): zod, money/model and the rails
 * models only.
 */

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
 * The edit form / PUT body: what an admin enters (docs/product/payment-rails.md#validation). Fixed
 * fee in USD (step 0.01), FX spread and error injection in PERCENT (steps 0.001 % and 0.1 %), SLA
 * target in percent (step 0.1). `version` (optional) is the rail version the edit started from: a
 * rail changed since is not overwritten (409). Output: the stored units (see railPatchFromEdit).
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
/**
 * The parsed form: scaled integers (fixedFee in cents, fxSpreadPercent in 0.001 %, slaTarget and
 * errorInjectionPercent in 0.1 %).
 */
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
