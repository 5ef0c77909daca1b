import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { decodeCursor, encodeCursor } from "../events/cursor";
import type { FeedCursor } from "../events/cursor";
import { freshCursor } from "../events/feed";
import { setAccountLock, reconcileAccount, setLowBalanceThreshold } from "./controls";
import { enableCreditShards } from "./credit-shards";
import { ledgerFeedReader, type LedgerEvent } from "./events";
import { createAccount, deposit, setJournalStatus, transfer } from "./service";

type Context = Awaited<ReturnType<typeof createTestContext>>;
let ctx: Context;

/**
 * Settle 0: these readers run after the writes, in one process with one clock. Reads see commits
 * up to a horizon on a 50 ms grid, so each readAll first moves the test's clock past the writes.
 */
let clockOffsetMs = 0;
beforeAll(async () => {
  ctx = await createTestContext({ FEED_SETTLE_MS: "0" }, { clock: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => ctx.dispose());

const idOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;
const admin = { id: "admin-1", name: "Ada Admin" };

/** Reads a feed to its end from a cursor: the events and the cursor after each. */
async function readAll(owner: string, from: FeedCursor) {
  clockOffsetMs += 100;
  const reader = ledgerFeedReader(ctx, owner);
  const out: { event: LedgerEvent; cursor: FeedCursor }[] = [];
  let cursor = from;
  for (;;) {
    const read = await reader.read(cursor);
    out.push(...read.deliveries.map((delivery) => ({ event: delivery.event.event, cursor: delivery.cursor })));
    cursor = read.cursor;
    if (!read.more) return { events: out, cursor };
  }
}

describe("ledger outbox feed", () => {
  it("announces exactly the committed changes, in order, resumable after any event", async () => {
    const owner = "feed-owner";
    const start = freshCursor(new Date(ctx.clock().getTime() - 1));
    const a = (await createAccount(ctx, owner, { name: "A", currency: "USD", low_balance_threshold: "50" }, null))
      .account;
    const b = (await createAccount(ctx, owner, { name: "B", currency: "USD" }, null)).account;
    const dep = await deposit(ctx, owner, { account_id: a.id, amount: "100" }, "feed-dep");
    await setJournalStatus(ctx, owner, idOf(dep.body), "post", null);
    const move = await transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "60" }, "feed-move");
    // Refused: writes nothing, so announces nothing.
    await expect(
      transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "1000" }, "feed-too-much"),
    ).rejects.toThrow();

    const { events } = await readAll(owner, start);
    expect(events.map((entry) => entry.event.type)).toEqual([
      "balanceUpdate",
      "transactionCreated", // deposit created (pending in)
      "balanceUpdate",
      "transactionStatusUpdate", // deposit posted
      "balanceUpdate",
      "transactionCreated",
      "lowBalanceAlert", // transfer reserves 60: available 40 < 50
      "balanceUpdate", // the destination's pending inflow
    ]);
    const created = events.find(
      (entry) => entry.event.type === "transactionCreated" && entry.event.transactionId === idOf(move.body),
    )!.event;
    expect(created).toMatchObject({
      amount: "60.00",
      status: "draft",
      fromAccountId: a.id,
      toAccountId: b.id,
      currency: "USD",
    });
    // The holder's view: money leaving A is a DEBIT, arriving at B a CREDIT (both are bank accounts, debit-normal).
    const updates = events.filter((entry) => entry.event.type === "balanceUpdate").map((entry) => entry.event);
    expect(
      updates.map(
        (event) => event.type === "balanceUpdate" && [event.accountName, event.changeType, event.changeAmount],
      ),
    ).toEqual([
      ["A", "CREDIT", "100.00"],
      ["A", "CREDIT", "100.00"],
      ["A", "DEBIT", "60.00"],
      ["B", "CREDIT", "60.00"],
    ]);
    expect(events.find((entry) => entry.event.type === "lowBalanceAlert")!.event).toEqual({
      type: "lowBalanceAlert",
      accountId: a.id,
      accountName: "A",
      currentBalance: "40.00",
      threshold: "50.00",
      currency: "USD",
    });

    // Resume after every event (including between two events of one balance version): the rest, exactly.
    for (const [index, entry] of events.entries()) {
      const resumed = await readAll(owner, entry.cursor);
      expect(resumed.events.map((next) => next.event)).toEqual(events.slice(index + 1).map((next) => next.event));
    }
    // A reader that starts now hears nothing of the past, and other owners' feeds are empty.
    expect((await readAll(owner, freshCursor(ctx.clock()))).events).toEqual([]);
    expect((await readAll("someone-else", start)).events).toEqual([]);
  });

  it("announces locks, reconciliations and threshold changes on the account's chain", async () => {
    const owner = "controls-owner";
    const start = freshCursor(new Date(ctx.clock().getTime() - 1));
    const account = (await createAccount(ctx, owner, { name: "Ops", currency: "EUR", initial_balance: "20" }, null))
      .account;
    await setAccountLock(ctx, account.id, true, { reason: "Suspicious activity" }, admin);
    await setLowBalanceThreshold(ctx, owner, account.id, { low_balance_threshold: "5" }, { id: owner, name: "Owner" });
    const result = await reconcileAccount(
      ctx,
      owner,
      { accountId: account.id, expectedBalance: "-2.5" },
      { id: owner, name: "Owner" },
    );
    expect(result).toMatchObject({
      reconciled: false,
      variance: "-2.50",
      expectedBalance: "-2.50",
      ledgerBalance: "0.00",
      currency: "EUR",
    });
    await setAccountLock(ctx, account.id, false, { reason: "Cleared" }, admin);

    const types = (await readAll(owner, start)).events.map((entry) => entry.event);
    expect(types.filter((event) => event.type !== "balanceUpdate" && event.type !== "transactionCreated")).toEqual([
      { type: "accountLocked", accountId: account.id, accountName: "Ops", reason: "Suspicious activity" },
      {
        type: "reconciliationResult",
        accountId: account.id,
        accountName: "Ops",
        reconciled: false,
        variance: "-2.50",
        expectedBalance: "-2.50",
        ledgerBalance: "0.00",
        currency: "EUR",
      },
      { type: "accountUnlocked", accountId: account.id, accountName: "Ops", reason: "Cleared" },
    ]);
  });

  it("announces an account with credit shards once per change, with the account's own balance", async () => {
    const owner = "feed-sharded";
    const start = freshCursor(new Date(ctx.clock().getTime() - 1));
    const payer = (await createAccount(ctx, owner, { name: "Payer", currency: "USD" }, null)).account;
    const shop = (await createAccount(ctx, owner, { name: "Shop", currency: "USD" }, null)).account;
    for (const [account, amount] of [
      [payer, "100"],
      [shop, "30"],
    ] as const) {
      const funded = await deposit(ctx, owner, { account_id: account.id, amount }, `sharded-fund-${account.name}`);
      await setJournalStatus(ctx, owner, idOf(funded.body), "post", null);
    }
    await enableCreditShards(ctx, shop.id, admin);
    const sale = await transfer(ctx, owner, { from_account_id: payer.id, to_account_id: shop.id, amount: "10" }, "s1");
    await setJournalStatus(ctx, owner, idOf(sale.body), "post", null);
    const payout = await transfer(
      ctx,
      owner,
      { from_account_id: shop.id, to_account_id: payer.id, amount: "35" },
      "s2",
    );
    await setJournalStatus(ctx, owner, idOf(payout.body), "post", null);

    const updates = (await readAll(owner, start)).events
      .map((entry) => entry.event)
      .filter((event) => event.type === "balanceUpdate" && event.accountId === shop.id);
    // The sale's credit landed on a shard and the payout on the main chain; each event still says
    // the account's balance and available balance after it.
    expect(
      updates.map((event) => event.type === "balanceUpdate" && [event.changeType, event.balance, event.available]),
    ).toEqual([
      ["CREDIT", "0.00", "0.00"],
      ["CREDIT", "30.00", "30.00"],
      ["CREDIT", "30.00", "30.00"],
      ["CREDIT", "40.00", "40.00"],
      ["DEBIT", "40.00", "5.00"],
      ["DEBIT", "5.00", "5.00"],
    ]);
  });

  it("signs cursors for one feed: another feed's or an edited cursor is refused", () => {
    const secret = ctx.config.CURSOR_KEYS;
    const cursor = freshCursor(new Date());
    const text = encodeCursor(secret, "ledger:a", cursor);
    expect(decodeCursor(secret, "ledger:a", text)).toEqual(cursor);
    expect(() => decodeCursor(secret, "ledger:b", text)).toThrow("Invalid Last-Event-ID");
    expect(() => decodeCursor(secret, "ledger:a", `x${text}`)).toThrow("Invalid Last-Event-ID");
    expect(() => decodeCursor(secret, "ledger:a", "garbage")).toThrow("Invalid Last-Event-ID");
    expect(() => decodeCursor(secret, "ledger:a", "a".repeat(9_000))).toThrow("Invalid Last-Event-ID");
  });
});
