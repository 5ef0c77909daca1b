import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { queryAll } from "../shared/dynamo";
import type { CoreContext } from "../shared/context";
import type { Currency } from "../money/model";
import type { Account } from "./accounts";
import { chainsOf } from "./accounts";
import { ProcessCache } from "./cache";
import {
  BALANCE_PREFIX,
  balanceByTime,
  balanceByTimePartition,
  balanceVersionKey,
  chainPartition,
  ownerFeed,
} from "./keys";
import {
  applyEntry,
  figures,
  ZERO_TOTALS,
  type JournalType,
  type MarkerOperation,
  type Operation,
  type Side,
  type Totals,
} from "./model";

/** One immutable balance version: the history item, the concurrency guard and the outbox record. */
export interface VersionItem extends Totals {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  entity: "balance";
  account_id: string;
  chain: string;
  owner_id: string;
  currency: Currency;
  normal_side: Side;
  version: number;
  committed_at: string;
  balance: number;
  available: number;
  operation: Operation | "open" | MarkerOperation;
  tx_id: string | null;
  tx_type: JournalType | null;
  side: Side | null;
  amount: number;
  /** Set when this change left the available balance under the account's alert threshold. */
  low_balance: boolean;
  /**
   * The account's controls as of this version, carried forward by every version so the write
   * path (which reads the head anyway) enforces them at once in every process. Versions written
   * before these existed lack them: see chainState.
   */
  low_balance_threshold?: number | null;
  locked?: boolean;
  lock_reason?: string | null;
  /** Marker versions: who made the change, and a reconciliation's figures. */
  actor?: { id: string; name: string } | null;
  reason?: string | null;
  reconciliation?: { expected: number; ledger: number; variance: number; reconciled: boolean };
}

export interface ChainState {
  locked: boolean;
  lock_reason: string | null;
  low_balance_threshold: number | null;
}

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

/** The newest version of a chain, strongly consistent. */
export async function latestVersion(ctx: CoreContext, chain: string): Promise<VersionItem> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": chainPartition(chain), ":prefix": BALANCE_PREFIX },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = reply.Items?.[0];
  if (!item) throw new Error(`Balance chain ${chain} has no genesis version`);
  return item as VersionItem;
}

/**
 * The heads this process wrote last, per chain, for the write path only (reads always query).
 * Serving a stale head is safe: the next version is Put only if it does not exist yet, and
 * versions are contiguous, so the write of n+1 succeeds only if n (the head we used) is still
 * the head at commit; a stale head costs one cancelled transaction and a fresh read, and a
 * refusal (insufficient funds) decided on a cached head is re-decided on fresh heads. Saves
 * the two head Queries of a transfer while this process is the chain's last writer.
 */
export const HEAD_CACHE_MS = 5_000;
const headCache = new ProcessCache<VersionItem>(HEAD_CACHE_MS, 50_000);

/**
 * What this process has seen of each chain: the newest version it knows, when, and a decaying
 * count of the versions other writers added (`foreign`) over the time it watched (`span`), so
 * foreign / span estimates how fast others write the chain. A cached head is a good guess only
 * while that rate times its age is small: in one process, or for a chain this instance just won,
 * it is; for an account that 15 other instances write every few seconds, a head remembered from
 * seconds ago is almost surely stale and would cost a cancelled write (about a whole write)
 * before the read it tried to save.
 */
interface ChainActivity {
  version: number;
  at: number;
  foreign: number;
  span: number;
}
const activity = new ProcessCache<ChainActivity>(60_000, 50_000);
const ACTIVITY_HALF_LIFE_MS = 10_000;
/**
 * Guess only while fewer than this many foreign versions are expected since the head was known.
 * Above one on purpose: a stale guess costs a cancelled write but returns the winning version,
 * a head as fresh as a read would give, with no read widening the race. Measured (16 instances,
 * 3 runs each): 0.5 left one hot account at 0.34-0.41 of uniform, 1.5 at 0.50-0.53, 3 worse on
 * both phases; uniform was 0.40-0.45 of raw with either.
 */
const MAX_EXPECTED_FOREIGN = 1.5;
/** Watched for less than this, a chain's rate is unknown: only a head this recent is guessed. */
const MIN_EVIDENCE_MS = 1_000;
const UNPROVEN_GUESS_MS = 250;

function observe(ctx: CoreContext, chain: string, version: number, foreignVersions: (known: number) => number): void {
  const now = Date.now();
  const known = activity.get(ctx, chain);
  if (!known) {
    activity.set(ctx, chain, { version, at: now, foreign: 0, span: 0 });
    return;
  }
  const elapsed = Math.max(0, now - known.at);
  const decay = 0.5 ** (elapsed / ACTIVITY_HALF_LIFE_MS);
  activity.set(ctx, chain, {
    version: Math.max(version, known.version),
    at: now,
    foreign: known.foreign * decay + Math.max(0, foreignVersions(known.version)),
    span: known.span * decay + elapsed,
  });
}

/** The write path's read of a head: every version since the last one this process knew was another writer's. */
async function readHead(ctx: CoreContext, chain: string): Promise<VersionItem> {
  const head = await latestVersion(ctx, chain);
  observe(ctx, chain, head.version, (known) => head.version - known);
  return head;
}

/**
 * The cached head of a chain, if this process wrote (or learned) it lately and no other writer
 * is likely to have moved the chain since (see ChainActivity).
 */
