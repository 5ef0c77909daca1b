import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { findAccount, systemAccountId, type Account } from "../ledger/accounts";
import { chainHistory, currentBalance } from "../ledger/balances";
import { eventsOf } from "../ledger/events";
import { setAccountLock } from "../ledger/controls";
import { loadJournal } from "../ledger/journal-reads";
import { history } from "../ledger/history";
import { integrityCheck } from "../ledger/reports";
import type { Rail } from "../rails/model";
import { getRail, listRails, setRailRunning } from "../rails/store";
import { dueMarkerKey } from "./keys";
import { claimOverdueSteps, readMarker, SWEEP_REPEAT_BASE_MS, takeStepLease } from "./markers";
import { MAX_STEP_FAILURES, PAYMENT_MESSAGES, STEP_LEASE_MS, stepRetryDelayMs } from "./model";
import {
  fundAccount,
  INJECTED_STEP_ERROR,
  openTestAccount,
  setErrorInjection,
  testCaller,
  withFailingSteps,
} from "@fintech/testing/payments";
import { closeParkedPayment, listParkedPayments } from "./review";
import { runPaymentStep } from "./runner";
import { dueMarkers, getPayment, paymentHistory } from "./store";
import { initiatePayment, paymentIdFor } from "./service";
import type { PaymentCaller } from "./model";
import { advancePayment, attemptOutcome, duePayments, PARKED_ATTEMPT_CODE, unitDraw } from "./worker";

/**
 * The payment lifecycle against DynamoDB Local with a controlled clock: the worker is called
 * directly (no timers). Outcomes are deterministic in (payment id, attempt), and a keyed
 * payment's id is derived from its Idempotency-Key, so each test picks a key whose outcome is
 * the one it needs (findKey) instead of hoping.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let nowMs = Date.parse("2026-03-02T09:00:00.000Z");
const advanceClock = (ms: number) => {
  nowMs += ms;
};

let payer: PaymentCaller;
let payee: PaymentCaller;
let checking: Account;
let savings: Account;
let payeeUsd: Account;

const balanceOf = async (account: Account) => currentBalance(ctx, account);

/** A key whose payment (of this payer) satisfies `wanted`, e.g. "attempt 1 fails organically". */
function findKey(prefix: string, wanted: (paymentId: string) => boolean, userId = payer.userId): string {
  for (let i = 0; i < 100_000; i += 1) {
    const key = `${prefix}-${i}`;
    if (wanted(paymentIdFor(userId, key))) return key;
  }
  throw new Error(`no key found for ${prefix}`);
}

const succeedsOn =
  (rail: Pick<Rail, "successRate" | "errorInjection">, attempt = 1) =>
  (id: string) =>
    attemptOutcome(rail, id, attempt).succeeded;

/** Advances the clock past the payment's next due time and runs the worker, until it is final. */
async function runToEnd(paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step += 1) {
    const result = await advancePayment(ctx, paymentId);
    if (!result.nextDueAt) return result.status;
    nowMs = Math.max(nowMs, Date.parse(result.nextDueAt));
  }
  throw new Error("payment did not finish");
}

const request = (overrides: Record<string, unknown>) => ({
  userId: payer.userId,
  fromAccountId: checking.id,
  amount: "100.00",
  currency: "USD",
  forceRail: "ACH",
  ...overrides,
});

beforeAll(async () => {
  // Many payments by one payer within the controlled clock's minute: the rate limit has tests of its own.
  ctx = await createTestContext({ PAYMENT_RATE_LIMIT_PER_MINUTE: "1000" }, { clock: () => new Date(nowMs) });
  payer = await testCaller(ctx, "payer@example.com", "Pay");
  payee = await testCaller(ctx, "payee@example.com", "Rec");
  checking = await openTestAccount(ctx, payer, "Checking");
  savings = await openTestAccount(ctx, payer, "Savings");
  payeeUsd = await openTestAccount(ctx, payee, "Payee main");
  // The payee's default account is the OLDEST of the currency: the second one opens later.
  advanceClock(1_000);
  await openTestAccount(ctx, payee, "Payee second");
  await fundAccount(ctx, payer, checking, "10000.00");
  await listRails(ctx);
});
afterAll(async () => ctx.dispose());

