import { z } from "zod";
import { CURRENCIES, Currency, parseAmount, toDecimalString } from "../money/model";

/**
 * Money limits per verification level
 * (docs/trust-and-safety.md#verification-levels-and-money-limits): the shapes, the messages and the
 * pure rules. Browser-safe: the limit banner and the admin's editor import these, so the screens
 * and the server say the same thing.
 *
 * Vocabulary:
 * - a level is what the caller's identity verification allows: `unverified` (no approved KYC,
 *   including a submission still pending or under review) or `verified` (approved);
 * - a movement is what a limit counts: `deposit` (money entering from outside: deposits and
 *   opening balances) or `outgoing` (money leaving for another person or an outside account:
 *   payments by email or to a beneficiary). Moving money between one's own accounts is neither;
 * - a window is rolling: `day` is the last 24 hours, `month` the last 30 days;
 * - every limit is per currency, in that currency's own amounts (an account in JPY is limited in
 *   yen, one in EUR in euros): no exchange rate decides whether a deposit fits.
 */

export const VERIFICATION_LEVELS = ["unverified", "verified"] as const;
export const VerificationLevel = z.enum(VERIFICATION_LEVELS);
export type VerificationLevel = z.infer<typeof VerificationLevel>;
export const LEVEL_LABELS: Record<VerificationLevel, string> = { unverified: "Unverified", verified: "Verified" };

/** Where a level comes from: the caller's KYC state, or an administrator's decision (audited). */
export const LEVEL_SOURCES = ["kyc", "manual"] as const;
export type LevelSource = (typeof LEVEL_SOURCES)[number];

export const MOVEMENTS = ["deposit", "outgoing"] as const;
export const Movement = z.enum(MOVEMENTS);
export type Movement = z.infer<typeof Movement>;
export const MOVEMENT_LABELS: Record<Movement, string> = { deposit: "Deposits", outgoing: "Payments to others" };
const MOVEMENT_NOUNS: Record<Movement, string> = {
  deposit: "deposits",
  outgoing: "payments to other people and outside accounts",
};

export const LIMIT_WINDOWS = ["day", "month"] as const;
export const LimitWindow = z.enum(LIMIT_WINDOWS);
export type LimitWindow = z.infer<typeof LimitWindow>;
export const WINDOW_HOURS: Record<LimitWindow, number> = { day: 24, month: 30 * 24 };
export const WINDOW_LABELS: Record<LimitWindow, string> = { day: "24 hours", month: "30 days" };
const WINDOW_ADJECTIVES: Record<LimitWindow, string> = { day: "24-hour", month: "30-day" };

/** Where an applicant completes verification: the link every refusal and the banner give. */
export const KYC_PATH = "/kyc";

/* ---------- the stored limits (minor units) ---------- */

/**
 * A limit in minor units: positive, and at most 2^50, so a window's total plus any amount one
 * journal may move stays a safe integer. (An admin's edit is at most 1,000,000,000 in major
 * units, the most one journal may move.)
 */
const LimitMinor = z
  .number()
  .int()
  .positive()
  .max(2 ** 50);

/** One amount per currency (every currency: a missing one would leave that currency unlimited). */
export const CurrencyLimits = z.record(Currency, LimitMinor);
export type CurrencyLimits = z.infer<typeof CurrencyLimits>;

export const WindowLimits = z.object({ day: CurrencyLimits, month: CurrencyLimits });
export type WindowLimits = z.infer<typeof WindowLimits>;

/** A level's limits; null: the level may not make this movement at all (403 kyc_required). */
export const UnverifiedLimits = z.object({ deposit: WindowLimits.nullable(), outgoing: WindowLimits.nullable() });
/** The top level always may: there is no further verification to ask for. */
export const VerifiedLimits = z.object({ deposit: WindowLimits, outgoing: WindowLimits });
export type LevelLimits = z.infer<typeof UnverifiedLimits>;

export const MoneyLimits = z.object({ unverified: UnverifiedLimits, verified: VerifiedLimits });
export type MoneyLimits = z.infer<typeof MoneyLimits>;

export const LimitsEditor = z.object({ id: z.string(), email: z.string() });
export type LimitsEditor = z.infer<typeof LimitsEditor>;

/** The limits in force: version 0 is the seeded default, never edited. */
export const StoredMoneyLimits = MoneyLimits.extend({
  version: z.number().int().nonnegative(),
  updated_at: z.string().nullable(),
  updated_by: LimitsEditor.nullable(),
});
export type StoredMoneyLimits = z.infer<typeof StoredMoneyLimits>;

