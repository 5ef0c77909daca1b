import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";

/**
 * Verification levels gate money (docs/trust-and-safety.md#verification-levels-and-money-limits)
 * and pay-by-email is no oracle (docs/trust-and-safety.md#no-oracles-rate-limits-on-money), through
 * the HTTP app: the deposit, batch, opening-balance and payment routes all ask the one gate
 * (limits/gate.ts); the limits are data an administrator edits; payment creation is rate limited.
 * The clock is the test's: rolling windows and the rate limit's minute move only when it does.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string; email: string } };
let t: TestApp;
let nowMs = Date.parse("2026-03-02T09:00:15.000Z");

/** A fresh administrator's session (the test moves the clock past a token's lifetime). */
async function adminToken(): Promise<string> {
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "root-limits@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  expect(login.status).toBe(200);
  return login.body.data.token as string;
}

const HOUR = 60 * 60 * 1000;

async function signUp(email: string): Promise<Session> {
  return t.signUp(email);
}

async function openAccount(token: string, name: string, extra: Record<string, unknown> = {}) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token,
    body: { name, currency: "USD", type: "bank", ...extra },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data as { id: string; name: string };
}

const deposit = (token: string, accountId: string, amount: string, key?: string) =>
  t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });

/** Sandbox money, posted: counted by no limit, so it funds payments without touching the deposit totals. */
async function fundWithTestBalance(token: string, accountId: string, amount: string) {
  const created = await t.call("POST", "/api/v1/ledger/transactions/test-balance", {
    token,
    body: { account_id: accountId, amount },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await t.call("POST", `/api/v1/ledger/transactions/${created.body.data.id}/post`, { token })).status).toBe(
    200,
  );
}

const setLevel = async (
  userId: string,
  level: "verified" | "unverified" | null,
  reason = "Checked by the test's compliance officer",
) =>
  t.call("PUT", `/api/v1/ledger/limits/users/${userId}/level`, { token: await adminToken(), body: { level, reason } });

/** The raw reply of a POST, for byte-for-byte comparisons. */
async function raw(path: string, token: string, body: unknown, key?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
  if (key) headers["Idempotency-Key"] = key;
  const response = await t.app.request(path, { method: "POST", headers, body: JSON.stringify(body) });
  return {
    status: response.status,
    text: await response.text(),
    replayed: response.headers.get("Idempotent-Replayed"),
  };
}

const limitsOf = async (token: string) => {
  const reply = await t.call("GET", "/api/v1/ledger/limits", { token });
  expect(reply.status).toBe(200);
  return reply.body.data as {
    level: string;
    source: string;
    next_step: { href: string } | null;
    limits: {
      movement: string;
      window: string;
      currency: string;
      allowed: boolean;
      limit: string | null;
      used: string;
      remaining: string | null;
    }[];
  };
};
const row = (limits: Awaited<ReturnType<typeof limitsOf>>, movement: string, window: string, currency = "USD") =>
  limits.limits.find((entry) => entry.movement === movement && entry.window === window && entry.currency === currency)!;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(nowMs) });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "root-limits@example.com", ADMIN_PASSWORD: "admin password 1" });
  // The sample rails are seeded on first read: before any "nothing changed" snapshot.
  expect((await t.call("GET", "/api/v1/rails", { token: await adminToken() })).status).toBe(200);
});
afterAll(async () => t.core.dispose());

