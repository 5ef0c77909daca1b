import { z } from "zod";
import { isFeeAccountId, JOURNAL_STATUSES, TRANSACTION_SEARCH_MAX } from "@fintech/core/ledger/model";
import type { Currency } from "@fintech/core/money/model";
import type {
  JournalHistoryRecord,
  LedgerAccount,
  LedgerEntry,
  LedgerTransaction,
  TransactionFilters,
} from "../api/types";
import { typeLabel } from "./format";
import { minorOf } from "./money";

/**
 * The Transactions tab's pure parts: filters to and from the URL, the signed amount of a row as
 * seen from an account, the double-entry legs with their totals, and the history's wording.
 */

export const FILTER_TYPES = ["deposit", "transfer", "payment", "test_balance"] as const;
export const FILTER_STATUSES = JOURNAL_STATUSES;
export const SEARCH_MAX = TRANSACTION_SEARCH_MAX;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Each filter as the server accepts it; a value that is not is simply not applied. */
const FILTER_FIELDS = {
  status: z.enum(FILTER_STATUSES),
  type: z.enum(FILTER_TYPES),
  account_id: z.string().trim().min(1).max(64),
  from: z.string().regex(ISO_DATE),
  to: z.string().regex(ISO_DATE),
  q: z.string().trim().min(1).max(SEARCH_MAX),
} as const;
type FilterName = keyof typeof FILTER_FIELDS;
const FILTER_NAMES = Object.keys(FILTER_FIELDS) as FilterName[];

/** The URL's query string (shareable) as filters: ?status=draft&account_id=…&from=2026-03-01&q=rent */
export function filtersFromSearch(search: URLSearchParams): TransactionFilters {
  const filters: Record<string, string> = {};
  for (const name of FILTER_NAMES) {
    const parsed = FILTER_FIELDS[name].safeParse(search.get(name) ?? undefined);
    if (parsed.success) filters[name] = parsed.data;
  }
  return filters as TransactionFilters;
}

/** Filters written back into the query string; other parameters (the tab) are kept as they are. */
export function filtersToSearch(
  filters: TransactionFilters,
  current: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value) next.set(name, value);
    else next.delete(name);
  }
  return next;
}

export const hasFilters = (filters: TransactionFilters): boolean => FILTER_NAMES.some((name) => Boolean(filters[name]));

/** The date range's problem, if any (the server refuses it too, with a 400). */
export function dateRangeError(filters: TransactionFilters): string | null {
  if (filters.from && filters.to && filters.from > filters.to)
    return "The start date must be on or before the end date";
  return null;
}

/**
 * Whether an entry is on the caller's side: the server says so; an entry without `owned` is matched
 * against the caller's accounts.
 */
const isOwned = (entry: LedgerEntry, accounts: ReadonlyMap<string, LedgerAccount>): boolean =>
  entry.owned ?? accounts.has(entry.account_id);

/** An entry's effect on its own account: + when it grows the account (its normal side), − when it shrinks it. */
function entryEffect(entry: LedgerEntry, currency: Currency, accounts: ReadonlyMap<string, LedgerAccount>): number {
  const normal = accounts.get(entry.account_id)?.normal_side ?? "debit";
  const amount = entry.side === "debit" ? minorOf(entry.debit, currency) : minorOf(entry.credit, currency);
  return entry.side === normal ? amount : -amount;
}

export interface RowMovement {
  /** Minor units: signed when money moved in or out of the viewed account(s); the plain amount otherwise. */
  minor: number;
  /** Whether the amount carries a sign ("+$500.00", "−$20.00") or is a move between own accounts. */
  signed: boolean;
  /** The account(s) of the row: the viewed account, the one account touched, or "From → To". */
  accounts: string;
  /**
   * The other side: the system account for deposits, the other account for transfers, whom a
   * payment paid or who paid it.
   */
  counterparty: string;
  /** A payment's fee (minor units, already in a signed amount; beside a move between own accounts); 0 otherwise. */
  feeMinor: number;
}

/**
 * A row's amount and accounts as the user expects them:
 * - seen from one account (the account filter): + for money in, − for money out, and the other
 *   side as the counterparty;
 * - without it: deposits, test balances and money received are + into the user's account; a
 *   transfer or payment between two of the user's own accounts is the plain amount with
 *   "from → to" (a payment's fee beside it); a payment to someone else is − amount and fee.
 */
