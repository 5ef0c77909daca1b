import { toDecimalString } from "../money/model";
import { isFeeAccountId, isFxRevenueAccountId } from "./model";
import { isSystemAccountId, PAYMENT_SERVICE_ACTOR, UNNAMED_PAYER, type Journal, type JournalEntry } from "./journals";

/**
 * How a journal looks to whoever reads it: its owner, or a customer it paid into (who sees the
 * money that arrived, never the payer's accounts or fee).
 */

/**
 * What a journal shows of another customer's account (a payment between users): its id, name
 * and number are the other user's business. The leg and its amount stay, so the journal still
 * visibly balances; the payer sees the payee's label (payee_label) in its place.
 */
export const REDACTED_ACCOUNT = { account_id: "redacted", account_name: "Another customer's account" } as const;

/**
 * Who looks at a journal: its owner (the default), or a customer whose account it touched (a
 * payee looking at their account's transactions), who sees only `accountIds` as their own.
 */
export interface JournalViewer {
  ownerId: string;
  accountIds?: ReadonlySet<string>;
}

/** Whether `viewer` holds the account of an entry (system accounts are nobody's). */
function ownedBy(journal: Journal, entry: JournalEntry, viewer: JournalViewer): boolean {
  if (viewer.ownerId === journal.owner_id) return entry.owned ?? !isSystemAccountId(entry.account_id);
  if (journal.payee_owner_id === viewer.ownerId) return isPayeeEntry(journal, entry);
  return viewer.accountIds?.has(entry.account_id) ?? false;
}

/** An entry on the payee's account: a customer account the journal's owner does not hold. */
const isPayeeEntry = (journal: Journal, entry: JournalEntry): boolean =>
  !isSystemAccountId(entry.account_id) && entry.owned === false && Boolean(journal.payee_owner_id);

/** Whose account an entry is on, as the viewer sees it. */
export type EntryParty = "own" | "system" | "customer";

/**
 * An entry as `viewer` may see it: system accounts and the viewer's own in full, other customers'
 * accounts redacted.
 */
export function visibleEntry(
  journal: Journal,
  entry: JournalEntry,
  viewer: JournalViewer,
): JournalEntry & { owned: boolean; party: EntryParty } {
  const owned = ownedBy(journal, entry, viewer);
  if (owned) return { ...entry, owned, party: "own" };
  if (isSystemAccountId(entry.account_id)) return { ...entry, owned, party: "system" };
  const name =
    viewer.ownerId === journal.owner_id
      ? (journal.payee_label ?? REDACTED_ACCOUNT.account_name)
      : (journal.payer_name ?? REDACTED_ACCOUNT.account_name);
  return {
    ...entry,
    account_id: REDACTED_ACCOUNT.account_id,
    account_name: name,
    account_number: null,
    owned: false,
    party: "customer",
  };
}

/** Whether `viewer` receives this journal from another customer rather than owning it. */
export const isIncomingFor = (journal: Journal, viewerId: string): boolean =>
  journal.owner_id !== viewerId && journal.payee_owner_id === viewerId;

/**
 * The part of a journal that is a fee: a payment's legs to fee revenue and the FX position, a
 * quoted conversion's spread leg to FX revenue; 0 for other journals.
 */
export function feeOf(journal: Journal): number {
  const isFeeLeg = journal.type === "payment" ? isFeeAccountId : journal.type === "fx" ? isFxRevenueAccountId : null;
  if (!isFeeLeg) return 0;
  return journal.entries
    .filter((entry) => entry.side === "debit" && isFeeLeg(entry.account_id))
    .reduce((sum, entry) => sum + entry.amount, 0);
}

