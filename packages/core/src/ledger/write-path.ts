import { randomInt } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { CoreContext } from "../shared/context";
import { locked, unprocessable } from "../shared/errors";
import { announceCommits } from "../events/feed";
import { opsCommitsOf } from "../ops/outbox";
import { chainsOf, type Account } from "./accounts";
import { creditShardHeads } from "./balances";
import { creditShardCount, knownShardAvailable, learnFromVersion } from "./credit-shard-counts";
import { landsOnCreditShard, noteCreditContention } from "./credit-shards";
import { creditShardChains } from "./keys";
import { chainBusy, lockChains } from "./chain-locks";
import { ProcessCache } from "./cache";
import { chainState, nextVersion } from "./next-version";
import { forgetHeads, HEAD_CACHE_MS, headsForWrite, learnHead, rememberHeads } from "./head-cache";
import type { VersionItem } from "./versions";
import { holderDirection, LEDGER_MESSAGES, type JournalType, type Operation, type Side } from "./model";

/**
 * The write path every posting goes through: which balance chains a journal's legs write, the
 * next version of each (read or remembered heads, no-overdraft and lock checks), and the one
 * TransactWriteItems that commits them with the journal.
 */

export type TransactItems = NonNullable<TransactWriteCommandInput["TransactItems"]>;

export const MAX_ATTEMPTS = 30;

/**
 * Backs off with full jitter, exponentially, between optimistic-concurrency retries. Writers in
 * one process queue per chain (chain-locks.ts); separate instances cannot, and N of them racing
 * for one chain waste about N - 1 cancelled writes per commit unless they spread their retries
 * over the time the chain needs for N commits. The default cap keeps MAX_ATTEMPTS within about
 * 5 s; a write that takes longer to commit (a batch) passes larger ones, as the chain needs
 * longer for N of them.
 */
export const pause = (attempt: number, capMs = 400, baseMs = 4) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

/**
 * Reads the head of every chain the legs touch and computes the next versions. A customer
 * account whose available balance would fall below zero refuses the whole journal; the
 * conditional Put of each next version in the same transaction guarantees the head we read is
 * still the head when the write lands, so the check can never act on stale figures.
 *
 * The operation gets ONE instant, `at`, used for every new version's committed_at and for the
 * journal's own history record. It is later than every head it builds on, so each chain's
 * commit times still strictly increase. One instant for all matters: if the journal and each
 * chain took their own clock readings, a journal's history could say "created at t" while its
 * versions said t + a few ms, and a balance as of an instant in between would disagree with the
 * replay of the journals (the trial balance as of then unbalanced).
 */
export async function plannedVersions(
  ctx: CoreContext,
  chains: string[],
  legs: { account: Account; side: Side; amount: number; released?: number }[],
  operation: Operation,
  journal: { id: string; type: JournalType },
  fresh = false,
): Promise<{ versions: VersionItem[]; at: string }> {
  const { heads, guessed } = await headsForWrite(ctx, chains, fresh);
  for (const head of heads) learnFromVersion(ctx, head);
  const elsewheres = await Promise.all(
    legs.map((leg, index) => creditsElsewhere(ctx, leg.account, heads[index]!, fresh)),
  );
  const now = commitInstant(ctx, heads, elsewheres);
  const versions: VersionItem[] = [];
  for (const [index, leg] of legs.entries()) {
    const head = heads[index]!;
    const state = chainState(head, leg.account);
    const elsewhere = elsewheres[index]!;
    // A refusal is decided on figures read just now: a remembered head, or a remembered view of
    // the account's credit shards, may be older than the chains.
    const decidedOnMemory = guessed || (elsewhere.remembered && !fresh);
    if (
      leg.account.kind === "customer" &&
      state.locked &&
      operation !== "void" &&
      holderDirection(leg.side, head.normal_side, operation) === "DEBIT"
    ) {
      // A locked account still receives money; nothing leaves it (a void moves none: a hold is
      // released whatever the lock). Refuse only on a fresh head.
      if (guessed) return plannedVersions(ctx, chains, legs, operation, journal, true);
      throw locked(LEDGER_MESSAGES.accountLocked(state.lock_reason ?? "no reason given"), "account_locked");
    }
    const next = nextVersion(head, leg.side, leg.amount, {
      account: leg.account,
      operation,
      txId: journal.id,
      txType: journal.type,
      now,
      leg: index,
      released: leg.released ?? 0,
      availableElsewhere: elsewhere.available,
    });
    const decreasesAvailable = next.available < heads[index]!.available;
    if (leg.account.kind === "customer" && decreasesAvailable && next.available + elsewhere.available < 0) {
      if (decidedOnMemory) return plannedVersions(ctx, chains, legs, operation, journal, true);
      throw unprocessable(LEDGER_MESSAGES.insufficientFunds(leg.account.name), "insufficient_funds");
    }
    versions.push(next);
  }
  return { versions, at: now.toISOString() };
}

