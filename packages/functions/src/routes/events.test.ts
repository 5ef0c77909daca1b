import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EventSourceMessage } from "eventsource-parser";
import { EVENT_ID_PATTERN, eventId } from "@fintech/core/events/event-id";
import { listEvents as listCoreEvents } from "@fintech/core/webhooks/events";
import type { PlatformEvent } from "@fintech/core/webhooks/model";
import { createTestApp, nextTestAddress, fundedAccountPair, type TestApp } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";

/**
 * Stable event ids on the wire and the events list (docs/webhooks.md#event-ids,
 * docs/webhooks.md#the-events-list): the same event has the same `id` on every SSE connection
 * (a feed's own stream and the multiplexed live stream) and in GET /api/v1/events; the list pages
 * by id without loss or repeats, filters by type, lists only the caller's own events and asks an
 * API key for the read scope of each feed it touches.
 */

interface Session {
  token: string;
  user: { id: string };
}
interface Payer extends Session {
  from: string;
  to: string;
}

const ADMIN = { email: "events-admin@example.com", password: "admin password 1" };
let t: TestApp;
const open: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp({ FEED_SETTLE_MS: "0", FEED_HEARTBEAT_MS: "200", FEED_POLL_MAX_MS: "100" });
  await seedAdminFromEnv(t.core, {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_FIRST_NAME: "Ada",
    ADMIN_LAST_NAME: "Admin",
  });
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await t.core.dispose();
});

let users = 0;
const newUser = (): Promise<Session> => t.signUp(`events-list-${++users}@example.com`);

/** A user with two accounts and 500.00 posted into the first. */
async function newPayer(): Promise<Payer> {
  const session = await newUser();
  return { ...session, ...(await fundedAccountPair(t, session.token)) };
}

async function transfer(payer: Payer, amount: string): Promise<string> {
  const reply = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
    token: payer.token,
    body: { from_account_id: payer.from, to_account_id: payer.to, amount, currency: "USD", description: "ids" },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data.id as string;
}

