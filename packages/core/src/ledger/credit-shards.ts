import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { badRequest, notFound } from "../shared/errors";
import { announceCommits } from "../events/feed";
import { Account, forgetAccount, genesisVersion } from "./accounts";
import { latestVersion } from "./balances";
import { ProcessCache } from "./cache";
import { accountKey, creditShardChains, SYSTEM_OWNER } from "./keys";
import { learnedShardCount, learnFromVersion } from "./credit-shard-counts";
import { isLedgerId, LEDGER_MESSAGES, type Operation, type Side } from "./model";
import { markerVersion } from "./next-version";
import { forgetHeads, rememberHeads } from "./head-cache";
import type { Actor } from "./journals";
import type { VersionItem } from "./versions";

/**
 * Hot receiving accounts (docs/ledger.md#hot-receiving-accounts). A customer account that many
 * writers credit at once (a merchant, a platform's fee account) would serialise them on its one
 * chain. Converted, it keeps its main chain (every debit, hold and control) and adds
 * CREDIT_SHARDS chains that take only money coming in. Shards only ever grow the available
 * balance, so the no-overdraft check of a debit (main chain + the shards' available balances as
 * last seen) is conservative however stale its view of the shards; the main chain's versions
 * still serialise every debit against every other.
 */

/** As many as the system accounts have, for the same reason: more shards than concurrent writers. */
export const CREDIT_SHARDS = 32;

/**
 * Automatic conversion: a process that loses this many races (decaying, half-life below) on
 * credits to one customer account's main chain converts the account. One process's losses are a
 * sample of the chain's contention; a few a second means the account is a hot receiver.
 */
export const AUTO_CONVERT_LOST_RACES = 8;
const LOST_RACE_HALF_LIFE_MS = 5_000;

export const CREDIT_SHARD_MESSAGES = {
  converted: (shards: number) => `Incoming credits spread over ${shards} balance shards`,
  automatic: "Automatic: concurrent credits contended on the account's balance chain",
} as const;

export const CONTENTION_ACTOR: Actor = { id: "ledger", name: "the ledger (contention)" };

/**
 * A leg that can only add to the available balance: money arriving on the account's normal side,
 * held (create) or settled (post). Everything else (debits, holds going out, releases, unposts)
 * stays on the main chain, where the account's controls and the overdraft rule are decided.
 */
export const landsOnCreditShard = (account: Account, side: Side, operation: Operation): boolean =>
  account.kind === "customer" && side === account.normal_side && (operation === "create" || operation === "post");

interface LostRaces {
  count: number;
  at: number;
}
const lostRaces = new ProcessCache<LostRaces>(60_000, 10_000);
const converting = new Set<string>();

/**
 * A credit (`lost`, a version of a customer account's main chain) lost its race. Past the
 * threshold, the account is converted in the background (once per process at a time; conversion
 * itself is idempotent).
 */
export function noteCreditContention(ctx: CoreContext, lost: VersionItem): void {
  const accountId = lost.account_id;
  if (lost.chain !== accountId || lost.owner_id === SYSTEM_OWNER || !ctx.config.LEDGER_AUTO_CREDIT_SHARDS) return;
  if (lost.side !== lost.normal_side || (lost.operation !== "create" && lost.operation !== "post")) return;
  if (learnedShardCount(ctx, accountId) > 0) return;
  const now = Date.now();
  const known = lostRaces.get(ctx, accountId);
  const count = (known ? known.count * 0.5 ** ((now - known.at) / LOST_RACE_HALF_LIFE_MS) : 0) + 1;
  lostRaces.set(ctx, accountId, { count, at: now });
  if (count < AUTO_CONVERT_LOST_RACES || converting.has(accountId)) return;
  converting.add(accountId);
  void enableCreditShards(ctx, accountId, CONTENTION_ACTOR, CREDIT_SHARD_MESSAGES.automatic)
    .then((result) => ctx.logger.info("account converted to credit shards", { ...result }))
    .catch((error: unknown) =>
      ctx.logger.warn("automatic credit-shard conversion failed", { account_id: accountId, error: String(error) }),
    )
    .finally(() => converting.delete(accountId));
}

export interface CreditShardConversion {
  account_id: string;
  credit_shards: number;
  /** False when the account already had its shards (a repeated request changes nothing). */
  converted: boolean;
  /** The conversion's commit instant (the main chain's marker version). */
  at: string | null;
}

const MAX_ATTEMPTS = 20;

/**
 * Converts a customer account to credit shards, live: one transaction writes the account item's
 * count (only if it has none), the main chain's marker version carrying the count (built on its
 * head, so it is ordered with every debit), and each shard's genesis version at the marker's
 * instant (so a balance as of any earlier moment finds no shard). Writers that have not heard
 * yet keep crediting the main chain, which stays correct; nothing waits.
 */
export async function enableCreditShards(
  ctx: CoreContext,
  accountId: string,
  actor: Actor | null,
  reason: string | null = null,
): Promise<CreditShardConversion> {
  for (let attempt = 1; ; attempt++) {
    const reply = isLedgerId(accountId)
      ? await ctx.db.doc.send(
          new GetCommand({ TableName: ctx.db.table, Key: accountKey(accountId), ConsistentRead: true }),
        )
      : null;
    if (!reply?.Item) throw notFound(LEDGER_MESSAGES.accountNotFound, "account_not_found");
    const account = Account.parse(reply.Item);
    if (account.kind !== "customer") throw badRequest(LEDGER_MESSAGES.systemAccountControl, "system_account");
    if (account.credit_shards > 0)
      return { account_id: account.id, credit_shards: account.credit_shards, converted: false, at: null };
    const head = await latestVersion(ctx, account.id);
    const marker = markerVersion(head, {
      account,
      operation: "settings",
      now: ctx.clock(),
      actor,
      reason: reason ?? CREDIT_SHARD_MESSAGES.converted(CREDIT_SHARDS),
      creditShards: CREDIT_SHARDS,
    });
    const geneses = creditShardChains(account.id, CREDIT_SHARDS).map((chain) =>
      genesisVersion(account, chain, marker.committed_at),
    );
    try {
      await ctx.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: ctx.db.table,
                Key: accountKey(account.id),
                UpdateExpression: "SET credit_shards = :shards",
                ConditionExpression: "attribute_not_exists(credit_shards) OR credit_shards = :none",
                ExpressionAttributeValues: { ":shards": CREDIT_SHARDS, ":none": 0 },
              },
            },
            ...[marker, ...geneses].map((item) => ({
              Put: { TableName: ctx.db.table, Item: item, ConditionExpression: "attribute_not_exists(pk)" },
            })),
          ],
        }),
      );
    } catch (error) {
      forgetHeads(ctx, [account.id]);
      const codes = cancellationCodes(error);
      // Another change took the main chain's next version, or another conversion won: look again.
      if (!codes || attempt >= MAX_ATTEMPTS) throw error;
      continue;
    }
    forgetAccount(ctx, account.id);
    learnFromVersion(ctx, marker);
    rememberHeads(ctx, [marker, ...geneses]);
    announceCommits(ctx, [marker, ...geneses]);
    return { account_id: account.id, credit_shards: CREDIT_SHARDS, converted: true, at: marker.committed_at };
  }
}
