/**
 * Wire shapes of the ledger and account endpoints, as the server sends them (snake_case).
 * They mirror packages/core/src/ledger: accountReply and balanceOf (service.ts), journalReply
 * (journals.ts) and ledgerAnalytics (analytics.ts). Amounts travel as exact decimal strings
 * ("120.50", JPY "1200") with the integer minor units beside them; the browser formats them
 * with @fintech/core/money/model and never does float arithmetic on money.
 */
import type { Currency as ServerCurrency } from "@fintech/core/money/model";
import type { AccountType, JournalStatus, JournalType, Side } from "@fintech/core/ledger/model";
import type { ApiReply } from "./schema";

/** Every currency the ledger keeps (USD, EUR, GBP, JPY). */
export type Currency = ServerCurrency;

/** The currencies the workspace's forms offer (spec 000 §5 and §9: USD, EUR, GBP). */
export const FORM_CURRENCIES = ["USD", "EUR", "GBP"] as const;
export type FormCurrency = (typeof FORM_CURRENCIES)[number];

/** A decimal amount such as "100.00". */
export type DecimalAmount = string;

export type LedgerAccountType = AccountType;
/** LOCKED: an admin stopped money leaving the account (lock_reason says why); money still comes in. */
export type AccountStatus = "ACTIVE" | "LOCKED" | "FROZEN" | "CLOSED";

/** An account with its current balance (GET/POST .../accounts, GET /api/v1/accounts/{id}). */
export interface LedgerAccount {
  id: string;
  name: string;
  account_number: string;
  description: string;
  currency: Currency;
  type: LedgerAccountType;
  /** debit for bank, cash, asset, expense; credit for liability, equity, revenue. */
  normal_side: Side;
  status: AccountStatus;
  created_at: string;
  /** Posted balance, on the account's normal side. */
  balance: DecimalAmount;
  /** Posted balance less pending outflows: what can be spent. */
  available: DecimalAmount;
  pending_in: DecimalAmount;
  pending_out: DecimalAmount;
  balance_minor: number;
  available_minor: number;
  low_balance_threshold: DecimalAmount | null;
  /** Why the account is locked; null (or absent from older servers) when it is not. */
  lock_reason?: string | null;
  version: number;
}

/** Body of POST /api/v1/ledger/accounts and POST /api/v1/accounts/. */
export interface NewLedgerAccount {
  name: string;
  /** 4 to 34 letters, digits or dashes, unique (409 when taken); generated when omitted. */
  account_number?: string;
  description?: string;
  currency?: Currency;
  type?: LedgerAccountType;
  /** Booked as an ordinary draft deposit. */
  initial_balance?: DecimalAmount | number;
  low_balance_threshold?: DecimalAmount | number;
}

export interface LedgerEntry {
  account_id: string;
  account_name: string;
  /** null for system accounts (e.g. "External funding"). */
  account_number: string | null;
  /** Whether the account is the caller's own. */
  owned: boolean;
  side: Side;
  /** The debit amount, or "0". */
  debit: DecimalAmount;
  /** The credit amount, or "0". */
  credit: DecimalAmount;
  amount_minor: number;
}

export interface JournalHistoryRecord {
  operation: "create" | "post" | "unpost";
  status: JournalStatus;
  at: string;
  /** Who did it (their name at that time); null for old records. */
  by: { id: string; name: string } | null;
}

/** A journal (spec: transaction), newest first in the history. */
export interface LedgerTransaction {
  id: string;
  type: JournalType;
  /** draft (pending) until approved; posted afterwards; unposting returns it to draft. */
  status: JournalStatus;
  amount: DecimalAmount;
  total_amount: DecimalAmount;
  total_amount_minor: number;
  currency: Currency;
  description: string;
  entries: LedgerEntry[];
  /** The credited (source) and debited (destination) accounts. */
  from_account_id: string | null;
  to_account_id: string | null;
  /** posted_at, else created_at. */
  timestamp: string;
  created_at: string;
  posted_at: string | null;
  history: JournalHistoryRecord[];
  /** The client's Idempotency-Key of the create request. */
  idempotency_key: string | null;
  /** Deposit/test balance: the system account's name; transfer: "<from name> → <to name>". */
  counterparty: string;
}

/** Filters of GET .../transactions/history and .../transactions/export (all optional). */
export interface TransactionFilters {
  status?: JournalStatus;
  type?: "deposit" | "transfer" | "test_balance";
  account_id?: string;
  /** ISO dates (inclusive UTC days) or date-times; from <= to. */
  from?: string;
  to?: string;
  /** Case-insensitive description search, 1..100 characters. */
  q?: string;
}

