import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { z } from "zod";
import type { PublicUser } from "../auth/model";
import { Currency } from "../money/model";
import { ScreeningDecision } from "../screening/model";

/**
 * Payments (docs/product/payments.md#payment-events and docs/product/payments.md#calls): the shapes
 * every part of the product shares, the request body, the stored payment as the API returns it, its
 * attempts, the routing decision and the four payment events. Safe to import from the browser: zod
 * and pure functions only.
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

export const PAYMENT_STATUSES = [
  "pending",
  "processing",
  "completed",
  "failed",
  "parked",
  "held_for_review",
  "awaiting_approval",
] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;
/** Statuses with a next step still to come (the worker's concern). */
export const ACTIVE_PAYMENT_STATUSES = ["pending", "processing"] as const satisfies readonly PaymentStatus[];
export const isActiveStatus = (status: PaymentStatus): boolean =>
  (ACTIVE_PAYMENT_STATUSES as readonly PaymentStatus[]).includes(status);
/** Statuses that wait for an administrator's decision (their hold in place, nothing scheduled). */
export const WAITING_PAYMENT_STATUSES = [
  "held_for_review",
  "awaiting_approval",
] as const satisfies readonly PaymentStatus[];
export const isWaitingForDecision = (status: PaymentStatus): boolean =>
  (WAITING_PAYMENT_STATUSES as readonly PaymentStatus[]).includes(status);

/** At most this many attempts per payment: the first, and one retry on the next-best rail. */
export const MAX_ATTEMPTS = 2;

/**
 * A payment step that throws this many times in a row parks its payment for review. With the
 * retry waits below (STEP_RETRY_BASE_MS doubling) the last try comes about 7.5 minutes after the
 * first failure: long enough to ride out a brief outage of the store, short enough that a payer's
 * funds are not held for a step that can never run.
 */
export const MAX_STEP_FAILURES = 5;
/**
 * The log line of each parking: a stable message, which the cloud's log metric filter counts
 * (stacks/PaymentWorker.ts).
 */
export const PAYMENT_PARKED_LOG_MESSAGE = "payment parked for review";
/** The wait before a failed step is tried again: this, doubled after each further failure. */
export const STEP_RETRY_BASE_MS = 30_000;
/**
 * How long a worker holds a step's lease while it runs it: longer than any run may take (the
 * cloud worker's timeout must stay below it), so a lease only runs out when its worker died.
 */
export const STEP_LEASE_MS = 60_000;

/** The wait after the `failures`-th failure of a step before it is tried again. */
export const stepRetryDelayMs = (failures: number): number =>
  STEP_RETRY_BASE_MS * 2 ** Math.max(0, Math.min(10, failures - 1));

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
  beneficiaryIban:
    "beneficiary.accountNumber looks like an IBAN but is not a valid one: check its length and check digits",
  beneficiaryIbanCountry: (ibanCountry: string, country: string) =>
    `The IBAN is a ${ibanCountry} account but beneficiary.country is ${country}: they must match`,
  paymentNotFound: "Payment not found",
  sameAccount: "The payee account must differ from the paying account",
  payeeCurrency: (payee: string, currency: string) =>
    `The payee account is in ${payee}, not the payment currency ${currency}`,
  payerCurrency: (account: string, currency: string) =>
    `The paying account is in ${account}, not the payment currency ${currency}`,
  /** The same for an unknown email and a user without such an account: the form does not tell who is registered. */
  payeeCannotReceive: (currency: string) =>
    `No user with this email address can receive ${currency} payments here (they need an active ${currency} account)`,
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
const accountId = (required: string) =>
  z.string({ error: required }).trim().min(1, required).regex(ACCOUNT_ID, PAYMENT_MESSAGES.accountIdInvalid);
const railName = z
  .string({ error: PAYMENT_MESSAGES.railName })
  .trim()
  .min(1, PAYMENT_MESSAGES.railName)
  .max(60, PAYMENT_MESSAGES.railName);

