import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, dataItems } from "@fintech/testing/context";
import { updateThreshold } from "../approvals/thresholds";
import type { Reviewer } from "../approvals/model";
import { currentBalance } from "../ledger/balances";
import { loadJournal } from "../ledger/journal-reads";
import type { Account } from "../ledger/accounts";
import type { Rail } from "../rails/model";
import { getRail, listRails } from "../rails/store";
import { uploadWatchlist } from "../kyc/risk/watchlist";
import { decidePayment, listPaymentReviews, paymentReviewCase } from "./decisions";
import { claimOverdueSteps } from "./markers";
import { PAYMENT_MESSAGES } from "./model";
import { fundAccount, openTestAccount, testCaller } from "@fintech/testing/payments";
import { runPaymentStep } from "./runner";
import { getPayment, paymentHistory } from "./store";
import { initiatePayment, paymentIdFor } from "./service";
import type { PaymentCaller } from "./model";
import { advancePayment, attemptOutcome, duePayments } from "./worker";

/**
 * Screening and four eyes on payments, against DynamoDB Local with a controlled clock (the worker
 * and the sweeper are called directly): an embargoed beneficiary is refused with nothing written;
 * a sanctions-list name is held for review with its hold in place and never advanced, until a
 * second person releases it (it then completes) or refuses it (the hold is voided); a payment
 * above the threshold waits for approval the same way; the payer never decides their own.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let nowMs = Date.parse("2026-03-02T09:00:00.000Z");
const advanceClock = (ms: number) => {
  nowMs += ms;
};

let payer: PaymentCaller;
let checking: Account;
let ach: Rail;
const compliance: Reviewer = { id: "admin-compliance", email: "compliance@example.com", name: "Compliance Officer" };
const payerAsReviewer = (): Reviewer => ({ id: payer.userId, email: payer.user.email, name: "Pay Tester" });

/** A key whose payment's first attempt on `rail` succeeds (outcomes are deterministic per id). */
function succeedingKey(prefix: string, rail: Rail): string {
  for (let i = 0; i < 100_000; i += 1) {
    const key = `${prefix}-${i}`;
    if (attemptOutcome(rail, paymentIdFor(payer.userId, key), 1).succeeded) return key;
  }
  throw new Error(`no key found for ${prefix}`);
}

const beneficiary = (name: string, country: string) => ({ name, accountNumber: "0532013000", country });
// ACH reaches the US only: a beneficiary abroad goes over SWIFT.
const request = (overrides: Record<string, unknown>) => ({
  userId: payer.userId,
  fromAccountId: checking.id,
  amount: "100.00",
  currency: "USD",
  forceRail: overrides.beneficiary ? "SWIFT" : "ACH",
  ...overrides,
});

async function runToEnd(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(ctx, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => new Date(nowMs) });
  payer = await testCaller(ctx, "screened-payer@example.com", "Pay");
  checking = await openTestAccount(ctx, payer, "Checking");
  await fundAccount(ctx, payer, checking, "10000.00");
  await listRails(ctx);
  ach = await getRail(ctx, "ach");
});
afterAll(async () => ctx.dispose());

describe("embargoed countries", () => {
  it("a beneficiary in KP (any case) is refused with 422 embargoed_country, naming the country, and nothing is written", async () => {
    const before = await dataItems(ctx);
    for (const country of ["KP", "kp", "IR", "CU", "SY"]) {
      await expect(
        initiatePayment(
          ctx,
          payer,
          request({ beneficiary: beneficiary("Acme Trading", country) }),
          `embargo-${country}`,
        ),
      ).rejects.toMatchObject({ status: 422, code: "embargoed_country" });
    }
    await expect(
      initiatePayment(ctx, payer, request({ beneficiary: beneficiary("Acme Trading", "KP") }), null),
    ).rejects.toThrow(/North Korea.*embargo/);
    expect(await dataItems(ctx)).toEqual(before);
  });
});