async function pay(payer: Payer, amount: string): Promise<string> {
  const body = {
    userId: payer.user.id,
    fromAccountId: payer.from,
    toAccountId: payer.to,
    amount,
    currency: "USD",
    description: "event ids",
  };
  const reply = await t.call("POST", "/v1/payments", { token: payer.token, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.payment.paymentId as string;
}

async function startVerification(session: Session): Promise<void> {
  const command = {
    startVerification: { country: "IN", name: "Asha Rao", email: "asha@example.com", phone: "+919876543210" },
  };
  const reply = await t.call("POST", "/api/grpc/kyc/command", { token: session.token, body: { command } });
  expect(reply.status).toBe(200);
}

async function subscribe(path: string, token: string): Promise<SseStream> {
  const response = await t.app.request(path, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  const stream = readSse(response.body!);
  open.push(stream);
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

const dataOf = (message: EventSourceMessage) => JSON.parse(message.data) as Record<string, unknown>;

const listEvents = (token: string, query = "") => t.call("GET", `/api/v1/events${query}`, { token });

/** Every event the caller's list holds now, page by page with `after`. */
async function listAll(token: string, query: string, limit: number): Promise<PlatformEvent[]> {
  const events: PlatformEvent[] = [];
  let after: string | null = null;
  for (let page = 0; page < 100; page++) {
    const separator = query ? "&" : "?";
    const reply = await listEvents(token, `${query}${separator}limit=${limit}${after ? `&after=${after}` : ""}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const body = reply.body as { data: PlatformEvent[]; has_more: boolean; next_after: string | null };
    expect(body.data.length).toBeLessThanOrEqual(limit);
    events.push(...body.data);
    if (!body.has_more) return events;
    after = body.next_after;
  }
  throw new Error("the list never ended");
}

describe("one id per event, on every connection and in the list", () => {
  it("gives a ledger transfer, a KYC event and a payment event the same id on their own stream, the live stream and GET /api/v1/events", async () => {
    const me = await newPayer();
    const ledger = await subscribe("/api/grpc/ledger/stream", me.token);
    const kyc = await subscribe("/api/grpc/kyc/stream", me.token);
    const payments = await subscribe("/v1/payments/stream", me.token);
    const live = await subscribe("/api/grpc/live/stream?scopes=ledger,kyc,payment", me.token);

    const journal = await transfer(me, "12.00");
    const payment = await pay(me, "3.00");
    await startVerification(me);

    const pairs: [string, EventSourceMessage, EventSourceMessage][] = [];
    const isJournal = (message: EventSourceMessage) => dataOf(message).transactionId === journal;
    pairs.push([
      "ledger.transactionCreated",
      await ledger.waitFor((message) => message.event === "transactionCreated" && isJournal(message)),
      await live.waitFor((message) => message.event === "ledger.transactionCreated" && isJournal(message)),
    ]);
    const isPayment = (message: EventSourceMessage) => dataOf(message).paymentId === payment;
    pairs.push([
      "payment.paymentInitiated",
      await payments.waitFor((message) => message.event === "paymentInitiated" && isPayment(message)),
      await live.waitFor((message) => message.event === "payment.paymentInitiated" && isPayment(message)),
    ]);
    pairs.push([
      "kyc.verificationStarted",
      await kyc.waitFor((message) => message.event === "verificationStarted"),
      await live.waitFor((message) => message.event === "kyc.verificationStarted"),
    ]);

    for (const [type, single, multiplexed] of pairs) {
      const one = dataOf(single);
      const other = dataOf(multiplexed);
      expect(one.id, type).toMatch(EVENT_ID_PATTERN);
      expect(other.id, type).toBe(one.id);
      expect(other.created_at, type).toBe(one.created_at);
      expect(one.created_at, type).toBe(one.at);
      // The SSE `id:` stays each connection's own resume cursor.
      expect(single.id, type).not.toBe(one.id);
      expect(multiplexed.id, type).not.toBe(single.id);
    }

    await vi.waitFor(
      async () => {
        const listed = await listAll(me.token, "", 100);
        for (const [type, single] of pairs) {
          const data = dataOf(single);
          const event = listed.find((candidate) => candidate.id === data.id);
          expect(event, type).toEqual({ id: data.id, type, created_at: data.created_at, data });
        }
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe("GET /api/v1/events", () => {
  it("pages with `after` oldest first, losing and repeating nothing, at every page size", async () => {
    const me = await newPayer();
    await transfer(me, "1.00");
    await transfer(me, "2.00");
    await pay(me, "3.00");
    await startVerification(me);
    await vi.waitFor(
      async () => {
        const all = await listAll(me.token, "", 100);
        expect(all.some((event) => event.type === "kyc.verificationStarted")).toBe(true);
        expect(all.some((event) => event.type === "payment.paymentInitiated")).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    const all = await listAll(me.token, "", 100);
    expect(all.length).toBeGreaterThan(8);
    const ids = all.map((event) => event.id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const limit of [1, 3, 7]) expect((await listAll(me.token, "", limit)).map((event) => event.id)).toEqual(ids);

    // From the middle: exactly what follows.
    const middle = ids[4]!;
    const rest = await listAll(me.token, `?after=${middle}`, 100);
    expect(rest.map((event) => event.id)).toEqual(ids.slice(5));

    // The last page says so, and hands back an `after` to poll from.
    const last = await listEvents(me.token, `?after=${ids[ids.length - 1]}`);
    expect(last.body).toEqual({ data: [], has_more: false, next_after: ids[ids.length - 1] });
    const first = await listEvents(me.token, "?limit=1");
    expect(first.body).toMatchObject({ data: [{ id: ids[0] }], has_more: true, next_after: ids[0] });

    // An `after` older than the window starts at the window: everything of the last 30 days.
    const long = eventId("ledger", "old", 1, 0, Date.now() - 40 * 24 * 3_600_000);
    expect((await listAll(me.token, `?after=${long}`, 100)).map((event) => event.id)).toEqual(ids);
  });

  it("reaches back 30 days: older events are no longer listed", async () => {
    const me = await newPayer();
    const journal = await transfer(me, "8.00");
    const day = 24 * 3_600_000;
    const listedAt = (offsetMs: number) =>
      listCoreEvents({ ...t.core, clock: () => new Date(Date.now() + offsetMs) }, me.user.id, {
        types: [],
        limit: 100,
      });
    await vi.waitFor(
      async () => {
        const page = await listedAt(0);
        expect(page.data.some((event) => event.data.transactionId === journal)).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    const now = await listedAt(0);
    expect((await listedAt(29 * day)).data).toEqual(now.data);
    expect(await listedAt(31 * day)).toEqual({ data: [], has_more: false, next_after: null });
  });

  it("filters by type, repeated or comma-separated, and by `<feed>.*`", async () => {
    const me = await newPayer();
    await transfer(me, "4.00");
    await pay(me, "5.00");
    await startVerification(me);
    await vi.waitFor(
      async () => {
        const kyc = await listAll(me.token, "?type=kyc.*", 100);
        expect(kyc.map((event) => event.type)).toContain("kyc.verificationStarted");
        expect((await listAll(me.token, "?type=payment.*", 100)).length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    const all = await listAll(me.token, "", 100);
    const payments = await listAll(me.token, "?type=payment.*", 100);
    expect(payments.map((event) => event.id)).toEqual(
      all.filter((event) => event.type.startsWith("payment.")).map((event) => event.id),
    );
    const mixed = await listAll(me.token, "?type=ledger.balanceUpdate,kyc.*", 100);
    expect(new Set(mixed.map((event) => event.type))).toEqual(
      new Set(["ledger.balanceUpdate", "kyc.verificationStarted"]),
    );
    const repeated = await listAll(me.token, "?type=ledger.balanceUpdate&type=kyc.*", 100);
    expect(repeated).toEqual(mixed);
  });

  it("refuses unknown types, malformed `after` and limits outside 1-100 with a 400 naming the problem", async () => {
    const me = await newUser();
    for (const type of ["ledger", "ledger.nope", "*", "ops.*", "ledger.*x", "LEDGER.*", "x".repeat(500)]) {
      const reply = await listEvents(me.token, `?type=${encodeURIComponent(type)}`);
      expect(reply.status, type).toBe(400);
      expect(reply.body.code, type).toBe("invalid_event_type");
      expect(reply.body.message, type).toContain(type.slice(0, 64));
    }
    const many = Array.from({ length: 51 }, () => "type=ledger.*").join("&");
    expect((await listEvents(me.token, `?${many}`)).body.code).toBe("invalid_event_type");
    const good = eventId("ledger", "s", 0, 0, Date.now());
    for (const after of ["", "abc", "evt_", good.toUpperCase(), `${good}0`, "x".repeat(10_000)]) {
      const reply = await listEvents(me.token, `?after=${encodeURIComponent(after)}`);
      expect(reply.status, after.slice(0, 40)).toBe(400);
      expect(reply.body.code).toBe("invalid_after");
    }
    for (const limit of ["0", "101", "-1", "1.5", "abc", "", "1e2", "0100"]) {
      const reply = await listEvents(me.token, `?limit=${limit}`);
      expect(reply.status, limit).toBe(400);
      expect(reply.body).toMatchObject({
        code: "validation_error",
        message: "limit must be a whole number from 1 to 100",
      });
    }
    for (const limit of ["1", "100"]) expect((await listEvents(me.token, `?limit=${limit}`)).status).toBe(200);
  });

  it("lists only the caller's own events, administrators included, and only for a valid credential", async () => {
    const me = await newPayer();
    await transfer(me, "6.00");
    const other = await newPayer();
    await transfer(other, "7.00");
    await vi.waitFor(
      async () => {
        expect((await listAll(me.token, "", 100)).length).toBeGreaterThan(0);
        expect((await listAll(other.token, "", 100)).length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    const mine = new Set((await listAll(me.token, "", 100)).map((event) => event.id));
    const theirs = await listAll(other.token, "", 100);
    expect(theirs.filter((event) => mine.has(event.id))).toEqual([]);
    expect(JSON.stringify(theirs)).not.toContain(me.from);

    const login = await t.call("POST", "/api/v1/auth/login", { body: ADMIN, ip: nextTestAddress() });
    expect(login.status).toBe(200);
    const admin = await listAll(login.body.data.token as string, "", 100);
    expect(admin.filter((event) => mine.has(event.id))).toEqual([]);
    // No way to ask for someone else's: an unknown parameter changes nothing.
    const asked = await listEvents(login.body.data.token as string, `?userId=${me.user.id}&limit=100`);
    expect((asked.body.data as PlatformEvent[]).filter((event) => mine.has(event.id))).toEqual([]);

    expect((await t.call("GET", "/api/v1/events")).status).toBe(401);
    expect((await listEvents("forged-token")).status).toBe(401);
  });

  it("asks an API key for the read scope of every feed it lists", async () => {
    const me = await newPayer();
    await pay(me, "2.00");
    const created = await t.call("POST", "/api/v1/api-keys", {
      token: me.token,
      body: { name: "payments only", scopes: ["payments:read"] },
    });
    expect(created.status).toBe(201);
    const key = created.body.data.key as string;
    await vi.waitFor(
      async () => {
        const reply = await listEvents(key, "?type=payment.*");
        expect(reply.status).toBe(200);
        expect((reply.body.data as PlatformEvent[]).map((event) => event.type)).toContain("payment.paymentInitiated");
      },
      { timeout: 10_000, interval: 100 },
    );
    expect((await listEvents(key, "?type=payment.paymentCompleted")).status).toBe(200);
    for (const query of ["", "?type=ledger.*", "?type=payment.*,kyc.verificationStarted"]) {
      const refused = await listEvents(key, query);
      expect(refused.status, query).toBe(403);
      expect(refused.body.code, query).toBe("insufficient_scope");
    }
  });
});