/** What a customer account holds on its other chains, as the overdraft rule of one leg counts it. */
export interface CreditsElsewhere {
  available: number;
  /** Figures this process remembered rather than read just now. */
  remembered: boolean;
  /** The latest commit instant among the versions counted (null: none). */
  countedUntil: string | null;
}

/**
 * What a customer account holds on chains other than `head`'s, as far as the overdraft rule is
 * concerned: for a leg on the main chain of an account with credit shards, the shards' available
 * balances (read afresh when `fresh`, else the floors this process knows: shards only grow, so
 * an old figure under-counts and never lets a debit overdraw). Credit shards take only legs that
 * add, so a leg on a shard needs nothing from elsewhere. The count comes from the main head too:
 * a process whose account item predates the conversion still counts every shard.
 */
export async function creditsElsewhere(
  ctx: CoreContext,
  account: Account,
  head: VersionItem,
  fresh: boolean,
): Promise<CreditsElsewhere> {
  const none = { available: 0, remembered: false, countedUntil: null };
  if (account.kind !== "customer" || head.chain !== account.id) return none;
  const count = Math.max(creditShardCount(ctx, account), head.credit_shards ?? 0);
  if (count === 0) return none;
  if (!fresh) return { ...knownShardAvailable(ctx, account.id, count), remembered: true };
  const shards = await creditShardHeads(ctx, account.id, count);
  return {
    available: shards.reduce((sum, shard) => sum + shard.available, 0),
    remembered: false,
    countedUntil: shards.reduce<string | null>(
      (latest, shard) => (latest === null || shard.committed_at > latest ? shard.committed_at : latest),
      null,
    ),
  };
}

/**
 * The one instant of a write: now, but after every head it builds on (each chain's commit times
 * strictly increase) and after every credit-shard version its overdraft checks counted. A shard
 * version can carry an instant later than this process's clock (its writer planned it a moment
 * later, or its chain ran ahead by a millisecond per version); a debit stamped before it would
 * rely on money that, as of the debit's own instant, had not arrived, and the account's
 * point-in-time balance would show it below zero.
 */
export function commitInstant(ctx: CoreContext, heads: VersionItem[], elsewhere: CreditsElsewhere[]): Date {
  const after = [
    ...heads.map((head) => head.committed_at),
    ...elsewhere.flatMap((view) => (view.countedUntil === null ? [] : [view.countedUntil])),
  ];
  return new Date(Math.max(ctx.clock().getTime(), ...after.map((instant) => Date.parse(instant) + 1)));
}

/**
 * The shard of each hot system account this process last committed to. A process that keeps to
 * one shard while no other writer uses it always holds that shard's head (it wrote it), so its
 * system legs need no read; separate instances (Lambda) spread themselves over the shards because
 * a process that loses a race on its shard moves to another (see learnFromCancellation).
 */
const SHARD_AFFINITY_MS = 60_000;
const preferredShard = new ProcessCache<string>(SHARD_AFFINITY_MS, 1_000);

/**
 * A leg as the choice of its chain sees it: its account, and whether it only adds to the account's
 * available balance (`landsOnCreditShard`), so that it may land on a credit shard.
 */
export interface ChainLeg {
  account: Account;
  side?: Side;
}

/**
 * The chain each leg writes: a customer account's main chain, or for a leg that only adds to an
 * account with credit shards, one of them; for a sharded system account or a credit leg, the shard
 * this process keeps to if no write of this process is using it right now, else a shard no write
 * of this process is using, if there is one (any shard will do).
 */
function chooseChains(ctx: CoreContext, legs: ChainLeg[], operation: Operation): string[] {
  return legs.map(({ account, side }) => {
    const shards =
      account.kind === "system"
        ? chainsOf(account)
        : side !== undefined && landsOnCreditShard(account, side, operation)
          ? creditShardChains(account.id, creditShardCount(ctx, account))
          : [];
    if (shards.length === 0) return account.id;
    const preferred = preferredShard.get(ctx, account.id);
    if (preferred !== undefined && shards.includes(preferred) && !chainBusy(ctx, preferred)) return preferred;
    const free = shards.filter((chain) => !chainBusy(ctx, chain));
    const pool = free.length > 0 ? free : shards;
    return pool[randomInt(0, pool.length)]!;
  });
}