/** Whose side a row is on: a deposit's is the system account; a payment's is its payee; a transfer's is "from → to". */
function counterpartyOf(journal: Journal, entries: (JournalEntry & { owned: boolean })[]): string {
  if (journal.type === "payment" && journal.payee_label) return journal.payee_label;
  // A payment's fee legs are not whom it was paid to.
  const outside = entries.find(
    (entry) => !entry.owned && !(journal.type === "payment" && isFeeAccountId(entry.account_id)),
  );
  if (outside) return outside.account_name;
  const from = entries.find((entry) => entry.side === "credit");
  const to = entries.find((entry) => entry.side === "debit" && !isFeeAccountId(entry.account_id));
  return `${from?.account_name ?? "?"} → ${to?.account_name ?? "?"}`;
}

/**
 * The journal as its payee sees it: the money that arrived on their account(s), from the payer
 * (named, never their account), posted by whoever posted it. The payer's fee, their accounts,
 * their Idempotency-Key and who among them acted stay the payer's.
 */
function incomingView(journal: Journal) {
  const received = journal.entries.filter((entry) => isPayeeEntry(journal, entry));
  const amount = received.reduce((sum, entry) => sum + entry.amount, 0);
  const payer = journal.payer_name ?? UNNAMED_PAYER;
  const ownSide = received[0]?.side ?? "debit";
  const entries = [
    {
      account_id: REDACTED_ACCOUNT.account_id,
      account_name: payer,
      account_number: null,
      side: ownSide === "debit" ? ("credit" as const) : ("debit" as const),
      amount,
      owned: false,
      party: "customer" as const,
    },
    ...received.map((entry) => ({
      ...entry,
      account_number: entry.account_number ?? null,
      owned: true,
      party: "own" as const,
    })),
  ];
  const posted = journal.history.filter((record) => record.operation === "post").at(-1);
  const history = posted ? [{ ...posted, by: journal.type === "payment" ? PAYMENT_SERVICE_ACTOR : null }] : [];
  return { entries, amount, counterparty: payer, history };
}

/**
 * How a journal looks in API replies: decimal strings at the edge, minor units alongside. Seen
 * by `viewer` (default: the journal's owner): accounts of other customers are redacted, and a
 * payee sees what it received (incomingView).
 */
export function journalReply(journal: Journal, viewer: JournalViewer = { ownerId: journal.owner_id }) {
  const money = (minor: number) => toDecimalString(minor, journal.currency);
  const incoming = isIncomingFor(journal, viewer.ownerId);
  const view = incoming
    ? incomingView(journal)
    : (() => {
        const entries = journal.entries.map((entry) => visibleEntry(journal, entry, viewer));
        return {
          entries,
          amount: journal.total_amount,
          counterparty: counterpartyOf(journal, entries),
          history: journal.history,
        };
      })();
  const fee = incoming ? 0 : feeOf(journal);
  return {
    id: journal.id,
    type: journal.type,
    status: journal.status,
    amount: money(view.amount),
    total_amount: money(view.amount),
    total_amount_minor: view.amount,
    currency: journal.currency,
    description: journal.description,
    entries: view.entries.map((entry) => ({
      account_id: entry.account_id,
      account_name: entry.account_name,
      account_number: entry.account_number ?? null,
      owned: entry.owned,
      party: entry.party,
      side: entry.side,
      debit: entry.side === "debit" ? money(entry.amount) : "0",
      credit: entry.side === "credit" ? money(entry.amount) : "0",
      amount_minor: entry.amount,
    })),
    from_account_id: view.entries.find((entry) => entry.side === "credit")?.account_id ?? null,
    to_account_id: view.entries.find((entry) => entry.side === "debit")?.account_id ?? null,
    timestamp: journal.posted_at ?? journal.created_at,
    created_at: journal.created_at,
    posted_at: journal.posted_at,
    history: view.history,
    idempotency_key: incoming ? null : journal.idempotency_key,
    counterparty: view.counterparty,
    incoming,
    fee: fee > 0 ? money(fee) : null,
    fee_minor: fee > 0 ? fee : null,
  };
}
export type JournalReply = ReturnType<typeof journalReply>;
