import type { AnalyticsDay, LedgerAccount, LedgerEntry, LedgerTransaction } from "../api/types";

/** Reply-shaped test data for the workspace's unit tests. */

export function account(overrides: Partial<LedgerAccount> = {}): LedgerAccount {
  return {
    id: "acc-1",
    name: "Main",
    account_number: "ACC0000000001",
    description: "",
    currency: "USD",
    type: "bank",
    normal_side: "debit",
    status: "ACTIVE",
    created_at: "2026-03-01T10:00:00.000Z",
    balance: "0.00",
    available: "0.00",
    pending_in: "0.00",
    pending_out: "0.00",
    balance_minor: 0,
    available_minor: 0,
    low_balance_threshold: null,
    version: 0,
    credit_shards: 0,
    ...overrides,
  };
}

export function transaction(overrides: Partial<LedgerTransaction> = {}): LedgerTransaction {
  return {
    id: "tx-1",
    type: "deposit",
    status: "draft",
    amount: "500.00",
    total_amount: "500.00",
    total_amount_minor: 50000,
    currency: "USD",
    description: "Deposit",
    entries: [],
    from_account_id: "sys-funding-usd",
    to_account_id: "acc-1",
    timestamp: "2026-03-01T10:00:00.000Z",
    created_at: "2026-03-01T10:00:00.000Z",
    posted_at: null,
    history: [
      {
        operation: "create",
        status: "draft",
        at: "2026-03-01T10:00:00.000Z",
        by: { id: "user-1", name: "Ada Lovelace" },
      },
    ],
    idempotency_key: "key-1",
    counterparty: "External funding",
    incoming: false,
    fee: null,
    fee_minor: null,
    ...overrides,
  };
}

/** One leg: debit or credit `amount` (a decimal string) on an account. */
export function entry(
  accountId: string,
  name: string,
  side: "debit" | "credit",
  amount: string,
  overrides: Partial<LedgerEntry> = {},
): LedgerEntry {
  return {
    account_id: accountId,
    account_name: name,
    account_number: accountId.startsWith("sys-") ? null : `ACC-${accountId}`,
    owned: !accountId.startsWith("sys-"),
    party: accountId.startsWith("sys-") ? "system" : "own",
    side,
    debit: side === "debit" ? amount : "0",
    credit: side === "credit" ? amount : "0",
    amount_minor: Math.round(Number(amount) * 100),
    ...overrides,
  };
}

export function day(date: string, figures: Partial<Record<keyof AnalyticsDay, number>> = {}): AnalyticsDay {
  const minor = (name: string) => (figures as Record<string, number>)[`${name}_minor`] ?? 0;
  const text = (value: number) => (value / 100).toFixed(2);
  const fields = [
    "balance",
    "available",
    "pending_in",
    "pending_out",
    "inflow_posted",
    "outflow_posted",
    "inflow_pending",
    "outflow_pending",
  ] as const;
  const result: Record<string, unknown> = { date, transactions: figures.transactions ?? 0 };
  for (const field of fields) {
    result[field] = text(minor(field));
    result[`${field}_minor`] = minor(field);
  }
  return result as unknown as AnalyticsDay;
}