describe("an unverified user", () => {
  let user: Session;
  let main: { id: string };

  beforeAll(async () => {
    user = await signUp("newcomer@example.com");
    main = await openAccount(user.token, "Main");
  });

  it("is refused a $90,000 self-deposit (422 limit_exceeded naming the limit) and nothing is written", async () => {
    const before = await dataItems(t.core);
    for (const amount of ["90000.00", "5000000"]) {
      const reply = await deposit(user.token, main.id, amount);
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual({
        code: "limit_exceeded",
        message:
          "This would pass your unverified limit of 1,000.00 USD in deposits per 24 hours: 1,000.00 USD remains. Complete verification at /kyc to raise it.",
      });
    }
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("deposits up to the limit, no further, and the window rolls on", async () => {
    expect((await deposit(user.token, main.id, "600.00")).status).toBe(201);
    expect((await deposit(user.token, main.id, "400.00")).status).toBe(201);
    const over = await deposit(user.token, main.id, "0.01");
    expect(over.status).toBe(422);
    expect(over.body.message).toContain("0.00 USD remains");

    const limits = await limitsOf(user.token);
    expect(limits).toMatchObject({ level: "unverified", source: "kyc", next_step: { href: "/kyc" } });
    expect(row(limits, "deposit", "day")).toMatchObject({
      allowed: true,
      limit: "1000.00",
      used: "1000.00",
      remaining: "0.00",
    });
    expect(row(limits, "deposit", "month")).toMatchObject({ limit: "5000.00", used: "1000.00", remaining: "4000.00" });
    expect(row(limits, "outgoing", "day")).toMatchObject({ allowed: false, limit: null, remaining: null });

    // A bucket counts while any of it is inside the window: after 25 hours, certainly out.
    nowMs += 25 * HOUR;
    // A new sign-in: the first session's lifetime (24 hours) is over.
    const login = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "newcomer@example.com", password: "long enough pw" },
      ip: nextTestAddress(),
    });
    user = login.body.data as Session;
    expect((await deposit(user.token, main.id, "1000.00")).status).toBe(201);
    expect(row(await limitsOf(user.token), "deposit", "month")).toMatchObject({
      used: "2000.00",
      remaining: "3000.00",
    });
  });

  it("cannot pay anyone else (403 kyc_required), by email or to a beneficiary, but may pay between own accounts", async () => {
    const other = await openAccount(user.token, "Other");
    await fundWithTestBalance(user.token, main.id, "500.00");
    const payment = {
      userId: user.user.id,
      fromAccountId: main.id,
      amount: "10.00",
      currency: "USD",
      forceRail: "ACH",
    };
    for (const payee of [
      { toEmail: "root-limits@example.com" },
      { toEmail: "nobody-at-all@example.com" },
      { beneficiary: { name: "Outside Ltd", accountNumber: "GB29NWBK60161331926819", country: "GB" } },
    ]) {
      const reply = await t.call("POST", "/v1/payments", { token: user.token, body: { ...payment, ...payee } });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({
        code: "kyc_required",
        message:
          "Your identity is not verified yet, so payments to other people and outside accounts are not available. Complete verification at /kyc to unlock them.",
      });
    }
    const command = await t.call("POST", "/api/grpc/payment/command", {
      token: user.token,
      body: { command: { initiatePayment: { ...payment, toEmail: "root-limits@example.com" } } },
    });
    expect(command.status).toBe(403);
    expect(command.body).toMatchObject({ message: "Payment command failed", code: "kyc_required" });
    const own = await t.call("POST", "/v1/payments", {
      token: user.token,
      body: { ...payment, toAccountId: other.id },
    });
    expect(own.status).toBe(201);
  });

  it("cannot open an account with an opening balance over the limit: no account is created", async () => {
    const fresh = await signUp("opener@example.com");
    const before = await dataItems(t.core);
    const reply = await t.call("POST", "/api/v1/ledger/accounts", {
      token: fresh.token,
      body: { name: "Big start", currency: "USD", type: "bank", initial_balance: "1500.00" },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe("limit_exceeded");
    expect(await dataItems(t.core)).toEqual(before);
    const within = await t.call("POST", "/api/v1/ledger/accounts", {
      token: fresh.token,
      body: { name: "Small start", currency: "USD", type: "bank", initial_balance: "800.00" },
    });
    expect(within.status).toBe(201);
    expect(row(await limitsOf(fresh.token), "deposit", "day")).toMatchObject({ used: "800.00", remaining: "200.00" });
  });

  it("is refused a batch whose deposits pass the limit, naming the item, and nothing is written", async () => {
    const fresh = await signUp("batcher@example.com");
    const a = await openAccount(fresh.token, "A");
    const b = await openAccount(fresh.token, "B");
    const before = await dataItems(t.core);
    const reply = await t.call("POST", "/api/v1/ledger/transactions/batch", {
      token: fresh.token,
      body: {
        items: [
          { type: "deposit", account_id: a.id, amount: "600.00" },
          { type: "deposit", account_id: b.id, amount: "600.00" },
        ],
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: "limit_exceeded", index: 1 });
    expect(reply.body.message).toContain("400.00 USD remains");
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("racing deposits cannot pass the limit together: exactly as many as fit are taken", async () => {
    const racer = await signUp("racer@example.com");
    const account = await openAccount(racer.token, "Race");
    const replies = await Promise.all(Array.from({ length: 6 }, () => deposit(racer.token, account.id, "300.00")));
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(3);
    expect(replies.filter((reply) => reply.status !== 201).map((reply) => reply.body.code)).toEqual([
      "limit_exceeded",
      "limit_exceeded",
      "limit_exceeded",
    ]);
    expect(row(await limitsOf(racer.token), "deposit", "day")).toMatchObject({ used: "900.00", remaining: "100.00" });
  });

  it("a keyed deposit refused for the limit stays refused under its key, byte for byte, after the user is verified", async () => {
    const keyed = await signUp("keyed@example.com");
    const account = await openAccount(keyed.token, "Keyed");
    const path = "/api/v1/ledger/transactions/deposit";
    const body = { account_id: account.id, amount: "2000.00" };
    const first = await raw(path, keyed.token, body, "limit-key-1");
    expect(first.status).toBe(422);
    expect((await setLevel(keyed.user.id, "verified")).status).toBe(200);
    expect(await raw(path, keyed.token, body, "limit-key-1")).toEqual({
      status: 422,
      text: first.text,
      replayed: "true",
    });
    expect((await raw(path, keyed.token, body, "limit-key-2")).status).toBe(201);
  });
});

describe("a verified user", () => {
  let user: Session;
  let main: { id: string };

  beforeAll(async () => {
    user = await signUp("verified@example.com");
    main = await openAccount(user.token, "Main");
    const set = await setLevel(user.user.id, "verified");
    expect(set.status).toBe(200);
    expect(set.body.data.status).toMatchObject({ level: "verified", source: "manual", next_step: null });
  });

  it("deposits within the verified limit, and is refused beyond it with the limit named", async () => {
    expect((await deposit(user.token, main.id, "40000.00")).status).toBe(201);
    expect((await deposit(user.token, main.id, "10000.00")).status).toBe(201);
    const over = await deposit(user.token, main.id, "0.01");
    expect(over.status).toBe(422);
    expect(over.body).toEqual({
      code: "limit_exceeded",
      message:
        "This would pass your verified limit of 50,000.00 USD in deposits per 24 hours: 0.00 USD remains. It frees up as earlier deposits leave the 24-hour window.",
    });
  });

  it("pays others within the verified limit, and is refused beyond it", async () => {
    const payer = await signUp("verified-payer@example.com");
    expect((await setLevel(payer.user.id, "verified")).status).toBe(200);
    const account = await openAccount(payer.token, "Payer main");
    await fundWithTestBalance(payer.token, account.id, "60000.00");
    const pay = (amount: string) =>
      t.call("POST", "/v1/payments", {
        token: payer.token,
        body: {
          userId: payer.user.id,
          fromAccountId: account.id,
          amount,
          currency: "USD",
          forceRail: "SWIFT",
          beneficiary: { name: "Outside Ltd", accountNumber: "GB29NWBK60161331926819", country: "GB" },
        },
      });
    expect((await pay("9000.00")).status).toBe(201);
    expect((await pay("9000.00")).status).toBe(201);
    expect((await pay("7000.00")).status).toBe(201);
    const over = await pay("1.00");
    expect(over.status).toBe(422);
    expect(over.body.code).toBe("limit_exceeded");
    expect(over.body.message).toContain("25,000.00 USD in payments to other people and outside accounts per 24 hours");
    expect(row(await limitsOf(payer.token), "outgoing", "day")).toMatchObject({
      allowed: true,
      used: "25000.00",
      remaining: "0.00",
    });
  });
});

describe("the limits are data an administrator edits", () => {
  it("shows the seeded defaults, saves an edit with who and when, and applies it to the next request", async () => {
    const admin = { token: await adminToken() };
    const settings = await t.call("GET", "/api/v1/ledger/limits/settings", { token: admin.token });
    expect(settings.status).toBe(200);
    expect(settings.body.data).toMatchObject({
      version: 0,
      updated_by: null,
      unverified: { outgoing: null, deposit: { day: { USD: "1000.00", JPY: "150000" } } },
    });

    const { version: _version, updated_at: _at, updated_by: _by, history: _history, ...table } = settings.body.data;
    const edit = {
      ...table,
      version: 0,
      unverified: {
        ...table.unverified,
        deposit: { ...table.unverified.deposit, day: { ...table.unverified.deposit.day, USD: "200" } },
      },
    };
    const saved = await t.call("PUT", "/api/v1/ledger/limits/settings", { token: admin.token, body: edit });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      version: 1,
      updated_by: { email: "root-limits@example.com" },
      unverified: { deposit: { day: { USD: "200.00" } } },
    });
    expect(saved.body.data.history[0]).toMatchObject({
      version: 1,
      by: { email: "root-limits@example.com" },
      before: { unverified: { deposit: { day: { USD: "1000.00" } } } },
      after: { unverified: { deposit: { day: { USD: "200.00" } } } },
    });

    const fresh = await signUp("after-edit@example.com");
    const account = await openAccount(fresh.token, "Edited");
    const refused = await deposit(fresh.token, account.id, "250.00");
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain("200.00 USD in deposits per 24 hours");

    // A stale version is not overwritten; bad tables are refused with the field named; users may not edit.
    expect(
      (await t.call("PUT", "/api/v1/ledger/limits/settings", { token: admin.token, body: edit })).body,
    ).toMatchObject({ code: "limits_changed" });
    const badDay = {
      ...edit,
      version: 1,
      verified: {
        ...table.verified,
        deposit: { ...table.verified.deposit, day: { ...table.verified.deposit.day, EUR: "300000" } },
      },
    };
    expect((await t.call("PUT", "/api/v1/ledger/limits/settings", { token: admin.token, body: badDay })).body).toEqual({
      code: "validation_error",
      message:
        "verified.deposit.day.EUR cannot be more than verified.deposit.month.EUR: 30 days hold every 24 hours in them",
    });
    const missing = {
      ...edit,
      version: 1,
      verified: { ...table.verified, outgoing: { ...table.verified.outgoing, day: { USD: "1" } } },
    };
    const missingReply = await t.call("PUT", "/api/v1/ledger/limits/settings", { token: admin.token, body: missing });
    expect(missingReply.status).toBe(400);
    expect(missingReply.body.message).toMatch(/^verified\.outgoing\.day\.(EUR|GBP|JPY): /);
    const lower = {
      ...edit,
      version: 1,
      verified: {
        ...table.verified,
        deposit: { ...table.verified.deposit, day: { ...table.verified.deposit.day, GBP: "10" } },
      },
    };
    expect(
      (await t.call("PUT", "/api/v1/ledger/limits/settings", { token: admin.token, body: lower })).body.message,
    ).toBe("verified.deposit.day.GBP cannot be lower than unverified.deposit.day.GBP: verifying never lowers a limit");
    for (const body of [null, [], { version: 1 }, { ...edit, version: 1, extra: true }, { ...edit, version: -1 }]) {
      expect((await t.call("PUT", "/api/v1/ledger/limits/settings", { token: admin.token, body })).status).toBe(400);
    }
    expect((await t.call("PUT", "/api/v1/ledger/limits/settings", { token: fresh.token, body: edit })).status).toBe(
      403,
    );
    expect((await t.call("GET", "/api/v1/ledger/limits/settings", { token: fresh.token })).status).toBe(403);

    // Back to the defaults for the rest of the file.
    const restored = await t.call("PUT", "/api/v1/ledger/limits/settings", {
      token: admin.token,
      body: { ...table, version: 1 },
    });
    expect(restored.body.data).toMatchObject({ version: 2, unverified: { deposit: { day: { USD: "1000.00" } } } });
  });

  it("sets and removes a user's level with a reason, audited; refuses unknown users and missing reasons", async () => {
    const admin = { token: await adminToken() };
    const user = await signUp("level@example.com");
    expect((await setLevel("00000000-0000-0000-0000-000000000000", "verified")).status).toBe(404);
    expect((await setLevel("x".repeat(3000), "verified")).status).toBe(404);
    expect((await setLevel(user.user.id, "verified", "")).body).toMatchObject({
      code: "validation_error",
      message: "reason must be 1 to 500 characters",
    });
    expect(
      (
        await t.call("PUT", `/api/v1/ledger/limits/users/${user.user.id}/level`, {
          token: user.token,
          body: { level: "verified", reason: "me" },
        })
      ).status,
    ).toBe(403);

    expect((await setLevel(user.user.id, "verified", "Verified by phone")).body.data.status.level).toBe("verified");
    const back = await setLevel(user.user.id, null, "Back to the KYC state");
    expect(back.status).toBe(200);
    expect(back.body.data.status).toMatchObject({ level: "unverified", source: "kyc" });
    expect(back.body.data.history).toMatchObject([
      {
        seq: 2,
        level: null,
        previous: "verified",
        reason: "Back to the KYC state",
        by: { email: "root-limits@example.com" },
      },
      { seq: 1, level: "verified", previous: null, reason: "Verified by phone" },
    ]);
    const view = await t.call("GET", `/api/v1/ledger/limits/users/${user.user.id}`, { token: admin.token });
    expect(view.body.data).toMatchObject({
      user_id: user.user.id,
      email: "level@example.com",
      status: { level: "unverified" },
    });
  });
});

describe("pay-by-email is not an oracle", () => {
  let payer: Session;
  let empty: { id: string };
  let funded: { id: string };
  let unverified: Session;
  let unverifiedFunded: { id: string };
  const UNKNOWN = "nobody-registered@example.com";
  const REGISTERED = "receiver@example.com";
  const REGISTERED_NO_USD = "euro-only@example.com";

  beforeAll(async () => {
    payer = await signUp("oracle-payer@example.com");
    expect((await setLevel(payer.user.id, "verified")).status).toBe(200);
    empty = await openAccount(payer.token, "Empty");
    funded = await openAccount(payer.token, "Funded");
    await fundWithTestBalance(payer.token, funded.id, "1000.00");
    const receiver = await signUp(REGISTERED);
    await openAccount(receiver.token, "Receiver USD");
    const euroOnly = await signUp(REGISTERED_NO_USD);
    await openAccount(euroOnly.token, "Euro", { currency: "EUR" });
    unverified = await signUp("oracle-unverified@example.com");
    unverifiedFunded = await openAccount(unverified.token, "Unverified funded");
    await fundWithTestBalance(unverified.token, unverifiedFunded.id, "1000.00");
  });

  const body = (who: Session, from: { id: string }, toEmail: string, extra: Record<string, unknown> = {}) => ({
    userId: who.user.id,
    fromAccountId: from.id,
    amount: "25.00",
    currency: "USD",
    forceRail: "ACH",
    toEmail,
    ...extra,
  });
  const rest = (who: Session, payload: unknown) => raw("/v1/payments", who.token, payload);
  const command = (who: Session, payload: unknown) =>
    raw("/api/grpc/payment/command", who.token, { command: { initiatePayment: payload } });

  /** Two replies that must not tell the payees apart: same status, same body, byte for byte. */
  async function same(
    a: Promise<{ status: number; text: string }>,
    b: Promise<{ status: number; text: string }>,
    status: number,
    code: string,
  ) {
    const [first, second] = [await a, await b];
    expect(first).toEqual(second);
    expect(first.status).toBe(status);
    expect(JSON.parse(first.text).code).toBe(code);
  }

  it("from an unfunded account: the same 422 insufficient_funds for registered, unregistered and unknown addresses (REST and stream)", async () => {
    for (const send of [rest, command]) {
      await same(
        send(payer, body(payer, empty, REGISTERED)),
        send(payer, body(payer, empty, UNKNOWN)),
        422,
        "insufficient_funds",
      );
      await same(
        send(payer, body(payer, empty, REGISTERED_NO_USD)),
        send(payer, body(payer, empty, UNKNOWN)),
        422,
        "insufficient_funds",
      );
    }
  });

  it("from an unverified payer's funded account: the same 403 kyc_required whoever the payee is", async () => {
    for (const send of [rest, command]) {
      await same(
        send(unverified, body(unverified, unverifiedFunded, REGISTERED)),
        send(unverified, body(unverified, unverifiedFunded, UNKNOWN)),
        403,
        "kyc_required",
      );
    }
  });

  it("with a bad forceRail: the same 422 whoever the payee is", async () => {
    for (const send of [rest, command]) {
      await same(
        send(payer, body(payer, funded, REGISTERED, { forceRail: "Pigeon" })),
        send(payer, body(payer, funded, UNKNOWN, { forceRail: "Pigeon" })),
        422,
        "rail_not_available",
      );
    }
  });

  it("from a funded, verified account: a registered user who cannot receive and an unknown address get one and the same refusal", async () => {
    for (const send of [rest, command]) {
      await same(
        send(payer, body(payer, funded, REGISTERED_NO_USD)),
        send(payer, body(payer, funded, UNKNOWN)),
        422,
        "payee_cannot_receive",
      );
    }
  });
});

describe("payment creation is rate limited per user", () => {
  it("answers the 21st payment in a minute with 429 and Retry-After, REST and stream command counted together", async () => {
    const user = await signUp("burst@example.com");
    const a = await openAccount(user.token, "Burst A");
    const b = await openAccount(user.token, "Burst B");
    await fundWithTestBalance(user.token, a.id, "1000.00");
    // 15 s into a minute: the window has 45 s left.
    nowMs = Math.ceil(nowMs / 60_000) * 60_000 + 15_000;
    const payment = {
      userId: user.user.id,
      fromAccountId: a.id,
      toAccountId: b.id,
      amount: "1.00",
      currency: "USD",
      forceRail: "ACH",
    };
    for (let index = 0; index < 20; index += 1) {
      const reply =
        index % 2 === 0
          ? await t.call("POST", "/v1/payments", { token: user.token, body: payment })
          : await t.call("POST", "/api/grpc/payment/command", {
              token: user.token,
              body: { command: { initiatePayment: payment } },
            });
      expect(reply.status, `payment ${index + 1}`).toBe(index % 2 === 0 ? 201 : 200);
    }
    const limited = await t.call("POST", "/v1/payments", { token: user.token, body: payment });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("45");
    expect(limited.body).toEqual({
      code: "rate_limited",
      message: "Too many payments: at most 20 a minute. Try again in 45 s.",
    });
    const viaCommand = await t.call("POST", "/api/grpc/payment/command", {
      token: user.token,
      body: { command: { initiatePayment: payment } },
    });
    expect(viaCommand.status).toBe(429);
    expect(viaCommand.headers.get("Retry-After")).toBe("45");
    // Another user is not held back by this one.
    const other = await signUp("calm@example.com");
    const otherAccount = await openAccount(other.token, "Calm");
    expect(
      (
        await t.call("POST", "/v1/payments", {
          token: other.token,
          body: { ...payment, userId: other.user.id, fromAccountId: otherAccount.id, toAccountId: a.id },
        })
      ).status,
    ).toBe(404);

    nowMs += 45_000;
    expect((await t.call("POST", "/v1/payments", { token: user.token, body: payment })).status).toBe(201);
  });
});
