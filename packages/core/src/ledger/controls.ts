import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { announceCommits } from "../events/feed";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { badRequest, conflict, notFound } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { parseSignedDecimal, toDecimalString } from "../money/model";
import { findAccount, optionalMinor, requireOwnedAccount, type Account } from "./accounts";
import { chainState, markerVersion, type MarkerChange } from "./next-version";
import { forgetHeads, rememberHeads } from "./head-cache";
import { creditShardHeads, latestVersion } from "./balances";
import type { VersionItem } from "./versions";
import type { Actor } from "./journals";
import { isLedgerId, LEDGER_MESSAGES, LockInput, ReconcileInput, ThresholdInput } from "./model";

/**
 * Account controls that move no money: lock and unlock (admin), the low-balance threshold
 * (owner) and reconciliation results (owner). Each is a marker version on the account's balance
 * chain (see markerVersion), written only if it is the next version: so it is ordered with the
 * money movements, announced on the feed like them, audited with its actor, and a lock takes
 * effect for every writer at once (the write path reads the chain head it builds on).
 */
const MAX_ATTEMPTS = 20;

/** Appends the change the head calls for; `change` returns null when there is nothing to change. */
async function appendMarker(
  ctx: CoreContext,
  account: Account,
  change: (
    head: VersionItem,
  ) => Omit<MarkerChange, "account" | "now"> | null | Promise<Omit<MarkerChange, "account" | "now"> | null>,
): Promise<VersionItem | null> {
  if (account.kind !== "customer") throw badRequest(LEDGER_MESSAGES.systemAccountControl, "system_account");
  for (let attempt = 1; ; attempt++) {
    const head = await latestVersion(ctx, account.id);
    const wanted = await change(head);
    if (!wanted) return null;
    const next = markerVersion(head, { account, now: ctx.clock(), ...wanted });
    try {
      await ctx.db.doc.send(
        new PutCommand({ TableName: ctx.db.table, Item: next, ConditionExpression: "attribute_not_exists(pk)" }),
      );
      rememberHeads(ctx, [next]);
      announceCommits(ctx, [next]);
      return next;
    } catch (error) {
      forgetHeads(ctx, [account.id]);
      // Another change took this version number first: build on the new head.
      if (!isAwsError(error, "ConditionalCheckFailedException") || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

async function requireAnyAccount(ctx: CoreContext, accountId: string): Promise<Account> {
  const account = isLedgerId(accountId) ? await findAccount(ctx, accountId) : null;
  if (!account) throw notFound(LEDGER_MESSAGES.accountNotFound, "account_not_found");
  return account;
}

/** Admin: lock or unlock any customer account, with a reason kept in its history. */
export async function setAccountLock(
  ctx: CoreContext,
  accountId: string,
  lock: boolean,
  body: unknown,
  actor: Actor,
): Promise<Account> {
  const { reason } = parseWith(LockInput, body);
  const account = await requireAnyAccount(ctx, accountId);
  await appendMarker(ctx, account, (head) => {
    const state = chainState(head, account);
    if (state.locked === lock)
      throw conflict(
        lock ? "Account is already locked" : "Account is not locked",
        lock ? "already_locked" : "not_locked",
      );
    return {
      operation: lock ? "lock" : "unlock",
      actor,
      reason,
      state: { locked: lock, lock_reason: lock ? reason : null },
    };
  });
  ctx.logger.info(lock ? "account locked" : "account unlocked", {
    account_id: account.id,
    owner_id: account.owner_id,
    actor_id: actor.id,
    reason,
  });
  return account;
}

/** Owner: the available balance under which a change raises a lowBalanceAlert ("" or null: none). */
export async function setLowBalanceThreshold(
  ctx: CoreContext,
  ownerId: string,
  accountId: string,
  body: unknown,
  actor: Actor,
): Promise<Account> {
  const input = parseWith(ThresholdInput, body);
  const account = await requireOwnedAccount(ctx, ownerId, accountId);
  const threshold = optionalMinor(input.low_balance_threshold ?? "", account.currency, "Low balance threshold");
  // Setting the threshold it already has changes nothing, and writes nothing.
  await appendMarker(ctx, account, (head) =>
    chainState(head, account).low_balance_threshold === threshold
      ? null
      : { operation: "settings", actor, state: { low_balance_threshold: threshold } },
  );
  return account;
}

export interface ReconciliationResult {
  accountId: string;
  accountName: string;
  reconciled: boolean;
  /** Expected minus the ledger's posted balance. */
  variance: string;
  expectedBalance: string;
  ledgerBalance: string;
  currency: string;
  at: string;
}

/**
 * Owner: compares an expected balance (a statement's, say) with the ledger's posted balance at
 * this moment and records the result on the chain, which announces reconciliationResult.
 */
export async function reconcileAccount(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  actor: Actor,
): Promise<ReconciliationResult> {
  const input = parseWith(ReconcileInput, body);
  const account = await requireOwnedAccount(ctx, ownerId, input.accountId);
  if (input.currency && input.currency !== account.currency) {
    throw badRequest(LEDGER_MESSAGES.currencyMismatch(account.currency, input.currency), "currency_mismatch");
  }
  const parsed = parseSignedDecimal(input.expectedBalance, account.currency);
  if (!parsed.ok) throw badRequest(`expectedBalance: ${parsed.message}`, "invalid_amount");
  const expected = parsed.minor;
  const marker = await appendMarker(ctx, account, async (head) => {
    // An account with credit shards holds part of its balance on them (credit-shards.ts).
    const shards = await creditShardHeads(ctx, account.id, Math.max(account.credit_shards, head.credit_shards ?? 0));
    const ledger = shards.reduce((sum, shard) => sum + shard.balance, head.balance);
    return {
      operation: "reconcile",
      actor,
      reconciliation: { expected, ledger, variance: expected - ledger, reconciled: expected === ledger },
    };
  });
  if (!marker?.reconciliation) throw new Error("A reconciliation always writes its marker");
  const figures = marker.reconciliation;
  const money = (minor: number) => toDecimalString(minor, account.currency);
  return {
    accountId: account.id,
    accountName: account.name,
    reconciled: figures.reconciled,
    variance: money(figures.variance),
    expectedBalance: money(figures.expected),
    ledgerBalance: money(figures.ledger),
    currency: account.currency,
    at: marker.committed_at,
  };
}
