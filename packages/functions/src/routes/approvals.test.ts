import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { APPROVAL_MESSAGES } from "@fintech/core/approvals/model";
import { allowMoneyForTests } from "@fintech/testing/limits";
import { paymentIdFor } from "@fintech/core/payments/service";
import { advancePayment, attemptOutcome } from "@fintech/core/payments/worker";
import { getRail } from "@fintech/core/rails/store";

/**
 * Sanctions screening and four eyes through the HTTP app: an embargoed beneficiary is refused
 * (422 embargoed_country, nothing written); a sanctions-list name is held for review and decided
 * by an administrator other than the payer; a deposit above the threshold is not posted by its
 * owner and is approved from the administrators' queue; the thresholds are read by everyone and
 * set by administrators. The worker is called directly with a controlled clock.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Session = { token: string; user: { id: string; email: string } };
let t: TestApp;
let nowMs = Date.parse("2026-03-02T09:00:00.000Z");
let payer: Session;
let adminOne: Session;
let adminTwo: Session;
let checking: { id: string };

async function admin(email: string): Promise<Session> {
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: email, ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email, password: "admin password 1" },
    ip: nextTestAddress(),
  });
  expect(login.status).toBe(200);
  return login.body.data as Session;
}

async function openAccount(token: string, name: string) {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", {
    token,
    body: { name, currency: "USD", type: "bank" },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function draftDeposit(token: string, accountId: string, amount: string): Promise<string> {
  const created = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

const beneficiary = (name: string, country: string) => ({ name, accountNumber: "0532013000", country });
const pay = (session: Session, fromAccountId: string, body: Record<string, unknown>, key?: string) =>
  t.call("POST", "/v1/payments", {
    token: session.token,
    body: {
      userId: session.user.id,
      fromAccountId,
      amount: "40.00",
      currency: "USD",
      forceRail: body.beneficiary ? "SWIFT" : "ACH",
      ...body,
    },
    ...(key ? { headers: { "Idempotency-Key": key } } : {}),
  });

async function finish(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(t.core, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(nowMs) });
  payer = await t.signUp("four-eyes-payer@example.com");
  adminOne = await admin("admin-one@example.com");
  adminTwo = await admin("admin-two@example.com");
  // Verified users under lifted limits: the KYC levels' limits have tests of their own.
  await allowMoneyForTests(t.core, payer.user.id, adminOne.user.id, adminTwo.user.id);
  checking = await openAccount(payer.token, "Checking");
  const funding = await draftDeposit(payer.token, checking.id, "5000.00");
  expect((await t.call("POST", `/api/v1/ledger/transactions/${funding}/post`, { token: payer.token })).status).toBe(
    200,
  );
  // The sample rails are seeded on first read: before the "nothing changed" snapshots.
  expect((await t.call("GET", "/api/v1/rails", { token: payer.token })).status).toBe(200);
});
afterAll(async () => t.core.dispose());

describe("sanctions and embargo screening of payments", () => {
  it("a beneficiary in KP is refused: 422 embargoed_country, and nothing is written", async () => {
    const before = await dataItems(t.core);
    const refused = await pay(payer, checking.id, { beneficiary: beneficiary("Acme Trading", "KP") }, "kp-1");
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "embargoed_country" });
    expect(refused.body.message).toContain("North Korea");
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("a sanctions-list name is held for review; the payer sees the status, admins see the match; a second admin releases it and it completes", async () => {
    const ach = await getRail(t.core, "ach");
    let key = "";
    for (let i = 0; !key; i += 1)
      if (attemptOutcome(ach, paymentIdFor(payer.user.id, `held-${i}`), 1).succeeded) key = `held-${i}`;
    const created = await pay(payer, checking.id, { beneficiary: beneficiary("Kim Jong-un", "CN") }, key);
    expect(created.status).toBe(201);
    const id = created.body.payment.paymentId as string;
    expect(created.body.payment.status).toBe("held_for_review");
    expect(JSON.stringify(created.body)).not.toMatch(/KIM, Jong Un|screening|matchedName|SDN/);
    const listed = await t.call("GET", "/v1/payments?status=held_for_review", { token: payer.token });
    expect(listed.body.data.map((payment: { paymentId: string }) => payment.paymentId)).toEqual([id]);

    expect((await t.call("GET", "/v1/payments/reviews", { token: payer.token })).body.code).toBe("admin_required");
    const queue = await t.call("GET", "/v1/payments/reviews?kind=screening", { token: adminOne.token });
    expect(queue.status).toBe(200);
    expect(queue.body.data).toContainEqual(
      expect.objectContaining({
        paymentId: id,
        status: "held_for_review",
        kind: "screening",
        canDecide: true,
        screening: expect.objectContaining({
          result: "hit",
          screenedName: "Kim Jong-un",
          match: expect.objectContaining({ entry: "KIM, Jong Un" }),
        }),
      }),
    );
    for (const query of ["kind=other", "limit=0", "limit=101", "cursor=forged"])
      expect((await t.call("GET", `/v1/payments/reviews?${query}`, { token: adminOne.token })).status).toBe(400);

    const before = await dataItems(t.core);
    const cases: [string, string, unknown, number, string][] = [
      [payer.token, id, { decision: "approve", reason: "mine" }, 403, "admin_required"],
      [adminOne.token, id, { decision: "approve" }, 400, "validation_error"],
      [adminOne.token, id, { decision: "approve", reason: "x".repeat(501) }, 400, "validation_error"],
      [adminOne.token, id, { decision: "release", reason: "ok" }, 400, "validation_error"],
      [
        adminOne.token,
        "00000000-0000-4000-8000-000000000000",
        { decision: "approve", reason: "ok" },
        404,
        "payment_not_found",
      ],
      [adminOne.token, "x".repeat(3000), { decision: "approve", reason: "ok" }, 404, "payment_not_found"],
    ];
    for (const [token, paymentId, body, status, code] of cases) {
      const reply = await t.call("POST", `/v1/payments/${paymentId}/decision`, { token, body });
      expect([reply.status, reply.body.code], `${status} ${code}`).toEqual([status, code]);
    }
    expect(await dataItems(t.core)).toEqual(before);
    nowMs += 3_600_000;
    expect(await advancePayment(t.core, id)).toEqual({ status: "held_for_review", nextDueAt: null });

    const released = await t.call("POST", `/v1/payments/${id}/decision`, {
      token: adminOne.token,
      body: { decision: "approve", reason: "Different person: a Chinese supplier" },
    });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({
      message: "Payment approved",
      data: {
        status: "pending",
        decision: {
          outcome: "approved",
          by: { email: "admin-one@example.com" },
          reason: "Different person: a Chinese supplier",
        },
      },
    });
    expect(await finish(id)).toBe("completed");
    expect((await t.call("GET", `/v1/payments/${id}`, { token: payer.token })).body.data.status).toBe("completed");
    const review = await t.call("GET", `/v1/payments/reviews/${id}`, { token: adminTwo.token });
    expect(review.body.data).toMatchObject({
      status: "completed",
      canDecide: false,
      decision: { outcome: "approved" },
    });
  });

  it("an admin cannot release their own held payment: 403 second_approver_required; another admin refuses it and the hold is voided", async () => {
    const own = await openAccount(adminOne.token, "Admin checking");
    const funding = await draftDeposit(adminOne.token, own.id, "500.00");
    expect(
      (await t.call("POST", `/api/v1/ledger/transactions/${funding}/post`, { token: adminOne.token })).status,
    ).toBe(200);
    const created = await pay(adminOne, own.id, { beneficiary: beneficiary("Banco Nacional de Cuba", "ES") });
    const id = created.body.payment.paymentId as string;
    expect(created.body.payment.status).toBe("held_for_review");
    const mine = await t.call("POST", `/v1/payments/${id}/decision`, {
      token: adminOne.token,
      body: { decision: "approve", reason: "It is fine" },
    });
    expect([mine.status, mine.body.code, mine.body.message]).toEqual([
      403,
      "second_approver_required",
      "You made this payment: an administrator other than you must decide it.",
    ]);
    const refused = await t.call("POST", `/v1/payments/${id}/decision`, {
      token: adminTwo.token,
      body: { decision: "reject", reason: "Confirmed SDN match" },
    });
    expect(refused.body).toMatchObject({ message: "Payment rejected", data: { status: "failed" } });
    const payment = (await t.call("GET", `/v1/payments/${id}`, { token: adminOne.token })).body.data;
    expect(payment.status).toBe("failed");
    expect(
      (await t.call("GET", `/api/v1/ledger/transactions/${payment.journalId}`, { token: adminOne.token })).body.data
        .status,
    ).toBe("voided");
    const balance = await t.call("GET", `/api/v1/ledger/accounts/${own.id}/balance`, { token: adminOne.token });
    expect(balance.body.data.available).toBe("500.00");
    const again = await t.call("POST", `/v1/payments/${id}/decision`, {
      token: adminTwo.token,
      body: { decision: "approve", reason: "changed my mind" },
    });
    expect([again.status, again.body.code]).toEqual([409, "payment_not_awaiting_decision"]);
  });

  it("a payment above the threshold waits for approval", async () => {
    const set = await t.call("PUT", "/api/v1/approvals/thresholds", {
      token: adminTwo.token,
      body: { kind: "payment", currency: "USD", amount: "1000" },
    });
    expect(set.status).toBe(200);
    try {
      const savings = await openAccount(payer.token, "Savings");
      const created = await pay(payer, checking.id, { toAccountId: savings.id, amount: "1000.01" });
      expect(created.body.payment.status).toBe("awaiting_approval");
      const queue = await t.call("GET", "/v1/payments/reviews?kind=four_eyes", { token: adminTwo.token });
      expect(queue.body.data).toContainEqual(
        expect.objectContaining({
          paymentId: created.body.payment.paymentId,
          kind: "four_eyes",
          why: expect.stringContaining("1,000.00 USD"),
        }),
      );
    } finally {
      await t.call("PUT", "/api/v1/approvals/thresholds", {
        token: adminTwo.token,
        body: { kind: "payment", currency: "USD", amount: "10000.00" },
      });
    }
  });
});

describe("four eyes on deposits", () => {
  it("the owner cannot post a deposit above the threshold; the admin queue shows it; another admin approves it", async () => {
    const big = await draftDeposit(payer.token, checking.id, "90000.00");
    const refused = await t.call("POST", `/api/v1/ledger/transactions/${big}/post`, { token: payer.token });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      403,
      "second_approver_required",
      APPROVAL_MESSAGES.depositNeedsSecondApprover(1_000_000, "USD"),
    ]);

    expect((await t.call("GET", "/api/v1/approvals/deposits", { token: payer.token })).status).toBe(403);
    const queue = await t.call("GET", "/api/v1/approvals/deposits", { token: adminOne.token });
    expect(queue.status).toBe(200);
    expect(queue.body.data).toContainEqual(
      expect.objectContaining({ journal_id: big, amount: "90000.00", can_decide: true }),
    );

    const approved = await t.call("POST", `/api/v1/approvals/deposits/${big}/decision`, {
      token: adminOne.token,
      body: { decision: "approve", reason: "Wire confirmed" },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      message: "Deposit approved",
      data: {
        decision: { decision: "approve", reason: "Wire confirmed", decided_by: { email: "admin-one@example.com" } },
        transaction: { id: big, status: "posted" },
      },
    });
    const mine = await t.call("GET", `/api/v1/ledger/transactions/${big}`, { token: payer.token });
    expect(mine.body.data.status).toBe("posted");
    expect(
      (await t.call("GET", `/api/v1/approvals/deposits/${big}/decisions`, { token: adminTwo.token })).body.data,
    ).toHaveLength(1);
  });

  it("an admin's own deposit above the threshold waits for another admin", async () => {
    const own = await openAccount(adminOne.token, "Admin reserve");
    const big = await draftDeposit(adminOne.token, own.id, "20000.00");
    expect((await t.call("POST", `/api/v1/ledger/transactions/${big}/post`, { token: adminOne.token })).body.code).toBe(
      "second_approver_required",
    );
    const queue = await t.call("GET", "/api/v1/approvals/deposits", { token: adminOne.token });
    expect(queue.body.data).toContainEqual(
      expect.objectContaining({
        journal_id: big,
        can_decide: false,
        cannot_decide_reason: APPROVAL_MESSAGES.ownRequest("deposit"),
      }),
    );
    const self = await t.call("POST", `/api/v1/approvals/deposits/${big}/decision`, {
      token: adminOne.token,
      body: { decision: "approve", reason: "mine" },
    });
    expect([self.status, self.body.code]).toEqual([403, "second_approver_required"]);
    const rejected = await t.call("POST", `/api/v1/approvals/deposits/${big}/decision`, {
      token: adminTwo.token,
      body: { decision: "reject", reason: "No source of funds" },
    });
    expect(rejected.body).toMatchObject({ message: "Deposit rejected", data: { transaction: { status: "voided" } } });
  });
});

describe("the thresholds", () => {
  it("everyone reads them; only admins set them; a bad edit is a 400 that changes nothing", async () => {
    const read = await t.call("GET", "/api/v1/approvals/thresholds", { token: payer.token });
    expect(read.status).toBe(200);
    expect(read.body.data.thresholds).toContainEqual({
      kind: "deposit",
      currency: "USD",
      amount: "10000.00",
      amount_minor: 1_000_000,
    });
    expect(
      (
        await t.call("PUT", "/api/v1/approvals/thresholds", {
          token: payer.token,
          body: { kind: "deposit", currency: "USD", amount: "1" },
        })
      ).body.code,
    ).toBe("admin_required");
    const before = await dataItems(t.core);
    for (const body of [
      {},
      { kind: "deposit", currency: "USD", amount: "-5" },
      { kind: "deposit", currency: "USD", amount: "abc" },
      { kind: "deposit", currency: "JPY", amount: "1.5" },
    ]) {
      const reply = await t.call("PUT", "/api/v1/approvals/thresholds", { token: adminOne.token, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect(await dataItems(t.core)).toEqual(before);
  });
});
