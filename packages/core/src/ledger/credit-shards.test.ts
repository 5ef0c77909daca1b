import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { allowMoneyForTests } from "@fintech/testing/limits";
import { createContext, type CoreContext } from "../shared/context";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { Account, systemAccountId } from "./accounts";
import { balanceAsOf, chainHistory, currentBalance } from "./balances";
import {
  AUTO_CONVERT_LOST_RACES,
  CONTENTION_ACTOR,
  CREDIT_SHARD_MESSAGES,
  CREDIT_SHARDS,
  enableCreditShards,
  landsOnCreditShard,
} from "./credit-shards";
import { accountKey, creditShardChains } from "./keys";
import { decodeCursor, encodeCursor } from "../events/cursor";
import { freshCursor } from "../events/feed";
import { ledgerFeedReader } from "./events";
import { balanceOf, createAccount, deposit, setJournalStatus, testBalance, transfer } from "./service";
import type { VersionItem } from "./versions";

/**
 * Customer accounts on credit shards (docs/ledger.md#hot-receiving-accounts): the conversion,
 * where legs land afterwards, the no-overdraft rule over the main chain plus the shards (decided
 * afresh when the shards a process has seen do not cover a debit), reversals of credits,
 * point-in-time balances around the conversion, and the automatic conversion of an account whose
 * credits keep losing races.
 */

type Context = Awaited<ReturnType<typeof createTestContext>>;
let ctx: Context;
/** Other instances on the same table: their own clients and caches, as other Lambda instances. */
const peers: CoreContext[] = [];
const admin = { id: "shards-admin", name: "Shards Admin" };

const instance = (on: Context, clock?: () => Date): CoreContext => {
  const peer = createContext(on.config, clock ? { clock } : {});
  peers.push(peer);
  return peer;
};

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  for (const peer of peers) {
    peer.db.raw.destroy();
    peer.storage.destroy();
  }
  await ctx.dispose();
});

/** The account item as stored now (no instance's cache). */
async function accountNow(on: CoreContext, accountId: string): Promise<Account> {
  const reply = await on.db.doc.send(
    new GetCommand({ TableName: on.db.table, Key: accountKey(accountId), ConsistentRead: true }),
  );
  return Account.parse(reply.Item);
}

const idOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { status?: number; code?: string }) => ({ status: error.status, code: error.code }),
  );

/** Two USD accounts of a fresh owner; the first converted to credit shards unless asked not to. */
async function accountsOf(owner: string, on: CoreContext = ctx) {
  await allowMoneyForTests(on, owner);
  const merchant = (await createAccount(on, owner, { name: "Merchant", currency: "USD" }, null)).account;
  const other = (await createAccount(on, owner, { name: "Other", currency: "USD" }, null)).account;
  return { merchant, other };
}

/** A posted deposit from `on`; returns the journal's id. */
async function depositPosted(on: CoreContext, owner: string, accountId: string, amount: string): Promise<string> {
  const id = idOf((await deposit(on, owner, { account_id: accountId, amount }, null)).body);
  await setJournalStatus(on, owner, id, "post", null);
  return id;
}

/** Every chain of an account with its versions after genesis: main chain first, then shards with any. */
async function versionsByChain(accountId: string, on: CoreContext = ctx): Promise<Map<string, VersionItem[]>> {
  const chains = [accountId, ...creditShardChains(accountId, CREDIT_SHARDS)];
  const histories = await Promise.all(chains.map((chain) => chainHistory(on, chain)));
  return new Map(chains.map((chain, index) => [chain, histories[index]!.slice(1)]));
}

const shardVersions = (chains: Map<string, VersionItem[]>) =>
  [...chains.entries()]
    .filter(([chain, versions]) => chain.includes("#S") && versions.length > 0)
    .flatMap(([, v]) => v);

