import { z } from "zod";
import { Currency } from "../money/model";
import { textFieldError } from "../shared/field-errors";

/** Safe to import from the browser: ledger vocabulary, schemas and the balance arithmetic. */

export const ACCOUNT_TYPES = ["bank", "cash", "asset", "liability", "equity", "revenue", "expense"] as const;
export const AccountType = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
  z.enum(ACCOUNT_TYPES, { error: `Account type must be one of ${ACCOUNT_TYPES.join(", ")}` }),
);
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export type Side = "debit" | "credit";

/** Assets and expenses grow with debits; liabilities, equity and revenue with credits. */
export function normalSideOf(type: AccountType): Side {
  return type === "liability" || type === "equity" || type === "revenue" ? "credit" : "debit";
}

export const JOURNAL_TYPES = ["deposit", "transfer", "test_balance", "payment", "fx", "adjustment"] as const;
/** The system accounts a fee is booked to (fee revenue, a payment's FX spread, FX revenue): `sys-fees-usd`, `sys-fx-eur`. */
export const isFeeAccountId = (accountId: string): boolean => /^sys-(fees|fx|fxrevenue)-[a-z]{3}$/.test(accountId);
/** The account a quoted conversion's spread is booked to: `sys-fxrevenue-usd`. */
export const isFxRevenueAccountId = (accountId: string): boolean => /^sys-fxrevenue-[a-z]{3}$/.test(accountId);
export type JournalType = (typeof JOURNAL_TYPES)[number];
/**
 * draft: pending (a hold: its legs count as pending, outflows reduce the available balance);
 * posted: booked; voided: a draft withdrawn for good (its pending amounts removed, nothing
 * booked), e.g. a payment that failed. A voided journal never changes again.
 */
export type JournalStatus = "draft" | "posted" | "voided";

export const LEDGER_MESSAGES = {
  accountNotFound: "Account not found",
  transactionNotFound: "Transaction not found",
  sameAccount: "Destination account must differ from the source account",
  insufficientFunds: (name: string) => `Insufficient available balance in ${name}`,
  currencyMismatch: (expected: string, got: string) =>
    `Currency ${got} does not match the account currency ${expected}`,
  alreadyPosted: "Transaction is already posted",
  notPosted: "Only posted transactions can be unposted",
  notDraftForVoid: "Only draft transactions can be voided",
  voided: "Transaction is voided",
  paymentHold:
    "This transaction is a payment's hold: the payment posts it when it completes or releases it when it fails",
  accountInactive: "Account is not active",
  testBalanceDisabled: "Test balances are not available in this environment",
  idempotencyMismatch: "This Idempotency-Key was already used with a different request",
  idempotencyInProgress: "A request with this Idempotency-Key is still in progress",
  accountLocked: (reason: string) => `Account is locked: ${reason}`,
  systemAccountControl: "System accounts cannot be locked, reconciled or given a threshold here",
} as const;

export const LockInput = z.object({
  reason: z
    .string({ error: "A reason is required" })
    .trim()
    .min(1, "A reason is required")
    .max(500, "Reason must be at most 500 characters"),
});

export const ThresholdInput = z.object({
  low_balance_threshold: z.union([z.number(), z.string(), z.null()], {
    error: 'low_balance_threshold must be a decimal amount, "" or null',
  }),
});

export const ReconcileInput = z.object({
  accountId: z
    .string({ error: "accountId is required" })
    .trim()
    .min(1, "accountId is required")
    .max(64, "accountId is not valid"),
  expectedBalance: z.union([z.number(), z.string()], { error: "expectedBalance is required" }),
  currency: Currency.optional(),
});

/**
 * Every ledger id: a UUID for customer accounts and journals, `sys-<code>-<currency>` for system
 * accounts. Path and body ids are checked against this before any store call, so junk (or a
 * 3 KB id, over DynamoDB's key limit) is a plain "not found", never a 500.
 */
const LEDGER_ID = /^[A-Za-z0-9-]{1,64}$/;
export const isLedgerId = (value: string): boolean => LEDGER_ID.test(value);

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

export const CreateAccountInput = z
  .object({
    name: z
      .string({ error: "Account name is required" })
      .trim()
      .min(1, "Account name is required")
      .max(100, "Account name must be at most 100 characters"),
    account_number: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{4,34}$/, "Account number must be 4 to 34 letters, digits or dashes")
      .optional(),
    description: text(500).optional().default(""),
    currency: Currency.default("USD"),
    type: AccountType.default("bank"),
    /** Optional opening deposit, booked as a draft deposit like any other. */
    initial_balance: z.union([z.number(), z.string()]).optional(),
    low_balance_threshold: z.union([z.number(), z.string()]).optional(),
  })
  .strip();
export type CreateAccountInput = z.infer<typeof CreateAccountInput>;

const AmountInput = z.union([z.number(), z.string()], { error: "Amount is required" });
const IdInput = (what: string) =>
  z
    .string({ error: textFieldError(what) })
    .trim()
    .min(1, `${what} is required`)
    .max(64, `${what} is not valid`);

