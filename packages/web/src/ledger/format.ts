import type { LedgerAccount, LedgerTransaction } from "../api/types";
import { formatMoney } from "../lib/money";

/** Labels and dates of the workspace; pure, so the table, the overview and tests agree. */

const TYPE_LABELS: Record<string, string> = {
  deposit: "Deposit",
  transfer: "Transfer",
  test_balance: "Test balance",
  payment: "Payment",
  fx: "FX",
  adjustment: "Adjustment",
};

/**
 * Types arrive lowercase (transfer, deposit; docs/product/ledger-workspace.md#data); shown
 * capitalised: "Test balance".
 */
export function typeLabel(type: string): string {
  return TYPE_LABELS[type.toLowerCase()] ?? humanize(type);
}

/** The status lowercased (draft when missing, docs/product/ledger-workspace.md#data), for comparisons. */
export const statusOf = (status: string | null | undefined): string => (status || "draft").toLowerCase();

/**
 * What a person may do to a transaction from the ledger workspace: approve a draft, unpost a
 * posted one. A payment's journal is its hold, settled only by the payment's own lifecycle (the
 * server answers 409 payment_hold), and a voided journal (a released hold) is final.
 */
export function transactionAction(transaction: {
  type: string;
  status: string | null | undefined;
}): "approve" | "unpost" | null {
  if (transaction.type.toLowerCase() === "payment") return null;
  const status = statusOf(transaction.status);
  return status === "draft" ? "approve" : status === "posted" ? "unpost" : null;
}

/** A journal status for people: "Draft", "Posted". */
export const statusLabel = (status: string | null | undefined): string => humanize(statusOf(status));

/** A raw upper- or snake-case value for people: "ACTIVE" -> "Active", "test_balance" -> "Test balance". */
export function humanize(value: string): string {
  const text = value.toLowerCase().replace(/_/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const DATE_ONLY = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
const SHORT_DAY = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const LONG_DAY = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** "Mar 14, 2026, 12:00 PM" in the viewer's time zone; the raw text when unparsable. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATE_TIME.format(time);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : DATE_ONLY.format(time);
}

/** An analytics day ("2026-03-14", UTC) as "Mar 14" or "Mar 14, 2026". */
export function formatDay(date: string, long = false): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time)) return date;
  return (long ? LONG_DAY : SHORT_DAY).format(time);
}

/** "Deposit of $500.00 created as a draft": the toast after a write, in words rather than raw status values. */
export function createdMessage(
  what: string,
  transaction: Pick<LedgerTransaction, "total_amount_minor" | "currency" | "status">,
): string {
  const state = statusOf(transaction.status) === "posted" ? "and posted" : "as a draft";
  return `${what} of ${formatMoney(transaction.total_amount_minor, transaction.currency)} created ${state}`;
}

/**
 * "Main Checking - ACC0123456789": how an account is named in selects
 * (docs/product/ledger-workspace.md#deposit-form).
 */
export const accountOptionLabel = (account: Pick<LedgerAccount, "name" | "account_number">): string =>
  `${account.name} - ${account.account_number}`;

/** The counterpart named in a journal's entries, for activity lines. */
export function transactionTitle(transaction: LedgerTransaction): string {
  if (transaction.description) return transaction.description;
  return typeLabel(transaction.type);
}

/** "<input type=datetime-local>" value (local wall time) to an ISO instant; null if incomplete. */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** An instant as a datetime-local value in local wall time (minutes precision). */
export function isoToLocalInput(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
