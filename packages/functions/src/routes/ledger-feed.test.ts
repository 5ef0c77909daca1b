import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { readSse, type SseStream } from "../../../../infra/local/sse-client";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { createApp } from "../app";

/** The ledger stream and commands over HTTP: auth, wire format, resume, filters, controls. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let me: { token: string; user: { id: string } };
let other: { token: string; user: { id: string } };
let adminToken: string;
/** The test's clock runs with the real one plus an offset a test can move (ticket expiry). */
let clockOffsetMs = 0;
const open: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp(
    // A short heartbeat: waited for, not timed.
    { FEED_SETTLE_MS: "0", FEED_HEARTBEAT_MS: "200", FEED_POLL_MAX_MS: "100", FEED_RETRY_MS: "1500" },
    { clock: () => new Date(Date.now() + clockOffsetMs) },
  );
  me = await t.signUp("streamer@example.com");
  other = await t.signUp("other-streamer@example.com");
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "root@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
});
afterAll(async () => {
  await Promise.all(open.map((stream) => stream.close()));
  await t.core.dispose();
});

async function connect(
  query: string,
  auth: { token?: string; ticket?: string; lastEventId?: string } = { token: me.token },
  app = t.app,
) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  if (auth.lastEventId) headers["Last-Event-ID"] = auth.lastEventId;
  const ticket = auth.ticket ? `&ticket=${encodeURIComponent(auth.ticket)}` : "";
  return app.request(`/api/grpc/ledger/stream?${query}${ticket}`, { headers });
}

async function subscribe(query: string, auth?: Parameters<typeof connect>[1], app = t.app) {
  const response = await connect(query, auth, app);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const stream = readSse(response.body!);
  open.push(stream);
  // The first frame (retry + the starting cursor) means the subscription is live.
  await stream.waitFor((message) => message.event === "cursor");
  return stream;
}

async function openAccount(name: string, token = me.token, extra: Record<string, unknown> = {}) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency: "USD", ...extra } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function depositInto(accountId: string, amount: string, token = me.token) {
  const reply = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

const command = (body: unknown, token = me.token, headers: Record<string, string> = {}) =>
  t.call("POST", "/api/grpc/ledger/command", { token, body, headers });

describe("who may watch", () => {
  it("refuses no token (401), another user's feed (403), and a session token passed as a ticket (401)", async () => {
    expect((await connect(`userId=${me.user.id}`, {})).status).toBe(401);
    const forbidden = await connect(`userId=${other.user.id}`);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: "forbidden" });
    expect((await connect(`userId=${me.user.id}`, { ticket: me.token })).status).toBe(401);
    expect((await connect(`userId=${me.user.id}`, { token: "not-a-token" })).status).toBe(401);
  });

  it("opens with a stream ticket, which is not a bearer token and expires", async () => {
    const issued = await t.call("POST", "/api/v1/auth/stream-ticket", { token: me.token });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ expires_in: 60 });
    const ticket = issued.body.ticket as string;
    expect((await t.call("GET", "/api/v1/ledger/accounts", { token: ticket })).status).toBe(401);
    const stream = await subscribe(`userId=${me.user.id}`, { ticket });
    await stream.close();
    expect((await t.call("POST", "/api/v1/auth/stream-ticket", {})).status).toBe(401);
    clockOffsetMs = 61_000;
    try {
      const expired = await connect(`userId=${me.user.id}`, { ticket });
      expect(expired.status).toBe(401);
      expect(await expired.json()).toMatchObject({ code: "invalid_ticket" });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("lets an admin watch any user's feed", async () => {
    const stream = await subscribe(`userId=${other.user.id}`, { token: adminToken });
    const account = await openAccount("Watched", other.token);
    await depositInto(account.id, "5", other.token);
    const update = await stream.waitFor((message) => message.event === "balanceUpdate");
    expect(JSON.parse(update.data)).toMatchObject({
      accountId: account.id,
      changeType: "CREDIT",
      changeAmount: "5.00",
    });
    await stream.close();
  });

  it("refuses bad filters and a forged Last-Event-ID before streaming", async () => {
    for (const query of [
      `userId=${me.user.id}&statusFilter=weird`,
      `userId=${me.user.id}&accountIds=${"x".repeat(80)}`,
      `userId=${me.user.id}&includeTransactions=maybe`,
    ]) {
      expect((await connect(query)).status).toBe(400);
    }
    const forged = await connect(`userId=${me.user.id}`, { token: me.token, lastEventId: "eyJwIjoiIn0.AAAA" });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "invalid_event_id" });
  });
});