describe("a sanctions-list name", () => {
  it("is held for review: the hold stays, nothing is scheduled, and neither the worker nor the sweeper moves it as time passes", async () => {
    const before = await currentBalance(ctx, checking);
    const created = await initiatePayment(
      ctx,
      payer,
      request({ beneficiary: beneficiary("Jong Un Kim", "CN") }),
      "held-1",
    );
    const payment = created.reply.payment;
    expect(payment.status).toBe("held_for_review");
    // The payer's reply says nothing of the list or the match.
    expect(created.body).not.toMatch(/KIM, Jong Un|screening|matchedName|SDN/);
    expect((await currentBalance(ctx, checking)).available).toBe(before.available - 10_000 - payment.feeMinor);
    expect((await loadJournal(ctx, payment.journalId))!.status).toBe("draft");

    const stored = (await getPayment(ctx, payment.paymentId))!;
    expect(stored.nextDueAt).toBeNull();
    expect(stored.screening).toMatchObject({
      subject: "beneficiary",
      result: "hit",
      screenedName: "Jong Un Kim",
      screenedCountry: "CN",
      match: { entry: "KIM, Jong Un", score: 1 },
    });
    expect(stored.review).toMatchObject({ kind: "screening", decision: null });
    expect((await paymentHistory(ctx, payment.paymentId)).map((entry) => [entry.event?.type, entry.status])).toEqual([
      ["paymentInitiated", "held_for_review"],
      ["paymentStatusUpdate", "held_for_review"],
    ]);

    advanceClock(7 * 86_400_000);
    expect(await duePayments(ctx, new Date(nowMs))).not.toContain(payment.paymentId);
    expect(
      (await claimOverdueSteps(ctx, { dueBefore: new Date(nowMs), limit: 1000 })).map((step) => step.paymentId),
    ).not.toContain(payment.paymentId);
    expect(await advancePayment(ctx, payment.paymentId)).toEqual({ status: "held_for_review", nextDueAt: null });
    expect((await runPaymentStep(ctx, payment.paymentId)).outcome).not.toBe("ran");
    expect((await getPayment(ctx, payment.paymentId))!.version).toBe(stored.version);

    const queue = await listPaymentReviews(ctx, compliance, { limit: 50 });
    expect(queue.items.find((item) => item.paymentId === payment.paymentId)).toMatchObject({
      kind: "screening",
      status: "held_for_review",
      canDecide: true,
      screening: { match: { entry: "KIM, Jong Un" } },
    });
    expect(
      (await listPaymentReviews(ctx, compliance, { limit: 50, kind: "four_eyes" })).items.map((item) => item.paymentId),
    ).not.toContain(payment.paymentId);
  });

  it("is released by a second person with a reason, audited, and then completes", async () => {
    const key = succeedingKey("release", ach);
    const created = await initiatePayment(ctx, payer, request({ beneficiary: beneficiary("Bank Mellat", "DE") }), key);
    const id = created.reply.payment.paymentId;
    expect(created.reply.payment.status).toBe("held_for_review");

    // The payer cannot release their own payment; a missing reason is a 400; neither changes anything.
    const unchanged = await dataItems(ctx);
    await expect(
      decidePayment(ctx, id, payerAsReviewer(), { decision: "approve", reason: "mine" }),
    ).rejects.toMatchObject({ status: 403, code: "second_approver_required" });
    await expect(decidePayment(ctx, id, compliance, { decision: "approve", reason: "  " })).rejects.toMatchObject({
      status: 400,
    });
    await expect(decidePayment(ctx, id, compliance, { decision: "maybe", reason: "x" })).rejects.toMatchObject({
      status: 400,
    });
    expect(await dataItems(ctx)).toEqual(unchanged);

    advanceClock(60_000);
    const decided = await decidePayment(ctx, id, compliance, {
      decision: "approve",
      reason: "Different entity: German retailer, not the Iranian bank",
    });
    expect(decided).toMatchObject({
      status: "pending",
      canDecide: false,
      decision: {
        outcome: "approved",
        by: { id: compliance.id, email: compliance.email },
        reason: "Different entity: German retailer, not the Iranian bank",
      },
    });
    await expect(decidePayment(ctx, id, compliance, { decision: "approve", reason: "again" })).rejects.toMatchObject({
      status: 409,
      code: "payment_not_awaiting_decision",
    });
    expect(
      (await listPaymentReviews(ctx, compliance, { limit: 50 })).items.map((item) => item.paymentId),
    ).not.toContain(id);

    expect(await runToEnd(id)).toBe("completed");
    expect((await loadJournal(ctx, (await getPayment(ctx, id))!.journalId))!.status).toBe("posted");
    const history = await paymentHistory(ctx, id);
    expect(history[2]).toMatchObject({
      status: "pending",
      event: { type: "paymentStatusUpdate", data: { status: "pending", message: PAYMENT_MESSAGES.released } },
    });
    expect(history[2]!.note).toContain(`Approved by ${compliance.email}`);
    expect(history[2]!.note).toContain("German retailer");
    expect((await paymentReviewCase(ctx, compliance, id)).decision?.at).toBe(history[2]!.at);
  });

  it("is refused by a second person: the hold is voided and the payment ends failed", async () => {
    const before = await currentBalance(ctx, checking);
    const created = await initiatePayment(
      ctx,
      payer,
      request({ beneficiary: beneficiary("Mahan Airlines", "AE") }),
      "refuse-1",
    );
    const id = created.reply.payment.paymentId;
    expect(created.reply.payment.status).toBe("held_for_review");
    const decided = await decidePayment(ctx, id, compliance, {
      decision: "reject",
      reason: "Confirmed match with the SDN entry",
    });
    expect(decided).toMatchObject({ status: "failed", decision: { outcome: "rejected" } });
    const stored = (await getPayment(ctx, id))!;
    expect(stored.failureReason).toBe(PAYMENT_MESSAGES.refusedAfterReview);
    expect((await loadJournal(ctx, stored.journalId))!.status).toBe("voided");
    expect(await currentBalance(ctx, checking)).toMatchObject({ available: before.available, balance: before.balance });
    expect((await paymentHistory(ctx, id)).at(-1)).toMatchObject({ status: "failed", event: { type: "paymentError" } });
  });

  it("matches the sanctions entries of an uploaded watchlist, not its PEP entries", async () => {
    await uploadWatchlist(ctx, { csv: "name,list\nZed Quorwell,sanctions\nPolly Tician,pep\n" }, "admin@example.com");
    const hit = await initiatePayment(
      ctx,
      payer,
      request({ amount: "1.00", beneficiary: beneficiary("Zed Quorwell", "FR") }),
      "uploaded-1",
    );
    expect(hit.reply.payment.status).toBe("held_for_review");
    expect((await getPayment(ctx, hit.reply.payment.paymentId))!.screening?.match).toMatchObject({
      list: "Uploaded watchlist (sanctions entries)",
      entry: "Zed Quorwell",
    });
    const pep = await initiatePayment(
      ctx,
      payer,
      request({ amount: "1.00", beneficiary: beneficiary("Polly Tician", "FR") }),
      "uploaded-2",
    );
    expect(pep.reply.payment.status).toBe("pending");
  });

  it("a clear payee's screening is stored too, and shown to administrators", async () => {
    const created = await initiatePayment(
      ctx,
      payer,
      request({ amount: "2.00", beneficiary: beneficiary("Ada Lovelace", "GB") }),
      "clear-1",
    );
    expect(created.reply.payment.status).toBe("pending");
    const review = await paymentReviewCase(ctx, compliance, created.reply.payment.paymentId);
    expect(review).toMatchObject({
      kind: null,
      canDecide: false,
      screening: { result: "clear", screenedName: "Ada Lovelace", screenedCountry: "GB", match: null },
    });
    expect(review.screening?.lists.length).toBeGreaterThan(0);
  });
});