/**
 * An account number that starts like an IBAN (country letters, two check digits, then at least
 * eleven letters or digits): such a number must be a valid IBAN, since a rail would refuse it.
 * Plain domestic numbers (digits only) never look like one.
 */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
export const looksLikeIban = (accountNumber: string): boolean => IBAN_SHAPE.test(accountNumber.toUpperCase());

export const Beneficiary = z
  .object({
    name: z
      .string({ error: PAYMENT_MESSAGES.beneficiaryName })
      .trim()
      .min(1, PAYMENT_MESSAGES.beneficiaryName)
      .max(140, PAYMENT_MESSAGES.beneficiaryName),
    // Spaces are how IBANs are printed; the stored number is the electronic form (no spaces, upper case for an IBAN).
    accountNumber: z
      .string({ error: PAYMENT_MESSAGES.beneficiaryAccount })
      .max(64, PAYMENT_MESSAGES.beneficiaryAccount)
      .transform((text) => text.replace(/\s+/g, ""))
      .pipe(z.string().regex(/^[A-Za-z0-9]{4,34}$/, PAYMENT_MESSAGES.beneficiaryAccount))
      .transform((text) => (looksLikeIban(text) ? (electronicFormatIBAN(text) ?? text.toUpperCase()) : text)),
    bankCode: z
      .string({ error: PAYMENT_MESSAGES.beneficiaryBank })
      .trim()
      .regex(/^[A-Za-z0-9-]{0,20}$/, PAYMENT_MESSAGES.beneficiaryBank)
      .optional(),
    country: z
      .string({ error: PAYMENT_MESSAGES.beneficiaryCountry })
      .trim()
      .transform((text) => text.toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}$/, PAYMENT_MESSAGES.beneficiaryCountry)),
  })
  .strict()
  .superRefine((beneficiary, ctx) => {
    if (!looksLikeIban(beneficiary.accountNumber)) return;
    if (!isValidIBAN(beneficiary.accountNumber)) {
      ctx.addIssue({ code: "custom", path: ["accountNumber"], message: PAYMENT_MESSAGES.beneficiaryIban });
      return;
    }
    const ibanCountry = beneficiary.accountNumber.slice(0, 2);
    if (ibanCountry !== beneficiary.country)
      ctx.addIssue({
        code: "custom",
        path: ["country"],
        message: PAYMENT_MESSAGES.beneficiaryIbanCountry(ibanCountry, beneficiary.country),
      });
  });
export type Beneficiary = z.infer<typeof Beneficiary>;

/**
 * POST /v1/payments and the stream's initiatePayment command (both in
 * docs/product/payments.md#calls). The amount is checked against the currency by the service
 * (parseAmount: decimal notation, > 0, at most the currency's minor digits), since its rule depends
 * on the currency field.
 */
export const CreatePaymentInput = z
  .object({
    userId: z
      .string({ error: PAYMENT_MESSAGES.userIdRequired })
      .trim()
      .min(1, PAYMENT_MESSAGES.userIdRequired)
      .max(64, PAYMENT_MESSAGES.userIdNotCaller),
    fromAccountId: accountId(PAYMENT_MESSAGES.fromAccountRequired),
    amount: z
      .union([z.string(), z.number()], { error: "Amount is required" })
      .describe("Decimal string or number, > 0, at most the currency's decimals"),
    currency: Currency,
    description: z
      .string({ error: PAYMENT_MESSAGES.description })
      .trim()
      .max(500, PAYMENT_MESSAGES.description)
      .optional(),
    preferredRail: railName.optional().describe("A rail's name (e.g. ACH): chosen when active and not eliminated"),
    forceRail: railName.optional().describe("A rail's name: used whatever its score (must be active)"),
    toAccountId: accountId("toAccountId is required").optional().describe("Another account of yours"),
    toEmail: z
      .email({ error: PAYMENT_MESSAGES.email })
      .max(254, PAYMENT_MESSAGES.email)
      .optional()
      .describe("Another user of the platform: their oldest active account in the currency receives it"),
    beneficiary: Beneficiary.optional().describe(
      "An external beneficiary: posted to the clearing account of the currency",
    ),
  })
  .strip()
  .refine(
    (input) =>
      [input.toAccountId, input.toEmail, input.beneficiary].filter((payee) => payee !== undefined).length === 1,
    {
      error: PAYMENT_MESSAGES.onePayee,
      path: ["payee"],
    },
  );