describe("a payment's hold and completion", () => {
  it("holds amount + fee, then posts the amount to the payee (by email) and the fee to fee revenue; every journal balances", async () => {
    const ach = await getRail(ctx, "ach");
    const key = findKey("complete", succeedsOn(ach));
    const before = await balanceOf(checking);
    const feesBefore = await currentBalance(ctx, (await findAccount(ctx, systemAccountId("fees", "USD")))!);

    const created = await initiatePayment(
      ctx,
      payer,
      request({ toEmail: "PAYEE@example.com", description: "Rent" }),
      key,
    );
    const payment = created.reply.payment;
    // ACH on 100.00 USD: fixed 0.05 + network 0.1 % = 0.10 (no FX part in USD).
    expect(payment).toMatchObject({
      status: "pending",
      amount: "100.00",
      fee: "0.15",
      feeMinor: 15,
      selectedRail: "ACH",
      payee: { kind: "user", email: "payee@example.com" },
      estimatedTime: "1.2 s",
      fxRate: 1,
    });
    expect(payment.feeBreakdown).toEqual({ fixedFee: "0.05", fxSpread: "0.00", networkFee: "0.10" });
    expect(created.body).not.toContain(payeeUsd.id);

    const held = await balanceOf(checking);
    expect(held.balance).toBe(before.balance);
    expect(held.available).toBe(before.available - 10_015);
    expect((await balanceOf(payeeUsd)).balance).toBe(0);

    // Early: nothing happens before the step is due; then pending -> processing on ACH.
    const started = await advancePayment(ctx, payment.paymentId);
    expect(started.status).toBe("processing");
    const early = await advancePayment(ctx, payment.paymentId);
    expect(early).toEqual(started);
    expect(await runToEnd(payment.paymentId)).toBe("completed");

    const after = await balanceOf(checking);
    expect(after.balance).toBe(before.balance - 10_015);
    expect(after.available).toBe(after.balance);
    expect((await balanceOf(payeeUsd)).balance).toBe(10_000);
    const feesAfter = await currentBalance(ctx, (await findAccount(ctx, systemAccountId("fees", "USD")))!);
    expect(feesAfter.posted_debits - feesBefore.posted_debits).toBe(15);

    const stored = (await getPayment(ctx, payment.paymentId))!;
    expect(stored.status).toBe("completed");
    expect(stored.attempts).toHaveLength(1);
    expect(stored.attempts[0]).toMatchObject({ number: 1, rail: "ACH", status: "succeeded", errorCode: null });
    expect((await loadJournal(ctx, stored.journalId))!.status).toBe("posted");
    expect((await paymentHistory(ctx, payment.paymentId)).map((entry) => entry.event?.type)).toEqual([
      "paymentInitiated",
      "paymentStatusUpdate",
      "paymentCompleted",
    ]);
    expect(await dueMarkers(ctx, new Date(nowMs + 86_400_000), 100)).not.toContain(payment.paymentId);

    // The payer's ledger stream announces the journal without the payee's account.
    const createVersion = (await chainHistory(ctx, checking.id)).find(
      (version) => version.tx_id === stored.journalId && version.operation === "create",
    )!;
    const announced = eventsOf(createVersion, (await loadJournal(ctx, stored.journalId))!, checking.name).map(
      (entry) => entry.event,
    );
    expect(announced).toContainEqual(
      expect.objectContaining({ type: "transactionCreated", fromAccountId: checking.id, toAccountId: "redacted" }),
    );
    expect(JSON.stringify(announced)).not.toContain(payeeUsd.id);

    const check = await integrityCheck(ctx, "ledger");
    expect(check.unbalanced_journals).toEqual([]);
    expect(check.drift).toEqual([]);
  });

  it("converts nothing for a EUR payment to a EUR account: no FX part, SEPA's fixed fee in euros", async () => {
    const eurSavings = await openTestAccount(ctx, payer, "Euro savings", "EUR");
    await fundAccount(ctx, payer, eurSavings, "1000.00");
    const eurTarget = await openTestAccount(ctx, payer, "Euro target", "EUR");
    const sepa = await getRail(ctx, "sepa");
    const key = findKey("fx", succeedsOn(sepa));
    const created = await initiatePayment(
      ctx,
      payer,
      {
        userId: payer.userId,
        fromAccountId: eurSavings.id,
        toAccountId: eurTarget.id,
        amount: "200",
        currency: "EUR",
        forceRail: "SEPA",
      },
      key,
    );
    // SEPA on 200.00 EUR: fixed EUR 0.02 + no FX (nothing is converted) + network 0.20.
    expect(created.reply.payment.feeBreakdown).toEqual({ fixedFee: "0.02", fxSpread: "0.00", networkFee: "0.20" });
    const fxBefore = await currentBalance(ctx, (await findAccount(ctx, systemAccountId("fx", "EUR")))!);
    expect(await runToEnd(created.reply.payment.paymentId)).toBe("completed");
    const fxAfter = await currentBalance(ctx, (await findAccount(ctx, systemAccountId("fx", "EUR")))!);
    expect(fxAfter.posted_debits - fxBefore.posted_debits).toBe(0);
    expect((await balanceOf(eurTarget)).balance).toBe(20_000);
    expect((await balanceOf(eurSavings)).balance).toBe(100_000 - 20_000 - 22);
  });
});

