import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerFeedSource, type LedgerFeedEvent } from "@fintech/core/ledger/events";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { OutboxItem } from "@fintech/core/events/feed";
import { createTestApp } from "@fintech/testing/app";
import { verifyForTests } from "@fintech/testing/limits";

/** POST /ledger/transactions/batch: all or nothing, in order, one transaction, idempotent as a whole. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;
let userId: string;
let otherToken: string;

const BATCH = "/api/v1/ledger/transactions/batch";

async function raw(body: unknown, key?: string, as = token) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${as}` };
  if (key) headers["Idempotency-Key"] = key;
  const response = await t.app.request(BATCH, { method: "POST", headers, body: JSON.stringify(body) });
  return {
    status: response.status,
    text: await response.text(),
    replayed: response.headers.get("Idempotent-Replayed"),
  };
}

async function openAccount(name: string, as = token) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token: as,
    body: { name, currency: "USD", type: "bank" },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function fundPosted(accountId: string, amount: string) {
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect((await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token })).status).toBe(
    200,
  );
}

const balance = async (accountId: string, asOf?: string) =>
  (
    await t.call(
      "GET",
      `/api/v1/ledger/accounts/${accountId}/balance${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ""}`,
      { token },
    )
  ).body.data as {
    balance: string;
    available: string;
    pending_in: string;
    pending_out: string;
  };
const historyIds = async (accountId: string) =>
  (
    (await t.call("GET", `/api/v1/ledger/transactions/history?account_id=${accountId}&limit=100`, { token })).body
      .data as { id: string }[]
  ).map((row) => row.id);

async function expectLedgerHealthy() {
  const integrity = await t.call("GET", "/api/v1/ledger/integrity", { token });
  expect(integrity.body.data).toMatchObject({ ok: true, drift: [], unbalanced_journals: [] });
  const trial = await t.call("GET", "/api/v1/ledger/trial-balance", { token });
  expect(trial.body.data.is_balanced).toBe(true);
}

/** Every event the owner's feed derives from the balance versions now in the table. */
async function feedEvents(): Promise<LedgerFeedEvent[]> {
  const source = ledgerFeedSource(t.core, userId);
  const items: OutboxItem[] = [];
  for (const partition of source.partitions) {
    const reply = await t.core.db.doc.send(
      new QueryCommand({
        TableName: t.core.db.table,
        IndexName: "gsi2",
        KeyConditionExpression: "gsi2pk = :pk",
        ExpressionAttributeValues: { ":pk": partition },
      }),
    );
    items.push(...((reply.Items ?? []) as OutboxItem[]));
  }
  return (await source.decode(items)).flat();
}

beforeAll(async () => {
  t = await createTestApp();
  const session = await t.signUp("batches@example.com");
  token = session.token;
  userId = session.user.id;
  otherToken = (await t.signUp("batches-other@example.com")).token;
  // Deposits beyond an unverified user's limit: the limits have tests of their own (limits.test.ts).
  await verifyForTests(t.core, userId);
});
afterAll(async () => t.core.dispose());

