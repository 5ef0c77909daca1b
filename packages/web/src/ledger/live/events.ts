import { z } from "zod";

/**
 * The events of the ledger stream (spec 000 §3, contract of issue 8) as the browser reads them.
 * The SSE `event:` name is the event's type; `data:` is JSON with the fields below. Fields a
 * screen can live without (names, `at`) are optional, so an older server's event still counts.
 */

const decimal = z.string().regex(/^[-+]?(\d+(\.\d*)?|\.\d+)$/);
/** An ISO currency code: Intl would throw on anything else when the toast formats the amount. */
const currency = z.string().regex(/^[A-Z]{3}$/);
const common = { at: z.string().optional() };
const account = { accountId: z.string(), accountName: z.string().optional() };

export const BalanceUpdateEvent = z.object({
  type: z.literal("balanceUpdate"),
  ...common,
  ...account,
  balance: decimal,
  available: decimal.optional(),
  changeAmount: decimal,
  /** Seen by the account's holder: CREDIT when the balance grows, DEBIT when it shrinks. */
  changeType: z.enum(["CREDIT", "DEBIT"]),
  operation: z.string().optional(),
  currency,
  transactionId: z.string().optional(),
});

export const TransactionCreatedEvent = z.object({
  type: z.literal("transactionCreated"),
  ...common,
  transactionId: z.string(),
  amount: decimal,
  status: z.string(),
  fromAccountId: z.string().nullable().optional(),
  toAccountId: z.string().nullable().optional(),
  currency,
  description: z.string().optional(),
});

export const TransactionStatusUpdateEvent = z.object({
  type: z.literal("transactionStatusUpdate"),
  ...common,
  transactionId: z.string(),
  status: z.string(),
  message: z.string().optional(),
});

export const ReconciliationResultEvent = z.object({
  type: z.literal("reconciliationResult"),
  ...common,
  ...account,
  reconciled: z.boolean(),
  /** expected − ledger, signed. */
  variance: decimal,
  expectedBalance: decimal.optional(),
  ledgerBalance: decimal.optional(),
  currency: currency.optional(),
});

export const LowBalanceAlertEvent = z.object({
  type: z.literal("lowBalanceAlert"),
  ...common,
  ...account,
  currentBalance: decimal,
  threshold: decimal,
  currency: currency.optional(),
});

export const AccountLockedEvent = z.object({ type: z.literal("accountLocked"), ...common, ...account, reason: z.string() });
export const AccountUnlockedEvent = z.object({ type: z.literal("accountUnlocked"), ...common, ...account, reason: z.string().optional() });

export const LedgerLiveEvent = z.discriminatedUnion("type", [
  BalanceUpdateEvent,
  TransactionCreatedEvent,
  TransactionStatusUpdateEvent,
  ReconciliationResultEvent,
  LowBalanceAlertEvent,
  AccountLockedEvent,
  AccountUnlockedEvent,
]);
export type LedgerLiveEvent = z.infer<typeof LedgerLiveEvent>;
export type LedgerEventName = LedgerLiveEvent["type"];

/** Every `event:` name the stream sends; the client listens to each (EventSource needs the names). */
export const LEDGER_EVENT_NAMES: readonly LedgerEventName[] = [
  "balanceUpdate",
  "transactionCreated",
  "transactionStatusUpdate",
  "reconciliationResult",
  "lowBalanceAlert",
  "accountLocked",
  "accountUnlocked",
];

/**
 * The server's `cursor` message: no ledger event, only a new `id:` (the stream's starting point,
 * then one with each heartbeat), so a stream cut before its first event still resumes exactly.
 */
export const CURSOR_EVENT_NAME = "cursor";

/**
 * One SSE message as an event, or null when its data is not JSON or lacks a field. The SSE name
 * decides the type (the contract repeats it in the data; the name is what the client listened to).
 */
export function parseLedgerEvent(name: string, data: string): LedgerLiveEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  const parsed = LedgerLiveEvent.safeParse({ ...payload, type: name });
  return parsed.success ? parsed.data : null;
}