describe("failure and retry", () => {
  it("a non-retriable failure voids the hold: the funds are available again", async () => {
    const ach = await getRail(ctx, "ach");
    const key = findKey("fail", (id) => {
      const outcome = attemptOutcome(ach, id, 1);
      return !outcome.succeeded && (outcome.code === "account_closed" || outcome.code === "insufficient_funds_at_bank");
    });
    const before = await balanceOf(checking);
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id }), key);
    expect((await balanceOf(checking)).available).toBe(before.available - 10_015);
    expect(await runToEnd(created.reply.payment.paymentId)).toBe("failed");
    const after = await balanceOf(checking);
    expect(after).toMatchObject({ balance: before.balance, available: before.available, pending_out: 0 });
    expect((await balanceOf(savings)).pending_in).toBe(0);
    const stored = (await getPayment(ctx, created.reply.payment.paymentId))!;
    expect(stored.attempts).toHaveLength(1);
    expect(stored.attempts[0]).toMatchObject({ status: "failed", retriable: false });
    expect(stored.failureReason).toContain(stored.attempts[0]!.errorCode!);
    expect((await loadJournal(ctx, stored.journalId))!.status).toBe("voided");
    // The ledger workspace lists it under its own status.
    const voided = await history(ctx, payer.userId, { status: "voided" }, { limit: 50, offset: 0 });
    expect(
      voided.items.map((journal) => [journal.id, journal.status, journal.history.map((record) => record.operation)]),
    ).toContainEqual([stored.journalId, "voided", ["create", "void"]]);
    expect((await paymentHistory(ctx, stored.paymentId)).map((entry) => entry.event?.type)).toEqual([
      "paymentInitiated",
      "paymentStatusUpdate",
      "paymentError",
    ]);
  });

  it("a retriable failure retries once on the next-best rail; a cheaper carrying rail charges its own fee (the rest released)", async () => {
    await setErrorInjection(ctx, "card", 100);
    // Wire, SWIFT and Crypto stopped: the retry's next best is ACH, cheaper than Card.
    const costlier = ["wire", "swift", "crypto"];
    for (const id of costlier) await setRailRunning(ctx, id, false, "tests@example.com");
    try {
      // Attempt 2 succeeds on any other rail (all have at least 95.5 % success and no injection).
      const key = findKey("retry", (id) => unitDraw("outcome", id, 2) < 0.95);
      const before = await balanceOf(checking);
      const created = await initiatePayment(
        ctx,
        payer,
        request({ toAccountId: savings.id, forceRail: undefined, preferredRail: "Card" }),
        key,
      );
      expect(created.reply.payment.selectedRail).toBe("Card");
      // Card on 100.00 USD: 0.10 + 0.10 = 0.20 held. The retry goes to the next best, ACH (0.05 + 0.10 = 0.15).
      expect(created.reply.payment.feeMinor).toBe(20);
      expect((await balanceOf(checking)).available).toBe(before.available - 10_000 - 20);
      expect(await runToEnd(created.reply.payment.paymentId)).toBe("completed");
      const stored = (await getPayment(ctx, created.reply.payment.paymentId))!;
      expect(
        stored.attempts.map((attempt) => [attempt.number, attempt.railId, attempt.status, attempt.errorCode]),
      ).toEqual([
        [1, "card", "failed", "rail_timeout"],
        [2, stored.attempts[1]!.railId, "succeeded", null],
      ]);
      expect(stored.attempts[1]!.railId).toBe("ach");
      expect(stored.selectedRail).toBe(stored.attempts[1]!.rail);
      expect(stored.routing.chosenRailId).toBe(stored.attempts[1]!.railId);
      // A rail's fee never excludes it from a retry: only what a rail cannot carry does (SEPA, UPI).
      expect(stored.routing.excluded.map((entry) => entry.reason)).toEqual([
        "SEPA carries EUR only",
        "UPI carries INR only",
      ]);
      // The fee charged is ACH's; the 0.05 difference went back to the payer with the post.
      expect(stored).toMatchObject({
        feeMinor: 15,
        fee: "0.15",
        estimatedFee: "0.20",
        feeBreakdown: { fixedFee: "0.05", fxSpread: "0.00", networkFee: "0.10" },
      });
      const after = await balanceOf(checking);
      expect(after.balance).toBe(before.balance - 10_000 - 15);
      expect(after.available).toBe(before.available - 10_000 - 15);
      const journal = (await loadJournal(ctx, stored.journalId))!;
      expect(journal).toMatchObject({ status: "posted", total_amount: 10_015 });
      expect(journal.entries.find((entry) => entry.account_id === checking.id)).toMatchObject({
        side: "credit",
        amount: 10_015,
      });
      expect(journal.entries.find((entry) => entry.account_id === systemAccountId("fees", "USD"))).toMatchObject({
        side: "debit",
        amount: 15,
      });
      const check = await integrityCheck(ctx, "ledger");
      expect(check.unbalanced_journals).toEqual([]);
      expect(check.drift).toEqual([]);
      const history = await paymentHistory(ctx, stored.paymentId);
      expect(history.map((entry) => entry.event?.type)).toEqual([
        "paymentInitiated",
        "paymentStatusUpdate",
        "paymentStatusUpdate",
        "paymentCompleted",
      ]);
      expect(history[2]!.event).toMatchObject({ data: { status: "processing" } });
    } finally {
      await setErrorInjection(ctx, "card", 0);
      for (const id of costlier) await setRailRunning(ctx, id, true, "tests@example.com");
    }
  });
});

