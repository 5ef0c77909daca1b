import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { createTestContext } from "@fintech/testing/context";
import { createContext, type CoreContext } from "../shared/context";
import { freshCursor, FeedReader, feedSettings } from "../events/feed";
import { findAccount, getAccounts, SYSTEM_SHARDS, systemAccountId } from "./accounts";
import { chainHistory, currentBalance } from "./balances";
import { ledgerFeedSource } from "./events";
import { chainPartition, SYSTEM_OWNER } from "./keys";
import { createAccount, deposit, setJournalStatus, transfer } from "./service";

type Context = Awaited<ReturnType<typeof createTestContext>>;
let ctx: Context;
/** A second instance on the same table: its own caches and queues, as another Lambda instance. */
let other: CoreContext;
let clockOffsetMs = 0;

beforeAll(async () => {
  ctx = await createTestContext({ FEED_SETTLE_MS: "0" }, { clock: () => new Date(Date.now() + clockOffsetMs) });
  other = createContext(ctx.config);
});
afterAll(async () => {
  other.db.raw.destroy();
  other.storage.destroy();
  await ctx.dispose();
});

/** Counts the calls one instance sends, by operation, while `run` runs. */
async function callsDuring(instance: CoreContext, run: () => Promise<unknown>): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  const name = `count-${Math.random()}`;
  instance.db.raw.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, "");
      calls.set(command, (calls.get(command) ?? 0) + 1);
      return next(args);
    },
    { step: "initialize", name },
  );
  try {
    await run();
  } finally {
    instance.db.raw.middlewareStack.remove(name);
  }
  return calls;
}

const balanceOf = async (accountId: string) => currentBalance(ctx, (await findAccount(ctx, accountId))!);
const idOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;

async function fundedPair(owner: string, amount: string) {
  const a = (await createAccount(ctx, owner, { name: "A", currency: "USD" }, null)).account;
  const b = (await createAccount(ctx, owner, { name: "B", currency: "USD" }, null)).account;
  await setJournalStatus(
    ctx,
    owner,
    idOf((await deposit(ctx, owner, { account_id: a.id, amount }, `${owner}-fund`)).body),
    "post",
    null,
  );
  return { a, b };
}

describe("write path across instances", () => {
  it("a write that lost the race retries on the version it lost to, without reading the chain again", async () => {
    const owner = "race-owner";
    const { a, b } = await fundedPair(owner, "100");
    await transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "1" }, "race-1");
    // Another instance moves both chains on: this instance's remembered heads are now stale.
    await transfer(other, owner, { from_account_id: a.id, to_account_id: b.id, amount: "0.50" }, "race-2");

    const calls = await callsDuring(ctx, () =>
      transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "2" }, "race-3"),
    );
    // One cancelled write (it returned the versions that won) and one that committed; no Query.
    expect(calls.get("TransactWriteItems")).toBe(2);
    expect(calls.get("Query") ?? 0).toBe(0);

    expect((await balanceOf(a.id)).available).toBe(10_000 - 100 - 50 - 200);
    const history = await chainHistory(ctx, a.id);
    expect(history.map((version) => version.version)).toEqual(history.map((_, index) => index));
  });

  it("a refusal is never decided on a head learned from a lost race: the chain is read again first", async () => {
    const owner = "refusal-owner";
    const { a, b } = await fundedPair(owner, "100");
    await transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "10" }, "ref-1");
    await transfer(other, owner, { from_account_id: a.id, to_account_id: b.id, amount: "85" }, "ref-2");
    // This instance still remembers 90 available; the chain holds 5.
    await expect(
      transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "50" }, "ref-3"),
    ).rejects.toMatchObject({ code: "insufficient_funds" });
    expect((await balanceOf(a.id)).available).toBe(500);
    // And a transfer that fits goes through on the same stale start.
    await transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "5" }, "ref-4");
    expect((await balanceOf(a.id)).available).toBe(0);
  });
});

describe("the system accounts' feed", () => {
  it("spreads its writes over several index partitions and reads them back merged, in commit order, each once", async () => {
    const owner = "spread-owner";
    const start = freshCursor(new Date(ctx.clock().getTime() - 1));
    const account = (await createAccount(ctx, owner, { name: "Deposits", currency: "USD" }, null)).account;
    const deposits: string[] = [];
    // Concurrent deposits of one process take different shards of the funding account.
    for (let round = 0; round < 4; round++) {
      const bodies = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          deposit(ctx, owner, { account_id: account.id, amount: "1" }, `spread-${round}-${index}`),
        ),
      );
      deposits.push(...bodies.map((result) => idOf(result.body)));
    }

    const funding = systemAccountId("funding", "USD");
    const partitions = new Set<string>();
    for (let shard = 0; shard < SYSTEM_SHARDS; shard++) {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": chainPartition(`${funding}#S${shard}`) },
        }),
      );
      for (const item of reply.Items ?? []) if (item.tx_id) partitions.add(String(item.gsi2pk));
    }
    expect(partitions.size).toBeGreaterThan(1);
    expect([...partitions].every((partition) => partition.startsWith(`FEED#${SYSTEM_OWNER}#S`))).toBe(true);

    // Small pages, so that the merge's page boundaries are exercised.
    clockOffsetMs += 100;
    const reader = new FeedReader(ctx, ledgerFeedSource(ctx, SYSTEM_OWNER), { ...feedSettings(ctx), pageSize: 3 });
    const seen: { transactionId: string; at: string }[] = [];
    for (let cursor = start; ; ) {
      const read = await reader.read(cursor);
      for (const delivery of read.deliveries) {
        const event = delivery.event.event;
        if (event.type === "balanceUpdate" && event.accountId === funding)
          seen.push({ transactionId: event.transactionId, at: delivery.at });
      }
      cursor = read.cursor;
      if (!read.more) break;
    }
    expect(seen.map((entry) => entry.transactionId).sort()).toEqual([...deposits].sort());
    expect(seen.map((entry) => entry.at)).toEqual(seen.map((entry) => entry.at).sort());
  });
});

describe("account look-ups", () => {
  it("answer for more than 100 ids in one call (a feed page can name that many accounts), in batches of 100, absent ids left out", async () => {
    const owner = "many-owner";
    const opened = await Promise.all(
      ["One", "Two"].map(async (name) => (await createAccount(ctx, owner, { name, currency: "USD" }, null)).account.id),
    );
    const absent = Array.from({ length: 149 }, (_, index) => `absent-${index}`);
    // A fresh instance: nothing cached.
    const fresh = createContext(ctx.config);
    try {
      let found = new Map<string, unknown>();
      const calls = await callsDuring(fresh, async () => (found = await getAccounts(fresh, [...opened, ...absent])));
      expect([...found.keys()].sort()).toEqual([...opened].sort());
      expect(calls.get("BatchGetItem")).toBe(2);
      expect(calls.get("GetItem") ?? 0).toBe(0);
    } finally {
      fresh.db.raw.destroy();
      fresh.storage.destroy();
    }
  });
});
