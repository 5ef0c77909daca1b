import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "@fintech/core/auth/service";
import { createCustomerAccount, type Account } from "@fintech/core/ledger/accounts";
import { loadJournal } from "@fintech/core/ledger/journal-reads";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { deposit, setJournalStatus } from "@fintech/core/ledger/service";
import { MAX_STEP_FAILURES, isActiveStatus, stepRetryDelayMs } from "@fintech/core/payments/model";
import { withFailingSteps } from "@fintech/testing/payments";
import { listParkedPayments } from "@fintech/core/payments/review";
import { initiatePayment } from "@fintech/core/payments/service";
import type { PaymentCaller } from "@fintech/core/payments/model";
import { getPayment, paymentHistory } from "@fintech/core/payments/store";
import { currentBalance } from "@fintech/core/ledger/balances";
import { LocalPaymentWorker, type WorkerTimers } from "./payment-worker";
import { createTestContext } from "@fintech/testing/context";

/**
 * The embedded stack's payment driver with a controlled clock and controlled timers: a timer
 * fires when the test moves the clock past it, and the test waits on the worker's idle(), never
 * on real time.
 */

class ManualTimers implements WorkerTimers {
  nowMs = Date.parse("2026-04-01T10:00:00.000Z");
  private next = 0;
  readonly pending = new Map<number, { atMs: number; run: () => void }>();
  set(run: () => void, ms: number): number {
    const handle = ++this.next;
    this.pending.set(handle, { atMs: this.nowMs + ms, run });
    return handle;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Moves the clock to `atMs` and fires every timer due by then, earliest first. */
  advanceTo(atMs: number): void {
    this.nowMs = Math.max(this.nowMs, atMs);
    const due = [...this.pending.entries()]
      .filter(([, timer]) => timer.atMs <= this.nowMs)
      .sort((a, b) => a[1].atMs - b[1].atMs);
    for (const [handle, timer] of due) {
      this.pending.delete(handle);
      timer.run();
    }
  }
  clock = () => new Date(this.nowMs);
}

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
/** A context (and worker) per "process" over one table: a restart is a new pair. */
interface Process {
  ctx: TestContext;
  worker: LocalPaymentWorker;
}

const timers = new ManualTimers();
const SWEEP_MS = 2_000;
/** Payments whose steps always throw in a process started with it (see withFailingSteps). */
const failing = new Set<string>();
let first: Process;
let payer: PaymentCaller;
let checking: Account;
let savings: Account;

async function startProcess(table?: string, failingSteps?: ReadonlySet<string>): Promise<Process> {
  const worker = new LocalPaymentWorker({ timers, sweepIntervalMs: SWEEP_MS, concurrency: 4 });
  const ctx = await createTestContext(table ? { TABLE_NAME: table } : {}, {
    clock: timers.clock,
    paymentScheduler: worker,
  });
  worker.start(failingSteps ? withFailingSteps(ctx, failingSteps) : ctx);
  await worker.idle();
  return { ctx, worker };
}

beforeAll(async () => {
  first = await startProcess();
  const session = await register(first.ctx, {
    email: "worker@example.com",
    password: "long enough pw",
    first_name: "Wor",
    last_name: "Ker",
    phone: null,
    date_of_birth: null,
  });
  payer = { userId: session.user.id, user: session.user };
  const open = async (name: string) =>
    (await createCustomerAccount(first.ctx, payer.userId, CreateAccountInput.parse({ name, currency: "USD" }))).account;
  checking = await open("Checking");
  savings = await open("Savings");
  const funded = await deposit(first.ctx, payer.userId, { account_id: checking.id, amount: "1000.00" }, null);
  await setJournalStatus(
    first.ctx,
    payer.userId,
    (JSON.parse(funded.body) as { data: { id: string } }).data.id,
    "post",
    null,
  );
});
afterAll(async () => {
  await first.worker.stop();
  await first.ctx.dispose();
});

const pay = async (ctx: TestContext, amount: string) =>
  (
    await initiatePayment(
      ctx,
      payer,
      {
        userId: payer.userId,
        fromAccountId: checking.id,
        toAccountId: savings.id,
        amount,
        currency: "USD",
        forceRail: "Card",
      },
      null,
    )
  ).reply.payment.paymentId;

const statusOf = async (ctx: TestContext, paymentId: string) => (await getPayment(ctx, paymentId))!.status;

/** Fires the worker's timers one due time after another until the payment has ended. */
async function runTimers(process: Process, paymentId: string): Promise<string> {
  for (let step = 0; step < 10; step++) {
    const status = await statusOf(process.ctx, paymentId);
    if (!isActiveStatus(status)) return status;
    const nextMs = process.worker.armedDueMs()[0];
    expect(nextMs, `no timer armed for an active payment (${status})`).toBeDefined();
    timers.advanceTo(nextMs!);
    await process.worker.idle();
  }
  throw new Error(`Payment ${paymentId} did not end`);
}

async function expectSettledOnce(ctx: TestContext, paymentId: string) {
  const payment = (await getPayment(ctx, paymentId))!;
  const history = await paymentHistory(ctx, paymentId);
  const endings = history.filter(
    (entry) =>
      entry.event?.type === "paymentCompleted" || (entry.event?.type === "paymentError" && entry.status === "failed"),
  );
  expect(endings).toHaveLength(1);
  const journal = (await loadJournal(ctx, payment.journalId))!;
  expect(journal.history.map((record) => record.operation)).toEqual([
    "create",
    payment.status === "completed" ? "post" : "void",
  ]);
}

describe("local payment worker", () => {
  it("arms a timer at each step's due time and runs the step when the clock reaches it, not before", async () => {
    const paymentId = await pay(first.ctx, "12.00");
    const created = (await getPayment(first.ctx, paymentId))!;
    expect(first.worker.armedDueMs()).toEqual([Date.parse(created.nextDueAt!)]);
    // The first step (the attempt starts on its rail) is due at once.
    timers.advanceTo(Date.parse(created.nextDueAt!));
    await first.worker.idle();
    const processing = (await getPayment(first.ctx, paymentId))!;
    expect(processing.status).toBe("processing");
    const answerDue = Date.parse(processing.nextDueAt!);
    expect(first.worker.armedDueMs()).toEqual([answerDue]);

    // The rail's answer is due after its average processing time: nothing runs a moment before.
    const stepsBefore = first.worker.stats.steps;
    timers.advanceTo(answerDue - 1);
    await first.worker.idle();
    expect(first.worker.stats.steps).toBe(stepsBefore);
    expect(await statusOf(first.ctx, paymentId)).toBe("processing");

    const ended = await runTimers(first, paymentId);
    expect(["completed", "failed"]).toContain(ended);
    await expectSettledOnce(first.ctx, paymentId);
    expect(first.worker.stats.failures).toBe(0);
    expect(first.worker.armedDueMs()).toEqual([]);
  });

  it("resumes after a restart from the sweep: a payment left in processing with no timer ends once", async () => {
    const paymentId = await pay(first.ctx, "7.00");
    timers.advanceTo(first.worker.armedDueMs()[0]!);
    await first.worker.idle();
    expect(await statusOf(first.ctx, paymentId)).toBe("processing");

    // "Crash": the process and its timers are gone; the step falls due while nothing runs.
    await first.worker.stop();
    expect(timers.pending.size).toBe(0);
    const due = Date.parse((await getPayment(first.ctx, paymentId))!.nextDueAt!);
    timers.nowMs = due + 60_000;

    const restarted = await startProcess(first.ctx.db.table);
    try {
      // The start's sweep found the payment and ran its step, with no request and no timer.
      expect(restarted.worker.stats.sweptSteps).toBeGreaterThanOrEqual(1);
      const ended = await runTimers(restarted, paymentId);
      expect(["completed", "failed"]).toContain(ended);
      await expectSettledOnce(restarted.ctx, paymentId);
      // The periodic sweep finds nothing more to do.
      timers.advanceTo(timers.nowMs + SWEEP_MS);
      await restarted.worker.idle();
      expect(restarted.worker.armedDueMs()).toEqual([]);
    } finally {
      await restarted.worker.stop();
      restarted.ctx.db.raw.destroy();
    }
  });

  it("two processes over one table run a step once: the second finds it held or already run", async () => {
    const [one, two] = [await startProcess(first.ctx.db.table), await startProcess(first.ctx.db.table)];
    try {
      const paymentId = await pay(one.ctx, "3.00");
      const due = Date.parse((await getPayment(one.ctx, paymentId))!.nextDueAt!);
      // Both processes are asked for the same step at the same moment.
      await two.worker.schedule(paymentId, new Date(due));
      const stepsBefore = one.worker.stats.steps + two.worker.stats.steps;
      timers.advanceTo(due);
      await Promise.all([one.worker.idle(), two.worker.idle()]);
      expect(one.worker.stats.steps + two.worker.stats.steps - stepsBefore).toBe(2);
      expect((await paymentHistory(one.ctx, paymentId)).filter((entry) => entry.status === "processing")).toHaveLength(
        1,
      );
      // Whichever ran it armed the next step's timer; the first process finishes it alone.
      await two.worker.stop();
      await one.worker.schedule(paymentId, new Date((await getPayment(one.ctx, paymentId))!.nextDueAt!));
      const ended = await runTimers(one, paymentId);
      expect(["completed", "failed"]).toContain(ended);
      await expectSettledOnce(one.ctx, paymentId);
    } finally {
      for (const driver of [one, two]) {
        await driver.worker.stop();
        driver.ctx.db.raw.destroy();
      }
    }
  });

  it("a step that always throws is retried after growing waits, then its payment is parked and its hold released", async () => {
    const driver = await startProcess(first.ctx.db.table, failing);
    try {
      const before = await currentBalance(driver.ctx, checking);
      const paymentId = await pay(driver.ctx, "9.00");
      failing.add(paymentId);
      const { failures, parked } = driver.worker.stats;
      const retries: number[] = [];
      for (
        let step = 0;
        step < 2 * MAX_STEP_FAILURES && isActiveStatus(await statusOf(driver.ctx, paymentId));
        step += 1
      ) {
        const nextMs = driver.worker.armedDueMs()[0];
        expect(nextMs, "a timer is armed for the retry").toBeDefined();
        if (step > 0) retries.push(nextMs! - timers.nowMs);
        timers.advanceTo(nextMs!);
        await driver.worker.idle();
      }
      expect(retries).toEqual([1, 2, 3, 4].map(stepRetryDelayMs));
      expect(driver.worker.stats.failures - failures).toBe(MAX_STEP_FAILURES - 1);
      expect(driver.worker.stats.parked - parked).toBe(1);
      const stored = (await getPayment(driver.ctx, paymentId))!;
      expect(stored).toMatchObject({ status: "parked", nextDueAt: null });
      const journal = (await loadJournal(driver.ctx, stored.journalId))!;
      expect(journal.history.map((record) => record.operation)).toEqual(["create", "void"]);
      // The hold is released: the funds are available again (and nothing left the account for it).
      expect(await currentBalance(driver.ctx, checking)).toMatchObject({
        available: before.available,
        pending_out: before.pending_out,
      });
      expect(
        (await listParkedPayments(driver.ctx, { limit: 100 })).items.find((item) => item.paymentId === paymentId),
      ).toMatchObject({ stepFailures: MAX_STEP_FAILURES, stuckStatus: "pending" });
      // The sweeps leave it alone from now on.
      timers.advanceTo(timers.nowMs + 60 * 60_000);
      await driver.worker.idle();
      expect(driver.worker.armedDueMs()).toEqual([]);
    } finally {
      await driver.worker.stop();
      driver.ctx.db.raw.destroy();
    }
  });
});