describe("a fallback to a costlier rail", () => {
  it("charges the fee held (the quoted one), never the carrying rail's higher fee: the platform absorbs the rest", async () => {
    await setErrorInjection(ctx, "ach", 100);
    try {
      const key = findKey("costlier", (id) => unitDraw("outcome", id, 2) < 0.95);
      const before = await balanceOf(checking);
      const feesBefore = await currentBalance(ctx, (await findAccount(ctx, systemAccountId("fees", "USD")))!);
      // ACH is the cheapest rail for 100.00 USD (0.15): every rail a retry can take costs more.
      const created = await initiatePayment(
        ctx,
        payer,
        request({ toAccountId: savings.id, forceRail: undefined, preferredRail: "ACH" }),
        key,
      );
      expect(created.reply.payment).toMatchObject({ selectedRail: "ACH", feeMinor: 15, estimatedFee: "0.15" });
      expect(await runToEnd(created.reply.payment.paymentId)).toBe("completed");
      const stored = (await getPayment(ctx, created.reply.payment.paymentId))!;
      expect(stored.attempts.map((attempt) => [attempt.number, attempt.railId, attempt.status])).toEqual([
        [1, "ach", "failed"],
        [2, stored.attempts[1]!.railId, "succeeded"],
      ]);
      const carrying = await getRail(ctx, stored.attempts[1]!.railId);
      expect(
        stored.routing.candidates.find((candidate) => candidate.railId === carrying.id)!.costMinor,
      ).toBeGreaterThan(15);
      expect(stored).toMatchObject({ selectedRail: carrying.name, feeMinor: 15, fee: "0.15", estimatedFee: "0.15" });
      const after = await balanceOf(checking);
      expect(after.balance).toBe(before.balance - 10_000 - 15);
      expect(after.available).toBe(before.available - 10_000 - 15);
      const journal = (await loadJournal(ctx, stored.journalId))!;
      expect(journal).toMatchObject({ status: "posted", total_amount: 10_015 });
      const feesAfter = await currentBalance(ctx, (await findAccount(ctx, systemAccountId("fees", "USD")))!);
      expect(feesAfter.posted_debits - feesBefore.posted_debits).toBe(15);
      expect((await integrityCheck(ctx, "ledger")).unbalanced_journals).toEqual([]);
    } finally {
      await setErrorInjection(ctx, "ach", 0);
    }
  });
});

describe("a forced rail", () => {
  it("is never swapped: a retriable failure on it fails the payment and releases the hold", async () => {
    await setErrorInjection(ctx, "card", 100);
    try {
      const before = await balanceOf(checking);
      const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, forceRail: "Card" }), null);
      expect(await runToEnd(created.reply.payment.paymentId)).toBe("failed");
      const stored = (await getPayment(ctx, created.reply.payment.paymentId))!;
      expect(
        stored.attempts.map((attempt) => [attempt.railId, attempt.status, attempt.errorCode, attempt.retriable]),
      ).toEqual([["card", "failed", "rail_timeout", true]]);
      expect((await balanceOf(checking)).available).toBe(before.available);
    } finally {
      await setErrorInjection(ctx, "card", 0);
    }
  });
});