export function rowMovement(
  transaction: LedgerTransaction,
  accountList: readonly LedgerAccount[],
  viewAccountId: string | null = null,
): RowMovement {
  const accounts = new Map(accountList.map((account) => [account.id, account]));
  const entries = transaction.entries ?? [];
  const currency = transaction.currency;
  const nameOf = (accountId: string | null) =>
    entries.find((entry) => entry.account_id === accountId)?.account_name ?? accounts.get(accountId ?? "")?.name ?? "";
  const fromName = nameOf(transaction.from_account_id);
  const toName = nameOf(transaction.to_account_id);
  const counterparty =
    transaction.counterparty || (fromName && toName ? `${fromName} → ${toName}` : fromName || toName);
  const feeMinor = transaction.fee_minor ?? 0;
  // A payment's fee legs say what it cost, not whom it went to.
  const isFeeLeg = (entry: LedgerEntry) => transaction.type === "payment" && isFeeAccountId(entry.account_id);

  const viewed = viewAccountId ? entries.filter((entry) => entry.account_id === viewAccountId) : [];
  if (viewed.length > 0) {
    const minor = viewed.reduce((sum, entry) => sum + entryEffect(entry, currency, accounts), 0);
    const others = entries
      .filter((entry) => entry.account_id !== viewAccountId && !isFeeLeg(entry))
      .map((entry) => entry.account_name);
    return {
      minor,
      signed: true,
      accounts: viewed[0]!.account_name,
      counterparty: [...new Set(others)].join(", ") || counterparty,
      feeMinor: minor < 0 ? feeMinor : 0,
    };
  }

  const owned = entries.filter((entry) => isOwned(entry, accounts));
  const net = owned.reduce((sum, entry) => sum + entryEffect(entry, currency, accounts), 0);
  if (owned.length >= 2 && net === -feeMinor) {
    const moved = transaction.total_amount_minor - feeMinor;
    return {
      minor: moved,
      signed: false,
      accounts: `${fromName} → ${toName}`,
      counterparty: `${fromName} → ${toName}`,
      feeMinor,
    };
  }
  const names = [...new Set(owned.map((entry) => entry.account_name))].join(", ");
  return {
    minor: owned.length > 0 ? net : transaction.total_amount_minor,
    signed: owned.length > 0,
    accounts: names || toName || fromName,
    counterparty,
    feeMinor,
  };
}

export interface Leg {
  accountId: string;
  name: string;
  /** null for system accounts and other customers' accounts. */
  number: string | null;
  party: LedgerEntry["party"] | undefined;
  debitMinor: number;
  creditMinor: number;
}

/** The double-entry legs with their totals; a journal balances when the two totals agree. */
export function legsOf(transaction: LedgerTransaction): {
  legs: Leg[];
  debitTotal: number;
  creditTotal: number;
  balanced: boolean;
} {
  const legs = (transaction.entries ?? []).map((entry) => ({
    accountId: entry.account_id,
    name: entry.account_name,
    number: entry.account_number ?? null,
    party: entry.party,
    debitMinor: minorOf(entry.debit, transaction.currency),
    creditMinor: minorOf(entry.credit, transaction.currency),
  }));
  const debitTotal = legs.reduce((sum, leg) => sum + leg.debitMinor, 0);
  const creditTotal = legs.reduce((sum, leg) => sum + leg.creditMinor, 0);
  return { legs, debitTotal, creditTotal, balanced: debitTotal === creditTotal };
}

/** A row's kind for people: "Payment received" for money another customer paid in, else the type ("Test balance"). */
export const kindLabel = (transaction: Pick<LedgerTransaction, "type" | "incoming">): string =>
  transaction.incoming ? "Payment received" : typeLabel(transaction.type);

/** When a row happened as the list orders it: created, or for money received, when it arrived. */
export const listedAt = (transaction: Pick<LedgerTransaction, "incoming" | "created_at" | "posted_at">): string =>
  transaction.incoming ? (transaction.posted_at ?? transaction.created_at) : transaction.created_at;

const OPERATION_LABELS: Record<JournalHistoryRecord["operation"], string> = {
  create: "Created",
  post: "Posted",
  unpost: "Unposted",
  void: "Voided (hold released)",
};

/** "Posted", "Unposted", "Created", "Voided (hold released)". */
export const operationLabel = (operation: JournalHistoryRecord["operation"]): string =>
  OPERATION_LABELS[operation] ?? operation;

/**
 * Who did it: the stored name; without one, the payment service for a payment's hold (the payment
 * worker settles it, not a person), and a neutral word for anything else.
 */
export function actorName(record: JournalHistoryRecord, type?: LedgerTransaction["type"]): string {
  const name = record.by?.name?.trim();
  if (name) return name;
  return type === "payment" && record.operation !== "create" ? "the payment service" : "Unknown user";
}

/** Under a leg's account name: its number, or whose it is when there is none to show. */
export function legOwnerLabel(leg: { number: string | null; party: LedgerEntry["party"] | undefined }): string {
  if (leg.number) return leg.number;
  return leg.party === "customer" ? "Another customer" : "System account";
}

/**
 * An instant in the viewer's own locale and time zone: "3/14/2026, 12:00:05 PM" (en-US) or
 * "14/03/2026, 12:00:05" (en-GB).
 */
export function formatLocalDateTime(iso: string, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(time);
}
