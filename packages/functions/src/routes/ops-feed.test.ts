import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { OpsRow } from "@fintech/core/ops/model";
import { isActiveStatus, type PaymentStatus } from "@fintech/core/payments/model";
import { getPayment, paymentHistory } from "@fintech/core/payments/store";
import { advancePayment } from "@fintech/core/payments/worker";

/**
 * The administrators' ops feed over HTTP: who may watch, each journal, payment change and KYC
 * submission announced once and in order per stream, resume by Last-Event-ID without loss or
 * repetition, and the same feed as the `ops` scope of the live stream. The clock runs with real
 * time plus an offset the test moves past each payment step's due time.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string } };
let t: TestApp;
let adminToken: string;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const open: SseStream[] = [];
let payer: Session & { from: string; to: string };

beforeAll(async () => {
  t = await createTestApp(
    { FEED_SETTLE_MS: "0", FEED_HEARTBEAT_MS: "200", FEED_POLL_MAX_MS: "100", FEED_RETRY_MS: "1500" },
    { clock },
  );
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "ops-feed-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "ops-feed-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  const session = (await t.signUp("ops-feed-payer@example.com")) as Session;
  const account = async (name: string) => {
    const reply = await t.call("POST", "/api/v1/ledger/accounts", {
      token: session.token,
      body: { name, currency: "USD" },
    });
    expect(reply.status).toBe(201);
    return reply.body.data.id as string;
  };
  payer = { ...session, from: await account("Everyday"), to: await account("Savings") };
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await t.core.dispose();
});

function connect(path: string, auth: { token?: string; lastEventId?: string } = {}) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (auth.lastEventId) headers["Last-Event-ID"] = auth.lastEventId;
  return t.app.request(path, { headers });
}

async function subscribe(path: string, auth: { token?: string; lastEventId?: string } = {}) {
  const response = await connect(path, auth);
  expect(response.status).toBe(200);
  const stream = readSse(response.body!);
  open.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

const rowsOf = (stream: SseStream, prefix = "") =>
  stream.messages
    .filter((message) => message.event !== "cursor" && message.event?.startsWith(prefix))
    .map((message) => ({ event: message.event, id: message.id, row: OpsRow.parse(JSON.parse(message.data)) }));

/** A posted deposit into the payer's account: its journal's id. */
async function postedDeposit(amount: string): Promise<string> {
  const deposit = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token: payer.token,
    body: { account_id: payer.from, amount },
  });
  expect(deposit.status).toBe(201);
  const id = deposit.body.data.id as string;
  expect((await t.call("POST", `/api/v1/ledger/transactions/${id}/post`, { token: payer.token })).status).toBe(200);
  return id;
}