describe("converting a customer account", () => {
  it("is idempotent, refuses system accounts and unknown ids", async () => {
    const { merchant } = await accountsOf("shards-idem");
    const first = await enableCreditShards(ctx, merchant.id, admin, "busy merchant");
    expect(first).toMatchObject({ account_id: merchant.id, credit_shards: CREDIT_SHARDS, converted: true });
    expect(first.at).toEqual(expect.any(String));
    const again = await enableCreditShards(instance(ctx), merchant.id, admin);
    expect(again).toEqual({ account_id: merchant.id, credit_shards: CREDIT_SHARDS, converted: false, at: null });
    expect((await accountNow(ctx, merchant.id)).credit_shards).toBe(CREDIT_SHARDS);

    const main = await chainHistory(ctx, merchant.id);
    const markers = main.filter((item) => item.operation === "settings");
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatchObject({ credit_shards: CREDIT_SHARDS, committed_at: first.at, reason: "busy merchant" });
    const geneses = await Promise.all(
      creditShardChains(merchant.id, CREDIT_SHARDS).map((chain) => chainHistory(ctx, chain)),
    );
    for (const versions of geneses) {
      expect(versions).toHaveLength(1);
      expect(versions[0]).toMatchObject({ operation: "open", version: 0, committed_at: first.at });
    }

    expect(await refusal(enableCreditShards(ctx, systemAccountId("funding", "USD"), admin))).toEqual({
      status: 400,
      code: "system_account",
    });
    for (const unknown of ["nope", "0".repeat(26), "x".repeat(3_000), ""])
      expect(await refusal(enableCreditShards(ctx, unknown, admin))).toEqual({
        status: 404,
        code: "account_not_found",
      });
  });

  it("concurrent conversions from several instances convert once", async () => {
    const { merchant } = await accountsOf("shards-race");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => enableCreditShards(instance(ctx), merchant.id, admin)),
    );
    expect(results.filter((result) => result.converted)).toHaveLength(1);
    expect((await chainHistory(ctx, merchant.id)).filter((item) => item.operation === "settings")).toHaveLength(1);
  });
});

