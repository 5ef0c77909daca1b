import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EventSourceMessage } from "eventsource-parser";
import { openStreamCount } from "@fintech/core/events/stream-leases";
import { createTestApp, nextTestAddress, fundedAccountPair, type TestApp } from "@fintech/testing/app";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";

/**
 * The browser's one live connection (GET /api/grpc/live/stream) and what every stream route holds
 * to: several feeds on one stream with one resume id, at most FEED_STREAMS_PER_USER open streams
 * per user whatever the credential, and an end once the credential is signed out or revoked
 * (re-checked every FEED_AUTH_RECHECK_MS, short here and waited for, never slept).
 */

interface Session {
  token: string;
  user: { id: string };
}
interface Payer extends Session {
  from: string;
  to: string;
}

let t: TestApp;
const open: SseStream[] = [];
const LIVE = "/api/grpc/live/stream";
const ALL_SCOPES = `${LIVE}?scopes=ledger,kyc,payment`;

beforeAll(async () => {
  t = await createTestApp({
    FEED_SETTLE_MS: "0",
    FEED_HEARTBEAT_MS: "200",
    FEED_POLL_MAX_MS: "100",
    FEED_AUTH_RECHECK_MS: "250",
  });
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await t.core.dispose();
});

let users = 0;
const newUser = (): Promise<Session> => t.signUp(`live-stream-${++users}@example.com`);

/** A user with two accounts and 500.00 posted into the first, so payments can be made. */
async function newPayer(): Promise<Payer> {
  const session = await newUser();
  return { ...session, ...(await fundedAccountPair(t, session.token)) };
}

async function deposit(payer: Payer, amount: string): Promise<string> {
  const reply = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token: payer.token,
    body: { account_id: payer.to, amount },
  });
  expect(reply.status).toBe(201);
  return reply.body.data.id as string;
}

