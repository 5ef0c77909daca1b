import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { CURRENCIES } from "@fintech/core/money/model";
import { MAX_STEP_FAILURES, PAYMENT_MESSAGES } from "@fintech/core/payments/model";
import { withFailingSteps } from "@fintech/testing/payments";
import { verifyForTests } from "@fintech/testing/limits";
import { runPaymentStep } from "@fintech/core/payments/runner";
import { advancePayment } from "@fintech/core/payments/worker";

/**
 * POST/GET /v1/payments through the HTTP app: validation and authorisation (nothing written on a
 * refusal), the payee's privacy in every reply the payer gets (payment, ledger transaction
 * views), idempotent creation, the list's filter and cursors. The lifecycle itself is driven by
 * calling the worker directly with a controlled clock (no timers).
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let nowMs = Date.parse("2026-03-02T09:00:00.000Z");
let payer: { token: string; user: { id: string; email: string } };
let payee: { token: string; user: { id: string; email: string } };
let stranger: { token: string; user: { id: string; email: string } };
let checking: { id: string };
let savings: { id: string };
let payeeAccount: { id: string; account_number: string };

async function openAccount(token: string, name: string, currency = "USD") {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency, type: "bank" } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string; account_number: string };
}

async function fund(token: string, accountId: string, amount: string) {
  const created = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect(created.status).toBe(201);
  const posted = await t.call("POST", `/api/v1/ledger/transactions/${created.body.data.id}/post`, { token });
  expect(posted.status).toBe(200);
}

const pay = (body: Record<string, unknown>, options: { token?: string; key?: string } = {}) =>
  t.call("POST", "/v1/payments", {
    token: options.token ?? payer.token,
    body: {
      userId: payer.user.id,
      fromAccountId: checking.id,
      amount: "25.00",
      currency: "USD",
      forceRail: "Card",
      ...body,
    },
    ...(options.key ? { headers: { "Idempotency-Key": options.key } } : {}),
  });

async function finish(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(t.core, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

const available = async (token: string, accountId: string) =>
  (await t.call("GET", `/api/v1/ledger/accounts/${accountId}/balance`, { token })).body.data.available as string;

beforeAll(async () => {
  // Many payments by one payer within the controlled clock's minute: the rate limit has tests of its own.
  t = await createTestApp({ PAYMENT_RATE_LIMIT_PER_MINUTE: "1000" }, { clock: () => new Date(nowMs) });
  payer = await t.signUp("payer@example.com", { first_name: "Pay", last_name: "Er" });
  payee = await t.signUp("payee@example.com", { first_name: "Pay", last_name: "Ee" });
  stranger = await t.signUp("stranger@example.com");
  // Paying others takes a verified payer: the limits have tests of their own (limits.test.ts).
  await verifyForTests(t.core, payer.user.id);
  checking = await openAccount(payer.token, "Checking");
  savings = await openAccount(payer.token, "Savings");
  payeeAccount = await openAccount(payee.token, "Payee main");
  await fund(payer.token, checking.id, "1000.00");
  await fund(payee.token, payeeAccount.id, "50.00");
  // The sample rails are seeded on first read: before the "nothing changed" snapshots.
  expect((await t.call("GET", "/api/v1/rails", { token: payer.token })).status).toBe(200);
});
afterAll(async () => t.core.dispose());

describe("POST /v1/payments", () => {
  it("refuses bad requests with a clear error and writes nothing", async () => {
    const before = await dataItems(t.core);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: "-1", toAccountId: savings.id }, 400, "Amount must be greater than 0"],
      [{ amount: "1.001", toAccountId: savings.id }, 400, "USD amounts can have at most 2 decimal places"],
      [
        { toAccountId: savings.id, toEmail: "payee@example.com" },
        400,
        "Give exactly one payee: toAccountId, toEmail or beneficiary",
      ],
      [{}, 400, "Give exactly one payee: toAccountId, toEmail or beneficiary"],
      [{ toAccountId: "x".repeat(3000) }, 400, "Account ids are 1 to 64 letters, digits or dashes"],
      [{ fromAccountId: "../etc", toAccountId: savings.id }, 400, "Account ids are 1 to 64 letters, digits or dashes"],
      [{ toEmail: "not-an-email" }, 400, "toEmail must be an email address (at most 254 characters)"],
      [
        { beneficiary: { name: "Bob", accountNumber: "12", country: "DE" } },
        400,
        "beneficiary.accountNumber must be 4 to 34 letters or digits",
      ],
      [
        { beneficiary: { name: "Bob", accountNumber: "DE89370400440532013000", country: "Germany" } },
        400,
        "beneficiary.country must be an ISO 3166-1 alpha-2 country code (e.g. DE)",
      ],
      [
        { beneficiary: { name: "Bob", accountNumber: "0532013000", country: "ZZ" } },
        400,
        "beneficiary.country must be an ISO 3166-1 alpha-2 country code (e.g. DE)",
      ],
      [{ description: "x".repeat(501), toAccountId: savings.id }, 400, "description must be at most 500 characters"],
      [
        { currency: "XYZ", toAccountId: savings.id },
        400,
        `Currency must be one of ${Object.keys(CURRENCIES).join(", ")}`,
      ],
      [{ userId: stranger.user.id, toAccountId: savings.id }, 403, "userId must be your own user id"],
      [{ toAccountId: payeeAccount.id }, 404, "Account not found"],
      [{ fromAccountId: payeeAccount.id, toAccountId: savings.id }, 404, "Account not found"],
      [{ toAccountId: checking.id }, 400, "The payee account must differ from the paying account"],
      [
        { toEmail: "nobody@example.com" },
        422,
        "No user with this email address can receive USD payments here (they need an active USD account)",
      ],
      [
        { toEmail: "stranger@example.com" },
        422,
        "No user with this email address can receive USD payments here (they need an active USD account)",
      ],
      [{ toEmail: "payer@example.com" }, 422, "To pay yourself, use toAccountId with one of your own accounts"],
      [{ toAccountId: savings.id, amount: "5000" }, 422, "Insufficient available balance in Checking"],
      [{ toAccountId: savings.id, forceRail: "Pigeon" }, 422, ""],
    ];
    for (const [body, status, message] of cases) {
      const reply = await pay(body);
      expect([reply.status, reply.body.message], JSON.stringify(body).slice(0, 120)).toEqual([
        status,
        message || reply.body.message,
      ]);
    }
    const badJson = await t.call("POST", "/v1/payments", { token: payer.token, body: "{not json" });
    expect(badJson.status).toBe(400);
    const badKey = await pay({ toAccountId: savings.id }, { key: "x".repeat(300) });
    expect(badKey.status).toBe(400);
    const anonymous = await t.call("POST", "/v1/payments", { body: { userId: payer.user.id } });
    expect(anonymous.status).toBe(401);
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("pays another user by email without telling the payer their account id or balance, in any reply", async () => {
    const created = await pay({ toEmail: "Payee@Example.com", description: "Lunch" }, { key: "privacy-1" });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Payment initiated");
    const payment = created.body.payment;
    expect(payment).toMatchObject({
      status: "pending",
      userId: payer.user.id,
      amount: "25.00",
      currency: "USD",
      selectedRail: "Card",
      payee: { kind: "user", email: "payee@example.com" },
      journalId: payment.paymentId,
    });
    // The hold: amount + fee are no longer available.
    expect(await available(payer.token, checking.id)).toBe(((100_000 - 2_500 - payment.feeMinor) / 100).toFixed(2));
    await finish(payment.paymentId);

    const replies = [
      created,
      await t.call("GET", `/v1/payments/${payment.paymentId}`, { token: payer.token }),
      await t.call("GET", "/v1/payments", { token: payer.token }),
      await t.call("GET", `/api/v1/ledger/transactions/${payment.journalId}`, { token: payer.token }),
      await t.call("GET", "/api/v1/ledger/transactions/history", { token: payer.token }),
      await t.call("GET", `/api/v1/ledger/accounts/${checking.id}/transactions`, { token: payer.token }),
      await t.call("GET", "/api/v1/ledger/transactions/export", { token: payer.token }),
      await t.call("GET", "/api/v1/ledger/trial-balance", { token: payer.token }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(200 + (reply === created ? 1 : 0));
      const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      expect(text).not.toContain(payeeAccount.id);
      expect(text).not.toContain(payeeAccount.account_number);
      expect(text).not.toContain("Payee main");
      expect(text).not.toContain("75.00");
    }
    const detail = replies[3]!.body.data;
    expect(detail.status).toBe("posted");
    expect(
      detail.entries.find(
        (entry: { side: string; owned: boolean; account_id: string }) =>
          entry.side === "debit" && !entry.owned && entry.account_id === "redacted",
      ),
    ).toBeTruthy();
    expect(detail.to_account_id).toBe("redacted");

    // The payee sees their own leg, never the payer's account.
    const payeeView = await t.call("GET", `/api/v1/ledger/accounts/${payeeAccount.id}/transactions`, {
      token: payee.token,
    });
    const received = payeeView.body.data.find((journal: { id: string }) => journal.id === payment.journalId);
    expect(
      received.entries.find((entry: { account_id: string }) => entry.account_id === payeeAccount.id),
    ).toMatchObject({ owned: true, debit: "25.00" });
    expect(JSON.stringify(payeeView.body)).not.toContain(checking.id);
    expect(await available(payee.token, payeeAccount.id)).toBe("75.00");
    const payeeTrial = await t.call("GET", "/api/v1/ledger/trial-balance", { token: payee.token });
    expect(payeeTrial.body.data?.is_balanced ?? payeeTrial.body.is_balanced).toBe(true);
    expect(JSON.stringify(payeeTrial.body)).not.toContain(checking.id);
  });

  it("an Idempotency-Key replays the first reply byte for byte; another body under it is a 422", async () => {
    const first = await pay({ toAccountId: savings.id, amount: "3.00" }, { key: "idem-http" });
    const again = await pay({ toAccountId: savings.id, amount: "3.00" }, { key: "idem-http" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    const other = await pay({ toAccountId: savings.id, amount: "4.00" }, { key: "idem-http" });
    expect([other.status, other.body.code]).toEqual([422, "idempotency_key_reused"]);
  });

  it("a keyed payment refused for insufficient funds stays refused under its key, even after funds arrive", async () => {
    const poor = await openAccount(payer.token, "Nearly empty");
    const attempt = () =>
      pay({ fromAccountId: poor.id, toAccountId: savings.id, amount: "40.00" }, { key: "refused-once" });
    const refused = await attempt();
    expect([refused.status, refused.body.code]).toEqual([422, "insufficient_funds"]);
    await fund(payer.token, poor.id, "100.00");
    const retried = await attempt();
    expect(retried.status).toBe(422);
    expect(retried.headers.get("Idempotent-Replayed")).toBe("true");
    expect(JSON.stringify(retried.body)).toBe(JSON.stringify(refused.body));
    // A new key is a new decision: now the funds are there.
    const fresh = await pay(
      { fromAccountId: poor.id, toAccountId: savings.id, amount: "40.00" },
      { key: "refused-once-2" },
    );
    expect(fresh.status).toBe(201);
  });

  it("the hold cannot be posted or unposted by hand through the ledger", async () => {
    const created = await pay({ toAccountId: savings.id, amount: "1.00" });
    const post = await t.call("POST", `/api/v1/ledger/transactions/${created.body.payment.journalId}/post`, {
      token: payer.token,
    });
    expect([post.status, post.body.code]).toEqual([409, "payment_hold"]);
  });

  it("an external beneficiary's payment goes to the clearing account; the reply shows only the last 4 digits", async () => {
    const created = await pay({
      beneficiary: {
        name: "ACME GmbH",
        accountNumber: "DE89370400440532013000",
        bankCode: "COBADEFFXXX",
        country: "de",
      },
      amount: "10.00",
    });
    expect(created.status).toBe(201);
    expect(created.body.payment.payee).toEqual({
      kind: "external",
      name: "ACME GmbH",
      accountLast4: "3000",
      country: "DE",
    });
    expect(JSON.stringify(created.body)).not.toContain("DE89370400440532013000");
    const journal = await t.call("GET", `/api/v1/ledger/transactions/${created.body.payment.journalId}`, {
      token: payer.token,
    });
    expect(journal.body.data.entries.map((entry: { account_id: string }) => entry.account_id)).toContain(
      "sys-clearing-usd",
    );
  });
});

describe("GET /v1/payments", () => {
  it("another user's payment is the same 404 as an unknown one", async () => {
    const created = await pay({ toAccountId: savings.id, amount: "2.00" });
    const id = created.body.payment.paymentId as string;
    const mine = await t.call("GET", `/v1/payments/${id}`, { token: payer.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.attempts).toEqual([]);
    expect(mine.body.data.routing.chosenRail).toBe("Card");
    const theirs = await t.call("GET", `/v1/payments/${id}`, { token: stranger.token });
    const unknown = await t.call("GET", "/v1/payments/00000000-0000-4000-8000-000000000000", { token: payer.token });
    const junk = await t.call("GET", `/v1/payments/${"x".repeat(3000)}`, { token: payer.token });
    for (const reply of [theirs, unknown, junk])
      expect([reply.status, reply.body.message]).toEqual([404, "Payment not found"]);
  });

  it("lists the caller's payments newest first, by status, with signed cursors bound to the filter", async () => {
    const all = await t.call("GET", "/v1/payments?limit=2", { token: payer.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(2);
    expect(all.body.data[0].createdAt >= all.body.data[1].createdAt).toBe(true);
    const next = await t.call(
      "GET",
      `/v1/payments?limit=2&cursor=${encodeURIComponent(all.body.pagination.next_cursor)}`,
      { token: payer.token },
    );
    expect(next.status).toBe(200);
    expect(next.body.data.map((payment: { paymentId: string }) => payment.paymentId)).not.toContain(
      all.body.data[0].paymentId,
    );
    const completed = await t.call("GET", "/v1/payments?status=COMPLETED", { token: payer.token });
    expect(completed.body.data.length).toBeGreaterThan(0);
    expect(completed.body.data.every((payment: { status: string }) => payment.status === "completed")).toBe(true);
    const crossFilter = await t.call(
      "GET",
      `/v1/payments?status=pending&cursor=${encodeURIComponent(all.body.pagination.next_cursor)}`,
      { token: payer.token },
    );
    expect([crossFilter.status, crossFilter.body.code]).toEqual([400, "invalid_cursor"]);
    const stolen = await t.call(
      "GET",
      `/v1/payments?limit=2&cursor=${encodeURIComponent(all.body.pagination.next_cursor)}`,
      { token: stranger.token },
    );
    expect(stolen.status).toBe(400);
    for (const query of ["limit=0", "limit=101", "limit=abc", "status=lost"])
      expect((await t.call("GET", `/v1/payments?${query}`, { token: payer.token })).status).toBe(400);
    const strangers = await t.call("GET", "/v1/payments", { token: stranger.token });
    expect(strangers.body).toEqual({ data: [], pagination: { next_cursor: null } });
  });
});

describe("payments parked for review", () => {
  let adminToken: string;
  let parkedId: string;

  beforeAll(async () => {
    await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "payments-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
    const login = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "payments-admin@example.com", password: "admin password 1" },
      ip: nextTestAddress(),
    });
    adminToken = login.body.data.token;
    // A payment whose every step throws: the drivers' runs retry it, then park it.
    const failing = new Set<string>();
    const driver = withFailingSteps(t.core, failing);
    const created = await pay({ toAccountId: savings.id, amount: "12.00" });
    parkedId = created.body.payment.paymentId;
    failing.add(parkedId);
    for (let run = await runPaymentStep(driver, parkedId); run.runAt; run = await runPaymentStep(driver, parkedId))
      nowMs = Math.max(nowMs, Date.parse(run.runAt));
  });

  it("the payer sees the status parked and the reason, in the payment, the list and its filter; the hold is released", async () => {
    const reply = await t.call("GET", `/v1/payments/${parkedId}`, { token: payer.token });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      status: "parked",
      failureReason: PAYMENT_MESSAGES.parked(MAX_STEP_FAILURES),
      completedAt: null,
    });
    const journal = await t.call("GET", `/api/v1/ledger/transactions/${reply.body.data.journalId}`, {
      token: payer.token,
    });
    expect(journal.body.data.status).toBe("voided");
    const parked = await t.call("GET", "/v1/payments?status=PARKED", { token: payer.token });
    expect(parked.body.data.map((payment: { paymentId: string }) => payment.paymentId)).toEqual([parkedId]);
    // Nobody else learns about it.
    expect((await t.call("GET", `/v1/payments/${parkedId}`, { token: stranger.token })).status).toBe(404);
  });

  it("admins list parked payments with the cause; users may not", async () => {
    const refused = await t.call("GET", "/v1/payments/parked", { token: payer.token });
    expect([refused.status, refused.body.code]).toEqual([403, "admin_required"]);
    const list = await t.call("GET", "/v1/payments/parked?limit=10", { token: adminToken });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        paymentId: parkedId,
        userId: payer.user.id,
        status: "parked",
        amount: "12.00",
        stuckStatus: "pending",
        stepFailures: MAX_STEP_FAILURES,
        reason: PAYMENT_MESSAGES.parked(MAX_STEP_FAILURES),
        closedAt: null,
      }),
    ]);
    expect(list.body.data[0].lastError).toContain("Injected");
    for (const query of ["limit=0", "limit=101", "cursor=forged"])
      expect((await t.call("GET", `/v1/payments/parked?${query}`, { token: adminToken })).status).toBe(400);
  });

  it("an admin closes one with a note: the payer's payment ends failed; bad requests change nothing", async () => {
    const completed = (await t.call("GET", "/v1/payments?status=completed&limit=1", { token: payer.token })).body
      .data[0].paymentId as string;
    const before = await dataItems(t.core);
    const cases: [string, string, unknown, number, string][] = [
      [payer.token, parkedId, { note: "mine" }, 403, "admin_required"],
      [adminToken, parkedId, {}, 400, "validation_error"],
      [adminToken, parkedId, { note: "x".repeat(501) }, 400, "validation_error"],
      [adminToken, parkedId, { note: "ok", extra: 1 }, 400, "validation_error"],
      [adminToken, "00000000-0000-4000-8000-000000000000", { note: "ok" }, 404, "payment_not_found"],
      [adminToken, "x".repeat(3000), { note: "ok" }, 404, "payment_not_found"],
      [adminToken, completed, { note: "ok" }, 409, "payment_not_parked"],
    ];
    for (const [token, id, body, status, code] of cases) {
      const reply = await t.call("POST", `/v1/payments/${id}/close`, { token, body });
      expect([reply.status, reply.body.code], `${status} ${code}`).toEqual([status, code]);
    }
    expect(await dataItems(t.core)).toEqual(before);

    const closed = await t.call("POST", `/v1/payments/${parkedId}/close`, {
      token: adminToken,
      body: { note: "Store fixed; payer told to resend" },
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      message: "Payment closed",
      data: {
        paymentId: parkedId,
        status: "failed",
        closedBy: "payments-admin@example.com",
        note: "Store fixed; payer told to resend",
      },
    });
    const mine = await t.call("GET", `/v1/payments/${parkedId}`, { token: payer.token });
    expect(mine.body.data.status).toBe("failed");
    expect(mine.body.data.failureReason).toContain(PAYMENT_MESSAGES.closedAfterReview);
    const again = await t.call("POST", `/v1/payments/${parkedId}/close`, {
      token: adminToken,
      body: { note: "twice" },
    });
    expect([again.status, again.body.code]).toEqual([409, "payment_not_parked"]);
  });
});
