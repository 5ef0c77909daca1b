import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyForTests } from "@fintech/testing/limits";
import { paymentIdFor } from "@fintech/core/payments/service";
import { advancePayment, attemptOutcome } from "@fintech/core/payments/worker";
import { getRail } from "@fintech/core/rails/store";
import { createTestApp } from "@fintech/testing/app";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";

/**
 * Money another customer paid in, through the ledger's read API: the payee's history, detail,
 * export and stream show it once posted, with the payer's name and nothing of the payer's
 * accounts; paging is exact across their own journals and what they received; the payer sees
 * whom they paid; nobody else sees any of it. Payments are advanced by calling the worker with a
 * controlled clock (the real one plus an offset), so nothing waits on time.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
interface User {
  token: string;
  user: { id: string; email: string };
}
interface Entry {
  account_id: string;
  account_name: string;
  account_number: string | null;
  owned: boolean;
  party: string;
  side: string;
  debit: string;
  credit: string;
}
interface Row {
  id: string;
  type: string;
  status: string;
  amount: string;
  description: string;
  counterparty: string;
  incoming: boolean;
  fee: string | null;
  idempotency_key: string | null;
  entries: Entry[];
  history: { operation: string; by: { id: string; name: string } | null }[];
}

let t: TestApp;
let offsetMs = 0;
let alice: User;
let bob: User;
let mallory: User;
let aliceChecking: { id: string; account_number: string };
let bobMain: { id: string; account_number: string };
const streams: SseStream[] = [];
/** The first payment to Bob, made by the first tests. */
let firstPaymentId = "";

async function openAccount(token: string, name: string) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token,
    body: { name, currency: "USD", type: "bank" },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; account_number: string };
}

async function deposit(token: string, accountId: string, amount: string, description: string): Promise<string> {
  const created = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount, description },
  });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

/** A key whose payment the rail will carry on its first attempt (outcomes are deterministic per payment id). */
async function succeedingKey(prefix: string): Promise<string> {
  const card = await getRail(t.core, "card");
  for (let index = 0; ; index += 1) {
    const key = `${prefix}-${index}`;
    if (attemptOutcome(card, paymentIdFor(alice.user.id, key), 1).succeeded) return key;
  }
}