async function pay(payer: Payer, amount: string): Promise<string> {
  const body = {
    userId: payer.user.id,
    fromAccountId: payer.from,
    toAccountId: payer.to,
    amount,
    currency: "USD",
    description: "live stream test",
  };
  const reply = await t.call("POST", "/v1/payments", { token: payer.token, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.payment.paymentId as string;
}

const kycCommand = (payer: Session, command: unknown) =>
  t.call("POST", "/api/grpc/kyc/command", { token: payer.token, body: { command } });

function connect(path: string, auth: { token?: string; ticket?: string; lastEventId?: string } = {}) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (auth.lastEventId) headers["Last-Event-ID"] = auth.lastEventId;
  const ticket = auth.ticket ? `${path.includes("?") ? "&" : "?"}ticket=${encodeURIComponent(auth.ticket)}` : "";
  return t.app.request(`${path}${ticket}`, { headers });
}

async function subscribe(path: string, auth: Parameters<typeof connect>[1]) {
  const response = await connect(path, auth);
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const stream = readSse(response.body!);
  open.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

async function ticketFor(token: string): Promise<string> {
  const issued = await t.call("POST", "/api/v1/auth/stream-ticket", { token });
  expect(issued.status).toBe(201);
  return issued.body.ticket as string;
}

async function apiKeyOf(session: Session, name: string): Promise<{ id: string; key: string }> {
  const reply = await t.call("POST", "/api/v1/api-keys", { token: session.token, body: { name } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; key: string };
}

/** The events of a stream other than the cursor moves. */
const delivered = (stream: SseStream) => stream.messages.filter((message) => message.event !== "cursor");
/** What tells one event from another: its name, commit time and what it is about. */
const identity = (message: EventSourceMessage) => {
  const data = JSON.parse(message.data) as {
    at?: string;
    transactionId?: string;
    paymentId?: string;
    accountId?: string;
    event?: Record<string, { documentType?: string }>;
  };
  const documentType = data.event ? Object.values(data.event)[0]?.documentType : undefined;
  return [message.event, data.at, data.transactionId ?? data.paymentId ?? documentType, data.accountId].join(" ");
};

describe("one stream for several feeds", () => {
  it("refuses missing, unknown and oversized scopes, and ids that are not its own, with a 400 before streaming", async () => {
    const me = await newUser();
    for (const query of [
      "",
      "?scopes=",
      "?scopes=ledger,weird",
      "?scopes=LEDGER",
      `?scopes=${Array(11).fill("ledger").join(",")}`,
    ]) {
      const reply = await connect(`${LIVE}${query}`, { token: me.token });
      expect(reply.status, query).toBe(400);
      expect(await reply.json()).toMatchObject({
        code: "validation_error",
        message: expect.stringContaining("scopes must list one or more of ledger, kyc, payment"),
      });
    }
    const stream = await subscribe(`${LIVE}?scopes=ledger,kyc`, { token: me.token });
    const id = stream.lastEventId()!;
    const [ledgerPart, kycPart] = id.split(",").map((part) => part.slice(part.indexOf("=") + 1));
    await stream.close();
    const single = await subscribe(`/api/grpc/ledger/stream`, { token: me.token });
    const singleId = single.lastEventId()!;
    await single.close();
    for (const forged of [
      singleId,
      `ledger=${kycPart}`,
      `ledger=${ledgerPart},ledger=${ledgerPart}`,
      `ledger=${ledgerPart},rails=${kycPart}`,
      `ledger=${ledgerPart},`,
      "x".repeat(40_000),
    ]) {
      const reply = await connect(`${LIVE}?scopes=ledger,kyc`, { token: me.token, lastEventId: forged });
      expect(reply.status, forged.slice(0, 40)).toBe(400);
      expect(await reply.json()).toMatchObject({ code: "invalid_event_id" });
    }
    // Another user's id: each part is bound to its owner's feed.
    const other = await newUser();
    expect((await connect(`${LIVE}?scopes=ledger,kyc`, { token: other.token, lastEventId: id })).status).toBe(400);
    expect((await connect(`${LIVE}?scopes=ledger&userId=${other.user.id}`, { token: me.token })).status).toBe(403);
  });

  it("delivers each scope's events as `<scope>.<event>`, and resumes every scope from its combined id without loss or repeats", async () => {
    const me = await newPayer();
    const stream = await subscribe(`${LIVE}?scopes=payment,ledger,kyc`, { token: me.token });
    expect(stream.lastEventId()).toMatch(/^ledger=[\w-]+\.[\w-]+,kyc=[\w-]+\.[\w-]+,payment=[\w-]+\.[\w-]+$/);

    const journal = await deposit(me, "7.00");
    const payment = await pay(me, "3.00");
    expect(
      (
        await kycCommand(me, {
          startVerification: { country: "IN", name: "Asha Rao", email: "asha@example.com", phone: "+919876543210" },
        })
      ).status,
    ).toBe(200);
    const created = await stream.waitFor(
      (message) => message.event === "ledger.transactionCreated" && JSON.parse(message.data).transactionId === journal,
    );
    expect(JSON.parse(created.data)).toMatchObject({ type: "transactionCreated", amount: "7.00" });
    const initiated = await stream.waitFor(
      (message) => message.event === "payment.paymentInitiated" && JSON.parse(message.data).paymentId === payment,
    );
    expect(JSON.parse(initiated.data)).toMatchObject({ type: "paymentInitiated", status: "pending" });
    const started = await stream.waitFor((message) => message.event === "kyc.verificationStarted");
    expect(JSON.parse(started.data)).toMatchObject({ type: "verificationStarted" });
    const resumeFrom = stream.lastEventId()!;
    const seen = new Set(delivered(stream).map(identity));
    await stream.close();

    const missedJournal = await deposit(me, "11.00");
    const missedPayment = await pay(me, "4.00");
    expect(
      (await kycCommand(me, { verifyDocument: { documentType: "aadhaar", documentNumber: "2341 2341 2346" } })).status,
    ).toBe(200);

    const resumed = await subscribe(`${LIVE}?scopes=ledger,kyc,payment`, { token: me.token, lastEventId: resumeFrom });
    await resumed.waitFor(
      (message) =>
        message.event === "ledger.transactionCreated" && JSON.parse(message.data).transactionId === missedJournal,
    );
    await resumed.waitFor(
      (message) => message.event === "payment.paymentInitiated" && JSON.parse(message.data).paymentId === missedPayment,
    );
    await resumed.waitFor((message) => message.event === "kyc.documentVerified");
    const replayed = delivered(resumed).map(identity);
    // Nothing delivered before the cut comes again, and nothing after it comes twice.
    expect(replayed.filter((key) => seen.has(key))).toEqual([]);
    expect(new Set(replayed).size).toBe(replayed.length);
    expect(replayed.every((key) => /^(ledger|kyc|payment)\./.test(key))).toBe(true);
    await resumed.close();
  });

  it("resumes the scopes it had and starts new ones from now when the set changes", async () => {
    const me = await newPayer();
    const stream = await subscribe(`${LIVE}?scopes=ledger,kyc`, { token: me.token });
    const resumeFrom = stream.lastEventId()!;
    await stream.close();

    const missedJournal = await deposit(me, "5.00");
    const beforePayment = await pay(me, "2.00");
    const changed = await subscribe(`${LIVE}?scopes=ledger,payment`, { token: me.token, lastEventId: resumeFrom });
    expect(changed.lastEventId()).toMatch(/^ledger=[^,]+,payment=[^,]+$/);
    await changed.waitFor(
      (message) =>
        message.event === "ledger.transactionCreated" && JSON.parse(message.data).transactionId === missedJournal,
    );
    const afterPayment = await pay(me, "1.00");
    await changed.waitFor(
      (message) => message.event === "payment.paymentInitiated" && JSON.parse(message.data).paymentId === afterPayment,
    );
    expect(
      changed.messages.some(
        (message) => message.event?.startsWith("payment.") && JSON.parse(message.data).paymentId === beforePayment,
      ),
    ).toBe(false);
    await changed.close();
  });
});

describe("at most five open streams per user", () => {
  it("refuses the sixth with 429 and Retry-After, whatever the credential; other users are unaffected; an ended stream frees its slot", async () => {
    const me = await newUser();
    const key = await apiKeyOf(me, "Streams");
    const streams = [
      await subscribe(ALL_SCOPES, { token: me.token }),
      await subscribe(`${LIVE}?scopes=ledger`, { ticket: await ticketFor(me.token) }),
      await subscribe("/api/grpc/ledger/stream", { token: key.key }),
      await subscribe("/api/grpc/kyc/stream", { ticket: await ticketFor(key.key) }),
      await subscribe("/v1/payments/stream", { token: me.token }),
    ];
    expect(await openStreamCount(t.core, me.user.id)).toBe(5);

    for (const sixth of [
      () => connect(ALL_SCOPES, { token: me.token }),
      () => connect("/api/grpc/payment/stream", { token: key.key }),
    ]) {
      const refused = await sixth();
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 90, `Retry-After ${retryAfter}`).toBe(
        true,
      );
      expect(await refused.json()).toEqual({ code: "too_many_streams", message: expect.stringContaining("at most 5") });
    }

    const other = await newUser();
    await (await subscribe(ALL_SCOPES, { token: other.token })).close();

    await streams[2]!.close();
    await vi.waitFor(async () => expect(await openStreamCount(t.core, me.user.id)).toBe(4));
    const again = await subscribe(`${LIVE}?scopes=kyc`, { token: me.token });
    await Promise.all([again, ...streams].map((stream) => stream.close()));
    await vi.waitFor(async () => expect(await openStreamCount(t.core, me.user.id)).toBe(0));
  });
});

describe("streams end when their credential does", () => {
  const endedUnauthorized = async (stream: SseStream, code: string) => {
    await stream.ended;
    const last = stream.messages.at(-1)!;
    expect(last.event).toBe("unauthorized");
    expect(JSON.parse(last.data)).toMatchObject({ code });
    expect(stream.comments).toContain("credential no longer valid: do not reconnect with it");
  };

  it("ends a revoked API key's streams (bearer and ticket) at the next re-check; another key's stream goes on", async () => {
    const me = await newPayer();
    const revoked = await apiKeyOf(me, "Revoked");
    const kept = await apiKeyOf(me, "Kept");
    const byKey = await subscribe(ALL_SCOPES, { token: revoked.key });
    const byTicket = await subscribe("/api/grpc/ledger/stream", { ticket: await ticketFor(revoked.key) });
    const other = await subscribe(`${LIVE}?scopes=ledger`, { token: kept.key });

    expect((await t.call("DELETE", `/api/v1/api-keys/${revoked.id}`, { token: me.token })).status).toBe(200);
    await Promise.all([endedUnauthorized(byKey, "invalid_api_key"), endedUnauthorized(byTicket, "invalid_api_key")]);
    // Once refused, the key opens nothing.
    expect((await connect(ALL_SCOPES, { token: revoked.key })).status).toBe(401);

    const journal = await deposit(me, "9.00");
    await other.waitFor(
      (message) => message.event === "ledger.transactionCreated" && JSON.parse(message.data).transactionId === journal,
    );
    await other.close();
    await vi.waitFor(async () => expect(await openStreamCount(t.core, me.user.id)).toBe(0));
  });

  it("ends a signed-out session's streams (bearer and ticket); the user's other session goes on", async () => {
    const me = await newUser();
    const login = await t.call("POST", "/api/v1/auth/login", {
      body: { email: `live-stream-${users}@example.com`, password: "long enough pw" },
      ip: nextTestAddress(),
    });
    expect(login.status).toBe(200);
    const laptop = login.body.data.token as string;
    const byToken = await subscribe(ALL_SCOPES, { token: laptop });
    const byTicket = await subscribe("/api/grpc/kyc/stream", { ticket: await ticketFor(laptop) });
    const phone = await subscribe(`${LIVE}?scopes=kyc`, { token: me.token });

    expect((await t.call("POST", "/api/v1/auth/logout", { token: laptop })).status).toBe(200);
    await Promise.all([endedUnauthorized(byToken, "invalid_token"), endedUnauthorized(byTicket, "invalid_token")]);

    // Still open: it goes on moving its resume point with each heartbeat.
    await phone.waitFor((message) => message.event === "cursor", phone.messages.length);
    await phone.close();
  });
});