/* ---------- the admin's edit (decimal strings) ---------- */

const AmountText = z.union([z.string().max(32, "An amount is at most 32 characters"), z.number()], {
  error: 'Each limit must be an amount, e.g. "1000.00"',
});
const CurrencyAmountsInput = z.record(Currency, AmountText, {
  error: `Give a limit for every currency: ${Object.keys(CURRENCIES).join(", ")}`,
});
const WindowAmountsInput = z
  .object({ day: CurrencyAmountsInput, month: CurrencyAmountsInput }, { error: "Give day and month limits" })
  .strict();

/**
 * PUT /api/v1/limits/settings: the whole table of limits, replaced at once. `version` is the one
 * the admin read (0 for the seeded defaults): a table changed since is not overwritten (409).
 */
export const MoneyLimitsInput = z
  .object({
    version: z.number({ error: "version is required: the version you read (0 for the defaults)" }).int().nonnegative(),
    unverified: z
      .object(
        { deposit: WindowAmountsInput.nullable(), outgoing: WindowAmountsInput.nullable() },
        { error: "unverified is required" },
      )
      .strict(),
    verified: z
      .object({ deposit: WindowAmountsInput, outgoing: WindowAmountsInput }, { error: "verified is required" })
      .strict(),
  })
  .strict();
export type MoneyLimitsInput = z.infer<typeof MoneyLimitsInput>;

/** The limits as replies and the edit form show them: decimal strings per currency. */
export type CurrencyAmounts = Record<Currency, string>;
export interface WindowAmounts {
  day: CurrencyAmounts;
  month: CurrencyAmounts;
}

export type LimitsParse = { ok: true; limits: MoneyLimits } | { ok: false; message: string };

const CURRENCY_LIST = Object.keys(CURRENCIES) as Currency[];

function parseWindow(path: string, amounts: z.infer<typeof WindowAmountsInput>): WindowLimits | string {
  const window: Partial<Record<LimitWindow, Partial<CurrencyLimits>>> = {};
  for (const name of LIMIT_WINDOWS) {
    const parsed: Partial<CurrencyLimits> = {};
    for (const currency of CURRENCY_LIST) {
      const amount = parseAmount(amounts[name][currency], currency);
      if (!amount.ok) return `${path}.${name}.${currency}: ${amount.message}`;
      parsed[currency] = amount.minor;
    }
    window[name] = parsed;
  }
  const limits = WindowLimits.parse(window);
  for (const currency of CURRENCY_LIST) {
    if (limits.day[currency] > limits.month[currency])
      return `${path}.day.${currency} cannot be more than ${path}.month.${currency}: 30 days hold every 24 hours in them`;
  }
  return limits;
}

/**
 * The edit as limits, or the first problem in words: amounts in the currency's decimals and
 * greater than zero; a day no more than its month; a verified limit no lower than the
 * unverified one (verifying never lowers a limit).
 */
export function limitsFromInput(input: MoneyLimitsInput): LimitsParse {
  const levels: Record<VerificationLevel, Partial<Record<Movement, WindowLimits | null>>> = {
    unverified: {},
    verified: {},
  };
  for (const level of VERIFICATION_LEVELS) {
    for (const movement of MOVEMENTS) {
      const amounts = input[level][movement];
      if (amounts === null) {
        levels[level][movement] = null;
        continue;
      }
      const parsed = parseWindow(`${level}.${movement}`, amounts);
      if (typeof parsed === "string") return { ok: false, message: parsed };
      levels[level][movement] = parsed;
    }
  }
  const limits = MoneyLimits.parse(levels);
  for (const movement of MOVEMENTS) {
    const lower = limits.unverified[movement];
    if (!lower) continue;
    for (const window of LIMIT_WINDOWS) {
      for (const currency of CURRENCY_LIST) {
        if (limits.verified[movement][window][currency] < lower[window][currency]) {
          return {
            ok: false,
            message: `verified.${movement}.${window}.${currency} cannot be lower than unverified.${movement}.${window}.${currency}: verifying never lowers a limit`,
          };
        }
      }
    }
  }
  return { ok: true, limits };
}

const amountsOf = (limits: CurrencyLimits): CurrencyAmounts =>
  Object.fromEntries(
    CURRENCY_LIST.map((currency) => [currency, toDecimalString(limits[currency], currency)]),
  ) as CurrencyAmounts;
