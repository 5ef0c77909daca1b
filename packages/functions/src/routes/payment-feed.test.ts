import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";
import { EVENT_ID_PATTERN } from "@fintech/core/events/event-id";
import { isActiveStatus, type PaymentEventType, type PaymentStatus } from "@fintech/core/payments/model";
import { getPayment } from "@fintech/core/payments/store";
import { advancePayment } from "@fintech/core/payments/worker";
import { PAYMENT_FEED_EVENTS } from "./feeds";

/**
 * The payment streams over HTTP: who may watch, events in order, resume, the status filter, the
 * commands. Time is controlled: the clock runs with real time plus an offset that the test moves
 * past each step's due time, then advancePayment runs the step (as the worker would).
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string } };
let t: TestApp;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const open: SseStream[] = [];

/** Two payers for the whole file: each test tells its payments apart by id (sign-ups are the slow part). */
let me: Payer;
let other: Payer;

beforeAll(async () => {
  t = await createTestApp(
    { FEED_SETTLE_MS: "0", FEED_HEARTBEAT_MS: "200", FEED_POLL_MAX_MS: "100", FEED_RETRY_MS: "1500" },
    { clock },
  );
  [me, other] = await Promise.all([newPayer(), newPayer()]);
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await t.core.dispose();
});

let users = 0;
interface Payer extends Session {
  from: string;
  to: string;
}

async function newPayer(): Promise<Payer> {
  const session = (await t.signUp(`payment-stream-${++users}@example.com`)) as Session;
  const account = async (name: string) => {
    const reply = await t.call("POST", "/api/v1/ledger/accounts", {
      token: session.token,
      body: { name, currency: "USD" },
    });
    expect(reply.status).toBe(201);
    return reply.body.data.id as string;
  };
  const from = await account("Everyday");
  const to = await account("Savings");
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token: session.token,
    body: { account_id: from, amount: "500.00" },
  });
  expect(deposit.status).toBe(201);
  expect(
    (await t.call("POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`, { token: session.token })).status,
  ).toBe(200);
  return { ...session, from, to };
}

const paymentBody = (payer: Payer, amount = "10.00") => ({
  userId: payer.user.id,
  fromAccountId: payer.from,
  toAccountId: payer.to,
  amount,
  currency: "USD",
  description: "stream test",
});

async function pay(payer: Payer): Promise<string> {
  const reply = await t.call("POST", "/v1/payments", { token: payer.token, body: paymentBody(payer) });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.payment.paymentId as string;
}

/** Moves the clock past each due step and runs it, until the payment is completed or failed. */
async function settle(paymentId: string): Promise<PaymentStatus> {
  for (let step = 0; step < 10; step++) {
    const payment = await getPayment(t.core, paymentId);
    if (!payment) throw new Error(`No payment ${paymentId}`);
    if (!isActiveStatus(payment.status)) return payment.status;
    offsetMs += 5_000; // beyond every seeded rail's average processing time (at most 2 s)
    await advancePayment(t.core, paymentId);
  }
  throw new Error(`Payment ${paymentId} did not settle`);
}

function connect(path: string, auth: { token?: string; lastEventId?: string } = {}) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (auth.lastEventId) headers["Last-Event-ID"] = auth.lastEventId;
  return t.app.request(path, { headers });
}