export const TransferInput = z.object({
  from_account_id: IdInput("Source account"),
  to_account_id: IdInput("Destination account"),
  amount: AmountInput,
  currency: Currency.optional(),
  description: text(500).optional().default(""),
  /**
   * A quote (POST /api/v1/fx/quotes) for a transfer between accounts of two currencies: its
   * amount is the quote's sell amount in the source's currency.
   */
  quote_id: z
    .string({ error: "quote_id must be a string" })
    .trim()
    .min(1, "quote_id is not valid")
    .max(64, "quote_id is not valid")
    .optional(),
});
export type TransferInput = z.infer<typeof TransferInput>;

export const DepositInput = z.object({
  account_id: IdInput("Account"),
  amount: AmountInput,
  currency: Currency.optional(),
  description: text(500).optional().default(""),
});
export type DepositInput = z.infer<typeof DepositInput>;

/**
 * The test-balance body (docs/product/ledger-workspace.md#data): an account, and optionally how
 * much (default 1,000).
 */
export const TEST_BALANCE_DEFAULT_MAJOR = 1000;
export const TEST_BALANCE_MAX_MAJOR = 100_000;
export const TestBalanceInput = z.object({
  account_id: IdInput("Account"),
  amount: AmountInput.optional(),
  currency: Currency.optional(),
  description: text(500).optional(),
});
export type TestBalanceInput = z.infer<typeof TestBalanceInput>;

/** The four running totals of one balance, in minor units. */
export interface Totals {
  posted_debits: number;
  posted_credits: number;
  pending_debits: number;
  pending_credits: number;
}

export const ZERO_TOTALS: Totals = { posted_debits: 0, posted_credits: 0, pending_debits: 0, pending_credits: 0 };

export interface BalanceFigures extends Totals {
  /** Posted balance on the account's normal side. */
  balance: number;
  /** What can be spent: posted balance less pending outflows; pending inflows do not count. */
  available: number;
  /** Pending inflows and outflows, normal-side terms. */
  pending_in: number;
  pending_out: number;
}

export function figures(totals: Totals, normal: Side): BalanceFigures {
  const debitNormal = normal === "debit";
  const balance = debitNormal
    ? totals.posted_debits - totals.posted_credits
    : totals.posted_credits - totals.posted_debits;
  const pendingIn = debitNormal ? totals.pending_debits : totals.pending_credits;
  const pendingOut = debitNormal ? totals.pending_credits : totals.pending_debits;
  return { ...totals, balance, available: balance - pendingOut, pending_in: pendingIn, pending_out: pendingOut };
}

/** What a journal operation does to one account's totals ("void": a draft withdrawn, its pending amounts removed). */
export const OPERATIONS = ["create", "post", "unpost", "void"] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * Changes to an account that move no money but belong in its history and its feed: a lock, an
 * unlock, a reconciliation result, a new alert threshold. Each is a version of the balance chain
 * with unchanged totals, so it is ordered with the money movements it affects.
 */
export const MARKER_OPERATIONS = ["lock", "unlock", "reconcile", "settings"] as const;
export type MarkerOperation = (typeof MARKER_OPERATIONS)[number];

/**
 * Which way a change moves an account, seen by its holder: CREDIT when the balance grows (value
 * arrives on the account's normal side), DEBIT when it shrinks. Unposting and voiding reverse the
 * leg (a void gives back what a hold took from the available balance).
 */
export function holderDirection(side: Side, normalSide: Side, operation: Operation): "CREDIT" | "DEBIT" {
  return (side === normalSide) !== (operation === "unpost" || operation === "void") ? "CREDIT" : "DEBIT";
}

export function applyEntry(totals: Totals, side: Side, amount: number, operation: Operation): Totals {
  const posted = side === "debit" ? "posted_debits" : "posted_credits";
  const pending = side === "debit" ? "pending_debits" : "pending_credits";
  const next = { ...totals };
  if (operation === "create") next[pending] += amount;
  if (operation === "post") {
    next[pending] -= amount;
    next[posted] += amount;
  }
  if (operation === "unpost") {
    next[posted] -= amount;
    next[pending] += amount;
  }
  if (operation === "void") next[pending] -= amount;
  return next;
}

/* Filters of the transactions list and its CSV export (the web's Transactions tab). */

export const JOURNAL_STATUSES = ["draft", "posted", "voided"] as const;
export const TRANSACTION_SEARCH_MAX = 100;

/** An empty query parameter (a cleared form field) means "no filter". */
const unlessEmpty = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const PLAIN_DATE = z.iso.date();
const DATE_TIME = z.iso.datetime({ offset: true });

/**
 * A bound of the date range: a plain date (UTC day, inclusive: `from` its first millisecond, `to`
 * its last) or a date-time with a zone, as the ISO instant journals store (`created_at`).
 */