export function cachedHead(ctx: CoreContext, chain: string): VersionItem | undefined {
  const head = headCache.get(ctx, chain);
  if (!head) return undefined;
  const known = activity.get(ctx, chain);
  if (!known || known.version > head.version) return undefined;
  const age = Date.now() - known.at;
  if (known.span < MIN_EVIDENCE_MS) return age < UNPROVEN_GUESS_MS ? head : undefined;
  return (known.foreign / known.span) * age < MAX_EXPECTED_FOREIGN ? head : undefined;
}

/**
 * The heads a write builds on, one per chain: remembered where cachedHead trusts it (unless
 * `fresh`), else read. `guessed` says whether any was remembered, so that a refusal (insufficient
 * funds, a locked account) is decided again on heads read just now, never on a guess.
 */
export async function headsForWrite(
  ctx: CoreContext,
  chains: string[],
  fresh: boolean,
): Promise<{ heads: VersionItem[]; guessed: boolean }> {
  const cached = chains.map((chain) => (fresh ? undefined : cachedHead(ctx, chain)));
  const heads = await Promise.all(chains.map((chain, index) => cached[index] ?? readHead(ctx, chain)));
  return { heads, guessed: cached.some((head) => head !== undefined) };
}

/** After a commit: these versions are their chains' heads (each built on the version before it). */
export function rememberHeads(ctx: CoreContext, versions: VersionItem[]): void {
  for (const version of versions) {
    observe(ctx, version.chain, version.version, (known) => version.version - 1 - known);
    headCache.set(ctx, version.chain, version);
  }
}

/** After a cancelled write: another writer's committed version, now this process's head of its chain. */
export function learnHead(ctx: CoreContext, winner: VersionItem): void {
  observe(ctx, winner.chain, winner.version, (known) => winner.version - known);
  headCache.set(ctx, winner.chain, winner);
}

/** After a failed or uncertain write: read these chains afresh next time. */
export function forgetHeads(ctx: CoreContext, chains: string[]): void {
  for (const chain of chains) headCache.delete(ctx, chain);
}

/** The version in force at a moment: one query on the by-time index. */
export async function versionAsOf(ctx: CoreContext, chain: string, asOf: string): Promise<VersionItem | null> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk <= :until",
      ExpressionAttributeValues: { ":pk": balanceByTimePartition(chain), ":until": `${asOf}#\uffff` },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return (reply.Items?.[0] as VersionItem | undefined) ?? null;
}

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
}

/** The next version of a chain after one entry. */
export function nextVersion(previous: VersionItem, side: Side, amount: number, change: ChangeContext): VersionItem {
  const applied = applyEntry(totalsOf(previous), side, amount, change.operation);
  const totals = change.released ? applyEntry(applied, side, change.released, "void") : applied;
  const { balance, available } = figures(totals, previous.normal_side);
  const state = chainState(previous, change.account);
  const threshold = state.low_balance_threshold;
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
    low_balance: threshold !== null && available < threshold && previous.available >= threshold,
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
  };
}

export interface AccountBalance extends Totals, ChainState {
  account_id: string;
  currency: Currency;
  balance: number;
  available: number;
  pending_in: number;
  pending_out: number;
  version: number;
  as_of: string;
}

function sumVersions(account: Account, versions: (VersionItem | null)[], asOf: string): AccountBalance | null {
  const present = versions.filter((item): item is VersionItem => item !== null);
  if (present.length === 0) return null;
  const totals = present.reduce<Totals>(
    (sum, item) => ({
      posted_debits: sum.posted_debits + item.posted_debits,
      posted_credits: sum.posted_credits + item.posted_credits,
      pending_debits: sum.pending_debits + item.pending_debits,
      pending_credits: sum.pending_credits + item.pending_credits,
    }),
    { ...ZERO_TOTALS },
  );
  // Controls are per customer account, whose one chain carries them; system accounts have none.
  const state: ChainState =
    account.kind === "customer"
      ? chainState(present[0]!, account)
      : { locked: false, lock_reason: null, low_balance_threshold: account.low_balance_threshold };
  return {
    account_id: account.id,
    currency: account.currency,
    ...state,
    ...figures(totals, account.normal_side),
    version: present.reduce((sum, item) => sum + item.version, 0),
    as_of: asOf,
  };
}

/** Current balance: the newest version of each chain (one chain for customer accounts). */
export async function currentBalance(ctx: CoreContext, account: Account): Promise<AccountBalance> {
  const versions = await Promise.all(chainsOf(account).map((chain) => latestVersion(ctx, chain)));
  return sumVersions(account, versions, ctx.clock().toISOString())!;
}

/** Balance at a moment; null when the account did not exist yet. */
export async function balanceAsOf(ctx: CoreContext, account: Account, asOf: string): Promise<AccountBalance | null> {
  const versions = await Promise.all(chainsOf(account).map((chain) => versionAsOf(ctx, chain, asOf)));
  return sumVersions(account, versions, asOf);
}

/** Every version of a chain, oldest first (for history views and the integrity check). */
export async function chainHistory(ctx: CoreContext, chain: string): Promise<VersionItem[]> {
  const items = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": chainPartition(chain), ":prefix": BALANCE_PREFIX },
    ConsistentRead: true,
  });
  return items as unknown as VersionItem[];
}