describe("a rail stopped while a payment is on it", () => {
  it("the attempt fails as rail_unavailable and the payment moves to another rail", async () => {
    const key = findKey("stopped", (id) => unitDraw("outcome", id, 2) < 0.95);
    const created = await initiatePayment(
      ctx,
      payer,
      request({ toAccountId: savings.id, forceRail: undefined, preferredRail: "Wire" }),
      key,
    );
    await setRailRunning(ctx, "wire", false, "tests@example.com");
    try {
      expect(await runToEnd(created.reply.payment.paymentId)).toBe("completed");
      const stored = (await getPayment(ctx, created.reply.payment.paymentId))!;
      expect(stored.attempts.map((attempt) => [attempt.railId, attempt.status, attempt.errorCode])).toEqual([
        ["wire", "failed", "rail_unavailable"],
        [stored.attempts[1]!.railId, "succeeded", null],
      ]);
      expect(stored.attempts[1]!.railId).not.toBe("wire");
    } finally {
      await setRailRunning(ctx, "wire", true, "tests@example.com");
    }
  });
});

describe("a paying account locked while its payment is in flight", () => {
  it("the payment fails as account_locked and its hold is released (a void moves no money)", async () => {
    const ach = await getRail(ctx, "ach");
    const key = findKey("locked", succeedsOn(ach));
    const locked = await openTestAccount(ctx, payer, "Soon locked");
    await fundAccount(ctx, payer, locked, "50.00");
    const created = await initiatePayment(
      ctx,
      payer,
      request({ fromAccountId: locked.id, toAccountId: savings.id, amount: "10.00" }),
      key,
    );
    await advancePayment(ctx, created.reply.payment.paymentId);
    await setAccountLock(ctx, locked.id, true, { reason: "Fraud review" }, { id: "admin", name: "Admin" });
    try {
      expect(await runToEnd(created.reply.payment.paymentId)).toBe("failed");
      const stored = (await getPayment(ctx, created.reply.payment.paymentId))!;
      expect(stored.attempts.map((attempt) => attempt.errorCode)).toEqual(["account_locked"]);
      expect(await balanceOf(locked)).toMatchObject({ balance: 5_000, available: 5_000, pending_out: 0 });
    } finally {
      await setAccountLock(ctx, locked.id, false, { reason: "Cleared" }, { id: "admin", name: "Admin" });
    }
  });
});

describe("restart mid-lifecycle", () => {
  it("after a crash the sweeper finds the payment; two workers advancing at once complete it once", async () => {
    const ach = await getRail(ctx, "ach");
    const key = findKey("restart", succeedsOn(ach));
    const before = await balanceOf(checking);
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id }), key);
    const id = created.reply.payment.paymentId;
    expect(await duePayments(ctx, new Date(nowMs))).toContain(id);
    await advancePayment(ctx, id);
    // "Crash": this process is gone; two fresh instances over the same table resume from the due markers.
    const [first, second] = [
      await createTestContext({ TABLE_NAME: ctx.db.table }, { clock: () => new Date(nowMs) }),
      await createTestContext({ TABLE_NAME: ctx.db.table }, { clock: () => new Date(nowMs) }),
    ];
    try {
      expect(await duePayments(first, new Date(nowMs))).not.toContain(id);
      advanceClock(1_300);
      expect(await duePayments(first, new Date(nowMs))).toContain(id);
      const results = await Promise.all([
        advancePayment(first, id),
        advancePayment(second, id),
        advancePayment(first, id),
      ]);
      expect(results.map((result) => result.status)).toEqual(["completed", "completed", "completed"]);
    } finally {
      first.db.raw.destroy();
      second.db.raw.destroy();
    }
    const after = await balanceOf(checking);
    expect(after.balance).toBe(before.balance - 10_015);
    const journal = (await loadJournal(ctx, id))!;
    expect(journal.history.map((record) => record.operation)).toEqual(["create", "post"]);
    expect((await paymentHistory(ctx, id)).filter((entry) => entry.event?.type === "paymentCompleted")).toHaveLength(1);
    expect(await duePayments(ctx, new Date(nowMs + 86_400_000))).not.toContain(id);
  });
});

describe("idempotent creation", () => {
  it("replays the first reply byte for byte; another body under the key is a 422; concurrent duplicates make one payment", async () => {
    const body = request({ toAccountId: savings.id, amount: "5.00" });
    const first = await initiatePayment(ctx, payer, body, "idem-1");
    const again = await initiatePayment(ctx, payer, body, "idem-1");
    expect(again.replayed).toBe(true);
    expect(again.body).toBe(first.body);
    await expect(initiatePayment(ctx, payer, { ...body, amount: "6.00" }, "idem-1")).rejects.toMatchObject({
      status: 422,
      code: "idempotency_key_reused",
    });

    const before = await balanceOf(checking);
    const racing = await Promise.allSettled(
      Array.from({ length: 4 }, () => initiatePayment(ctx, payer, body, "idem-2")),
    );
    const bodies = racing.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value.body] : []));
    expect(bodies.length).toBeGreaterThan(0);
    expect(new Set(bodies).size).toBe(1);
    for (const outcome of racing)
      if (outcome.status === "rejected")
        expect(outcome.reason).toMatchObject({ status: 409, code: "idempotency_in_progress" });
    expect((await balanceOf(checking)).available).toBe(before.available - 500 - 6);
  });
});

