import { z } from "zod";
import { Currency } from "../money/model";
import { ScreeningDecision } from "../screening/model";

/**
 * Payments (issue 12, spec 001 §3 and §7): the shapes every part of the product shares, the
 * request body, the stored payment as the API returns it, its attempts, the routing decision and
 * the four payment events. Safe to import from the browser: zod and pure functions only.
 *
 * Lifecycle: pending (created: the amount plus the quoted fee is held by a draft journal) ->
 * processing (an attempt is in flight on a rail) -> completed (the journal is posted) | failed
 * (the journal is voided: the hold is released). A retriable failure of the first attempt starts
 * a second one on the next-best rail; a payment has at most MAX_ATTEMPTS attempts.
 *
 * A step that cannot be run at all (the worker throws, MAX_STEP_FAILURES times in a row) parks
 * its payment for review instead of being retried forever: the hold is voided, the payment is
 * `parked` with the reason in failureReason, and an admin sees it in the review list. An admin may
 * close a parked payment (-> failed); it is never resumed, since the hold is gone and placing a
 * new one would be a new decision on the payer's money that the payer did not take.
 *
 * A payment that needs a person's decision before it moves is created with its hold but nothing
 * scheduled (no due marker: the worker and the sweeper never see it): `held_for_review` when its
 * payee's name matched a sanctions list (screening/), `awaiting_approval` when its amount is above
 * the four-eyes threshold (approvals/). An administrator other than the payer approves it (it
 * becomes pending, its first step due at once) or rejects it (the hold is voided, it ends failed),
 * always with a reason, recorded in its history (payments/decisions.ts).
 */

export const PAYMENT_STATUSES = ["pending", "processing", "completed", "failed", "parked", "held_for_review", "awaiting_approval"] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;
/** Statuses with a next step still to come (the worker's concern). */
export const ACTIVE_PAYMENT_STATUSES = ["pending", "processing"] as const satisfies readonly PaymentStatus[];
export const isActiveStatus = (status: PaymentStatus): boolean => (ACTIVE_PAYMENT_STATUSES as readonly PaymentStatus[]).includes(status);
/** Statuses that wait for an administrator's decision (their hold in place, nothing scheduled). */
export const WAITING_PAYMENT_STATUSES = ["held_for_review", "awaiting_approval"] as const satisfies readonly PaymentStatus[];
export const isWaitingForDecision = (status: PaymentStatus): boolean => (WAITING_PAYMENT_STATUSES as readonly PaymentStatus[]).includes(status);

/** At most this many attempts per payment: the first, and one retry on the next-best rail. */
export const MAX_ATTEMPTS = 2;

/**
 * A payment step that throws this many times in a row parks its payment for review. With the
 * retry waits below (STEP_RETRY_BASE_MS doubling) the last try comes about 7.5 minutes after the
 * first failure: long enough to ride out a brief outage of the store, short enough that a payer's
 * funds are not held for a step that can never run.
 */
export const MAX_STEP_FAILURES = 5;
/** The log line of each parking: a stable message, which the cloud's log metric filter counts (stacks/PaymentWorker.ts). */
export const PAYMENT_PARKED_LOG_MESSAGE = "payment parked for review";
/** The wait before a failed step is tried again: this, doubled after each further failure. */
export const STEP_RETRY_BASE_MS = 30_000;
/**
 * How long a worker holds a step's lease while it runs it: longer than any run may take (the
 * cloud worker's timeout must stay below it), so a lease only runs out when its worker died.
 */
export const STEP_LEASE_MS = 60_000;

/** The wait after the `failures`-th failure of a step before it is tried again. */
export const stepRetryDelayMs = (failures: number): number => STEP_RETRY_BASE_MS * 2 ** Math.max(0, Math.min(10, failures - 1));