export type CreatePaymentInput = z.infer<typeof CreatePaymentInput>;

/** What a client sends (before trimming and upper-casing). */
export type CreatePaymentRequest = z.input<typeof CreatePaymentInput>;

/** Who is asking: the signed-in user (the HTTP layer's `auth` fits this shape). */
export interface PaymentCaller {
  userId: string;
  user: Pick<PublicUser, "id" | "email" | "first_name" | "last_name">;
}

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
  savingMinor: z
    .number()
    .int()
    .describe(
      "Cost on the default rail minus cost on the chosen one, never below 0 (a pricier choice buys success or speed, not savings)",
    ),
  saving: z.string(),
  reason: z.string(),
  decidedAt: z.string(),
  candidates: z.array(RoutingCandidate),
  destinationCountry: z
    .string()
    .optional()
    .describe("Where the payment goes, for the rails' coverage (decisions before rails had coverage lack it)"),
  excluded: z
    .array(z.object({ railId: z.string(), rail: z.string(), reason: z.string() }))
    .default([])
    .describe("Rails that cannot carry this payment, and why"),
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
  failureReason: z
    .string()
    .nullable()
    .describe("Why the payment failed (or was refused after review), or why it was parked for review; null otherwise"),
});
export type Payment = z.infer<typeof Payment>;

export const CreatePaymentReply = z.object({ message: z.literal("Payment initiated"), payment: Payment });
export type CreatePaymentReply = z.infer<typeof CreatePaymentReply>;

export const PaymentList = z.object({
  data: z.array(Payment),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});
export type PaymentList = z.infer<typeof PaymentList>;

/* ---------- the four payment events (docs/product/payments.md#payment-events) ---------- */

export const PAYMENT_EVENT_TYPES = [
  "paymentInitiated",
  "paymentStatusUpdate",
  "paymentCompleted",
  "paymentError",
] as const;
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
export const PaymentCompletedData = z.object({
  paymentId: z.string(),
  completedAt: z.string(),
  finalAmount: decimal,
  railUsed: z.string(),
});
export const PaymentErrorData = z.object({ paymentId: z.string(), errorMessage: z.string() });

export const PaymentEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("paymentInitiated"), data: PaymentInitiatedData }),
  z.object({ type: z.literal("paymentStatusUpdate"), data: PaymentStatusUpdateData }),
  z.object({ type: z.literal("paymentCompleted"), data: PaymentCompletedData }),
  z.object({ type: z.literal("paymentError"), data: PaymentErrorData }),
]);
export type PaymentEvent = z.infer<typeof PaymentEvent>;

/**
 * One entry of a payment's history (the outbox the payment feed reads:
 * docs/payments-and-rails.md#the-payment-feeds).
 */
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
export const PAYMENT_LIST_MESSAGES = {
  date: (field: string) => `${field} must be a date (YYYY-MM-DD) or an ISO date-time`,
  dateOrder: "from must not be after to",
  amount: (field: string) => `${field} must be a decimal amount of at most 12 digits and 4 decimals, e.g. 25 or 25.50`,
  amountOrder: "minAmount must not be more than maxAmount",
  counterparty: "counterparty must be 1 to 140 characters",
  search: "q must be 1 to 100 characters",
} as const;

const blankAsAbsent = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A filter's date or date-time as an ISO instant; a bare date is the start (or end) of that UTC day. */
const dateFilter = (field: string, edge: "start" | "end") =>
  z.preprocess(
    blankAsAbsent,
    z
      .string({ error: PAYMENT_LIST_MESSAGES.date(field) })
      .max(40, PAYMENT_LIST_MESSAGES.date(field))
      .refine(
        (text) =>
          DATE_ONLY.test(text)
            ? z.iso.date().safeParse(text).success
            : z.iso.datetime({ offset: true }).safeParse(text).success,
        PAYMENT_LIST_MESSAGES.date(field),
      )
      .transform((text) =>
        DATE_ONLY.test(text)
          ? `${text}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z`
          : new Date(text).toISOString(),
      )
      .optional(),
  );
