/**
 * Wire shapes of the ledger and account endpoints, in the server's snake_case (spec 000 §3).
 * Amounts travel as decimal strings ("100.00"): the server keeps integer minor units and
 * parses and formats decimals at its edge, so the browser never does float arithmetic on money.
 */

export const CURRENCIES = ["USD", "EUR", "GBP"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** A decimal amount such as "100.00". */
export type DecimalAmount = string;

export type LedgerAccountType = "bank" | "cash" | "asset" | "liability" | "equity" | "revenue" | "expense";

export interface LedgerAccount {
  id: string;
  name: string;
  account_number: string;
  description: string | null;
  currency: string;
  type: LedgerAccountType | string;
  balance: DecimalAmount;
}

export interface NewLedgerAccount {
  name: string;
  account_number: string;
  description?: string;
  currency: Currency;
  type?: LedgerAccountType;
}

export interface LedgerEntry {
  account_id: string;
  direction?: string;
  amount: DecimalAmount;
  currency?: string;
}

export interface LedgerTransaction {
  id: string;
  type: string;
  status: string;
  total_amount: DecimalAmount;
  currency: string;
  description: string | null;
  entries?: LedgerEntry[];
  timestamp?: string;
  created_at: string;
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

/** The spec does not show this body; the deposit screen sends the chosen account. */
export interface TestBalanceInput {
  account_id: string;
  amount?: DecimalAmount;
  currency?: Currency;
}

export interface AccountBalance {
  account_id?: string;
  balance: DecimalAmount;
  currency: string;
}

/** A bank account as the accounts endpoints show it (status ACTIVE, type CHECKING, ...). */
export interface BankAccount {
  id: string;
  name: string;
  account_number: string;
  description?: string | null;
  currency: string;
  type: string;
  status: string;
  balance?: DecimalAmount;
  created_at: string;
}

export interface NewBankAccount {
  name: string;
  account_number: string;
  description?: string;
  currency: Currency;
  type?: string;
}

/** Post and unpost reply with the transaction, or with {error} on failure. */
export interface TransactionActionReply {
  data?: LedgerTransaction;
  message?: string;
  error?: string;
}

export interface WriteOptions {
  /** Reuse the same key when retrying the same write; a new one is made when omitted. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}
