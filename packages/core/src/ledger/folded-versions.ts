import type { Account } from "./accounts";
import { chainState, nextVersion } from "./next-version";
import type { VersionItem } from "./versions";
import { applyEntry, figures, type JournalType, type Side, type Totals } from "./model";

/**
 * A batch (batches.ts) writes ONE new version per balance chain it touches, however many of its
 * legs land on that chain: a 50-transfer payout from one account is one version of the source,
 * not fifty, which is what lets a 50-item batch commit in one TransactWriteItems. Such a folded
 * version holds the totals after all its legs and lists each leg as a change, with the balance
 * after it, so the feed still announces every journal (balanceUpdate per leg, transactionCreated
 * per journal) and analytics still count every transaction. A chain with one leg in the batch
 * gets an ordinary version, exactly as a single posting writes it.
 */

/** One leg folded into a version: what a single-leg version says in tx_id, side, amount, balance, available. */
export interface VersionChange {
  tx_id: string;
  tx_type: JournalType;
  side: Side;
  amount: number;
  /** The leg's position in its journal. */
  leg: number;
  balance: number;
  available: number;
}

/** A balance version that may fold several legs (`changes`); single-leg versions have none. */
export interface FoldedVersionItem extends VersionItem {
  changes?: VersionChange[];
}

export interface FoldedLeg {
  txId: string;
  txType: JournalType;
  side: Side;
  amount: number;
  leg: number;
}

const totalsOf = (item: Totals): Totals => ({
  posted_debits: item.posted_debits,
  posted_credits: item.posted_credits,
  pending_debits: item.pending_debits,
  pending_credits: item.pending_credits,
});

/** The figures after each leg in order, starting from the head (for the no-overdraft check per leg). */
export function changesAfter(
  head: VersionItem,
  legs: readonly FoldedLeg[],
): { changes: VersionChange[]; totals: Totals } {
  let totals = totalsOf(head);
  const changes = legs.map((leg) => {
    totals = applyEntry(totals, leg.side, leg.amount, "create");
    const { balance, available } = figures(totals, head.normal_side);
    return {
      tx_id: leg.txId,
      tx_type: leg.txType,
      side: leg.side,
      amount: leg.amount,
      leg: leg.leg,
      balance,
      available,
    };
  });
  return { changes, totals };
}

/** The next version of a chain after the batch's legs on it (created as drafts), committed at `now`. */
export function foldedVersion(
  head: VersionItem,
  account: Account,
  legs: readonly FoldedLeg[],
  now: Date,
  availableElsewhere = 0,
): FoldedVersionItem {
  const first = legs[0];
  if (!first) throw new Error("A folded version needs at least one leg");
  const single = nextVersion(head, first.side, first.amount, {
    account,
    operation: "create",
    txId: first.txId,
    txType: first.txType,
    now,
    leg: legs.length === 1 ? first.leg : 0,
    availableElsewhere,
  });
  if (legs.length === 1) return single;
  const { changes, totals } = changesAfter(head, legs);
  const { balance, available } = figures(totals, head.normal_side);
  const threshold = chainState(head, account).low_balance_threshold;
  return {
    ...single,
    ...totals,
    balance,
    available,
    // No single change describes this version: readers take its legs from `changes` (unfoldVersion).
    tx_id: null,
    tx_type: null,
    side: null,
    amount: 0,
    low_balance:
      threshold !== null &&
      available + availableElsewhere < threshold &&
      head.available + availableElsewhere >= threshold,
    changes,
  };
}

/**
 * A version as the single-leg versions it stands for: itself, or one view per folded leg with
 * that leg's change and the figures after it (the low-balance flag on the last view only).
 */
export function unfoldVersion<V extends FoldedVersionItem>(item: V): V[] {
  const changes = item.changes;
  if (!changes || changes.length === 0) return [item];
  return changes.map((change, index) => ({
    ...item,
    tx_id: change.tx_id,
    tx_type: change.tx_type,
    side: change.side,
    amount: change.amount,
    balance: change.balance,
    available: change.available,
    low_balance: index === changes.length - 1 ? item.low_balance : false,
  }));
}