const AMOUNT_FILTER = /^\d{1,12}(\.\d{1,4})?$/;
const amountFilter = (field: string) =>
  z.preprocess(
    blankAsAbsent,
    z
      .string({ error: PAYMENT_LIST_MESSAGES.amount(field) })
      .trim()
      .regex(AMOUNT_FILTER, PAYMENT_LIST_MESSAGES.amount(field))
      .optional(),
  );
const textFilter = (max: number, message: string) =>
  z.preprocess(blankAsAbsent, z.string({ error: message }).trim().min(1, message).max(max, message).optional());

/**
 * A decimal filter amount in ten-thousandths: exact, so 25.5 and 25.50 compare equal whatever the
 * currency's decimals.
 */
export const filterAmountScaled = (text: string): bigint => {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole!) * 10_000n + BigInt(fraction.padEnd(4, "0").slice(0, 4));
};

export const PaymentListQuery = z
  .object({
    status: z
      .preprocess(
        (value) => (value === "" ? undefined : typeof value === "string" ? value.toLowerCase() : value),
        z.enum(PAYMENT_STATUSES, { error: `status must be one of ${PAYMENT_STATUSES.join(", ")}` }).optional(),
      )
      .describe(`${PAYMENT_STATUSES.join(", ")} (any case)`),
    rail: z
      .preprocess(blankAsAbsent, railName.optional())
      .describe("The rail that carries (or carried) the payment, by name, any case (e.g. ACH)"),
    currency: z.preprocess(blankAsAbsent, Currency.optional()).describe("Payments in this currency"),
    from: dateFilter("from", "start").describe("Created at or after: a date (UTC day start) or an ISO date-time"),
    to: dateFilter("to", "end").describe("Created at or before: a date (UTC day end) or an ISO date-time"),
    minAmount: amountFilter("minAmount").describe("Amount at least this (decimal, in the payment's currency)"),
    maxAmount: amountFilter("maxAmount").describe("Amount at most this (decimal, in the payment's currency)"),
    counterparty: textFilter(140, PAYMENT_LIST_MESSAGES.counterparty).describe(
      "Part of the payee: email, beneficiary name, last four characters of its account, or your account id",
    ),
    q: textFilter(100, PAYMENT_LIST_MESSAGES.search).describe(
      "Search: part of the payee's name or email, or of the description (any case)",
    ),
    limit: z.coerce
      .number({ error: `limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}` })
      .int(`limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}`)
      .min(1, `limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}`)
      .max(PAYMENT_LIST_MAX, `limit must be a whole number from 1 to ${PAYMENT_LIST_MAX}`)
      .default(20),
    cursor: z.string().max(2000, "cursor is not valid").optional(),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.from > query.to)
      ctx.addIssue({ code: "custom", path: ["from"], message: PAYMENT_LIST_MESSAGES.dateOrder });
    if (
      query.minAmount &&
      query.maxAmount &&
      filterAmountScaled(query.minAmount) > filterAmountScaled(query.maxAmount)
    ) {
      ctx.addIssue({ code: "custom", path: ["minAmount"], message: PAYMENT_LIST_MESSAGES.amountOrder });
    }
  });
export type PaymentListQuery = z.infer<typeof PaymentListQuery>;
/** The list's filters as a client sends them (the query string's fields, as text). */
export const PAYMENT_LIST_FILTERS = [
  "status",
  "rail",
  "currency",
  "from",
  "to",
  "minAmount",
  "maxAmount",
  "counterparty",
  "q",
] as const;
export type PaymentListFilters = Partial<Record<(typeof PAYMENT_LIST_FILTERS)[number], string>>;