async function pay(amount = "10.00"): Promise<string> {
  const reply = await t.call("POST", "/v1/payments", {
    token: payer.token,
    body: { userId: payer.user.id, fromAccountId: payer.from, toAccountId: payer.to, amount, currency: "USD" },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.payment.paymentId as string;
}

/** Moves the clock past each due step and runs it, until the payment is final. */
async function settle(paymentId: string): Promise<PaymentStatus> {
  for (let step = 0; step < 10; step++) {
    const payment = await getPayment(t.core, paymentId);
    if (!payment) throw new Error(`No payment ${paymentId}`);
    if (!isActiveStatus(payment.status)) return payment.status;
    offsetMs += 5_000;
    await advancePayment(t.core, paymentId);
  }
  throw new Error(`Payment ${paymentId} did not settle`);
}

describe("who may watch", () => {
  it("refuses no token (401), a user (403), and a forged or another feed's Last-Event-ID (400)", async () => {
    expect((await connect("/api/grpc/ops/stream")).status).toBe(401);
    const asUser = await connect("/api/grpc/ops/stream", { token: payer.token });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toMatchObject({ code: "admin_required" });
    const liveAsUser = await connect("/api/grpc/live/stream?scopes=payment,ops", { token: payer.token });
    expect(liveAsUser.status).toBe(403);
    expect((await connect("/api/grpc/ops/stream?tables=ledger", { token: adminToken })).status).toBe(400);
    expect((await connect("/api/grpc/ops/stream", { token: adminToken, lastEventId: "forged.cursor" })).status).toBe(
      400,
    );
    // A cursor of the payer's own payment feed is not a cursor of the ops feed.
    const own = await subscribe(`/api/grpc/payment/stream`, { token: payer.token });
    const ownId = own.messages[0]!.id!;
    await own.close();
    expect((await connect("/api/grpc/ops/stream", { token: adminToken, lastEventId: ownId })).status).toBe(400);
  });
});

describe("what it announces", () => {
  it("a journal, a payment's changes and a KYC submission once each, in order, and resumes without loss or repetition", async () => {
    const stream = await subscribe("/api/grpc/ops/stream", { token: adminToken });
    const depositId = await postedDeposit("500.00");
    const paymentId = await pay();
    await stream.waitFor(() => rowsOf(stream).some((entry) => entry.row.id === paymentId));
    // Cut the stream after the payment's first change; its later steps happen while nobody watches.
    const seen = rowsOf(stream);
    const cutAt = seen.findIndex((entry) => entry.row.id === paymentId);
    const cut = seen[cutAt]!;
    await stream.close();
    const final = await settle(paymentId);
    const submission = await seedSubmission(t.core, { userId: payer.user.id });

    const resumed = await subscribe("/api/grpc/ops/stream", { token: adminToken, lastEventId: cut.id! });
    await resumed.waitFor(() => rowsOf(resumed).some((entry) => entry.row.id === submission.id));
    await resumed.waitFor(() =>
      rowsOf(resumed).some((entry) => entry.row.id === paymentId && entry.row.status === final),
    );

    const before = seen.slice(0, cutAt + 1);
    const all = [...before, ...rowsOf(resumed)];
    // The deposit waited in the four-eyes queue as a draft: the feed announces it once, posted.
    const deposits = all.filter((entry) => entry.row.id === depositId && entry.row.table === "journal");
    expect(deposits.map((entry) => entry.row.status)).toEqual(["posted"]);
    expect(deposits[0]!.event).toBe("journal");
    // Every change of the payment once, in the order its history has them.
    const payments = all.filter((entry) => entry.row.table === "payment" && entry.row.id === paymentId);
    const stored = await getPayment(t.core, paymentId);
    expect(payments).toHaveLength(stored!.version);
    const history = await paymentHistory(t.core, paymentId);
    const statusesInHistory = [...new Set(history.map((entry) => entry.status))];
    expect([...new Set(payments.map((entry) => entry.row.status))]).toEqual(statusesInHistory);
    expect(payments[0]!.row).toMatchObject({ change: "initiated", amount: "10.00", currency: "USD" });
    expect(payments[payments.length - 1]!.row.status).toBe(final);
    const times = payments.map((entry) => entry.row.at);
    expect([...times].sort()).toEqual(times);
    // The submission, once.
    const submissions = all.filter((entry) => entry.row.table === "kyc" && entry.row.id === submission.id);
    expect(submissions.map((entry) => entry.row.change)).toEqual(["submitted"]);
    expect(submissions[0]!.row).toMatchObject({ status: "pending", userId: payer.user.id });
    // Nothing twice at all.
    const keys = all.map((entry) => `${entry.row.table}:${entry.row.id}:${entry.row.at}:${entry.row.status}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("narrows to some tables, and rides the live stream as the ops scope for an administrator", async () => {
    const payments = await subscribe("/api/grpc/ops/stream?tables=payment", { token: adminToken });
    const live = await subscribe("/api/grpc/live/stream?scopes=ops,payment", { token: adminToken });
    const depositId = await postedDeposit("20.00");
    const paymentId = await pay("3.00");
    await payments.waitFor(() => rowsOf(payments).some((entry) => entry.row.id === paymentId));
    await live.waitFor(() => rowsOf(live, "ops.").some((entry) => entry.row.id === paymentId));
    await live.waitFor(() => rowsOf(live, "ops.").some((entry) => entry.row.id === depositId));
    expect(rowsOf(payments).every((entry) => entry.row.table === "payment")).toBe(true);
    expect(rowsOf(live, "ops.").find((entry) => entry.row.id === depositId)!.event).toBe("ops.journal");
    // The administrator's own payment scope carries only their own payments.
    expect(live.messages.filter((message) => message.event?.startsWith("payment."))).toEqual([]);
  });
});