const dateBound = (name: "from" | "to") =>
  unlessEmpty(
    z
      .string()
      .refine((text) => PLAIN_DATE.safeParse(text).success || DATE_TIME.safeParse(text).success, {
        error: `${name} must be an ISO date (YYYY-MM-DD) or date-time`,
      })
      .transform((text) => {
        if (DATE_TIME.safeParse(text).success) return new Date(text).toISOString();
        return name === "from" ? `${text}T00:00:00.000Z` : `${text}T23:59:59.999Z`;
      }),
  );

export const TransactionFilters = z
  .object({
    status: unlessEmpty(z.enum(JOURNAL_STATUSES, { error: `status must be one of ${JOURNAL_STATUSES.join(", ")}` })),
    type: unlessEmpty(z.enum(JOURNAL_TYPES, { error: `type must be one of ${JOURNAL_TYPES.join(", ")}` })),
    /** One of the caller's accounts; checked by the service (unknown or another user's: 404). */
    account_id: unlessEmpty(z.string({ error: "account_id must be a string" })),
    from: dateBound("from"),
    to: dateBound("to"),
    q: unlessEmpty(
      z
        .string({ error: "q must be a string" })
        .trim()
        .min(1, "q must not be blank")
        .max(TRANSACTION_SEARCH_MAX, `q must be at most ${TRANSACTION_SEARCH_MAX} characters`),
    ),
  })
  .refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, {
    error: "from must not be after to",
  });
export type TransactionFilters = z.infer<typeof TransactionFilters>;

/*
 * The events of the ledger stream (docs/product/ledger-workspace.md#live-updates): the SSE `event:`
 * name is the event's type and `data:` is this object as JSON, plus `at` (the commit time). The
 * server builds them (events.ts) and the browser parses them with these same schemas.
 */
const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/);
const streamCommon = { at: z.string().optional() };
const streamAccount = { accountId: z.string(), accountName: z.string() };

export const BalanceUpdateEvent = z.object({
  type: z.literal("balanceUpdate"),
  ...streamCommon,
  ...streamAccount,
  balance: decimalText,
  available: decimalText,
  changeAmount: decimalText,
  /** Seen by the account's holder: CREDIT when the balance grows, DEBIT when it shrinks. */
  changeType: z.enum(["CREDIT", "DEBIT"]),
  operation: z.enum(OPERATIONS),
  currency: Currency,
  transactionId: z.string(),
  /** On money another customer paid in: who paid it (their display name, never their account). */
  counterparty: z.string().optional(),
});
export const TransactionCreatedEvent = z.object({
  type: z.literal("transactionCreated"),
  ...streamCommon,
  transactionId: z.string(),
  amount: decimalText,
  status: z.literal("draft"),
  fromAccountId: z.string().nullable(),
  toAccountId: z.string().nullable(),
  currency: Currency,
  description: z.string(),
});
export const TransactionStatusUpdateEvent = z.object({
  type: z.literal("transactionStatusUpdate"),
  ...streamCommon,
  transactionId: z.string(),
  /**
   * "voided": a draft withdrawn (a failed payment's hold released); "failed" is for refused
   * postings announced later.
   */
  status: z.enum(["posted", "draft", "voided", "failed"]),
  message: z.string(),
  /** On money another customer paid in: who paid it (their display name, never their account). */
  counterparty: z.string().optional(),
});
export const ReconciliationResultEvent = z.object({
  type: z.literal("reconciliationResult"),
  ...streamCommon,
  ...streamAccount,
  reconciled: z.boolean(),
  /** Expected minus the ledger's posted balance, signed. */
  variance: decimalText,
  expectedBalance: decimalText,
  ledgerBalance: decimalText,
  currency: Currency,
});
export const LowBalanceAlertEvent = z.object({
  type: z.literal("lowBalanceAlert"),
  ...streamCommon,
  ...streamAccount,
  currentBalance: decimalText,
  threshold: decimalText,
  currency: Currency,
});
export const AccountLockedEvent = z.object({
  type: z.literal("accountLocked"),
  ...streamCommon,
  ...streamAccount,
  reason: z.string(),
});
export const AccountUnlockedEvent = z.object({
  type: z.literal("accountUnlocked"),
  ...streamCommon,
  ...streamAccount,
  reason: z.string(),
});

export const LedgerStreamEvent = z.discriminatedUnion("type", [
  BalanceUpdateEvent,
  TransactionCreatedEvent,
  TransactionStatusUpdateEvent,
  ReconciliationResultEvent,
  LowBalanceAlertEvent,
  AccountLockedEvent,
  AccountUnlockedEvent,
]);
export type LedgerStreamEvent = z.infer<typeof LedgerStreamEvent>;
export type LedgerEventName = LedgerStreamEvent["type"];
export const LEDGER_EVENT_NAMES: readonly LedgerEventName[] = LedgerStreamEvent.options.map(
  (option) => option.shape.type.value,
);