/** The words a counterparty filter and a search look in: who was paid, and (for a search) the description. */
function payeeWords(payee: PaymentPayee): string[] {
  switch (payee.kind) {
    case "account":
      return [payee.accountId];
    case "user":
      return [payee.email];
    case "external":
      return [payee.name, payee.accountLast4, payee.country];
  }
}

const containsFolded = (haystack: readonly string[], needle: string) => {
  const wanted = needle.toLowerCase();
  return haystack.some((word) => word.toLowerCase().includes(wanted));
};

/**
 * Whether a payment passes the list's filters (the date range is the store's key condition, and
 * checked here too so the function stands alone). One function for the API and the screen.
 */
export function matchesPaymentFilters(payment: Payment, query: Omit<PaymentListQuery, "limit" | "cursor">): boolean {
  if (query.status && payment.status !== query.status) return false;
  if (query.rail && payment.selectedRail.toLowerCase() !== query.rail.toLowerCase()) return false;
  if (query.currency && payment.currency !== query.currency) return false;
  if (query.from && payment.createdAt < query.from) return false;
  if (query.to && payment.createdAt > query.to) return false;
  const amount = filterAmountScaled(payment.amount);
  if (query.minAmount && amount < filterAmountScaled(query.minAmount)) return false;
  if (query.maxAmount && amount > filterAmountScaled(query.maxAmount)) return false;
  if (query.counterparty && !containsFolded(payeeWords(payment.payee), query.counterparty)) return false;
  if (query.q && !containsFolded([...payeeWords(payment.payee), payment.description], query.q)) return false;
  return true;
}

/* ---------- review of parked payments (admins) ---------- */

/** A parked payment as the review list shows it to an admin. */
export const ParkedPayment = z.object({
  paymentId: z.string(),
  userId: z.string(),
  status: PaymentStatus.describe("parked, or failed once an admin closed it"),
  amount: decimal,
  currency: Currency,
  selectedRail: z.string(),
  stuckStatus: PaymentStatus.describe(
    "The status the payment was in when its step kept failing (pending or processing)",
  ),
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
  .object({
    note: z
      .string({ error: PAYMENT_MESSAGES.reviewNote })
      .trim()
      .min(1, PAYMENT_MESSAGES.reviewNote)
      .max(500, PAYMENT_MESSAGES.reviewNote),
  })
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
  screening: ScreeningDecision.nullable().describe(
    "The payee's screening (list, matched entry, score, screened name and country, when)",
  ),
  decision: PaymentDecision.nullable(),
  canDecide: z.boolean().describe("True while it waits and the signed-in administrator did not make it"),
  cannotDecideReason: z.string().nullable(),
});
export type PaymentReviewCase = z.infer<typeof PaymentReviewCase>;