/** A page request: limit with an opaque cursor from the previous page (or an offset without filters). */
export interface HistoryPage {
  limit?: number;
  offset?: number;
  cursor?: string | null;
}

/** A downloaded file (the CSV export). */
export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition, when the server named it. */
  filename: string | null;
}

export interface TransferInput {
  from_account_id: string;
  to_account_id: string;
  amount: DecimalAmount;
  currency: Currency;
  description?: string;
}

export interface DepositInput {
  account_id: string;
  amount: DecimalAmount;
  currency: Currency;
  description?: string;
}

/** The server defaults the amount to 1,000 and caps it at 100,000. */
export interface TestBalanceInput {
  account_id: string;
  amount?: DecimalAmount;
  currency?: Currency;
  description?: string;
}

/** Reply of deposit, transfer and test-balance (201), and of post/unpost (200). */
export interface TransactionWriteReply {
  message: string;
  data: LedgerTransaction;
}

/** Reply of the account-creation endpoints (201). */
export interface AccountCreatedReply {
  message: string;
  data: LedgerAccount;
  /** The draft deposit booked for initial_balance, if one was given. */
  opening_transaction: LedgerTransaction | null;
}

/** GET .../accounts/{id}/balance[?as_of=ISO]: the account's figures at that moment. */
export interface AccountBalance extends LedgerAccount {
  account_id: string;
  account_name: string;
  /** The moment the figures are for (now, or the as_of asked for, capped at now). */
  as_of: string;
}

/** @deprecated The accounts endpoints return the same shape as the ledger's. */
export type BankAccount = LedgerAccount;
export type NewBankAccount = NewLedgerAccount;

/** Post and unpost: the changed transaction, or {message, code, error} on failure. */
export interface TransactionActionReply {
  message?: string;
  data?: LedgerTransaction;
  error?: string;
}

export interface PageInfo {
  limit: number;
  offset: number | null;
  next_cursor: string | null;
  has_more: boolean;
}

/** A paged list: {data, pagination}. */
export interface Paged<T> {
  data: T[];
  pagination: PageInfo | null;
}

/** One UTC day of analytics: end-of-day figures and the day's flows (see core ledger/analytics.ts). */
export interface AnalyticsDay {
  date: string;
  /** Entries created that day. */
  transactions: number;
  balance: DecimalAmount;
  available: DecimalAmount;
  pending_in: DecimalAmount;
  pending_out: DecimalAmount;
  /** Posted that day less unposted that day: balance(d) - balance(d-1) = inflow_posted - outflow_posted. */
  inflow_posted: DecimalAmount;
  outflow_posted: DecimalAmount;
  /** Amounts of the entries created that day. */
  inflow_pending: DecimalAmount;
  outflow_pending: DecimalAmount;
  balance_minor: number;
  available_minor: number;
  pending_in_minor: number;
  pending_out_minor: number;
  inflow_posted_minor: number;
  outflow_posted_minor: number;
  inflow_pending_minor: number;
  outflow_pending_minor: number;
}

export interface AnalyticsSeries {
  currency: Currency;
  /** The balance when the first day began. */
  opening_balance: DecimalAmount;
  opening_balance_minor: number;
  series: AnalyticsDay[];
}

export interface AccountAnalytics extends AnalyticsSeries {
  account_id: string;
  name: string;
  account_number: string;
  type: LedgerAccountType;
  normal_side: Side;
  status: AccountStatus;
  created_at: string;
}

export interface CurrencyAnalytics extends AnalyticsSeries {
  account_count: number;
}

/** GET /api/v1/ledger/analytics?days=N */
export interface LedgerAnalytics {
  days: number;
  /** First and last UTC date of the series. */
  from: string;
  to: string;
  timezone: "UTC";
  generated_at: string;
  accounts: AccountAnalytics[];
  currencies: CurrencyAnalytics[];
}

export interface WriteOptions {
  /** Reuse the same key when retrying the same write; a new one is made when omitted. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** POST /api/v1/auth/stream-ticket: a short-lived, single-purpose ticket to open one stream. */
export type StreamTicket = ApiReply<"/api/v1/auth/stream-ticket", "post">;

/** reconcileAccount's result: variance is expected − ledger, signed ("10.00", "-2.50", "0.00"). */
export interface ReconciliationResult {
  accountId: string;
  accountName: string;
  reconciled: boolean;
  variance: DecimalAmount;
  expectedBalance: DecimalAmount;
  ledgerBalance: DecimalAmount;
  currency: Currency;
  at: string;
}

/** The envelope of POST /api/grpc/ledger/command's reply. */
export interface LedgerCommandReply<Result> {
  command: string;
  result: Result;
}
