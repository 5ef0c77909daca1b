import { randomInt } from "node:crypto";
import { BatchGetCommand, GetCommand, TransactWriteCommand, type BatchGetCommandOutput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes, queryAll } from "../shared/dynamo";
import { badRequest, conflict, notFound, unprocessable } from "../shared/errors";
import { newId } from "../shared/ids";
import { Currency, parseDecimal } from "../money/model";
import {
  accountKey,
  accountNumberKey,
  accountsByOwner,
  balanceByTime,
  balanceVersionKey,
  chainId,
  creditShardChains,
  ownerFeed,
  SYSTEM_OWNER,
} from "./keys";
import {
  ACCOUNT_TYPES,
  isLedgerId,
  LEDGER_MESSAGES,
  normalSideOf,
  ZERO_TOTALS,
  figures,
  type AccountType,
  type CreateAccountInput,
} from "./model";
import type { VersionItem } from "./versions";
import { ProcessCache } from "./cache";

export const Account = z.object({
  id: z.string(),
  owner_id: z.string(),
  name: z.string(),
  account_number: z.string(),
  description: z.string(),
  currency: Currency,
  type: z.enum(ACCOUNT_TYPES),
  normal_side: z.enum(["debit", "credit"]),
  status: z.enum(["ACTIVE", "FROZEN", "CLOSED"]),
  kind: z.enum(["customer", "system"]),
  /** System accounts spread their balance over this many chains; customer accounts have one. */
  shards: z.number().int().positive(),
  /**
   * A customer account that receives many concurrent credits keeps them on this many credit
   * shards besides its main chain (0: none). See credit-shards.ts.
   */
  credit_shards: z.number().int().nonnegative().default(0),
  low_balance_threshold: z.number().int().nonnegative().nullable(),
  created_at: z.string(),
});
export type Account = z.infer<typeof Account>;

/**
 * Hot system accounts (every deposit touches the funding account) would serialise all traffic
 * on one chain; they are unconstrained (may go negative), so their balance is split over shards
 * picked per write, and read as the sum of the shards. More shards than concurrent instances,
 * so that each instance can keep to a shard of its own and rarely cancels another's write
 * (docs/benchmarks.md#ledger). Stored per account: an account keeps the count it was created with.
 */
export const SYSTEM_SHARDS = 32;

export const SYSTEM_ACCOUNTS = {
  funding: {
    name: "External funding",
    type: "liability",
    description: "Counterparty of customer deposits: money that entered from outside the ledger.",
  },
  sandbox: { name: "Sandbox faucet", type: "equity", description: "Source of test balances outside production." },
  fees: { name: "Fee revenue", type: "revenue", description: "Fees charged by the platform." },
  fx: { name: "FX position", type: "asset", description: "Foreign-exchange position and spread." },
  fxrevenue: {
    name: "FX revenue",
    type: "revenue",
    description: "The spread earned on quoted currency conversions, booked as its own leg.",
  },
  suspense: {
    name: "Suspense",
    type: "liability",
    description: "Unmatched or unexplained items awaiting investigation.",
  },
  clearing: {
    name: "Clearing",
    type: "asset",
    description:
      "Payments to external beneficiaries sent over a rail and not settled yet; settlement reconciliation clears them.",
  },
  railsettled: {
    name: "Rail settlements",
    type: "liability",
    description:
      "Counterparty of money the rails settled with the outside world: reconciled settlement lines move it out of Clearing or into Suspense.",
  },
  writeoffs: {
    name: "Settlement write-offs",
    type: "expense",
    description: "Settlement differences written off after review, and differences within the matching tolerance.",
  },
} as const satisfies Record<string, { name: string; type: AccountType; description: string }>;
export type SystemAccountCode = keyof typeof SYSTEM_ACCOUNTS;

export const systemAccountId = (code: SystemAccountCode, currency: Currency) => `sys-${code}-${currency.toLowerCase()}`;

/** Account numbers look like bank numbers: a prefix and ten digits, unique per owner. */
function generateAccountNumber(): string {
  return `ACC${String(randomInt(0, 10 ** 10)).padStart(10, "0")}`;
}

export function genesisVersion(account: Account, chain: string, at = account.created_at): VersionItem {
  const totals = { ...ZERO_TOTALS };
  const { balance, available } = figures(totals, account.normal_side);
  return {
    ...balanceVersionKey(chain, 0),
    ...balanceByTime(chain, at, 0),
    ...ownerFeed(account.owner_id, at, 0, chain, 0),
    entity: "balance",
    account_id: account.id,
    chain,
    owner_id: account.owner_id,
    currency: account.currency,
    normal_side: account.normal_side,
    version: 0,
    committed_at: at,
    ...totals,
    balance,
    available,
    operation: "open",
    tx_id: null,
    tx_type: null,
    side: null,
    amount: 0,
    low_balance: false,
  };
}