describe("after the conversion", () => {
  it("a credit lands on a shard, a debit on the main chain", async () => {
    const owner = "shards-legs";
    const { merchant, other } = await accountsOf(owner);
    await enableCreditShards(ctx, merchant.id, admin);
    const fresh = instance(ctx);
    const depositId = await depositPosted(fresh, owner, merchant.id, "100.00");
    await transfer(fresh, owner, { from_account_id: merchant.id, to_account_id: other.id, amount: "30.00" }, null);

    const chains = await versionsByChain(merchant.id);
    const onShards = shardVersions(chains).sort((a, b) => (a.committed_at < b.committed_at ? -1 : 1));
    expect(onShards.map((item) => [item.operation, item.tx_id, item.side])).toEqual([
      ["create", depositId, "debit"],
      ["post", depositId, "debit"],
    ]);
    const main = chains.get(merchant.id)!;
    expect(main.map((item) => item.operation)).toEqual(["settings", "create"]);
    expect(main[1]).toMatchObject({ side: "credit", amount: 3_000 });
    // The main chain alone is below zero; the account is not.
    expect(main[1]!.available).toBe(-3_000);
    const balance = await currentBalance(ctx, await accountNow(ctx, merchant.id));
    expect([balance.balance, balance.available]).toEqual([10_000, 7_000]);
    const account = await accountNow(ctx, merchant.id);
    expect(landsOnCreditShard(account, "debit", "create")).toBe(true);
    expect(landsOnCreditShard(account, "debit", "post")).toBe(true);
    expect(landsOnCreditShard(account, "credit", "create")).toBe(false);
    expect(landsOnCreditShard(account, "debit", "unpost")).toBe(false);
  });

  it("a debit that needs money only the shards hold succeeds, however stale the instance's view of them", async () => {
    const owner = "shards-fresh";
    const { merchant, other } = await accountsOf(owner);
    await enableCreditShards(ctx, merchant.id, admin);
    const payer = instance(ctx);
    await depositPosted(ctx, owner, merchant.id, "50.00");
    // The payer sees the shards once (50.00), then credits it never sees arrive from another instance.
    await transfer(payer, owner, { from_account_id: merchant.id, to_account_id: other.id, amount: "10.00" }, null);
    await depositPosted(ctx, owner, merchant.id, "70.00");
    await depositPosted(instance(ctx), owner, merchant.id, "5.00");
    // 115.00 is there, 40.00 of it only in shard versions the payer has not read.
    const spent = await transfer(
      payer,
      owner,
      { from_account_id: merchant.id, to_account_id: other.id, amount: "115.00" },
      null,
    );
    expect(idOf(spent.body)).toEqual(expect.any(String));
    expect(
      await refusal(
        transfer(payer, owner, { from_account_id: merchant.id, to_account_id: other.id, amount: "0.01" }, null),
      ),
    ).toEqual({ status: 422, code: "insufficient_funds" });
    const balance = await currentBalance(ctx, await accountNow(ctx, merchant.id));
    expect([balance.balance, balance.available]).toEqual([12_500, 0]);
  });

  it("a debit commits after every shard credit it counted, even one stamped ahead of its clock", async () => {
    // A table of its own: the skewed clocks below also stamp the system accounts' chains ahead, and
    // every later journal on those chains would inherit the lead (a chain's instants only increase).
    const isolated = await createTestContext();
    try {
      const owner = "shards-instant";
      const { merchant, other } = await accountsOf(owner, isolated);
      await enableCreditShards(isolated, merchant.id, admin);
      // Another instance's credits carry instants ahead of the payer's clock: it planned them later,
      // or its shard ran ahead by a millisecond per version.
      let aheadMs = 5_000;
      const ahead = instance(isolated, () => new Date(Date.now() + aheadMs));
      let payerAheadMs = 5_000;
      const payer = instance(isolated, () => new Date(Date.now() + payerAheadMs));
      const lastCredit = async () =>
        shardVersions(await versionsByChain(merchant.id, isolated))
          .map((item) => item.committed_at)
          .sort()
          .at(-1)!;
      const debit = async (amount: string) => {
        const journalId = idOf(
          (await transfer(payer, owner, { from_account_id: merchant.id, to_account_id: other.id, amount }, null)).body,
        );
        const at = (await chainHistory(isolated, merchant.id)).find((item) => item.tx_id === journalId)!.committed_at;
        const available = (await balanceAsOf(isolated, await accountNow(isolated, merchant.id), at))!.available;
        return { after: at > (await lastCredit()), available };
      };

      // The payer's own credit, stamped ahead; the debit counts on it from memory.
      await depositPosted(payer, owner, merchant.id, "50.00");
      payerAheadMs = 0;
      expect(await debit("30.00")).toEqual({ after: true, available: 2_000 });
      // Another instance's credit the payer has not seen: the debit reads the shards afresh.
      aheadMs = 10_000;
      await depositPosted(ahead, owner, merchant.id, "50.00");
      expect(await debit("60.00")).toEqual({ after: true, available: 1_000 });
    } finally {
      await isolated.dispose();
    }
  });

  it("reversing a credit whose money was spent is refused; an unspent one is reversed on the main chain", async () => {
    const owner = "shards-reverse";
    const { merchant, other } = await accountsOf(owner);
    await enableCreditShards(ctx, merchant.id, admin);
    const spentDeposit = await depositPosted(ctx, owner, merchant.id, "100.00");
    await transfer(ctx, owner, { from_account_id: merchant.id, to_account_id: other.id, amount: "80.00" }, null);
    expect(await refusal(setJournalStatus(instance(ctx), owner, spentDeposit, "unpost", null))).toEqual({
      status: 422,
      code: "insufficient_funds",
    });
    // Paying the credit back is a debit like any other.
    expect(
      await refusal(
        transfer(
          instance(ctx),
          owner,
          { from_account_id: merchant.id, to_account_id: other.id, amount: "100.00" },
          null,
        ),
      ),
    ).toEqual({ status: 422, code: "insufficient_funds" });

    const unspent = await depositPosted(ctx, owner, merchant.id, "60.00");
    await setJournalStatus(instance(ctx), owner, unspent, "unpost", null);
    const main = (await versionsByChain(merchant.id)).get(merchant.id)!;
    expect(main.at(-1)).toMatchObject({ operation: "unpost", tx_id: unspent, side: "debit" });
    const balance = await currentBalance(ctx, await accountNow(ctx, merchant.id));
    // 100 in, 80 out (pending), 60 in and back to pending.
    expect([balance.balance, balance.available]).toEqual([10_000, 2_000]);
  });

  it("the balance as of a moment is the main chain's before the conversion and every chain's after", async () => {
    const owner = "shards-asof";
    const { merchant, other } = await accountsOf(owner);
    await depositPosted(ctx, owner, merchant.id, "40.00");
    const beforeConversion = new Date().toISOString();
    const { at } = await enableCreditShards(ctx, merchant.id, admin);
    const atMs = Date.parse(at!);
    await depositPosted(instance(ctx), owner, merchant.id, "25.00");
    await transfer(ctx, owner, { from_account_id: merchant.id, to_account_id: other.id, amount: "50.00" }, null);
    const after = (await chainHistory(ctx, merchant.id)).at(-1)!.committed_at;
    const account = await accountNow(ctx, merchant.id);

    const figures = async (instant: string) => {
      const reply = await balanceOf(ctx, owner, merchant.id, instant);
      const direct = await balanceAsOf(ctx, account, instant);
      expect([direct?.balance, direct?.available]).toEqual([reply.balance_minor, reply.available_minor]);
      return [reply.balance_minor, reply.available_minor];
    };
    expect(await figures(beforeConversion)).toEqual([4_000, 4_000]);
    expect(await figures(new Date(atMs - 1).toISOString())).toEqual([4_000, 4_000]);
    expect(await figures(at!)).toEqual([4_000, 4_000]);
    expect(await figures(new Date(atMs + 1).toISOString())).toEqual([4_000, 4_000]);
    expect(await figures(after)).toEqual([6_500, 1_500]);
    expect((await balanceAsOf(ctx, account, new Date(Date.parse(account.created_at) - 1).toISOString())) ?? null).toBe(
      null,
    );
  });
});