export const PAYMENT_MESSAGES = {
  userIdRequired: "userId is required",
  userIdNotCaller: "userId must be your own user id",
  fromAccountRequired: "fromAccountId is required",
  accountIdInvalid: "Account ids are 1 to 64 letters, digits or dashes",
  description: "description must be at most 500 characters",
  railName: "A rail name is 1 to 60 characters",
  onePayee: "Give exactly one payee: toAccountId, toEmail or beneficiary",
  email: "toEmail must be an email address (at most 254 characters)",
  beneficiaryName: "beneficiary.name must be 1 to 140 characters",
  beneficiaryAccount: "beneficiary.accountNumber must be 4 to 34 letters or digits",
  beneficiaryBank: "beneficiary.bankCode must be at most 20 letters, digits or dashes",
  beneficiaryCountry: "beneficiary.country must be an ISO 3166-1 alpha-2 country code (e.g. DE)",
  paymentNotFound: "Payment not found",
  sameAccount: "The payee account must differ from the paying account",
  payeeCurrency: (payee: string, currency: string) => `The payee account is in ${payee}, not the payment currency ${currency}`,
  payerCurrency: (account: string, currency: string) => `The paying account is in ${account}, not the payment currency ${currency}`,
  /** The same for an unknown email and a user without such an account: the form does not tell who is registered. */
  payeeCannotReceive: (currency: string) => `No user with this email address can receive ${currency} payments here (they need an active ${currency} account)`,
  selfByEmail: "To pay yourself, use toAccountId with one of your own accounts",
  accountInactive: (role: "paying" | "payee", name: string) => `The ${role} account is not active: ${name}`,
  notMoneyAccount: (name: string) => `${name} cannot send or receive payments: use a bank, cash or asset account`,
  parked: (failures: number) =>
    `The payment could not be processed (its next step failed ${failures} times) and is held for review. Nothing was paid: the held amount and fee are available again.`,
  notParked: "Only a payment parked for review can be closed",
  reviewNote: "note must be 1 to 500 characters",
  closedAfterReview: "Closed after review: nothing was paid.",
  notWaiting: "Only a payment held for review or awaiting approval can be approved or rejected",
  ownPayment: "You made this payment: an administrator other than you must decide it.",
  released: "Released after review: the payment is on its way.",
  approved: "Approved by a second person: the payment is on its way.",
  refusedAfterReview: "Refused after review: nothing was paid; the held amount and fee are available again.",
} as const;

const ACCOUNT_ID = /^[A-Za-z0-9-]{1,64}$/;
const accountId = (required: string) => z.string({ error: required }).trim().min(1, required).regex(ACCOUNT_ID, PAYMENT_MESSAGES.accountIdInvalid);
const railName = z.string({ error: PAYMENT_MESSAGES.railName }).trim().min(1, PAYMENT_MESSAGES.railName).max(60, PAYMENT_MESSAGES.railName);

export const Beneficiary = z
  .object({
    name: z.string({ error: PAYMENT_MESSAGES.beneficiaryName }).trim().min(1, PAYMENT_MESSAGES.beneficiaryName).max(140, PAYMENT_MESSAGES.beneficiaryName),
    accountNumber: z.string({ error: PAYMENT_MESSAGES.beneficiaryAccount }).trim().regex(/^[A-Za-z0-9]{4,34}$/, PAYMENT_MESSAGES.beneficiaryAccount),
    bankCode: z.string({ error: PAYMENT_MESSAGES.beneficiaryBank }).trim().regex(/^[A-Za-z0-9-]{0,20}$/, PAYMENT_MESSAGES.beneficiaryBank).optional(),
    country: z
      .string({ error: PAYMENT_MESSAGES.beneficiaryCountry })
      .trim()
      .transform((text) => text.toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}$/, PAYMENT_MESSAGES.beneficiaryCountry)),
  })
  .strict();
export type Beneficiary = z.infer<typeof Beneficiary>;

/**
 * POST /v1/payments and the stream's initiatePayment command (spec 001 §7 names). The amount is
 * checked against the currency by the service (parseAmount: decimal notation, > 0, at most the
 * currency's minor digits), since its rule depends on the currency field.
 */
