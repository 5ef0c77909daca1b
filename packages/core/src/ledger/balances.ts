import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { queryAll } from "../shared/dynamo";
import type { CoreContext } from "../shared/context";
import type { Currency } from "../money/model";
import { chainsOf, type Account } from "./accounts";
import { creditShardCount, learnFromVersion } from "./credit-shard-counts";
import { BALANCE_PREFIX, balanceByTimePartition, chainPartition, creditShardChains } from "./keys";
import { figures, ZERO_TOTALS, type Totals } from "./model";
import { chainState } from "./next-version";
import type { ChainState, VersionItem } from "./versions";

/**
 * Reading balance chains: a chain's newest version, its version at a moment, its whole history, and
 * an account's balance from its chains.
 */

/**
 * The newest version of a chain (undefined if the read finds none): strongly consistent, or
 * eventually consistent for the write path's reads of quiet chains (head-cache.ts).
 */
export async function newestVersion(
  ctx: CoreContext,
  chain: string,
  consistent: boolean,
): Promise<VersionItem | undefined> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": chainPartition(chain), ":prefix": BALANCE_PREFIX },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: consistent,
    }),
  );
  return reply.Items?.[0] as VersionItem | undefined;
}

/** The newest version of a chain, strongly consistent. */
export async function latestVersion(ctx: CoreContext, chain: string): Promise<VersionItem> {
  const item = await newestVersion(ctx, chain, true);
  if (!item) throw new Error(`Balance chain ${chain} has no genesis version`);
  return item;
}
/** The newest version of each of a customer account's first `count` credit shards, in parallel. */
export async function creditShardHeads(ctx: CoreContext, accountId: string, count: number): Promise<VersionItem[]> {
  const heads = await Promise.all(creditShardChains(accountId, count).map((chain) => latestVersion(ctx, chain)));
  for (const head of heads) learnFromVersion(ctx, head);
  return heads;
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
  // Controls are per customer account, whose main chain (read first) carries them; system accounts have none.
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

/**
 * An account's versions, one per chain (main chain first), read in parallel by `read`. For a
 * customer account the count of credit shards is what this process knows; if the main chain's
 * version says there are more (a conversion this process has not heard of), those are read too.
 */
async function versionsOfChains<V extends VersionItem | null>(
  ctx: CoreContext,
  account: Account,
  read: (chain: string) => Promise<V>,
): Promise<V[]> {
  return perChain(ctx, account, read, (main) => main);
}

/** perChain's work for any per-chain read, given where the main chain's newest version is in it. */
async function perChain<T>(
  ctx: CoreContext,
  account: Account,
  read: (chain: string) => Promise<T>,
  newestOf: (main: T) => VersionItem | null | undefined,
): Promise<T[]> {
  const known = creditShardCount(ctx, account);
  const reads = await Promise.all(chainsOf(account, known).map(read));
  const main = newestOf(reads[0]!);
  if (account.kind !== "customer" || !main) return reads;
  learnFromVersion(ctx, main);
  const count = main.credit_shards ?? 0;
  if (count <= known) return reads;
  const more = await Promise.all(
    chainsOf(account, count)
      .slice(1 + known)
      .map(read),
  );
  return [...reads, ...more];
}

/**
 * A chain's versions in force at some moment of [from, to]: the one in force at `from` (if any)
 * and every later one up to `to`, oldest first. One query on the by-time index, paged backwards
 * from `to` until a version at or before `from`.
 */
async function versionsInWindow(ctx: CoreContext, chain: string, from: string, to: string): Promise<VersionItem[]> {
  const found: VersionItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :pk AND gsi1sk <= :until",
        ExpressionAttributeValues: { ":pk": balanceByTimePartition(chain), ":until": `${to}#\uffff` },
        ScanIndexForward: false,
        Limit: WINDOW_PAGE,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (reply.Items ?? []) as VersionItem[]) {
      found.push(item);
      if (item.committed_at <= from) return found.reverse();
    }
    start = reply.LastEvaluatedKey;
  } while (start);
  return found.reverse();
}
const WINDOW_PAGE = 50;

/**
 * An account's balance at each of several moments, close together (a page of its feed): one
 * windowed query per chain, in parallel, instead of a query per chain and moment. null where the
 * account did not exist yet.
 */
export async function balancesAt(
  ctx: CoreContext,
  account: Account,
  instants: string[],
): Promise<Map<string, AccountBalance | null>> {
  const sorted = [...new Set(instants)].sort();
  const from = sorted[0];
  const to = sorted[sorted.length - 1];
  if (from === undefined || to === undefined) return new Map();
  const chains = await perChain(
    ctx,
    account,
    (chain) => versionsInWindow(ctx, chain, from, to),
    (versions) => versions[versions.length - 1],
  );
  const inForce = (versions: VersionItem[], at: string) =>
    versions.findLast((version) => version.committed_at <= at) ?? null;
  return new Map(
    sorted.map((at) => [
      at,
      sumVersions(
        account,
        chains.map((versions) => inForce(versions, at)),
        at,
      ),
    ]),
  );
}

/** Current balance: the newest version of each chain (a customer account: its main chain and credit shards). */
export async function currentBalance(ctx: CoreContext, account: Account): Promise<AccountBalance> {
  const versions = await versionsOfChains(ctx, account, (chain) => latestVersion(ctx, chain));
  return sumVersions(account, versions, ctx.clock().toISOString())!;
}

/**
 * Balance at a moment, one query per chain in parallel; null when the account did not exist yet.
 * A credit shard's genesis is the conversion's instant, so before it a shard adds nothing.
 */
export async function balanceAsOf(ctx: CoreContext, account: Account, asOf: string): Promise<AccountBalance | null> {
  const versions = await versionsOfChains(ctx, account, (chain) => versionAsOf(ctx, chain, asOf));
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
