import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "../../../../infra/local/testing";
import { readLedgerFeed } from "./events";
import { createAccount, deposit, setJournalStatus, transfer } from "./service";

type Context = Awaited<ReturnType<typeof createTestContext>>;
let ctx: Context;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

const idOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;

describe("ledger outbox feed", () => {
  it("announces exactly the committed changes, in order, resumable by event id", async () => {
    const owner = "feed-owner";
    const a = (await createAccount(ctx, owner, { name: "A", currency: "USD", low_balance_threshold: "50" }, null)).account;
    const b = (await createAccount(ctx, owner, { name: "B", currency: "USD" }, null)).account;
    const dep = await deposit(ctx, owner, { account_id: a.id, amount: "100" }, "feed-dep");
    await setJournalStatus(ctx, owner, idOf(dep.body), "post", null);
    const move = await transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "60" }, "feed-move");
    // Refused: writes nothing, so announces nothing.
    await expect(transfer(ctx, owner, { from_account_id: a.id, to_account_id: b.id, amount: "1000" }, "feed-too-much")).rejects.toThrow();

    const { events } = await readLedgerFeed(ctx, owner);
    const kinds = events.map((entry) => entry.event.type);
    expect(kinds).toEqual([
      "balanceUpdate", "transactionCreated", // deposit created (pending in)
      "balanceUpdate", "transactionStatusUpdate", // deposit posted
      "balanceUpdate", "transactionCreated", "lowBalanceAlert", // transfer reserves 60: available 40 < 50
      "balanceUpdate", // the destination's pending inflow
    ]);
    const created = events.find((entry) => entry.event.type === "transactionCreated" && entry.event.transactionId === idOf(move.body))!.event;
    expect(created).toMatchObject({ amount: "60.00", status: "draft", fromAccountId: a.id, toAccountId: b.id, currency: "USD" });
    expect(events.find((entry) => entry.event.type === "lowBalanceAlert")!.event).toEqual({
      type: "lowBalanceAlert", accountId: a.id, currentBalance: "40.00", threshold: "50.00",
    });

    const resumed = await readLedgerFeed(ctx, owner, { after: events[3]!.id });
    expect(resumed.events.map((entry) => entry.id)).toEqual(events.slice(4).map((entry) => entry.id));
    // Cut off after the first of a version's two events: the second is still delivered.
    const midItem = await readLedgerFeed(ctx, owner, { after: events[0]!.id });
    expect(midItem.events.map((entry) => entry.id)).toEqual(events.slice(1).map((entry) => entry.id));
    await expect(readLedgerFeed(ctx, owner, { after: "garbage" })).rejects.toThrow("Invalid event id");
    expect((await readLedgerFeed(ctx, "someone-else")).events).toEqual([]);
  });
});