export const CreatePaymentInput = z
  .object({
    userId: z.string({ error: PAYMENT_MESSAGES.userIdRequired }).trim().min(1, PAYMENT_MESSAGES.userIdRequired).max(64, PAYMENT_MESSAGES.userIdNotCaller),
    fromAccountId: accountId(PAYMENT_MESSAGES.fromAccountRequired),
    amount: z.union([z.string(), z.number()], { error: "Amount is required" }).describe("Decimal string or number, > 0, at most the currency's decimals"),
    currency: Currency,
    description: z.string({ error: PAYMENT_MESSAGES.description }).trim().max(500, PAYMENT_MESSAGES.description).optional(),
    preferredRail: railName.optional().describe("A rail's name (e.g. ACH): chosen when active and not eliminated"),
    forceRail: railName.optional().describe("A rail's name: used whatever its score (must be active)"),
    toAccountId: accountId("toAccountId is required").optional().describe("Another account of yours"),
    toEmail: z.email({ error: PAYMENT_MESSAGES.email }).max(254, PAYMENT_MESSAGES.email).optional().describe("Another user of the platform: their oldest active account in the currency receives it"),
    beneficiary: Beneficiary.optional().describe("An external beneficiary: posted to the clearing account of the currency"),
  })
  .strip()
  .refine((input) => [input.toAccountId, input.toEmail, input.beneficiary].filter((payee) => payee !== undefined).length === 1, {
    error: PAYMENT_MESSAGES.onePayee,
    path: ["payee"],
  });
export type CreatePaymentInput = z.infer<typeof CreatePaymentInput>;
/** What a client sends (before trimming and upper-casing). */
export type CreatePaymentRequest = z.input<typeof CreatePaymentInput>;

export const ATTEMPT_STATUSES = ["in_flight", "succeeded", "failed"] as const;

export const PaymentAttempt = z.object({
  number: z.number().int().min(1),
  railId: z.string(),
  rail: z.string().describe("The rail's name"),
  status: z.enum(ATTEMPT_STATUSES),
  startedAt: z.string(),
  dueAt: z.string().describe("When the rail's answer is due (start + the rail's average processing time)"),
  finishedAt: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  retriable: z.boolean().nullable(),
});
export type PaymentAttempt = z.infer<typeof PaymentAttempt>;

export const ROUTING_STRATEGIES = ["expected_value", "forced", "preferred", "exploration"] as const;

export const RoutingCandidate = z.object({
  railId: z.string(),
  rail: z.string(),
  status: z.string(),
  costMinor: z.number().int(),
  cost: z.string(),
  successRate: z.number().min(0).max(1).describe("The success estimate used (0..1)"),
  attemptsInWindow: z.number().int().min(0),
  avgProcessingTime: z.number().min(0).describe("Seconds"),
  slaTarget: z.number(),
  score: z.number().describe("Expected value, minor units"),
  eliminated: z.boolean(),
  note: z.string(),
});
export type RoutingCandidate = z.infer<typeof RoutingCandidate>;

export const RoutingDecision = z.object({
  strategy: z.enum(ROUTING_STRATEGIES),
  chosenRailId: z.string(),
  chosenRail: z.string(),
  defaultRailId: z.string(),
  defaultRail: z.string(),
  currency: Currency,
  amountMinor: z.number().int(),
  savingMinor: z.number().int().describe("Cost on the default rail minus cost on the chosen one (may be < 0)"),
  saving: z.string(),
  reason: z.string(),
  decidedAt: z.string(),
  candidates: z.array(RoutingCandidate),
});
export type RoutingDecision = z.infer<typeof RoutingDecision>;

export const PaymentPayee = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("account"), accountId: z.string() }),
  z.object({ kind: z.literal("user"), email: z.string() }),
  z.object({ kind: z.literal("external"), name: z.string(), accountLast4: z.string(), country: z.string() }),
]);
export type PaymentPayee = z.infer<typeof PaymentPayee>;

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const FeeBreakdown = z.object({ fixedFee: decimal, fxSpread: decimal, networkFee: decimal });
export type FeeBreakdown = z.infer<typeof FeeBreakdown>;

/** A payment as the API returns it (GET /v1/payments/{id}, list items, the POST reply's `payment`). */
export const Payment = z.object({
  paymentId: z.string(),
  userId: z.string(),
  status: PaymentStatus,
  amount: decimal,
  amountMinor: z.number().int().positive(),
  currency: Currency,
  fee: decimal,
  feeMinor: z.number().int().min(0),
  feeBreakdown: FeeBreakdown,
  selectedRail: z.string().describe("Name of the current (or last) attempt's rail"),
  railId: z.string(),
  fromAccountId: z.string(),
  payee: PaymentPayee,
  description: z.string(),
  attempts: z.array(PaymentAttempt),
  routing: RoutingDecision,
  journalId: z.string(),
  estimatedFee: decimal,
  estimatedTime: z.string().describe('The chosen rail\'s average processing time, e.g. "1.2 s"'),
  fxRate: z.number(),
  initiatedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  failureReason: z.string().nullable().describe("Why the payment failed (or was refused after review), or why it was parked for review; null otherwise"),
});
export type Payment = z.infer<typeof Payment>;

