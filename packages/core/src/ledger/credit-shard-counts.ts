import type { CoreContext } from "../shared/context";
import type { Account } from "./accounts";
import { ProcessCache } from "./cache";
import { creditShardChains, SYSTEM_OWNER } from "./keys";
import type { VersionItem } from "./versions";

/**
 * What this process knows of customer accounts' credit shards (credit-shards.ts), in a module of
 * its own because the balance reads and the write path both need it and credit-shards.ts itself
 * builds on them.
 */

/**
 * The credit shard count of an account: the larger of its (cached) account item's and any main
 * chain version this process has seen since. A process with a stale account item keeps crediting
 * the main chain, which is harmless; it learns from the first main head it reads or the first race
 * it loses there (the winning version carries the count).
 */
const learnedShardCounts = new ProcessCache<number>(60_000, 10_000);

export function creditShardCount(ctx: CoreContext, account: Account): number {
  if (account.kind !== "customer") return 0;
  return Math.max(account.credit_shards, learnedShardCount(ctx, account.id));
}

/** The count learned from main-chain versions alone (0: none seen). */
export const learnedShardCount = (ctx: CoreContext, accountId: string): number =>
  learnedShardCounts.get(ctx, accountId) ?? 0;

const isCustomerShard = (version: VersionItem) =>
  version.chain !== version.account_id && version.owner_id !== SYSTEM_OWNER;

interface ShardFloor {
  version: number;
  available: number;
  committed_at: string;
}
const shardFloors = new ProcessCache<ShardFloor>(10 * 60_000, 50_000);

/**
 * Learns from any version this process reads, writes or is told of by a lost race: a main chain's
 * count, and a credit shard's available balance. A shard only ever grows its available balance,
 * so the newest one seen is a floor of the shard's balance however old it is: a debit may count
 * on it without reading the shard.
 */
export function learnFromVersion(ctx: CoreContext, version: VersionItem): void {
  if (isCustomerShard(version)) {
    const known = shardFloors.get(ctx, version.chain);
    if (!known || known.version < version.version)
      shardFloors.set(ctx, version.chain, {
        version: version.version,
        available: version.available,
        committed_at: version.committed_at,
      });
    return;
  }
  if (version.credit_shards && (learnedShardCounts.get(ctx, version.account_id) ?? 0) < version.credit_shards)
    learnedShardCounts.set(ctx, version.account_id, version.credit_shards);
}

/**
 * The sum of the floors this process knows for an account's shards (0 for a shard never seen), and
 * the latest commit instant among them: a debit counting on them must commit after it.
 */
export function knownShardAvailable(
  ctx: CoreContext,
  accountId: string,
  count: number,
): { available: number; countedUntil: string | null } {
  let available = 0;
  let countedUntil: string | null = null;
  for (const chain of creditShardChains(accountId, count)) {
    const floor = shardFloors.get(ctx, chain);
    if (!floor) continue;
    available += floor.available;
    if (countedUntil === null || floor.committed_at > countedUntil) countedUntil = floor.committed_at;
  }
  return { available, countedUntil };
}