describe("four eyes on payments", () => {
  it("a payment above the threshold is created awaiting_approval with its hold; a second person approves it and it completes", async () => {
    const savings = await openTestAccount(ctx, payer, "Savings");
    await updateThreshold(ctx, compliance, { kind: "payment", currency: "USD", amount: "500.00" });
    try {
      const atThreshold = await initiatePayment(
        ctx,
        payer,
        request({ amount: "500.00", toAccountId: savings.id }),
        "at-threshold",
      );
      expect(atThreshold.reply.payment.status).toBe("pending");

      const key = succeedingKey("four-eyes", ach);
      const created = await initiatePayment(ctx, payer, request({ amount: "500.01", toAccountId: savings.id }), key);
      const id = created.reply.payment.paymentId;
      expect(created.reply.payment.status).toBe("awaiting_approval");
      expect((await getPayment(ctx, id))!.review).toMatchObject({ kind: "four_eyes", thresholdMinor: 50_000 });
      expect((await paymentHistory(ctx, id))[1]).toMatchObject({
        event: { type: "paymentStatusUpdate", data: { status: "awaiting_approval" } },
      });
      advanceClock(3_600_000);
      expect(await advancePayment(ctx, id)).toEqual({ status: "awaiting_approval", nextDueAt: null });

      await expect(
        decidePayment(ctx, id, payerAsReviewer(), { decision: "approve", reason: "I need it" }),
      ).rejects.toMatchObject({ status: 403, code: "second_approver_required" });
      expect(
        (await listPaymentReviews(ctx, compliance, { limit: 50, kind: "four_eyes" })).items.map(
          (item) => item.paymentId,
        ),
      ).toContain(id);
      await decidePayment(ctx, id, compliance, { decision: "approve", reason: "Matches the invoice on file" });
      expect(await runToEnd(id)).toBe("completed");
      expect((await paymentHistory(ctx, id))[2]).toMatchObject({
        event: { data: { message: PAYMENT_MESSAGES.approved } },
      });
    } finally {
      await updateThreshold(ctx, compliance, { kind: "payment", currency: "USD", amount: "10000.00" });
    }
  });
});