describe("the wire", () => {
  it("sends retry, heartbeats, and ends cleanly; a reconnect with Last-Event-ID gets exactly what it missed", async () => {
    const account = await openAccount("Wire");
    // The same app over the same table, with streams that end after a second.
    const shortLived = createApp({ ...t.core, config: { ...t.core.config, FEED_MAX_SECONDS: 1 } });
    const stream = await subscribe(`userId=${me.user.id}`, { token: me.token }, shortLived);
    expect(stream.retry).toBe(1500);
    await stream.ended; // FEED_MAX_SECONDS: the server closed it
    expect(stream.comments.some((comment) => comment.startsWith("end of stream"))).toBe(true);
    const resumeFrom = stream.lastEventId()!;
    expect(resumeFrom).toBeTruthy();

    const live = await subscribe(`userId=${me.user.id}`);
    await depositInto(account.id, "10");
    const first = await live.waitFor((message) => message.event === "transactionCreated");
    expect(first.id).toBeTruthy();
    await live.waitForComment((comment) => comment === "heartbeat");
    await live.close();

    // Committed while no one listened.
    const missed = await depositInto(account.id, "20");
    const resumed = await subscribe(`userId=${me.user.id}`, { token: me.token, lastEventId: resumeFrom });
    const created = await resumed.waitFor(
      (message) => message.event === "transactionCreated" && JSON.parse(message.data).transactionId === missed.id,
    );
    expect(JSON.parse(created.data)).toMatchObject({ amount: "20.00", status: "draft" });
    // Both deposits were committed after the resume point, in order, once each.
    const createdIds = () =>
      resumed.messages
        .filter((message) => message.event === "transactionCreated")
        .map((message) => JSON.parse(message.data).transactionId);
    expect(createdIds()).toEqual([JSON.parse(first.data).transactionId, missed.id]);

    // The query form of the resume point works the same (for clients that cannot set headers).
    const byQuery = await subscribe(`userId=${me.user.id}&lastEventId=${encodeURIComponent(resumeFrom)}`);
    const again = await byQuery.waitFor((message) => message.event === "transactionCreated");
    expect(JSON.parse(again.data).transactionId).toBe(JSON.parse(first.data).transactionId);
    await Promise.all([resumed.close(), byQuery.close()]);
  });

  it("honours a subscription's filters: accounts, statuses, transactions or not", async () => {
    const a = await openAccount("Filter A");
    const b = await openAccount("Filter B");
    const onlyB = await subscribe(`userId=${me.user.id}&accountIds=${b.id}&includeTransactions=false`);
    const postedOnly = await subscribe(`userId=${me.user.id}&statusFilter=POSTED`);
    await depositInto(a.id, "1");
    const draft = await depositInto(b.id, "2");
    expect((await t.call("POST", `/api/v1/ledger/transactions/${draft.id}/post`, { token: me.token })).status).toBe(
      200,
    );

    await onlyB.waitFor(
      (message) => message.event === "balanceUpdate" && JSON.parse(message.data).operation === "post",
    );
    const kinds = onlyB.messages.filter((message) => message.event !== "cursor");
    expect(
      kinds.every((message) => message.event === "balanceUpdate" && JSON.parse(message.data).accountId === b.id),
    ).toBe(true);

    const posted = await postedOnly.waitFor((message) => message.event === "transactionStatusUpdate");
    expect(JSON.parse(posted.data)).toMatchObject({
      transactionId: draft.id,
      status: "posted",
      message: "Transaction posted",
    });
    expect(postedOnly.messages.some((message) => message.event === "transactionCreated")).toBe(false);
    await Promise.all([onlyB.close(), postedOnly.close()]);
  });
});

