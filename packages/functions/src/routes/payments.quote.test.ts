import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { verifyForTests } from "@fintech/testing/limits";
import { getRail, setRailRunning } from "@fintech/core/rails/store";
import { explorationBand } from "@fintech/core/rails/ranking";
import { paymentIdFor } from "@fintech/core/payments/service";
import { advancePayment, attemptOutcome } from "@fintech/core/payments/worker";

/**
 * POST /v1/payments/quote through the HTTP app: the contract Send money reads (rail, fee in the
 * payment's currency, total held, arrival, payee, eligible and excluded rails), the same refusals
 * as creating the payment in the same order (so it is no oracle), nothing written, ever, and a
 * quoted fee that is the fee the payment is then charged.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let nowMs = Date.parse("2026-03-02T09:00:00.000Z");
let payer: { token: string; user: { id: string; email: string } };
let unverified: { token: string; user: { id: string; email: string } };
let checking: { id: string };
let savings: { id: string };
let rupees: { id: string };

async function openAccount(token: string, name: string, currency = "USD") {
  const reply = await t.call("POST", "/api/v1/ledger/accounts", { token, body: { name, currency, type: "bank" } });
  expect(reply.status).toBe(201);
  return reply.body.data as { id: string };
}

async function fund(token: string, accountId: string, amount: string) {
  const created = await t.call("POST", "/api/v1/ledger/transactions/deposit", {
    token,
    body: { account_id: accountId, amount },
  });
  expect(created.status).toBe(201);
  expect((await t.call("POST", `/api/v1/ledger/transactions/${created.body.data.id}/post`, { token })).status).toBe(
    200,
  );
}

const quote = (body: Record<string, unknown>, token = payer.token) =>
  t.call("POST", "/v1/payments/quote", {
    token,
    body: { userId: payer.user.id, fromAccountId: checking.id, amount: "42.50", currency: "USD", ...body },
  });

beforeAll(async () => {
  t = await createTestApp({ PAYMENT_RATE_LIMIT_PER_MINUTE: "1000" }, { clock: () => new Date(nowMs) });
  payer = await t.signUp("quoter@example.com", { first_name: "Quo", last_name: "Ter" });
  unverified = await t.signUp("new@example.com");
  await t
    .signUp("grace@example.com", { first_name: "Grace", last_name: "Hopper" })
    .then(async (grace) => openAccount(grace.token, "Grace USD"));
  await verifyForTests(t.core, payer.user.id);
  checking = await openAccount(payer.token, "Checking");
  savings = await openAccount(payer.token, "Savings");
  rupees = await openAccount(payer.token, "Rupees", "INR");
  await fund(payer.token, checking.id, "1000.00");
  await fund(payer.token, rupees.id, "500000.00");
  expect((await t.call("GET", "/api/v1/rails", { token: payer.token })).status).toBe(200);
});
afterAll(async () => t.core.dispose());

/** Advances the clock past the payment's next due time and runs the worker, until it is final. */
async function runToEnd(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(t.core, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

/** An Idempotency-Key whose payment (of the payer) satisfies `wanted`. */
function findKey(prefix: string, wanted: (paymentId: string) => boolean): string {
  for (let i = 0; i < 100_000; i += 1) {
    const key = `${prefix}-${i}`;
    if (wanted(paymentIdFor(payer.user.id, key))) return key;
  }
  throw new Error(`no key found for ${prefix}`);
}

describe("the quote", () => {
  it("quotes a USD payment to a person: the best eligible rail, its fee, the total held, arrival, and why SEPA and UPI are out", async () => {
    const before = await dataItems(t.core);
    const reply = await quote({ toEmail: "grace@example.com" });
    expect(reply.status).toBe(200);
    // 42.50 USD: Card 0.10 + 0.04 = 0.14 has the best expected value (99.8 %).
    expect(reply.body).toMatchObject({
      amount: "42.50",
      currency: "USD",
      rail: "Card",
      fee: "0.14",
      feeCurrency: "USD",
      total: "42.64",
      settlementSeconds: 1800,
      arrivalEstimate: "within 30 minutes",
      payee: { kind: "user", name: "grace@example.com" },
    });
    expect(reply.body.eligible[0]).toEqual({ rail: "Card", fee: "0.14", feeCurrency: "USD", settlementSeconds: 1800 });
    expect(reply.body.eligible.map((entry: { rail: string }) => entry.rail).sort()).toEqual([
      "ACH",
      "Card",
      "Crypto",
      "SWIFT",
      "Wire",
    ]);
    expect(reply.body.excluded).toEqual(
      expect.arrayContaining([
        { rail: "SEPA", reason: "SEPA carries EUR only" },
        { rail: "UPI", reason: "UPI carries INR only" },
      ]),
    );
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("a forced rail is the quoted rail; one that cannot carry it is 422 rail_ineligible with the reason", async () => {
    expect((await quote({ toAccountId: savings.id, forceRail: "ACH" })).body).toMatchObject({
      rail: "ACH",
      fee: "0.09",
      total: "42.59",
      arrivalEstimate: "within 1 business day",
      payee: { kind: "own", name: "Savings" },
    });
    const refused = await quote({ toAccountId: savings.id, forceRail: "SEPA" });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "rail_ineligible",
      message: "Rail SEPA cannot carry this payment: SEPA carries EUR only",
    });
  });

  it("routes by the beneficiary's country and the rail's limits: INR to India over UPI, above 1,00,000 over SWIFT", async () => {
    const upi = await quote({
      fromAccountId: rupees.id,
      currency: "INR",
      amount: "2500",
      beneficiary: { name: "Asha Rao", accountNumber: "123456789012", country: "IN" },
    });
    expect(upi.body).toMatchObject({
      rail: "UPI",
      fee: "2.50",
      feeCurrency: "INR",
      total: "2502.50",
      arrivalEstimate: "within a minute",
      payee: { kind: "external", name: "Asha Rao", accountLast4: "9012", country: "IN" },
    });
    const large = await quote({
      fromAccountId: rupees.id,
      currency: "INR",
      amount: "200000",
      beneficiary: { name: "Asha Rao", accountNumber: "123456789012", country: "IN" },
    });
    expect(large.body.rail).toBe("SWIFT");
    expect(large.body.excluded).toContainEqual({
      rail: "UPI",
      reason: "UPI carries at most 100000.00 INR per payment",
    });
  });

  it("no rail can carry it: 422 no_eligible_rail listing the reasons", async () => {
    // INR to the US: only SWIFT carries rupees beyond India, and it is stopped for this test.
    await setRailRunning(t.core, "swift", false, "tests@example.com");
    try {
      const refused = await quote({
        fromAccountId: rupees.id,
        currency: "INR",
        amount: "1000",
        beneficiary: { name: "Ann Lee", accountNumber: "123456789012", country: "US" },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe("no_eligible_rail");
      expect(refused.body.message).toContain("UPI does not reach US (it covers IN)");
      expect(refused.body.message).toContain("ACH carries USD only");
    } finally {
      await setRailRunning(t.core, "swift", true, "tests@example.com");
    }
  });

  it("gives the refusals of creating the payment, in the same order, and writes nothing", async () => {
    const other = await openAccount(unverified.token, "Theirs");
    const before = await dataItems(t.core);
    const cases: [Record<string, unknown>, string, number, string][] = [
      [{ amount: "abc", toEmail: "grace@example.com" }, payer.token, 400, "invalid_amount"],
      [{ toEmail: "grace@example.com", toAccountId: savings.id }, payer.token, 400, "validation_error"],
      [{ amount: { big: 1 }, toEmail: "grace@example.com" }, payer.token, 400, "validation_error"],
      [{ description: "x".repeat(501), toEmail: "grace@example.com" }, payer.token, 400, "validation_error"],
      [{ userId: unverified.user.id, toEmail: "grace@example.com" }, payer.token, 403, "not_your_user_id"],
      [{ fromAccountId: "not-mine-0000", toEmail: "grace@example.com" }, payer.token, 404, "account_not_found"],
      [{ currency: "EUR", toEmail: "grace@example.com" }, payer.token, 422, "currency_mismatch"],
      [{ amount: "5000.00", toEmail: "grace@example.com" }, payer.token, 422, "insufficient_funds"],
      // Funds are checked before the payee: a payer without the money learns nothing about who is registered.
      [{ amount: "5000.00", toEmail: "nobody@example.com" }, payer.token, 422, "insufficient_funds"],
      [{ toEmail: "nobody@example.com" }, payer.token, 422, "payee_cannot_receive"],
      [
        { beneficiary: { name: "Acme", accountNumber: "12345678", country: "KP" } },
        payer.token,
        422,
        "embargoed_country",
      ],
    ];
    for (const [body, token, status, code] of cases) {
      const reply = await quote(body, token);
      expect([reply.status, reply.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    // Another user's own account (a forged fromAccountId) is the same 404 as an unknown one.
    expect((await quote({ fromAccountId: other.id, toEmail: "grace@example.com" })).status).toBe(404);
    // An unverified payer paying someone else: 403 kyc_required, as creating it would be.
    const theirs = await quote(
      { userId: unverified.user.id, fromAccountId: other.id, toEmail: "grace@example.com" },
      unverified.token,
    );
    expect([theirs.status, theirs.body.code]).toEqual([403, "kyc_required"]);
    expect((await t.call("POST", "/v1/payments/quote", { body: { userId: payer.user.id } })).status).toBe(401);
    expect(
      (await t.call("POST", "/v1/payments/quote", { token: "forged.token.value", body: { userId: payer.user.id } }))
        .status,
    ).toBe(401);
    expect(await dataItems(t.core)).toEqual(before);
  });

  it("the quoted fee is the fee the payment is charged when it completes, even when exploration sends it over a pricier rail", async () => {
    // 400.00 USD: Card (0.10 + 0.40 = 0.50) is the best; Wire (1.00 + 0.40 = 1.40) is within the
    // exploration cap, so a payment in the exploration share goes over Wire.
    const body = { toAccountId: savings.id, amount: "400.00" };
    const quoted = await quote(body);
    expect(quoted.body).toMatchObject({ rail: "Card", fee: "0.50", total: "400.50" });
    const [card, wire] = await Promise.all([getRail(t.core, "card"), getRail(t.core, "wire")]);
    const plainKey = findKey(
      "quoted-best",
      (id) => explorationBand(id) === null && attemptOutcome(card, id, 1).succeeded,
    );
    const exploringKey = findKey(
      "quoted-explore",
      (id) => explorationBand(id) === "explore" && attemptOutcome(wire, id, 1).succeeded,
    );
    for (const [key, carrier] of [
      [plainKey, "Card"],
      [exploringKey, "Wire"],
    ] as const) {
      const created = await t.call("POST", "/v1/payments", {
        token: payer.token,
        body: { userId: payer.user.id, fromAccountId: checking.id, currency: "USD", ...body },
        headers: { "Idempotency-Key": key },
      });
      expect(created.status).toBe(201);
      const paymentId = created.body.payment.paymentId as string;
      expect(created.body.payment).toMatchObject({
        selectedRail: carrier,
        estimatedFee: quoted.body.fee,
        fee: quoted.body.fee,
      });
      expect(await runToEnd(paymentId)).toBe("completed");
      const detail = await t.call("GET", `/v1/payments/${paymentId}`, { token: payer.token });
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({ status: "completed", selectedRail: carrier, fee: quoted.body.fee });
    }
  });
});