const windowAmounts = (limits: WindowLimits): WindowAmounts => ({
  day: amountsOf(limits.day),
  month: amountsOf(limits.month),
});

/** The limits as decimal strings (the admin's reply and the edit form's starting point). */
export function limitsAsAmounts(limits: MoneyLimits) {
  return {
    unverified: {
      deposit: limits.unverified.deposit && windowAmounts(limits.unverified.deposit),
      outgoing: limits.unverified.outgoing && windowAmounts(limits.unverified.outgoing),
    },
    verified: { deposit: windowAmounts(limits.verified.deposit), outgoing: windowAmounts(limits.verified.outgoing) },
  };
}

/* ---------- the caller's view ---------- */

/** One limit as the caller sees it: how much of it the last window used and what remains. */
export const LimitUsage = z.object({
  movement: Movement,
  window: LimitWindow,
  currency: Currency,
  allowed: z.boolean().describe("false: this level may not make this movement at all (verify to unlock it)"),
  limit: z.string().nullable().describe("The limit in the window, decimal string; null when not allowed"),
  used: z.string().describe("What the window already counts, decimal string"),
  remaining: z.string().nullable().describe("What may still move in the window, decimal string; null when not allowed"),
  limit_minor: z.number().int().nullable(),
  used_minor: z.number().int(),
  remaining_minor: z.number().int().nullable(),
});
export type LimitUsage = z.infer<typeof LimitUsage>;

export const LimitStatus = z.object({
  level: VerificationLevel,
  level_label: z.string(),
  source: z.enum(LEVEL_SOURCES).describe("kyc: from your identity verification; manual: set by an administrator"),
  next_step: z
    .object({ href: z.string(), message: z.string() })
    .nullable()
    .describe("What raises the limits (complete verification at /kyc); null at the top level"),
  limits: z.array(LimitUsage),
});
export type LimitStatus = z.infer<typeof LimitStatus>;

/* ---------- messages ---------- */

/** "1,000.00 USD": grouped digits, the currency's decimals, the code after. */
export function formatLimitAmount(minor: number, currency: Currency): string {
  const [whole = "0", fraction] = toDecimalString(minor, currency).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${fraction === undefined ? grouped : `${grouped}.${fraction}`} ${currency}`;
}

/** What a refused movement tells the caller: the limit, the window, what remains, what unlocks more. */
export interface LimitBreach {
  level: VerificationLevel;
  movement: Movement;
  window: LimitWindow;
  currency: Currency;
  limitMinor: number;
  usedMinor: number;
  remainingMinor: number;
}

export const LIMIT_MESSAGES = {
  kycRequired: (movement: Movement) =>
    `Your identity is not verified yet, so ${MOVEMENT_NOUNS[movement]} are not available. Complete verification at ${KYC_PATH} to unlock them.`,
  nextStep: `Complete verification at ${KYC_PATH} to raise your limits and send money to others.`,
  limitExceeded: (breach: LimitBreach) => {
    const limit = `${formatLimitAmount(breach.limitMinor, breach.currency)} in ${MOVEMENT_NOUNS[breach.movement]} per ${WINDOW_LABELS[breach.window]}`;
    const unlock =
      breach.level === "unverified"
        ? `Complete verification at ${KYC_PATH} to raise it.`
        : `It frees up as earlier ${MOVEMENT_NOUNS[breach.movement]} leave the ${WINDOW_ADJECTIVES[breach.window]} window.`;
    return `This would pass your ${LEVEL_LABELS[breach.level].toLowerCase()} limit of ${limit}: ${formatLimitAmount(breach.remainingMinor, breach.currency)} remains. ${unlock}`;
  },
  limitsChanged: (version: number) =>
    `The limits were changed by someone else (now version ${version}); reload them and apply your edit again`,
  levelReason: "reason must be 1 to 500 characters",
  userNotFound: "User not found",
} as const;

/* ---------- an administrator's level for one user ---------- */

/**
 * PUT /api/v1/limits/users/{userId}/level: a level decided by a person (null: back to the KYC
 * state), with the reason kept.
 */
export const ManualLevelInput = z
  .object({
    level: VerificationLevel.nullable().describe("The level to hold regardless of KYC; null removes the override"),
    reason: z
      .string({ error: LIMIT_MESSAGES.levelReason })
      .trim()
      .min(1, LIMIT_MESSAGES.levelReason)
      .max(500, LIMIT_MESSAGES.levelReason),
  })
  .strict();
export type ManualLevelInput = z.infer<typeof ManualLevelInput>;