describe("commands", () => {
  it("getBalance, createTransaction (idempotent), reconcileAccount and the subscribe URLs", async () => {
    const account = await openAccount("Commands", me.token, { initial_balance: "100" });
    const stream = await subscribe(`userId=${me.user.id}&accountIds=${account.id}`);

    const balance = await command({ command: { getBalance: { accountId: account.id } } });
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({
      command: "getBalance",
      result: { account_id: account.id, balance: "0.00", currency: "USD" },
    });

    const key = { "Idempotency-Key": "command-deposit-1" };
    const created = await command(
      { command: { createTransaction: { type: "deposit", account_id: account.id, amount: "7.50" } } },
      me.token,
      key,
    );
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ type: "deposit", amount: "7.50", status: "draft", replayed: false });
    const replay = await command(
      { command: { createTransaction: { type: "deposit", account_id: account.id, amount: "7.50" } } },
      me.token,
      key,
    );
    expect(replay.body.result).toMatchObject({ id: created.body.result.id, replayed: true });

    const reconciled = await command({
      command: { reconcileAccount: { accountId: account.id, expectedBalance: 0, currency: "USD" } },
    });
    expect(reconciled.body.result).toMatchObject({ reconciled: true, variance: "0.00" });
    const off = await command({
      command: { reconcileAccount: { accountId: account.id, expectedBalance: "12.34", currency: "USD" } },
    });
    expect(off.body.result).toMatchObject({ reconciled: false, variance: "12.34", ledgerBalance: "0.00" });
    const result = await stream.waitFor(
      (message) => message.event === "reconciliationResult" && JSON.parse(message.data).reconciled === false,
    );
    expect(JSON.parse(result.data)).toMatchObject({ accountId: account.id, variance: "12.34" });

    const sub = await command({
      command: { subscribeToAccount: { accountId: account.id, userId: me.user.id, includeTransactions: false } },
    });
    expect(sub.body.result.streamUrl).toBe(
      `/api/grpc/ledger/stream?userId=${me.user.id}&accountIds=${account.id}&includeTransactions=false`,
    );
    const subTx = await command({
      command: { subscribeToTransactions: { userId: me.user.id, accountIds: [account.id], statusFilter: ["draft"] } },
    });
    expect(subTx.body.result.streamUrl).toBe(
      `/api/grpc/ledger/stream?userId=${me.user.id}&accountIds=${account.id}&statusFilter=draft`,
    );
    await stream.close();
  });

  it("answers 'Ledger command failed' with the reason, as a 4xx", async () => {
    const account = await openAccount("Failing");
    const cases: [unknown, number, string][] = [
      [{ command: { getBalance: { accountId: "no-such-account" } } }, 404, "Account not found"],
      [{ command: { teleport: {} } }, 400, "Unknown command teleport"],
      [{ command: {} }, 400, "Send exactly one command"],
      [{ nope: true }, 400, "Body must be"],
      [{ command: { reconcileAccount: { accountId: account.id, expectedBalance: "abc" } } }, 400, "expectedBalance"],
      [
        { command: { reconcileAccount: { accountId: account.id, expectedBalance: "1", currency: "EUR" } } },
        400,
        "does not match",
      ],
      [
        {
          command: {
            createTransaction: {
              type: "transfer",
              from_account_id: account.id,
              to_account_id: account.id,
              amount: "1",
            },
          },
        },
        400,
        "must differ",
      ],
      [{ command: { subscribeToAccount: { accountId: account.id, userId: other.user.id } } }, 403, "your own feed"],
    ];
    for (const [body, status, reason] of cases) {
      const reply = await command(body);
      expect(reply.status, JSON.stringify(body)).toBe(status);
      expect(reply.body.message).toBe("Ledger command failed");
      expect(reply.body.reason).toContain(reason);
    }
    expect((await command({ command: { getBalance: { accountId: account.id } } }, other.token)).status).toBe(404);
    expect(
      (
        await t.call("POST", "/api/grpc/ledger/command", {
          body: { command: { getBalance: { accountId: account.id } } },
        })
      ).status,
    ).toBe(401);
  });
});