describe("the owner's feed", () => {
  it("resumes from the last event's id after several of the owner's accounts were converted", async () => {
    const owner = "shards-feed";
    const start = freshCursor(new Date(Date.now() - 1));
    await allowMoneyForTests(ctx, owner);
    const accounts = [];
    for (const name of ["Shop", "Fees", "Refunds", "Payouts"])
      accounts.push((await createAccount(ctx, owner, { name, currency: "USD" }, null)).account);
    for (const account of accounts) {
      await enableCreditShards(ctx, account.id, admin);
      await depositPosted(ctx, owner, account.id, "10.00");
    }
    // Past the settle window of every commit: the reader sees everything.
    const reader = ledgerFeedReader({ ...ctx, clock: () => new Date(Date.now() + 60_000) }, owner);
    const read = await reader.read(start);
    expect(read.deliveries.filter((delivery) => delivery.event.event.type === "balanceUpdate")).toHaveLength(8);
    // The SSE client hands the last event's id back as Last-Event-ID on reconnect.
    const scope = `ledger:${owner}`;
    const lastEventId = encodeCursor(ctx.config.CURSOR_KEYS, scope, read.deliveries.at(-1)!.cursor);
    expect(decodeCursor(ctx.config.CURSOR_KEYS, scope, lastEventId)).toEqual(read.deliveries.at(-1)!.cursor);
  });
});

