import type { Account } from "./accounts";
import { balanceByTime, balanceVersionKey, ownerFeed } from "./keys";
import {
  applyEntry,
  figures,
  type JournalType,
  type MarkerOperation,
  type Operation,
  type Side,
  type Totals,
} from "./model";
import type { ChainState, VersionItem } from "./versions";

/**
 * How a balance chain moves on: the next version after one journal entry, or after a change that
 * moves no money (a lock, a setting, a reconciliation). Pure: the write path stores what these return.
 */

/** The controls in force on a chain: from its head, or for older heads from the account item. */
export function chainState(version: VersionItem, account: Account): ChainState {
  return {
    locked: version.locked ?? false,
    lock_reason: version.lock_reason ?? null,
    low_balance_threshold:
      version.low_balance_threshold !== undefined ? version.low_balance_threshold : account.low_balance_threshold,
  };
}

const totalsOf = (item: Totals): Totals => ({
  posted_debits: item.posted_debits,
  posted_credits: item.posted_credits,
  pending_debits: item.pending_debits,
  pending_credits: item.pending_credits,
});

export interface ChangeContext {
  account: Account;
  operation: Operation;
  txId: string;
  txType: JournalType;
  now: Date;
  /** The leg's position in its journal. */
  leg: number;
  /** A post that settles less than was held: the part of the leg's pending amount released, not posted. */
  released?: number;
  /** What the account holds on its other chains (credit shards), for the low-balance alert. */
  availableElsewhere?: number;
}

/** The next version of a chain after one entry. */
export function nextVersion(previous: VersionItem, side: Side, amount: number, change: ChangeContext): VersionItem {
  const applied = applyEntry(totalsOf(previous), side, amount, change.operation);
  const totals = change.released ? applyEntry(applied, side, change.released, "void") : applied;
  const { balance, available } = figures(totals, previous.normal_side);
  const state = chainState(previous, change.account);
  const threshold = state.low_balance_threshold;
  const elsewhere = change.availableElsewhere ?? 0;
  return {
    ...successorOf(previous, change.now, change.leg),
    ...totals,
    balance,
    available,
    operation: change.operation,
    tx_id: change.txId,
    tx_type: change.txType,
    side,
    amount,
    low_balance: threshold !== null && available + elsewhere < threshold && previous.available + elsewhere >= threshold,
    ...state,
  };
}

/**
 * What every next version takes from its predecessor: the chain, its keys at version + 1, and a
 * commit time strictly after the predecessor's (so version order and time order agree and a
 * point-in-time lookup is exact).
 */
function successorOf(previous: VersionItem, now: Date, leg: number) {
  const committedAt = new Date(Math.max(now.getTime(), Date.parse(previous.committed_at) + 1)).toISOString();
  const version = previous.version + 1;
  return {
    ...balanceVersionKey(previous.chain, version),
    ...balanceByTime(previous.chain, committedAt, version),
    ...ownerFeed(previous.owner_id, committedAt, leg, previous.chain, version),
    entity: "balance" as const,
    account_id: previous.account_id,
    chain: previous.chain,
    owner_id: previous.owner_id,
    currency: previous.currency,
    normal_side: previous.normal_side,
    version,
    committed_at: committedAt,
    ...(previous.credit_shards ? { credit_shards: previous.credit_shards } : {}),
  };
}

export interface MarkerChange {
  account: Account;
  operation: MarkerOperation;
  now: Date;
  actor: { id: string; name: string } | null;
  reason?: string | null;
  /** The controls after the change (only lock, unlock and settings change them). */
  state?: Partial<ChainState>;
  reconciliation?: VersionItem["reconciliation"];
  /** From this version on, the account's credits may land on this many credit shards. */
  creditShards?: number;
}

/** The next version of a chain for a change that moves no money: same totals, new controls. */
export function markerVersion(previous: VersionItem, change: MarkerChange): VersionItem {
  const state = { ...chainState(previous, change.account), ...change.state };
  return {
    ...successorOf(previous, change.now, 0),
    ...totalsOf(previous),
    balance: previous.balance,
    available: previous.available,
    operation: change.operation,
    tx_id: null,
    tx_type: null,
    side: null,
    amount: 0,
    low_balance: false,
    ...state,
    actor: change.actor,
    reason: change.reason ?? null,
    ...(change.reconciliation ? { reconciliation: change.reconciliation } : {}),
    ...(change.creditShards ? { credit_shards: change.creditShards } : {}),
  };
}