/**
 * Plans and writes one attempt while holding this process's queues of the chains it touches.
 * `operation` is what the legs do (a new journal's legs: create), for the choice of credit shards.
 */
export async function withChains<T>(
  ctx: CoreContext,
  legs: ChainLeg[],
  attempt: (chains: string[]) => Promise<T>,
  operation: Operation = "create",
): Promise<T> {
  const chains = chooseChains(ctx, legs, operation);
  const release = await lockChains(ctx, chains);
  try {
    return await attempt(chains);
  } finally {
    release();
  }
}

const isShard = (version: VersionItem) => version.chain !== version.account_id;

/**
 * Sends one journal write; the heads it wrote are remembered. If it is cancelled, what the
 * cancellation says about each chain is remembered instead (learnFromCancellation).
 */
export async function sendWrite(ctx: CoreContext, items: TransactItems, versions: VersionItem[]): Promise<void> {
  try {
    await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    learnFromCancellation(ctx, items, versions, error);
    throw error;
  }
  rememberHeads(ctx, versions);
  for (const version of versions) {
    learnFromVersion(ctx, version);
    if (isShard(version)) preferredShard.set(ctx, version.account_id, version.chain);
  }
  announceCommits(ctx, [...versions, ...opsCommitsOf(items)]);
}

interface CancellationReason {
  Code?: string;
  /** The item as it is, for a Put with ReturnValuesOnConditionCheckFailure ALL_OLD (raw attribute values). */
  Item?: Record<string, AttributeValue>;
}

/** Per chain, the version number of a head learned from a cancellation (not read, not written). */
const learnedHeads = new ProcessCache<number>(HEAD_CACHE_MS, 50_000);

/**
 * After a cancelled write, per chain, without reading anything:
 * - our version's Put failed its condition: version n+1 exists, and the cancellation carries it
 *   (versionPuts asks for ALL_OLD). It is a committed version newer than the head we used, so
 *   it becomes this process's head of the chain: the retry builds n+2 on it with no Query.
 *   Once only: if a version built on a learned head fails too, the chain is busy enough that
 *   walking it one cancelled write per version costs more than a read, so it is read afresh.
 *   A system shard lost this way is also left: the process moves to another shard rather than
 *   race its winner again.
 * - our version's Put was not at fault (another item failed): whatever head this process had
 *   for the chain stays.
 * - anything else (a transaction conflict, a timeout, no reasons): the chain is read afresh.
 * Safe whatever it learns: a wrong guess costs one more cancelled write, never a wrong balance,
 * since version n+1 is written only if it does not exist yet and versions are contiguous; and a
 * refusal is never decided on a remembered head (plannedVersions re-plans on fresh reads).
 */
function learnFromCancellation(ctx: CoreContext, items: TransactItems, versions: VersionItem[], error: unknown): void {
  const reasons = (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons;
  for (const version of versions) {
    const reason = reasons?.[items.findIndex((item) => item.Put?.Item === version)];
    if (reason?.Code === "None") continue;
    if (isShard(version)) preferredShard.delete(ctx, version.account_id);
    const builtOnLearned = learnedHeads.get(ctx, version.chain) === version.version - 1;
    const winner =
      reason?.Code === "ConditionalCheckFailed" && reason.Item ? (unmarshall(reason.Item) as VersionItem) : undefined;
    if (winner) learnFromVersion(ctx, winner);
    if (reason?.Code === "ConditionalCheckFailed") noteCreditContention(ctx, version);
    if (winner && !builtOnLearned && winner.chain === version.chain && winner.version === version.version) {
      learnHead(ctx, winner);
      learnedHeads.set(ctx, version.chain, winner.version);
    } else {
      forgetHeads(ctx, [version.chain]);
      learnedHeads.delete(ctx, version.chain);
    }
  }
}

/** The conditional Put of each new version; a failed one returns the version already there. */
export const versionPuts = (ctx: CoreContext, versions: VersionItem[]): TransactItems =>
  versions.map((item) => ({
    Put: {
      TableName: ctx.db.table,
      Item: item,
      ConditionExpression: "attribute_not_exists(pk)",
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    },
  }));