async function subscribe(path: string, auth: { token?: string; lastEventId?: string } = {}) {
  const response = await connect(path, auth);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const stream = readSse(response.body!);
  open.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

const TERMINAL = new Set(["paymentCompleted", "paymentError"]);
const events = (stream: SseStream) => stream.messages.filter((message) => message.event !== "cursor");
const of = (stream: SseStream, paymentId: string) =>
  events(stream).filter((message) => JSON.parse(message.data).paymentId === paymentId);
const isTerminalOf = (paymentId: string) => (message: { event?: string; data: string }) =>
  TERMINAL.has(message.event ?? "") &&
  JSON.parse(message.data).paymentId === paymentId &&
  JSON.parse(message.data).status !== "processing";

describe("who may watch", () => {
  it("refuses no token (401), another user's stream (403) and a bad status filter (400) on both paths", async () => {
    for (const path of [`/api/grpc/payment/stream?userId=${me.user.id}`, `/v1/payments/stream?user_id=${me.user.id}`]) {
      expect((await connect(path)).status).toBe(401);
    }
    for (const path of [
      `/api/grpc/payment/stream?userId=${other.user.id}`,
      `/v1/payments/stream?user_id=${other.user.id}`,
    ]) {
      const refused = await connect(path, { token: me.token });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "forbidden" });
    }
    expect((await connect(`/v1/payments/stream?status_filter=SETTLED`, { token: me.token })).status).toBe(400);
    expect((await connect(`/api/grpc/payment/stream?statusFilter=pending,nope`, { token: me.token })).status).toBe(400);
    expect((await connect(`/api/grpc/payment/stream?userId=${"u".repeat(65)}`, { token: me.token })).status).toBe(400);
  });

  it("answers health with a bearer token only", async () => {
    expect((await t.call("GET", "/api/grpc/payment/health")).status).toBe(401);
    const reply = await t.call("GET", "/api/grpc/payment/health", { token: me.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      success: true,
      service: "payment-stream",
      database: { connected: true },
      rails: { active: expect.any(Number), total: expect.any(Number) },
    });
    expect(reply.body.rails.active).toBeGreaterThan(0);
  });
});

describe("events", () => {
  it("delivers a payment's events in order with the spec's shapes, and resumes after Last-Event-ID with exactly the rest", async () => {
    const stream = await subscribe(`/api/grpc/payment/stream?userId=${me.user.id}`, { token: me.token });
    const paymentId = await pay(me);
    const final = await settle(paymentId);
    await stream.waitFor(isTerminalOf(paymentId));

    const delivered = of(stream, paymentId);
    const types = delivered.map((message) => message.event as PaymentEventType);
    expect(types[0]).toBe("paymentInitiated");
    expect(types).toContain("paymentStatusUpdate");
    expect(types[types.length - 1]).toBe(final === "completed" ? "paymentCompleted" : "paymentError");
    const bodies = delivered.map((message) => JSON.parse(message.data));
    for (const [index, body] of bodies.entries()) {
      const schema = PAYMENT_FEED_EVENTS[types[index]!]!.schema.strict();
      expect(() => schema.parse(body), JSON.stringify(body)).not.toThrow();
      expect(body.id).toMatch(EVENT_ID_PATTERN);
      expect(body.created_at).toBe(body.at);
      expect(body.event[types[index]!].paymentId).toBe(paymentId);
      expect(delivered[index]!.id).toBeTruthy();
    }
    expect(bodies[0]).toMatchObject({
      status: "pending",
      event: { paymentInitiated: { amount: "10.00", currency: "USD" } },
    });
    expect(bodies[bodies.length - 1].status).toBe(final);

    // Resume after the first event: the rest, once each, in order.
    await stream.close();
    const resumed = await subscribe(`/v1/payments/stream`, { token: me.token, lastEventId: delivered[0]!.id! });
    await resumed.waitFor(isTerminalOf(paymentId));
    expect(of(resumed, paymentId).map((message) => message.data)).toEqual(
      delivered.slice(1).map((message) => message.data),
    );
    await resumed.close();
  });

  it("keeps only the events whose payment was in a filtered status (status_filter repeated, any case)", async () => {
    const all = await subscribe(`/v1/payments/stream?user_id=${me.user.id}`, { token: me.token });
    const filtered = await subscribe(
      `/v1/payments/stream?user_id=${me.user.id}&status_filter=PENDING&status_filter=processing`,
      { token: me.token },
    );
    const first = await pay(me);
    await settle(first);
    await all.waitFor(isTerminalOf(first));
    // A later payment's first event behind the first one's end: the filtered stream has passed it.
    const second = await pay(me);
    await filtered.waitFor(
      (message) => message.event === "paymentInitiated" && JSON.parse(message.data).paymentId === second,
    );

    const statuses = events(filtered).map((message) => JSON.parse(message.data).status as string);
    expect(statuses.every((status) => status === "pending" || status === "processing")).toBe(true);
    const expected = of(all, first).filter((message) =>
      ["pending", "processing"].includes(JSON.parse(message.data).status),
    );
    expect(of(filtered, first).map((message) => message.data)).toEqual(expected.map((message) => message.data));
    expect(
      of(filtered, first).some(
        (message) => TERMINAL.has(message.event ?? "") && JSON.parse(message.data).status !== "processing",
      ),
    ).toBe(false);
    await Promise.all([all.close(), filtered.close()]);
  });
});