export const REVIEW_LIST_MAX = 100;
export const ReviewListQuery = z.object({
  kind: z
    .preprocess((value) => (value === "" ? undefined : value), ReviewKind.optional())
    .describe("screening or four_eyes; both when absent"),
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

/* ---------- the quote, as the Send money screen reads it ---------- */

/**
 * POST /v1/payments/quote's reply (docs/money-movement.md#rails-what-each-can-carry-routing-and-fees): what creating
 * this payment now would do.
 */
export const PaymentQuoteReply = z.object({
  amount: decimal,
  currency: Currency,
  rail: z.string(),
  fee: decimal,
  feeCurrency: Currency,
  total: decimal,
  settlementSeconds: z.number(),
  arrivalEstimate: z.string(),
  payee: z.looseObject({ kind: z.enum(["own", "user", "external"]), name: z.string() }),
  eligible: z.array(z.object({ rail: z.string(), fee: decimal, feeCurrency: Currency, settlementSeconds: z.number() })),
  excluded: z.array(z.object({ rail: z.string(), reason: z.string() })),
});
export type PaymentQuoteReply = z.infer<typeof PaymentQuoteReply>;

/* ---------- saved recipients (a user's own list) ---------- */

/** How many recipients one user may keep: a personal address book, not a directory. */
export const RECIPIENTS_MAX = 50;
export const RECIPIENT_MESSAGES = {
  label: "label must be 1 to 60 characters",
  onePayee: "Give exactly one payee: email or beneficiary",
  email: "email must be an email address (at most 254 characters)",
  tooMany: `You can keep at most ${RECIPIENTS_MAX} saved recipients: delete one to add another`,
  notFound: "Recipient not found",
  idInvalid: "A recipient id is 1 to 64 letters, digits or dashes",
} as const;

const recipientLabel = z
  .string({ error: RECIPIENT_MESSAGES.label })
  .trim()
  .min(1, RECIPIENT_MESSAGES.label)
  .max(60, RECIPIENT_MESSAGES.label);

/**
 * A recipient to save: a label and exactly one payee, a platform user's email or an external
 * beneficiary. Saving one never looks the email up, so the list tells nobody who is registered.
 */
export const CreateRecipientInput = z
  .object({
    label: recipientLabel.describe("How you call them, e.g. Grace (rent)"),
    email: z
      .email({ error: RECIPIENT_MESSAGES.email })
      .max(254, RECIPIENT_MESSAGES.email)
      .optional()
      .describe("A person on the platform (pays as toEmail)"),
    beneficiary: Beneficiary.optional().describe("An external account (pays as beneficiary)"),
  })
  .strict()
  .refine((input) => (input.email === undefined) !== (input.beneficiary === undefined), {
    error: RECIPIENT_MESSAGES.onePayee,
    path: ["payee"],
  });
export type CreateRecipientInput = z.infer<typeof CreateRecipientInput>;

export const RenameRecipientInput = z.object({ label: recipientLabel }).strict();
export type RenameRecipientInput = z.infer<typeof RenameRecipientInput>;

export const Recipient = z.object({
  recipientId: z.string(),
  label: z.string(),
  kind: z.enum(["user", "external"]),
  email: z.string().nullable(),
  beneficiary: z
    .object({ name: z.string(), accountNumber: z.string(), bankCode: z.string().optional(), country: z.string() })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Recipient = z.infer<typeof Recipient>;

/** The payee fields of a payment to a saved recipient. */
export const recipientPayee = (recipient: Recipient): Pick<CreatePaymentRequest, "toEmail" | "beneficiary"> =>
  recipient.kind === "user" ? { toEmail: recipient.email ?? "" } : { beneficiary: recipient.beneficiary ?? undefined };

/* ---------- a payment's detail: timeline, routing, fee charged ---------- */

export const TIMELINE_KINDS = [
  "created",
  "held",
  "waiting",
  "decided",
  "attempt_started",
  "attempt_succeeded",
  "attempt_failed",
  "posted",
  "released",
] as const;
export const TimelineEntry = z.object({
  kind: z.enum(TIMELINE_KINDS),
  at: z.string(),
  title: z.string(),
  detail: z.string().nullable(),
  rail: z.string().nullable(),
  tone: z.enum(["info", "success", "error", "waiting"]),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const RoutingView = z.object({
  strategy: z.enum(ROUTING_STRATEGIES),
  chosenRail: z.string(),
  reason: z.string(),
  eligible: z
    .array(
      z.object({
        rail: z.string(),
        cost: decimal,
        score: z.number(),
        successRate: z.number(),
        note: z.string(),
        chosen: z.boolean(),
      }),
    )
    .describe("Rails that could carry it, best first"),
  excluded: z.array(z.object({ rail: z.string(), reason: z.string() })).describe("Rails that could not, with why"),
});
export type RoutingView = z.infer<typeof RoutingView>;

export const PaymentDetail = z.object({
  payment: Payment,
  timeline: z.array(TimelineEntry).describe("Oldest first"),
  routing: RoutingView,
  feeCharged: z.object({
    fee: decimal,
    feeMinor: z.number().int().min(0),
    currency: Currency,
    note: z
      .string()
      .describe("Why this is the fee: charged on completion, nothing when the hold was released, held while it moves"),
  }),
});
export type PaymentDetail = z.infer<typeof PaymentDetail>;
