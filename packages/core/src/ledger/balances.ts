import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { queryAll } from "../shared/dynamo";
import type { CoreContext } from "../shared/context";
import type { Currency } from "../money/model";
import { chainsOf, type Account } from "./accounts";
import { BALANCE_PREFIX, balanceByTimePartition, chainPartition } from "./keys";
import { figures, ZERO_TOTALS, type Totals } from "./model";
import { chainState } from "./next-version";
import type { ChainState, VersionItem } from "./versions";

/**
 * Reading balance chains: a chain's newest version, its version at a moment, its whole history, and
 * an account's balance from its chains.
 */

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