describe("refusals", () => {
  it("refuses another user's id, another user's account, an unknown payee email, paying yourself by email, no funds, a bad amount, two payees, an unknown rail (the routes test checks that nothing is written)", async () => {
    await expect(
      initiatePayment(ctx, payer, request({ userId: payee.userId, toAccountId: savings.id }), null),
    ).rejects.toMatchObject({ status: 403 });
    await expect(initiatePayment(ctx, payer, request({ toAccountId: payeeUsd.id }), null)).rejects.toMatchObject({
      status: 404,
      code: "account_not_found",
    });
    const unknown = await initiatePayment(ctx, payer, request({ toEmail: "nobody@example.com" }), null).catch(
      (error: unknown) => error,
    );
    // Funded: the payer's side passes first, so the payee's problem is what is answered.
    const euro = await openTestAccount(ctx, payer, "Euro 2", "EUR");
    await fundAccount(ctx, payer, euro, "500.00");
    const noEur = await initiatePayment(
      ctx,
      payer,
      { ...request({ toEmail: "payee@example.com", forceRail: "SEPA" }), currency: "EUR", fromAccountId: euro.id },
      null,
    ).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ status: 422, code: "payee_cannot_receive" });
    expect(noEur).toMatchObject({ status: 422, code: "payee_cannot_receive" });
    await expect(initiatePayment(ctx, payer, request({ toEmail: "payer@example.com" }), null)).rejects.toMatchObject({
      status: 422,
      code: "self_payment_by_email",
    });
    await expect(
      initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "1000000" }), null),
    ).rejects.toMatchObject({ status: 422, code: "insufficient_funds" });
    await expect(
      initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "1.001" }), null),
    ).rejects.toMatchObject({ status: 400, code: "invalid_amount" });
    await expect(
      initiatePayment(ctx, payer, request({ toAccountId: savings.id, toEmail: "payee@example.com" }), null),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      initiatePayment(ctx, payer, request({ toAccountId: savings.id, forceRail: "Pigeon" }), null),
    ).rejects.toMatchObject({ status: 422, code: "rail_not_available" });
  });
});