describe("automatic conversion", () => {
  /** Instances on one table counting their cancelled writes (lost races). */
  function racingInstances(on: Context, count: number) {
    const lost = { count: 0 };
    const instances = Array.from({ length: count }, () => {
      const peer = instance(on);
      peer.db.raw.middlewareStack.add(
        (next, context) => async (args) => {
          try {
            return await next(args);
          } catch (error) {
            if (context.commandName === "TransactWriteItemsCommand") lost.count += 1;
            throw error;
          }
        },
        { step: "initialize" },
      );
      return peer;
    });
    return { instances, lost };
  }

  /**
   * Rounds of concurrent credits to one account from several instances (two at a time each),
   * until `done` says so or the rounds run out; returns the rounds run.
   */
  async function creditRounds(
    instances: CoreContext[],
    owner: string,
    accountId: string,
    rounds: number,
    done: () => Promise<boolean>,
  ): Promise<number> {
    for (let round = 1; round <= rounds; round++) {
      await Promise.all(
        instances.flatMap((peer) =>
          [1, 2].map(() => testBalance(peer, owner, { account_id: accountId, amount: "1.00" }, null)),
        ),
      );
      if (await done()) return round;
    }
    return rounds;
  }

  it("converts an account whose credits keep losing races, and credits then land on shards", async () => {
    const owner = "shards-auto";
    const { merchant } = await accountsOf(owner);
    const { instances, lost } = racingInstances(ctx, 6);
    const converted = async () => (await accountNow(ctx, merchant.id)).credit_shards > 0;
    const rounds = await creditRounds(instances, owner, merchant.id, 40, converted);
    expect(await converted(), `not converted after ${rounds} rounds and ${lost.count} lost races`).toBe(true);
    expect(lost.count).toBeGreaterThanOrEqual(AUTO_CONVERT_LOST_RACES);
    const marker = (await chainHistory(ctx, merchant.id)).find((item) => item.operation === "settings");
    expect(marker).toMatchObject({
      credit_shards: CREDIT_SHARDS,
      actor: CONTENTION_ACTOR,
      reason: CREDIT_SHARD_MESSAGES.automatic,
    });
    // Fresh instances know from the account item: their credits land on shards.
    const before = shardVersions(await versionsByChain(merchant.id)).length;
    await Promise.all(
      Array.from({ length: 4 }, () =>
        testBalance(instance(ctx), owner, { account_id: merchant.id, amount: "1.00" }, null),
      ),
    );
    expect(shardVersions(await versionsByChain(merchant.id)).length).toBe(before + 4);
    const account = await accountNow(ctx, merchant.id);
    const credited = (
      await Promise.all(
        [merchant.id, ...creditShardChains(merchant.id, CREDIT_SHARDS)].map((chain) => chainHistory(ctx, chain)),
      )
    )
      .flat()
      .filter((item) => item.operation === "create").length;
    expect((await currentBalance(ctx, account)).pending_debits).toBe(credited * 100);
  });

  it("leaves the account alone when LEDGER_AUTO_CREDIT_SHARDS is off", async () => {
    const off = await createTestContext({ LEDGER_AUTO_CREDIT_SHARDS: "false" });
    try {
      const owner = "shards-manual";
      const { merchant } = await accountsOf(owner, off);
      const { instances, lost } = racingInstances(off, 6);
      // As many lost races as would have converted it several times over.
      await creditRounds(instances, owner, merchant.id, 40, async () => lost.count >= 4 * AUTO_CONVERT_LOST_RACES);
      expect(lost.count).toBeGreaterThanOrEqual(4 * AUTO_CONVERT_LOST_RACES);
      expect((await accountNow(off, merchant.id)).credit_shards).toBe(0);
      const main = await chainHistory(off, merchant.id);
      expect(main.some((item) => item.operation === "settings" || item.credit_shards)).toBe(false);
      expect(await chainHistory(off, creditShardChains(merchant.id, 1)[0]!)).toEqual([]);
    } finally {
      await off.dispose();
    }
  });
});