/** The account, its number's uniqueness item and the genesis version of each chain, all or nothing. */
async function insertAccount(ctx: CoreContext, account: Account, requestHash: string | null = null): Promise<void> {
  const chains =
    account.kind === "system"
      ? Array.from({ length: account.shards }, (_, shard) => chainId(account.id, shard))
      : [account.id];
  await ctx.db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: ctx.db.table,
            Item: {
              ...accountNumberKey(account.owner_id, account.account_number),
              entity: "account_number",
              account_id: account.id,
            },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        {
          Put: {
            TableName: ctx.db.table,
            Item: {
              ...accountKey(account.id),
              ...accountsByOwner(account.owner_id, account.created_at, account.id),
              entity: "account",
              ...account,
              ...(requestHash ? { request_hash: requestHash } : {}),
            },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        ...chains.map((chain) => ({
          Put: {
            TableName: ctx.db.table,
            Item: genesisVersion(account, chain),
            ConditionExpression: "attribute_not_exists(pk)",
          },
        })),
      ],
    }),
  );
}

/**
 * An optional amount of an account (opening balance, alert threshold): absent, "" or a decimal
 * zero mean none; anything else must be decimal notation (see parseDecimal), so "0x0" or "1e-400"
 * is refused, not read as zero.
 */
export function optionalMinor(value: number | string | undefined, currency: Currency, label: string): number | null {
  if (value === undefined || value === "") return null;
  const parsed = parseDecimal(value, currency);
  if (!parsed.ok) throw badRequest(`${label}: ${parsed.message}`, "invalid_amount");
  return parsed.minor === 0 ? null : parsed.minor;
}

const thresholdMinor = (input: CreateAccountInput) =>
  optionalMinor(input.low_balance_threshold, input.currency, "Low balance threshold");

/**
 * With an Idempotency-Key the account id is derived from (owner, key), like a journal id, so a
 * retried request finds the account the first one created instead of opening a second one; the
 * request hash stored on the account tells a retry from a different request with the same key.
 * Keying only the opening deposit would not do: a retry would open a duplicate account and then
 * fail its opening deposit with idempotency_key_reused, leaving that account behind.
 */
export async function createCustomerAccount(
  ctx: CoreContext,
  ownerId: string,
  input: CreateAccountInput,
  idempotency: { id: string; hash: string } | null = null,
): Promise<{ account: Account; replayed: boolean }> {
  const explicitNumber = input.account_number?.toUpperCase();
  for (let attempt = 0; attempt < 5; attempt++) {
    const account: Account = {
      id: idempotency?.id ?? newId(),
      owner_id: ownerId,
      name: input.name,
      account_number: explicitNumber ?? generateAccountNumber(),
      description: input.description,
      currency: input.currency,
      type: input.type,
      normal_side: normalSideOf(input.type),
      status: "ACTIVE",
      kind: "customer",
      shards: 1,
      credit_shards: 0,
      low_balance_threshold: thresholdMinor(input),
      created_at: ctx.clock().toISOString(),
    };
    try {
      await insertAccount(ctx, account, idempotency?.hash ?? null);
      return { account, replayed: false };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (idempotency && codes?.[1] === "ConditionalCheckFailed") {
        // The account with this key's id exists: the same request again, or another one.
        const existing = await ctx.db.doc.send(
          new GetCommand({ TableName: ctx.db.table, Key: accountKey(account.id), ConsistentRead: true }),
        );
        if (existing.Item?.owner_id === ownerId && existing.Item.request_hash === idempotency.hash) {
          return { account: Account.parse(existing.Item), replayed: true };
        }
        throw unprocessable(LEDGER_MESSAGES.idempotencyMismatch, "idempotency_key_reused");
      }
      if (idempotency && codes?.[1] === "TransactionConflict")
        throw conflict(LEDGER_MESSAGES.idempotencyInProgress, "idempotency_in_progress");
      if (codes?.[0] !== "ConditionalCheckFailed") throw error;
      if (explicitNumber) throw conflict("An account with this account number already exists", "account_number_taken");
    }
  }
  throw conflict("Could not allocate a unique account number; try again", "account_number_exhausted");
}

const SYSTEM_ACCOUNT_WRITES_AT_ONCE = 5;