describe("steps under a lease (the drivers' runs)", () => {
  it("a second delivery while another run holds the step does nothing; once the lease runs out the step runs", async () => {
    const ach = await getRail(ctx, "ach");
    const created = await initiatePayment(
      ctx,
      payer,
      request({ toAccountId: savings.id }),
      findKey("leased", succeedsOn(ach)),
    );
    const id = created.reply.payment.paymentId;
    const before = (await getPayment(ctx, id))!;
    expect(await takeStepLease(ctx, id, before.nextDueAt!, "another-worker")).toEqual({ held: true, failures: 0 });

    const duplicate = await runPaymentStep(ctx, id);
    expect(duplicate).toMatchObject({ outcome: "busy", status: "pending", runAt: null });
    expect((await getPayment(ctx, id))!.version).toBe(before.version);

    advanceClock(STEP_LEASE_MS);
    const ran = await runPaymentStep(ctx, id);
    expect(ran).toMatchObject({ outcome: "ran", status: "processing" });
    const after = (await getPayment(ctx, id))!;
    expect(ran.runAt).toBe(after.nextDueAt);
    // The step's transaction deleted the leased marker; the next step's marker starts free.
    expect(await readMarker(ctx, id, before.nextDueAt!)).toBeNull();
    expect(await readMarker(ctx, id, after.nextDueAt!)).toMatchObject({ leaseOwner: null, stepFailures: 0 });
    expect(await runToEnd(id)).toBe("completed");
  });

  it("a delivery for a step that was already run is dropped (stale), so a duplicate does not live on into the next step", async () => {
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "1.00" }), null);
    const id = created.reply.payment.paymentId;
    const firstStep = (await getPayment(ctx, id))!.nextDueAt!;
    expect((await runPaymentStep(ctx, id, firstStep)).outcome).toBe("ran");
    const processing = (await getPayment(ctx, id))!;
    expect(processing.status).toBe("processing");
    expect(await runPaymentStep(ctx, id, firstStep)).toEqual({
      outcome: "stale",
      status: "processing",
      runAt: null,
      step: null,
    });
    // Without a step to compare (the local driver's timers), an early delivery is told when to come back.
    expect(await runPaymentStep(ctx, id)).toEqual({
      outcome: "waiting",
      status: "processing",
      runAt: processing.nextDueAt,
      step: processing.nextDueAt,
    });
    expect((await getPayment(ctx, id))!.version).toBe(processing.version);
    expect(await runToEnd(id)).not.toBe("processing");
  });

  it("puts back a missing due marker instead of leaving the payment where no sweep finds it", async () => {
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "4.00" }), null);
    const id = created.reply.payment.paymentId;
    const dueAt = (await getPayment(ctx, id))!.nextDueAt!;
    await ctx.db.doc.send(new DeleteCommand({ TableName: ctx.db.table, Key: dueMarkerKey(id, dueAt) }));
    expect(await runPaymentStep(ctx, id)).toMatchObject({ outcome: "ran", status: "processing" });
    expect(await runToEnd(id)).not.toBe("processing");
  });

  it("runs concurrent deliveries of one step once", async () => {
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "2.00" }), null);
    const id = created.reply.payment.paymentId;
    const step = (await getPayment(ctx, id))!.nextDueAt!;
    const runs = await Promise.all(Array.from({ length: 4 }, () => runPaymentStep(ctx, id, step)));
    expect(runs.filter((run) => run.outcome === "ran")).toHaveLength(1);
    for (const run of runs.filter((item) => item.outcome !== "ran")) expect(["busy", "stale"]).toContain(run.outcome);
    expect((await paymentHistory(ctx, id)).map((entry) => entry.event?.type)).toEqual([
      "paymentInitiated",
      "paymentStatusUpdate",
    ]);
  });

  it("the sweep claims a step once, not again until its doubling wait, and never one a run holds", async () => {
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "3.00" }), null);
    const id = created.reply.payment.paymentId;
    const dueAt = (await getPayment(ctx, id))!.nextDueAt!;
    const claimedIds = async () =>
      (await claimOverdueSteps(ctx, { dueBefore: new Date(nowMs), limit: 1000 })).map((step) => step.paymentId);
    const [first, second] = await Promise.all([
      claimOverdueSteps(ctx, { dueBefore: new Date(nowMs), limit: 1000 }),
      claimOverdueSteps(ctx, { dueBefore: new Date(nowMs), limit: 1000 }),
    ]);
    expect([...first, ...second].filter((step) => step.paymentId === id)).toEqual([{ paymentId: id, dueAt }]);
    expect(await claimedIds()).not.toContain(id);
    advanceClock(SWEEP_REPEAT_BASE_MS);
    expect(await claimedIds()).toContain(id);
    // The second sweep waits twice as long before the third.
    advanceClock(SWEEP_REPEAT_BASE_MS);
    expect(await claimedIds()).not.toContain(id);
    advanceClock(SWEEP_REPEAT_BASE_MS);
    expect(await readMarker(ctx, id, dueAt)).toMatchObject({ sweeps: 2 });
    await takeStepLease(ctx, id, dueAt, "a-worker");
    expect(await claimedIds()).not.toContain(id);
    advanceClock(STEP_LEASE_MS);
    expect(await claimedIds()).toContain(id);
    expect(await runToEnd(id)).not.toBe("pending");
  });
});