describe("account controls", () => {
  it("a locked account refuses money out with 423 and its reason, still receives, and is announced", async () => {
    const source = await openAccount("Lockable", me.token, { initial_balance: "50" });
    const target = await openAccount("Target");
    const opening = (await t.call("GET", `/api/v1/ledger/accounts/${source.id}/transactions`, { token: me.token })).body
      .data[0];
    await t.call("POST", `/api/v1/ledger/transactions/${opening.id}/post`, { token: me.token });
    const stream = await subscribe(`userId=${me.user.id}`);

    expect(
      (await t.call("POST", `/api/v1/ledger/accounts/${source.id}/lock`, { token: me.token, body: { reason: "x" } }))
        .status,
    ).toBe(403);
    expect(
      (await t.call("POST", `/api/v1/ledger/accounts/${source.id}/lock`, { token: adminToken, body: {} })).status,
    ).toBe(400);
    const locked = await t.call("POST", `/api/v1/ledger/accounts/${source.id}/lock`, {
      token: adminToken,
      body: { reason: "Card reported stolen" },
    });
    expect(locked.status).toBe(200);
    expect(locked.body.data).toMatchObject({ status: "LOCKED", lock_reason: "Card reported stolen" });
    expect(
      (
        await t.call("POST", `/api/v1/ledger/accounts/${source.id}/lock`, {
          token: adminToken,
          body: { reason: "again" },
        })
      ).status,
    ).toBe(409);
    const seen = await stream.waitFor((message) => message.event === "accountLocked");
    expect(JSON.parse(seen.data)).toMatchObject({
      accountId: source.id,
      reason: "Card reported stolen",
      accountName: "Lockable",
    });

    const refused = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
      token: me.token,
      body: { from_account_id: source.id, to_account_id: target.id, amount: "5" },
    });
    expect(refused.status).toBe(423);
    expect(refused.body).toMatchObject({ code: "account_locked", message: "Account is locked: Card reported stolen" });
    expect(
      (
        await t.call("POST", "/api/v1/ledger/transactions/deposit", {
          token: me.token,
          body: { account_id: source.id, amount: "5" },
        })
      ).status,
    ).toBe(201);
    const mine = (await t.call("GET", "/api/v1/ledger/accounts", { token: me.token })).body.data.find(
      (account: { id: string }) => account.id === source.id,
    );
    expect(mine).toMatchObject({ status: "LOCKED", lock_reason: "Card reported stolen" });

    expect(
      (
        await t.call("POST", `/api/v1/ledger/accounts/${source.id}/unlock`, {
          token: adminToken,
          body: { reason: "Card found" },
        })
      ).body.data,
    ).toMatchObject({ status: "ACTIVE", lock_reason: null });
    expect(
      (
        await t.call("POST", "/api/v1/ledger/transactions/transfer", {
          token: me.token,
          body: { from_account_id: source.id, to_account_id: target.id, amount: "5" },
        })
      ).status,
    ).toBe(201);
    await stream.close();
  });

  it("the owner sets a low-balance threshold, which raises lowBalanceAlert at once", async () => {
    const account = await openAccount("Thresholds", me.token, { initial_balance: "30" });
    const opening = (await t.call("GET", `/api/v1/ledger/accounts/${account.id}/transactions`, { token: me.token }))
      .body.data[0];
    await t.call("POST", `/api/v1/ledger/transactions/${opening.id}/post`, { token: me.token });
    const target = await openAccount("Sink");
    expect(
      (
        await t.call("PATCH", `/api/v1/ledger/accounts/${account.id}`, {
          token: other.token,
          body: { low_balance_threshold: "25" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.call("PATCH", `/api/v1/ledger/accounts/${account.id}`, {
          token: me.token,
          body: { low_balance_threshold: "abc" },
        })
      ).status,
    ).toBe(400);
    const set = await t.call("PATCH", `/api/v1/ledger/accounts/${account.id}`, {
      token: me.token,
      body: { low_balance_threshold: "25" },
    });
    expect(set.body.data).toMatchObject({ low_balance_threshold: "25.00" });
    const stream = await subscribe(`userId=${me.user.id}&accountIds=${account.id}`);
    await t.call("POST", "/api/v1/ledger/transactions/transfer", {
      token: me.token,
      body: { from_account_id: account.id, to_account_id: target.id, amount: "10" },
    });
    const alert = await stream.waitFor((message) => message.event === "lowBalanceAlert");
    expect(JSON.parse(alert.data)).toMatchObject({
      accountId: account.id,
      currentBalance: "20.00",
      threshold: "25.00",
    });
    const cleared = await t.call("PATCH", `/api/v1/ledger/accounts/${account.id}`, {
      token: me.token,
      body: { low_balance_threshold: null },
    });
    expect(cleared.body.data.low_balance_threshold).toBeNull();
    await stream.close();
  });
});