export const CreatePaymentReply = z.object({ message: z.literal("Payment initiated"), payment: Payment });
export type CreatePaymentReply = z.infer<typeof CreatePaymentReply>;

export const PaymentList = z.object({ data: z.array(Payment), pagination: z.object({ next_cursor: z.string().nullable() }) });
export type PaymentList = z.infer<typeof PaymentList>;

/* ---------- the four payment events (spec 001 §3) ---------- */

export const PAYMENT_EVENT_TYPES = ["paymentInitiated", "paymentStatusUpdate", "paymentCompleted", "paymentError"] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

export const PaymentInitiatedData = z.object({
  paymentId: z.string(),
  amount: decimal,
  currency: Currency,
  selectedRail: z.string(),
  estimatedFee: decimal,
  estimatedTime: z.string(),
  fxRate: z.number(),
  message: z.string(),
  initiatedAt: z.string(),
});
export const PaymentStatusUpdateData = z.object({ paymentId: z.string(), status: PaymentStatus, message: z.string() });
export const PaymentCompletedData = z.object({ paymentId: z.string(), completedAt: z.string(), finalAmount: decimal, railUsed: z.string() });
export const PaymentErrorData = z.object({ paymentId: z.string(), errorMessage: z.string() });

export const PaymentEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("paymentInitiated"), data: PaymentInitiatedData }),
  z.object({ type: z.literal("paymentStatusUpdate"), data: PaymentStatusUpdateData }),
  z.object({ type: z.literal("paymentCompleted"), data: PaymentCompletedData }),
  z.object({ type: z.literal("paymentError"), data: PaymentErrorData }),
]);
export type PaymentEvent = z.infer<typeof PaymentEvent>;

/** One entry of a payment's history (the outbox the payment feed reads; contract §2). */
export const PaymentHistoryEntry = z.object({
  seq: z.number().int().min(1),
  at: z.string(),
  status: PaymentStatus.describe("The payment's status after the change"),
  event: PaymentEvent.nullable(),
  note: z.string().optional(),
});
export type PaymentHistoryEntry = z.infer<typeof PaymentHistoryEntry>;

/* ---------- list filters ---------- */

export const PAYMENT_LIST_MAX = 100;
export const PaymentListQuery = z.object({
  status: z
    .preprocess((value) => (value === "" ? undefined : typeof value === "string" ? value.toLowerCase() : value), z.enum(PAYMENT_STATUSES, { error: `status must be one of ${PAYMENT_STATUSES.join(", ")}` }).optional())
    .describe(`${PAYMENT_STATUSES.join(", ")} (any case)`),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}` })
    .int(`limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}`)
    .max(PAYMENT_LIST_MAX, `limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}`)
    .default(20),
  cursor: z.string().max(2000, "cursor is not valid").optional(),
});
export type PaymentListQuery = z.infer<typeof PaymentListQuery>;

/* ---------- review of parked payments (admins) ---------- */

/** A parked payment as the review list shows it to an admin. */
export const ParkedPayment = z.object({
  paymentId: z.string(),
  userId: z.string(),
  status: PaymentStatus.describe("parked, or failed once an admin closed it"),
  amount: decimal,
  currency: Currency,
  selectedRail: z.string(),
  stuckStatus: PaymentStatus.describe("The status the payment was in when its step kept failing (pending or processing)"),
  stepFailures: z.number().int().min(1),
  lastError: z.string().describe("The last error of the failing step, as the worker logged it"),
  reason: z.string().describe("What the payer reads (the payment's failureReason)"),
  parkedAt: z.string(),
  closedAt: z.string().nullable(),
  closedBy: z.string().nullable(),
  note: z.string().nullable().describe("The admin's note when closing"),
});
export type ParkedPayment = z.infer<typeof ParkedPayment>;

export const PARKED_LIST_MAX = 100;
export const ParkedListQuery = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${PARKED_LIST_MAX}` })
    .int(`limit must be a whole number from 1 to ${PARKED_LIST_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${PARKED_LIST_MAX}`)
    .max(PARKED_LIST_MAX, `limit must be a whole number from 1 to ${PARKED_LIST_MAX}`)
    .default(50),
  cursor: z.string().max(2000, "cursor is not valid").optional(),
});
export type ParkedListQuery = z.infer<typeof ParkedListQuery>;