describe("a step that always throws", () => {
  it("is retried after growing waits, then parks its payment: hold voided, status and reason shown, in the review list; an admin closes it", async () => {
    const failing = new Set<string>();
    const failingCtx = withFailingSteps(ctx, failing);
    const before = await balanceOf(checking);
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "40.00" }), null);
    const id = created.reply.payment.paymentId;
    failing.add(id);
    expect((await balanceOf(checking)).available).toBeLessThan(before.available);
    const dueAt = (await getPayment(ctx, id))!.nextDueAt!;

    const waits: number[] = [];
    for (let failure = 1; failure < MAX_STEP_FAILURES; failure += 1) {
      const run = await runPaymentStep(failingCtx, id);
      expect(run).toMatchObject({ outcome: "failed", status: "pending", failures: failure, step: dueAt });
      expect(await readMarker(ctx, id, dueAt)).toMatchObject({
        stepFailures: failure,
        lastError: `Error: ${INJECTED_STEP_ERROR}`,
      });
      // Before the retry is due, a delivery finds the step held: nothing runs, nothing is counted.
      expect((await runPaymentStep(failingCtx, id)).outcome).toBe("busy");
      waits.push(Date.parse(run.runAt!) - nowMs);
      nowMs = Date.parse(run.runAt!);
    }
    expect(waits).toEqual([1, 2, 3, 4].map(stepRetryDelayMs));
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000]);

    const parked = await runPaymentStep(failingCtx, id);
    expect(parked).toEqual({
      outcome: "parked",
      status: "parked",
      runAt: null,
      step: null,
      failures: MAX_STEP_FAILURES,
    });
    const stored = (await getPayment(ctx, id))!;
    expect(stored).toMatchObject({
      status: "parked",
      nextDueAt: null,
      failureReason: PAYMENT_MESSAGES.parked(MAX_STEP_FAILURES),
      completedAt: null,
    });
    expect((await loadJournal(ctx, stored.journalId))!.history.map((record) => record.operation)).toEqual([
      "create",
      "void",
    ]);
    expect(await balanceOf(checking)).toMatchObject({
      balance: before.balance,
      available: before.available,
      pending_out: before.pending_out,
    });
    const history = await paymentHistory(ctx, id);
    expect(history.at(-1)).toMatchObject({
      status: "parked",
      event: { type: "paymentStatusUpdate", data: { status: "parked", message: stored.failureReason } },
    });
    expect(await dueMarkers(ctx, new Date(nowMs + 86_400_000), 1000)).not.toContain(id);
    // Nothing more happens to it: a late delivery finds it ended.
    expect(await runPaymentStep(failingCtx, id)).toMatchObject({ outcome: "waiting", status: "parked", runAt: null });

    const review = (await listParkedPayments(ctx, { limit: 100 })).items.find((item) => item.paymentId === id);
    expect(review).toMatchObject({
      status: "parked",
      userId: payer.userId,
      amount: "40.00",
      stuckStatus: "pending",
      stepFailures: MAX_STEP_FAILURES,
      lastError: `Error: ${INJECTED_STEP_ERROR}`,
      reason: stored.failureReason,
      closedAt: null,
    });

    await expect(closeParkedPayment(ctx, id, "admin@example.com", { note: "" })).rejects.toMatchObject({ status: 400 });
    const closed = await closeParkedPayment(ctx, id, "admin@example.com", {
      note: "Cause found; the payer was told to send it again",
    });
    expect(closed).toMatchObject({
      status: "failed",
      closedBy: "admin@example.com",
      note: "Cause found; the payer was told to send it again",
    });
    const final = (await getPayment(ctx, id))!;
    expect(final.status).toBe("failed");
    expect(final.failureReason).toContain(PAYMENT_MESSAGES.closedAfterReview);
    expect((await paymentHistory(ctx, id)).at(-1)).toMatchObject({ status: "failed", event: { type: "paymentError" } });
    await expect(closeParkedPayment(ctx, id, "admin@example.com", { note: "again" })).rejects.toMatchObject({
      status: 409,
      code: "payment_not_parked",
    });
    expect(await balanceOf(checking)).toMatchObject({ balance: before.balance, available: before.available });
  });

  it("parks a payment whose attempt was in flight: the attempt is closed and the hold released", async () => {
    const failing = new Set<string>();
    const failingCtx = withFailingSteps(ctx, failing);
    const before = await balanceOf(checking);
    const created = await initiatePayment(ctx, payer, request({ toAccountId: savings.id, amount: "7.00" }), null);
    const id = created.reply.payment.paymentId;
    expect((await runPaymentStep(ctx, id)).status).toBe("processing");
    failing.add(id);
    let run = await runPaymentStep(failingCtx, id);
    for (let guard = 0; run.outcome === "waiting" && guard < 5; guard += 1) {
      nowMs = Math.max(nowMs, Date.parse(run.runAt!));
      run = await runPaymentStep(failingCtx, id);
    }
    while (run.outcome === "failed") {
      nowMs = Date.parse(run.runAt!);
      run = await runPaymentStep(failingCtx, id);
    }
    expect(run.outcome).toBe("parked");
    const stored = (await getPayment(ctx, id))!;
    expect(stored.attempts.map((attempt) => [attempt.status, attempt.errorCode, attempt.retriable])).toEqual([
      ["failed", PARKED_ATTEMPT_CODE, false],
    ]);
    expect(await balanceOf(checking)).toMatchObject({
      balance: before.balance,
      available: before.available,
      pending_out: before.pending_out,
    });
    const review = (await listParkedPayments(ctx, { limit: 100 })).items.find((item) => item.paymentId === id);
    expect(review?.stuckStatus).toBe("processing");
    const check = await integrityCheck(ctx, "ledger");
    expect(check.unbalanced_journals).toEqual([]);
    expect(check.drift).toEqual([]);
  });
});