/** Alice pays Bob by email; returns the payment (= journal) id, still held (pending). */
async function payBob(amount: string, description?: string): Promise<string> {
  const key = await succeedingKey(`to-bob-${amount}`);
  const reply = await t.call("POST", "/v1/payments", {
    token: alice.token,
    headers: { "Idempotency-Key": key },
    body: {
      userId: alice.user.id,
      fromAccountId: aliceChecking.id,
      amount,
      currency: "USD",
      forceRail: "Card",
      toEmail: bob.user.email,
      ...(description ? { description } : {}),
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.payment.paymentId as string;
}

async function complete(paymentId: string): Promise<void> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(t.core, paymentId);
    if (!result.nextDueAt) {
      expect(result.status).toBe("completed");
      return;
    }
    offsetMs = Math.max(offsetMs, Date.parse(result.nextDueAt) - Date.now() + 1);
  }
  throw new Error("payment did not finish");
}

const history = async (token: string, query = "") =>
  t.call("GET", `/api/v1/ledger/transactions/history${query}`, { token });
const rows = async (token: string, query = "") => {
  const reply = await history(token, query);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data as Row[];
};
const exportCsv = async (token: string, query = "") => {
  const reply = await t.app.request(`/api/v1/ledger/transactions/export${query}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(reply.status).toBe(200);
  return (await reply.text()).trimEnd().split("\n");
};

async function subscribe(user: User): Promise<SseStream> {
  const response = await t.app.request(`/api/grpc/ledger/stream?userId=${user.user.id}`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  expect(response.status).toBe(200);
  const stream = readSse(response.body!);
  streams.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

beforeAll(async () => {
  t = await createTestApp(
    { PAYMENT_RATE_LIMIT_PER_MINUTE: "1000", FEED_SETTLE_MS: "0", FEED_HEARTBEAT_MS: "200", FEED_POLL_MAX_MS: "100" },
    { clock: () => new Date(Date.now() + offsetMs) },
  );
  alice = await t.signUp("alice.payer@example.com", { first_name: "Alice", last_name: "Payer" });
  bob = await t.signUp("bob.payee@example.com", { first_name: "Bob", last_name: "Payee" });
  mallory = await t.signUp("mallory@example.com", { first_name: "Mal", last_name: "Lory" });
  await verifyForTests(t.core, alice.user.id);
  aliceChecking = await openAccount(alice.token, "Alice checking");
  bobMain = await openAccount(bob.token, "Bob main");
  const funding = await deposit(alice.token, aliceChecking.id, "1000.00", "Salary");
  expect((await t.call("POST", `/api/v1/ledger/transactions/${funding}/post`, { token: alice.token })).status).toBe(
    200,
  );
});
afterAll(async () => {
  await Promise.all(streams.map((stream) => stream.close()));
  await t.core.dispose();
});

describe("a payment to another user", () => {
  let paymentId: string;

  it("is the payer's alone while held: the payee's history, detail, export and stream show nothing of it", async () => {
    const stream = await subscribe(bob);
    paymentId = await payBob("42.50", "Concert tickets");
    firstPaymentId = paymentId;
    expect(await rows(bob.token)).toEqual([]);
    expect((await t.call("GET", `/api/v1/ledger/transactions/${paymentId}`, { token: bob.token })).status).toBe(404);
    expect(await exportCsv(bob.token)).toHaveLength(1);
    // The payee's account list of the account's own transactions leaves the hold out too.
    const onAccount = await t.call("GET", `/api/v1/ledger/accounts/${bobMain.id}/transactions`, { token: bob.token });
    expect(onAccount.body.data).toEqual([]);

    await complete(paymentId);
    const announced = await stream.waitFor(
      (message) => message.event === "transactionStatusUpdate" && message.data.includes(paymentId),
    );
    expect(JSON.parse(announced.data)).toMatchObject({
      transactionId: paymentId,
      status: "posted",
      message: "Received 42.50 USD from Alice Payer",
      counterparty: "Alice Payer",
    });
    // In commit order, nothing about the hold came before the money arrived.
    const about = stream.messages.filter((message) => message.data.includes(paymentId));
    expect(about.map((message) => [message.event, JSON.parse(message.data).operation ?? null])).toEqual([
      ["balanceUpdate", "post"],
      ["transactionStatusUpdate", null],
    ]);
    expect(JSON.parse(about[0]!.data)).toMatchObject({
      accountId: bobMain.id,
      changeType: "CREDIT",
      changeAmount: "42.50",
      counterparty: "Alice Payer",
    });
    expect(JSON.stringify(stream.messages)).not.toContain(aliceChecking.id);
  });

  it("once posted is in the payee's history, detail and CSV with the payer's name, never the payer's accounts, fee or key", async () => {
    const [received] = await rows(bob.token);
    expect(received).toMatchObject({
      id: paymentId,
      type: "payment",
      status: "posted",
      amount: "42.50",
      incoming: true,
      counterparty: "Alice Payer",
      fee: null,
      idempotency_key: null,
    });
    expect(
      received!.entries.map((entry) => [
        entry.account_id,
        entry.account_name,
        entry.party,
        entry.side,
        entry.debit,
        entry.credit,
      ]),
    ).toEqual([
      ["redacted", "Alice Payer", "customer", "credit", "0", "42.50"],
      [bobMain.id, "Bob main", "own", "debit", "42.50", "0"],
    ]);
    expect(received!.history).toEqual([
      expect.objectContaining({ operation: "post", by: { id: "payment-service", name: "the payment service" } }),
    ]);

    const detail = await t.call("GET", `/api/v1/ledger/transactions/${paymentId}`, { token: bob.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toEqual(received);

    const csv = await exportCsv(bob.token);
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`${paymentId},`);
    expect(csv[1]).toContain(`,Bob main (${bobMain.account_number}),Alice Payer,,Alice Payer,`);

    // Filters apply to money received like to the payee's own journals.
    expect((await rows(bob.token, "?type=payment")).map((row) => row.id)).toEqual([paymentId]);
    expect((await rows(bob.token, `?account_id=${bobMain.id}`)).map((row) => row.id)).toEqual([paymentId]);
    expect((await rows(bob.token, "?q=alice")).map((row) => row.id)).toEqual([paymentId]);
    expect(await rows(bob.token, "?status=draft")).toEqual([]);
    expect(await rows(bob.token, "?type=deposit")).toEqual([]);

    for (const text of [JSON.stringify(received), JSON.stringify(detail.body), csv.join("\n")]) {
      expect(text).not.toContain(aliceChecking.id);
      expect(text).not.toContain(aliceChecking.account_number);
      expect(text).not.toContain("Alice checking");
      expect(text).not.toContain(alice.user.id);
      expect(text).not.toContain("to-bob-");
    }
  });

  it("shows the payer whom they paid and the fee as a fee, posted by the payment service", async () => {
    const [sent] = (await rows(alice.token, "?type=payment")) as Row[];
    expect(sent).toMatchObject({ id: paymentId, incoming: false, counterparty: bob.user.email, status: "posted" });
    expect(Number(sent!.fee)).toBeGreaterThan(0);
    expect(Number(sent!.amount)).toBeCloseTo(42.5 + Number(sent!.fee), 2);
    const payeeLeg = sent!.entries.find((entry) => entry.party === "customer")!;
    expect(payeeLeg).toMatchObject({
      account_id: "redacted",
      account_name: bob.user.email,
      account_number: null,
      debit: "42.50",
    });
    expect(sent!.history.map((record) => [record.operation, record.by?.name])).toEqual([
      ["create", "Alice Payer"],
      ["post", "the payment service"],
    ]);
    const text = JSON.stringify(await history(alice.token));
    expect(text).not.toContain(bobMain.id);
    expect(text).not.toContain("Bob main");
    expect(text).not.toContain("Bob Payee");
  });

  it("shows nothing to anyone else, and refuses forged or foreign cursors", async () => {
    expect(await rows(mallory.token)).toEqual([]);
    expect(await exportCsv(mallory.token)).toHaveLength(1);
    expect((await t.call("GET", `/api/v1/ledger/transactions/${paymentId}`, { token: mallory.token })).status).toBe(
      404,
    );
    expect((await history("not-a-token")).status).toBe(401);
    expect((await t.call("GET", `/api/v1/ledger/transactions/${paymentId}`, {})).status).toBe(401);
    // Mallory's account filter cannot name Bob's account.
    expect((await history(mallory.token, `?account_id=${bobMain.id}`)).status).toBe(404);

    const alicePage = await history(alice.token, "?limit=1");
    const foreign = await history(
      bob.token,
      `?limit=1&cursor=${encodeURIComponent(alicePage.body.pagination.next_cursor)}`,
    );
    expect([foreign.status, foreign.body.code]).toEqual([400, "invalid_cursor"]);
    for (const cursor of [
      "x".repeat(3000),
      "e30.AAAA",
      `${Buffer.from(JSON.stringify({ before: "9999" })).toString("base64url")}.AAAA`,
    ]) {
      const forged = await history(bob.token, `?limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect([forged.status, forged.body.code]).toEqual([400, "invalid_cursor"]);
    }
    expect((await history(bob.token, `?q=${"x".repeat(101)}`)).status).toBe(400);
    expect((await history(bob.token, "?limit=abc")).status).toBe(400);
  });
});