/** Idempotent: creates each system account (per currency) that is missing; safe to run concurrently. */
export async function ensureSystemAccounts(ctx: CoreContext): Promise<number> {
  const wanted = Currency.options.flatMap((currency) =>
    (Object.entries(SYSTEM_ACCOUNTS) as [SystemAccountCode, (typeof SYSTEM_ACCOUNTS)[SystemAccountCode]][]).map(
      ([code, spec]) => ({ code, spec, currency }),
    ),
  );
  const existing = await getAccounts(
    ctx,
    wanted.map(({ code, currency }) => systemAccountId(code, currency)),
  );
  const createdAt = ctx.clock().toISOString();
  const missing = wanted.filter(({ code, currency }) => !existing.has(systemAccountId(code, currency)));
  const results: number[] = [];
  // A few at a time: each is a transaction of one item per shard, and dozens of those at once
  // make DynamoDB Local give up waiting for its locks.
  for (let start = 0; start < missing.length; start += SYSTEM_ACCOUNT_WRITES_AT_ONCE) {
    const created = await Promise.all(
      missing.slice(start, start + SYSTEM_ACCOUNT_WRITES_AT_ONCE).map(async ({ code, spec, currency }) => {
        const account: Account = {
          id: systemAccountId(code, currency),
          owner_id: SYSTEM_OWNER,
          name: `${spec.name} (${currency})`,
          account_number: `SYS-${code.toUpperCase()}-${currency}`,
          description: spec.description,
          currency,
          type: spec.type,
          normal_side: normalSideOf(spec.type),
          status: "ACTIVE",
          kind: "system",
          shards: SYSTEM_SHARDS,
          credit_shards: 0,
          low_balance_threshold: null,
          created_at: createdAt,
        };
        try {
          await insertAccount(ctx, account);
          return 1;
        } catch (error) {
          // Created concurrently by another starting instance: that is the goal anyway.
          if (!cancellationCodes(error)?.includes("ConditionalCheckFailed")) throw error;
          return 0;
        }
      }),
    );
    results.push(...created);
  }
  return results.reduce<number>((sum, one) => sum + one, 0);
}

/**
 * Account items never change once written (locks and alert thresholds live on the balance chain,
 * see controls.ts, so every writer sees them at once; nothing updates status or name),
 * and every transfer and deposit reads two of them: each process keeps the ones it has read for
 * a while, which saves two of the five DynamoDB calls of a transfer (docs/benchmarks.md#ledger).
 * Only found accounts are kept, so a new account is visible at once. If account-item edits
 * (rename, close) are ever added, they reach other processes within ACCOUNT_CACHE_MS.
 */
export const ACCOUNT_CACHE_MS = 30_000;
const accountCache = new ProcessCache<Account>(ACCOUNT_CACHE_MS, 10_000);

export async function findAccount(ctx: CoreContext, accountId: string): Promise<Account | null> {
  const cached = accountCache.get(ctx, accountId);
  if (cached) return cached;
  const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: accountKey(accountId) }));
  if (!reply.Item) return null;
  const account = Account.parse(reply.Item);
  accountCache.set(ctx, account.id, account);
  return account;
}

/** After this process changed an account item (credit-shards.ts): read it afresh next time. */
export function forgetAccount(ctx: CoreContext, accountId: string): void {
  accountCache.delete(ctx, accountId);
}

/** Another owner's account is indistinguishable from a missing one. */
export async function requireOwnedAccount(ctx: CoreContext, ownerId: string, accountId: string): Promise<Account> {
  // An id that cannot be one of ours never reaches DynamoDB (whose keys stop at 2,048 bytes).
  const account = isLedgerId(accountId) ? await findAccount(ctx, accountId) : null;
  if (!account || account.owner_id !== ownerId) throw notFound(LEDGER_MESSAGES.accountNotFound, "account_not_found");
  return account;
}

/** DynamoDB's limit of keys per BatchGetItem. */
const BATCH_GET_MAX_KEYS = 100;

export async function getAccounts(ctx: CoreContext, accountIds: string[]): Promise<Map<string, Account>> {
  const found = new Map<string, Account>();
  const missing: string[] = [];
  for (const id of new Set(accountIds)) {
    const cached = accountCache.get(ctx, id);
    if (cached) found.set(id, cached);
    else missing.push(id);
  }
  // BatchGetItem takes at most 100 keys (a feed page can name more accounts), and may leave
  // some unprocessed under load: those are asked for again. A key it answers without an item
  // is an account that does not exist.
  for (let start = 0; start < missing.length; start += BATCH_GET_MAX_KEYS) {
    let keys: Record<string, unknown>[] | undefined = missing.slice(start, start + BATCH_GET_MAX_KEYS).map(accountKey);
    while (keys && keys.length > 0) {
      const reply: BatchGetCommandOutput = await ctx.db.doc.send(
        new BatchGetCommand({ RequestItems: { [ctx.db.table]: { Keys: keys } } }),
      );
      for (const item of reply.Responses?.[ctx.db.table] ?? []) {
        const account = Account.parse(item);
        accountCache.set(ctx, account.id, account);
        found.set(account.id, account);
      }
      keys = reply.UnprocessedKeys?.[ctx.db.table]?.Keys;
    }
  }
  return found;
}

export async function listAccounts(ctx: CoreContext, ownerId: string): Promise<Account[]> {
  const items = await queryAll(ctx.db, {
    IndexName: "gsi1",
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": accountsByOwner(ownerId).gsi1pk },
  });
  return items.map((item) => Account.parse(item));
}

/**
 * Every balance chain of an account: a system account's shards; a customer account's main chain
 * first, then its credit shards (as many as `creditShards`, default the account item's count).
 */
export const chainsOf = (account: Account, creditShards = account.credit_shards): string[] =>
  account.kind === "system"
    ? Array.from({ length: account.shards }, (_, shard) => chainId(account.id, shard))
    : [account.id, ...creditShardChains(account.id, creditShards)];

export const pickChain = (account: Account): string =>
  account.kind === "system" ? chainId(account.id, randomInt(0, account.shards)) : account.id;