export const CloseParkedInput = z
  .object({ note: z.string({ error: PAYMENT_MESSAGES.reviewNote }).trim().min(1, PAYMENT_MESSAGES.reviewNote).max(500, PAYMENT_MESSAGES.reviewNote) })
  .strict();
export type CloseParkedInput = z.infer<typeof CloseParkedInput>;

/* ---------- pure helpers ---------- */

/** A rail's average processing time as the payment shows it: 1.2 -> "1.2 s", 86400 -> "86400 s". */
export function formatProcessingTime(seconds: number): string {
  const rounded = Math.round(seconds * 10) / 10;
  return `${rounded} s`;
}

/** The last four characters of an external account number (what a payment shows of it). */
export const last4 = (accountNumber: string): string => accountNumber.slice(-4);

/* ---------- decisions on held and awaiting payments (admins) ---------- */

export const REVIEW_KINDS = ["screening", "four_eyes"] as const;
export const ReviewKind = z.enum(REVIEW_KINDS, { error: `kind must be one of ${REVIEW_KINDS.join(", ")}` });
export type ReviewKind = z.infer<typeof ReviewKind>;

/** An administrator's decision on a payment, as its audit trail keeps it. */
export const PaymentDecision = z.object({
  outcome: z.enum(["approved", "rejected"]),
  reason: z.string(),
  by: z.object({ id: z.string(), email: z.string() }),
  at: z.string(),
});
export type PaymentDecision = z.infer<typeof PaymentDecision>;

/** Why a payment waits for a person, and what was decided (stored with the payment). */
export const PaymentReview = z.object({
  kind: ReviewKind,
  openedAt: z.string(),
  why: z.string().describe("For administrators: the watchlist match, or the threshold the amount is above"),
  thresholdMinor: z.number().int().nullable(),
  decision: PaymentDecision.nullable(),
});
export type PaymentReview = z.infer<typeof PaymentReview>;

/** A payment waiting for (or past) an administrator's decision, as administrators see it. */
export const PaymentReviewCase = z.object({
  paymentId: z.string(),
  userId: z.string(),
  status: PaymentStatus,
  kind: ReviewKind.nullable().describe("Null for a payment that never waited for a decision"),
  amount: decimal,
  amountMinor: z.number().int().positive(),
  currency: Currency,
  fee: decimal,
  payee: PaymentPayee,
  description: z.string(),
  createdAt: z.string(),
  why: z.string().nullable(),
  screening: ScreeningDecision.nullable().describe("The payee's screening (list, matched entry, score, screened name and country, when)"),
  decision: PaymentDecision.nullable(),
  canDecide: z.boolean().describe("True while it waits and the signed-in administrator did not make it"),
  cannotDecideReason: z.string().nullable(),
});
export type PaymentReviewCase = z.infer<typeof PaymentReviewCase>;

export const REVIEW_LIST_MAX = 100;
export const ReviewListQuery = z.object({
  kind: z.preprocess((value) => (value === "" ? undefined : value), ReviewKind.optional()).describe("screening or four_eyes; both when absent"),
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${REVIEW_LIST_MAX}` })
    .int(`limit must be a whole number from 1 to ${REVIEW_LIST_MAX}`)
    .min(1, `limit must be a whole number from 1 to ${REVIEW_LIST_MAX}`)
    .max(REVIEW_LIST_MAX, `limit must be a whole number from 1 to ${REVIEW_LIST_MAX}`)
    .default(50),
  cursor: z.string().max(2000, "cursor is not valid").optional(),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

/** An administrator's decision: approve or reject, always with a reason (the same input as a deposit's). */
export { DecisionInput as DecidePaymentInput } from "../approvals/model";
