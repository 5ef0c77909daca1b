import { z } from "zod";
import { Currency, CURRENCIES, toDecimalString } from "../money/model";

/**
 * Four eyes (maker-checker, docs/trust-and-safety.md#four-eyes): a deposit or payment above its
 * currency's threshold is never approved by the person who made it. A deposit draft above it waits
 * for an administrator other than its creator and its owner; a payment above it is created
 * `awaiting_approval` (its hold placed, nothing scheduled) until an administrator other than the
 * payer approves (it is then scheduled) or rejects it (the hold is voided). Thresholds are data:
 * seeded (approvals/default-thresholds.ts) and edited by administrators. Safe to import from the
 * browser: zod and pure functions only.
 */

export const FOUR_EYES_KINDS = ["deposit", "payment"] as const;
export const FourEyesKind = z.enum(FOUR_EYES_KINDS, { error: `kind must be one of ${FOUR_EYES_KINDS.join(", ")}` });
export type FourEyesKind = z.infer<typeof FourEyesKind>;

/** Thresholds in minor units, per kind and currency. */
export type ThresholdTable = Record<FourEyesKind, Record<Currency, number>>;

/** Whether an amount needs a second person: strictly above the threshold. */
export const needsSecondApprover = (thresholdMinor: number, amountMinor: number): boolean =>
  amountMinor > thresholdMinor;

const money = (minor: number, currency: Currency) =>
  `${Number(toDecimalString(minor, currency)).toLocaleString("en-US", { minimumFractionDigits: CURRENCIES[currency], maximumFractionDigits: CURRENCIES[currency] })} ${currency}`;

export const APPROVAL_MESSAGES = {
  /** The owner's post refused: what they read, and what happens next. */
  depositNeedsSecondApprover: (thresholdMinor: number, currency: Currency) =>
    `Deposits above ${money(thresholdMinor, currency)} are approved by an administrator other than the person who made them: this one is waiting for approval by another admin.`,
  paymentAwaitingApproval: (thresholdMinor: number, currency: Currency) =>
    `Payments above ${money(thresholdMinor, currency)} need approval by a second person: this one is awaiting approval by an administrator. The amount and fee stay held meanwhile.`,
  ownRequest: (what: "deposit" | "payment") => `You made this ${what}: an administrator other than you must decide it.`,
  ownerOfDeposit: "This deposit is into your own account: an administrator other than you must decide it.",
  reason: "reason must be 1 to 500 characters",
  notAwaitingDeposit: "Only a draft deposit above the approval threshold can be approved or rejected here",
  depositNotFound: "Deposit not found",
  thresholdsChanged: "The thresholds were changed meanwhile: reload them and try again",
  thresholdAmount: "amount must be a decimal amount greater than 0 in the currency (e.g. 10000.00)",
} as const;

/** The money text of a threshold, e.g. "10,000.00 USD" (for messages). */
export const thresholdText = money;

/** An administrator's decision: approve or reject, always with a reason (kept in the audit trail). */
export const DecisionInput = z
  .object({
    decision: z.enum(["approve", "reject"], { error: "decision must be approve or reject" }),
    reason: z
      .string({ error: APPROVAL_MESSAGES.reason })
      .trim()
      .min(1, APPROVAL_MESSAGES.reason)
      .max(500, APPROVAL_MESSAGES.reason),
  })
  .strict();
export type DecisionInput = z.infer<typeof DecisionInput>;

/** Who decides: the administrator, as the audit trail records them. */
export interface Reviewer {
  id: string;
  email: string;
  name: string;
}

/** One threshold as the API shows it. */
export const ThresholdRow = z.object({
  kind: FourEyesKind,
  currency: Currency,
  amount: z.string().describe("Decimal string: amounts strictly above it need a second person"),
  amount_minor: z.number().int().positive(),
});
export type ThresholdRow = z.infer<typeof ThresholdRow>;

export const ThresholdsView = z.object({
  thresholds: z.array(ThresholdRow),
  version: z.number().int().min(0).describe("0 while the seeded defaults are in force"),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type ThresholdsView = z.infer<typeof ThresholdsView>;

/** PUT /api/v1/approvals/thresholds: one threshold at a time; amount in the currency's decimals. */
export const ThresholdEditInput = z
  .object({
    kind: FourEyesKind,
    currency: Currency,
    amount: z
      .union([z.string(), z.number()], { error: APPROVAL_MESSAGES.thresholdAmount })
      .describe("Decimal string or number, > 0"),
  })
  .strict();
export type ThresholdEditInput = z.infer<typeof ThresholdEditInput>;

/** A deposit draft in the administrators' approval queue. */
export const DepositApproval = z.object({
  journal_id: z.string(),
  owner_id: z.string(),
  created_by: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .describe("Who made the draft (null for drafts made without a user)"),
  account_id: z.string(),
  account_name: z.string(),
  amount: z.string(),
  amount_minor: z.number().int().positive(),
  currency: Currency,
  threshold: z.string(),
  description: z.string(),
  created_at: z.string(),
  can_decide: z.boolean().describe("False when the signed-in administrator made the deposit or owns its account"),
  cannot_decide_reason: z.string().nullable(),
});
export type DepositApproval = z.infer<typeof DepositApproval>;

/** A decision as the audit trail keeps it. */
export const DecisionRecord = z.object({
  decision: z.enum(["approve", "reject"]),
  reason: z.string(),
  decided_by: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  decided_at: z.string(),
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;

export const DEPOSIT_QUEUE_MAX = 100;