describe("the payee's history across their own journals and money received", () => {
  it("pages exactly, by cursor and by offset, whichever source each row comes from", async () => {
    const own: string[] = [];
    const received: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      own.push(await deposit(bob.token, bobMain.id, `${round + 1}.00`, `Own ${round}`));
      const paid = await payBob(`${round + 1}.25`);
      await complete(paid);
      received.push(paid);
      if (round % 2 === 1) own.push(await deposit(bob.token, bobMain.id, `${round + 1}.50`, `Own extra ${round}`));
    }
    const all = (await rows(bob.token, "?limit=200")).map((row) => row.id);
    expect(new Set(all)).toEqual(new Set([...own, ...received, firstPaymentId]));
    expect(all).toHaveLength(own.length + received.length + 1);

    for (const limit of [1, 2, 3, 5]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page = await history(bob.token, query);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(limit);
        seen.push(...(page.body.data as Row[]).map((row) => row.id));
        cursor = page.body.pagination.next_cursor;
        expect(page.body.pagination.has_more).toBe(cursor !== null);
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(all);
      const byOffset = await history(bob.token, `?limit=${limit}&offset=${limit}`);
      expect((byOffset.body.data as Row[]).map((row) => row.id)).toEqual(all.slice(limit, 2 * limit));
    }
    // A filtered walk (money received only) is exact too, and its cursor is bound to the filter.
    const payments = (await rows(bob.token, "?type=payment")).map((row) => row.id);
    const first = await history(bob.token, "?type=payment&limit=2");
    const second = await history(
      bob.token,
      `?type=payment&limit=10&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
    );
    expect([...first.body.data, ...second.body.data].map((row: Row) => row.id)).toEqual(payments);
    const otherFilter = await history(
      bob.token,
      `?type=deposit&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
    );
    expect([otherFilter.status, otherFilter.body.code]).toEqual([400, "invalid_cursor"]);
  });
});