describe("commands", () => {
  const command = (body: unknown, token: string, headers: Record<string, string> = {}) =>
    t.call("POST", "/api/grpc/payment/command", { token, body, headers });

  it("subscribeToPayments answers a stream URL and a ticket that opens it; initiatePayment pays and replays its Idempotency-Key", async () => {
    const subscribed = await command(
      { command: { subscribeToPayments: { userId: me.user.id, statusFilter: ["PENDING"] } } },
      me.token,
    );
    expect(subscribed.status).toBe(200);
    const { streamUrl, ticket } = subscribed.body.result as { streamUrl: string; ticket: string };
    expect(streamUrl).toBe(`/api/grpc/payment/stream?userId=${me.user.id}&statusFilter=pending`);
    const stream = await subscribe(`${streamUrl}&ticket=${encodeURIComponent(ticket)}`);

    const headers = { "Idempotency-Key": `stream-command-${me.user.id}` };
    const initiated = await command({ command: { initiatePayment: paymentBody(me, "12.50") } }, me.token, headers);
    expect(initiated.status, JSON.stringify(initiated.body)).toBe(200);
    expect(initiated.body).toMatchObject({
      command: "initiatePayment",
      result: { message: "Payment initiated", replayed: false, payment: { amount: "12.50", status: "pending" } },
    });
    const paymentId = initiated.body.result.payment.paymentId as string;
    const replayed = await command({ command: { initiatePayment: paymentBody(me, "12.50") } }, me.token, headers);
    expect(replayed.body.result).toMatchObject({ replayed: true, payment: { paymentId } });

    const started = await stream.waitFor(
      (message) => message.event === "paymentInitiated" && JSON.parse(message.data).paymentId === paymentId,
    );
    expect(JSON.parse(started.data)).toMatchObject({
      paymentId,
      status: "pending",
      event: { paymentInitiated: { paymentId, amount: "12.50" } },
    });
    await stream.close();
  });

  it("refuses another user's payment or stream (403), unknown commands and bad input (400), all as 'Payment command failed'", async () => {
    const forOther = await command(
      { command: { initiatePayment: { ...paymentBody(me), userId: other.user.id } } },
      me.token,
    );
    expect(forOther.status).toBe(403);
    expect(forOther.body).toMatchObject({ message: "Payment command failed" });
    const watchOther = await command({ command: { subscribeToPayments: { userId: other.user.id } } }, me.token);
    expect(watchOther.status).toBe(403);
    const unknown = await command({ command: { refundPayment: {} } }, me.token);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ message: "Payment command failed", code: "unknown_command" });
    expect((await command({ command: { subscribeToPayments: { statusFilter: ["settled"] } } }, me.token)).status).toBe(
      400,
    );
    expect(
      (await command({ command: { initiatePayment: { ...paymentBody(me), amount: "-1" } } }, me.token)).status,
    ).toBe(400);
    expect(
      (await t.call("POST", "/api/grpc/payment/command", { body: { command: { subscribeToPayments: {} } } })).status,
    ).toBe(401);
  });
});