describe("ledger batches", () => {
  it("a payout commits every item in order, with balances, history, events, point-in-time and integrity right", async () => {
    const payer = await openAccount("Payroll");
    await fundPosted(payer.id, "1000.00");
    const payees = await Promise.all(Array.from({ length: 10 }, (_, index) => openAccount(`Payee ${index}`)));
    const before = new Date().toISOString();
    const items = payees.map((payee, index) => ({
      type: "transfer",
      from_account_id: payer.id,
      to_account_id: payee.id,
      amount: `${index + 1}.00`,
      description: `Salary ${index}`,
    }));
    const reply = await raw(
      { items: [...items, { type: "deposit", account_id: payees[0]!.id, amount: "5.00" }] },
      "payout-1",
    );
    expect(reply.status).toBe(201);
    const body = JSON.parse(reply.text) as {
      message: string;
      data: {
        id: string;
        type: string;
        amount: string;
        status: string;
        from_account_id: string;
        to_account_id: string;
        description: string;
      }[];
    };
    expect(body.message).toBe("Batch created");
    expect(body.data).toHaveLength(11);
    for (const [index, journal] of body.data.slice(0, 10).entries())
      expect(journal).toMatchObject({
        type: "transfer",
        status: "draft",
        amount: `${index + 1}.00`,
        from_account_id: payer.id,
        to_account_id: payees[index]!.id,
        description: `Salary ${index}`,
      });
    expect(body.data[10]).toMatchObject({
      type: "deposit",
      amount: "5.00",
      to_account_id: payees[0]!.id,
      description: "Deposit",
    });

    // 1 + 2 + ... + 10 = 55 pending out of the payer, each payee's amount pending in.
    expect(await balance(payer.id)).toMatchObject({ balance: "1000.00", available: "945.00", pending_out: "55.00" });
    expect(await balance(payees[3]!.id)).toMatchObject({ balance: "0.00", pending_in: "4.00" });
    expect(await balance(payees[0]!.id)).toMatchObject({ pending_in: "6.00" });
    expect(await balance(payer.id, before)).toMatchObject({ available: "1000.00", pending_out: "0.00" });

    // Every journal is listed and its own: in the history, the account listings and in detail.
    const ids = body.data.map((journal) => journal.id);
    expect((await historyIds(payer.id)).filter((id) => ids.includes(id)).sort()).toEqual(ids.slice(0, 10).sort());
    const payerListing = await t.call("GET", `/api/v1/ledger/accounts/${payer.id}/transactions?limit=100`, { token });
    expect((payerListing.body.data as { id: string }[]).filter((row) => ids.includes(row.id))).toHaveLength(10);
    // Payee 0 took two legs of the batch (item 0 and the deposit, item 10) in one folded version:
    // both listed, newest first.
    const payeeListing = await t.call("GET", `/api/v1/ledger/accounts/${payees[0]!.id}/transactions`, { token });
    expect((payeeListing.body.data as { id: string }[]).map((row) => row.id)).toEqual([ids[10], ids[0]]);
    expect((await t.call("GET", `/api/v1/ledger/transactions/${ids[4]}`, { token })).body.data).toMatchObject({
      id: ids[4],
      amount: "5.00",
      idempotency_key: "payout-1",
    });

    // The feed announces every journal once and every leg, folded versions included.
    const events = await feedEvents();
    const created = events
      .filter((event) => event.event.type === "transactionCreated")
      .map((event) => (event.event as { transactionId: string }).transactionId);
    for (const id of ids) expect(created.filter((one) => one === id)).toHaveLength(1);
    const payerUpdates = events.filter(
      (event) =>
        event.event.type === "balanceUpdate" &&
        (event.event as { accountId: string }).accountId === payer.id &&
        ids.includes((event.event as { transactionId: string }).transactionId),
    );
    expect(payerUpdates.map((event) => (event.event as { available: string }).available)).toEqual([
      "999.00",
      "997.00",
      "994.00",
      "990.00",
      "985.00",
      "979.00",
      "972.00",
      "964.00",
      "955.00",
      "945.00",
    ]);

    // Posting a batch's journal later is an ordinary post; the ledger stays consistent.
    expect((await t.call("POST", `/api/v1/ledger/transactions/${ids[9]}/post`, { token })).status).toBe(200);
    expect(await balance(payees[9]!.id)).toMatchObject({ balance: "10.00" });
    await expectLedgerHealthy();
  });

  it("replays the whole batch byte for byte; another body under the key is a 422; concurrent duplicates execute once", async () => {
    const from = await openAccount("Replay source");
    const to = await openAccount("Replay target");
    await fundPosted(from.id, "100.00");
    const body = {
      items: [
        { type: "transfer", from_account_id: from.id, to_account_id: to.id, amount: "10.00" },
        { type: "deposit", account_id: to.id, amount: "1.00" },
      ],
    };
    const first = await raw(body, "replay-1");
    expect(first.status).toBe(201);
    expect(await raw(body, "replay-1")).toEqual({ status: 201, text: first.text, replayed: "true" });
    const other = await raw({ items: [body.items[0]] }, "replay-1");
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text).code).toBe("idempotency_key_reused");
    // A batch key is its own namespace: the same key on a single transfer is a new request.
    expect(
      (
        await t.call("POST", "/api/v1/ledger/transactions/transfer", {
          token,
          body: body.items[0],
          headers: { "Idempotency-Key": "replay-1" },
        })
      ).status,
    ).toBe(201);

    const racing = await Promise.all(Array.from({ length: 5 }, () => raw(body, "replay-race")));
    const done = racing.filter((reply) => reply.status === 201);
    expect(done.filter((reply) => reply.replayed === null)).toHaveLength(1);
    for (const reply of done) expect(reply.text).toBe(done[0]!.text);
    for (const reply of racing.filter((one) => one.status !== 201))
      expect(JSON.parse(reply.text).code).toBe("idempotency_in_progress");
    expect(await balance(from.id)).toMatchObject({ available: "70.00" });
    await expectLedgerHealthy();
  });

  it("a refused item refuses the whole batch with its index and writes nothing; the refusal is recorded under a key", async () => {
    const from = await openAccount("Thin source");
    const to = await openAccount("Thin target");
    await fundPosted(from.id, "30.00");
    const body = {
      items: [
        { type: "transfer", from_account_id: from.id, to_account_id: to.id, amount: "20.00" },
        { type: "deposit", account_id: to.id, amount: "1.00" },
        { type: "transfer", from_account_id: from.id, to_account_id: to.id, amount: "20.00" },
      ],
    };
    const historyBefore = await historyIds(to.id);
    const refused = await raw(body, "thin-1");
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.text)).toEqual({
      message: "Insufficient available balance in Thin source",
      code: "insufficient_funds",
      error: "Insufficient available balance in Thin source",
      index: 2,
    });
    expect(await historyIds(to.id)).toEqual(historyBefore);
    expect(await balance(from.id)).toMatchObject({ available: "30.00", pending_out: "0.00" });
    expect(await balance(to.id)).toMatchObject({ pending_in: "0.00" });

    await fundPosted(from.id, "100.00");
    expect(await raw(body, "thin-1")).toEqual({ ...refused, replayed: "true" });
    // Without the key's record (a new key) the same batch now goes through.
    expect((await raw(body, "thin-2")).status).toBe(201);
    await expectLedgerHealthy();
  });

  it("validates item by item with the single requests' messages, naming the index", async () => {
    const mine = await openAccount("Valid");
    const theirs = await openAccount("Theirs", otherToken);
    const transfer = { type: "transfer", from_account_id: mine.id, to_account_id: mine.id, amount: "1.00" };
    const cases: [unknown, number, Record<string, unknown>][] = [
      [{}, 400, { code: "validation_error", message: "items must be a list of 1 to 50 transfers or deposits" }],
      [
        { items: [] },
        400,
        { code: "validation_error", message: "items must be a list of 1 to 50 transfers or deposits" },
      ],
      [
        { items: Array.from({ length: 51 }, () => transfer) },
        400,
        { code: "validation_error", message: "A batch holds at most 50 items" },
      ],
      [
        { items: [{ type: "deposit", account_id: mine.id, amount: "1" }, "x"] },
        400,
        { index: 1, message: "Each item must be a JSON object" },
      ],
      [
        { items: [{ type: "refund", account_id: mine.id, amount: "1" }] },
        400,
        { index: 0, message: "type must be transfer or deposit" },
      ],
      [
        {
          items: [
            { type: "deposit", account_id: mine.id, amount: "1" },
            { account_id: mine.id, amount: "1" },
          ],
        },
        400,
        { index: 1, message: "type must be transfer or deposit" },
      ],
      [
        { items: [{ type: "transfer", to_account_id: mine.id, amount: "1" }] },
        400,
        { index: 0, message: "Source account is required" },
      ],
      [
        {
          items: [
            { type: "deposit", account_id: mine.id, amount: "1" },
            { type: "deposit", account_id: mine.id },
          ],
        },
        400,
        { index: 1, message: "Amount is required" },
      ],
      [
        { items: [{ type: "deposit", account_id: mine.id, amount: "1.001" }] },
        400,
        { index: 0, code: "invalid_amount" },
      ],
      [
        {
          items: [
            { type: "deposit", account_id: mine.id, amount: "1" },
            { type: "deposit", account_id: theirs.id, amount: "1" },
          ],
        },
        404,
        { index: 1, code: "account_not_found", message: "Account not found" },
      ],
      [
        { items: [{ type: "deposit", account_id: mine.id, amount: "1" }, transfer] },
        400,
        { index: 1, code: "same_account" },
      ],
    ];
    for (const [body, status, expected] of cases) {
      const reply = await raw(body);
      expect({ body, status: reply.status }).toEqual({ body, status });
      expect(JSON.parse(reply.text)).toMatchObject(expected);
    }
    // A malformed item is not a decision: the corrected batch under the same key goes through.
    expect(
      (await raw({ items: [{ type: "deposit", account_id: mine.id, amount: "1.001" }] }, "fix-batch")).status,
    ).toBe(400);
    expect((await raw({ items: [{ type: "deposit", account_id: mine.id, amount: "1.00" }] }, "fix-batch")).status).toBe(
      201,
    );
    expect(await historyIds(mine.id)).toHaveLength(1);
  });

  it("a 50-transfer payout to 49 payees commits in one transaction; 50 distinct payees is refused naming the limit", async () => {
    const payer = await openAccount("Big payer");
    await fundPosted(payer.id, "10000.00");
    const payees = await Promise.all(Array.from({ length: 50 }, (_, index) => openAccount(`Big payee ${index}`)));
    const item = (to: { id: string }) => ({
      type: "transfer",
      from_account_id: payer.id,
      to_account_id: to.id,
      amount: "2.00",
    });
    const tooLarge = await raw({ items: payees.map(item) });
    expect(tooLarge.status).toBe(422);
    expect(JSON.parse(tooLarge.text)).toMatchObject({
      code: "batch_too_large",
      message: expect.stringContaining("at most 100 items"),
    });
    expect(JSON.parse(tooLarge.text).message).toContain("This one needs 101 (50 transactions, 51 accounts)");

    const fits = await raw({ items: [...payees.slice(0, 49).map(item), item(payees[0]!)] }, "big-1");
    expect(fits.status).toBe(201);
    expect(JSON.parse(fits.text).data).toHaveLength(50);
    expect(await balance(payer.id)).toMatchObject({ available: "9900.00", pending_out: "100.00" });
    expect(await balance(payees[0]!.id)).toMatchObject({ pending_in: "4.00" });
    await expectLedgerHealthy();
  });
});
