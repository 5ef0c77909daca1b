/** Key formats of the ledger domain; nothing else builds these keys. */

const VERSION_DIGITS = 12;
export const padVersion = (version: number) => String(version).padStart(VERSION_DIGITS, "0");

export const SYSTEM_OWNER = "system";

export const accountKey = (accountId: string) => ({ pk: `ACCT#${accountId}`, sk: "META" });
export const accountsByOwner = (ownerId: string, createdAt?: string, accountId?: string) => ({
  gsi1pk: `OWNER#${ownerId}#ACCTS`,
  ...(createdAt && accountId ? { gsi1sk: `${createdAt}#${accountId}` } : {}),
});
/**
 * An account number is unique per owner, not across the ledger: real numbers repeat across banks,
 * and a global claim would tell a stranger which numbers exist. (Global `ACCTNUM#<number>` items
 * in older tables are not consulted.)
 */
export const accountNumberKey = (ownerId: string, accountNumber: string) => ({
  pk: `ACCTNUM#${ownerId}#${accountNumber.toUpperCase()}`,
  sk: "ACCTNUM",
});

/**
 * A balance chain: one per customer account, several (shards) per system account. Every change
 * is a new immutable item BAL#<version>; writing version n+1 only if it does not exist yet is
 * the optimistic-concurrency guard.
 */
export const chainId = (accountId: string, shard: number | null) =>
  shard === null ? accountId : `${accountId}#S${shard}`;
/** A customer account's credit shards (credit-shards.ts): chains beside its main chain. */
export const creditShardChains = (accountId: string, count: number): string[] =>
  Array.from({ length: count }, (_, shard) => chainId(accountId, shard));
export const chainPartition = (chain: string) => `ACCT#${chain}`;
export const balanceVersionKey = (chain: string, version: number) => ({
  pk: chainPartition(chain),
  sk: `BAL#${padVersion(version)}`,
});
export const BALANCE_PREFIX = "BAL#";
/** Point in time: the chain's versions ordered by commit time. */
export const balanceByTime = (chain: string, committedAt: string, version: number) => ({
  gsi1pk: `BALT#${chain}`,
  gsi1sk: `${committedAt}#${padVersion(version)}`,
});
export const balanceByTimePartition = (chain: string) => `BALT#${chain}`;
/**
 * The outbox: every balance change of an owner's accounts, in commit order, for the feeds. The
 * legs of one journal share a commit time; the leg's position keeps them in journal order.
 *
 * The system accounts' feed is spread over SYSTEM_FEED_SHARDS partitions by the shard of the
 * chain: every deposit writes a system-account version, and one index key (`FEED#system`) would
 * be one hot index partition for all deposits in the cloud (about 1,000 writes/s per partition).
 * Readers merge the shards (events/feed.ts) and the unsharded `FEED#system` partition, which
 * older versions are on.
 */
export const SYSTEM_FEED_SHARDS = 8;
const LEGACY_SYSTEM_FEED = `FEED#${SYSTEM_OWNER}`;
const systemFeedShard = (shard: number) => `FEED#${SYSTEM_OWNER}#S${shard % SYSTEM_FEED_SHARDS}`;
/** The shard number of a chain built by chainId (a customer chain is shard 0). */
const shardOfChain = (chain: string) => Number(/#S(\d+)$/.exec(chain)?.[1] ?? 0);
const feedPartitionOf = (ownerId: string, chain: string) =>
  ownerId === SYSTEM_OWNER ? systemFeedShard(shardOfChain(chain)) : `FEED#${ownerId}`;

export const ownerFeed = (ownerId: string, committedAt: string, leg: number, chain: string, version: number) => ({
  gsi2pk: feedPartitionOf(ownerId, chain),
  gsi2sk: `${committedAt}#${String(leg).padStart(2, "0")}#${chain}#${padVersion(version)}`,
});
/** Every feed partition of an owner: one, or for the system owner its shards and the legacy key. */
export const ownerFeedPartitions = (ownerId: string): string[] =>
  ownerId === SYSTEM_OWNER
    ? [LEGACY_SYSTEM_FEED, ...Array.from({ length: SYSTEM_FEED_SHARDS }, (_, shard) => systemFeedShard(shard))]
    : [`FEED#${ownerId}`];

export const journalKey = (journalId: string) => ({ pk: `TX#${journalId}`, sk: "TX" });
export const journalsByOwner = (ownerId: string, createdAt?: string, journalId?: string) => ({
  gsi1pk: `OWNER#${ownerId}#TXS`,
  ...(createdAt && journalId ? { gsi1sk: `${createdAt}#${journalId}` } : {}),
});
/**
 * Journals that brought money into an owner's accounts from another customer (a payment between
 * users): a sparse index present only while such a journal is posted, so a payee never sees a
 * held payment. Ordered by arrival (posted_at), which is when the money became theirs.
 */
export const journalsReceivedBy = (payeeOwnerId: string, postedAt?: string, journalId?: string) => ({
  gsi3pk: `OWNER#${payeeOwnerId}#RECEIVED`,
  ...(postedAt && journalId ? { gsi3sk: `${postedAt}#${journalId}` } : {}),
});

/**
 * The idempotency record of one keyed post/unpost of a journal: its own item in the journal's
 * partition, written in the same transaction as the status change, so the journal item does not
 * grow with every keyed call. The client's key is hashed: keys are up to 255 characters, and the
 * sort key stays short whatever they hold.
 */
export const operationKey = (journalId: string, keyHash: string) => ({ pk: `TX#${journalId}`, sk: `OPKEY#${keyHash}` });
