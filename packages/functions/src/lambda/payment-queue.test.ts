import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { register } from "@fintech/core/auth/service";
import { createCustomerAccount } from "@fintech/core/ledger/accounts";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { deposit, setJournalStatus } from "@fintech/core/ledger/service";
import { readMarker, SWEEP_REPEAT_BASE_MS } from "@fintech/core/payments/markers";
import { listParkedPayments } from "@fintech/core/payments/review";
import { initiatePayment } from "@fintech/core/payments/service";
import type { PaymentCaller } from "@fintech/core/payments/model";
import { getPayment, paymentHistory } from "@fintech/core/payments/store";
import { withFailingSteps } from "@fintech/testing/payments";
import { createLogger } from "@fintech/core/shared/logger";
import {
  delaySecondsUntil,
  MAX_DELAY_SECONDS,
  MAX_STEP_FAILURES,
  runPaymentSteps,
  SqsPaymentScheduler,
  SWEEP_GRACE_MS,
  sweepDuePayments,
  type SendBatch,
} from "./payment-queue";

/**
 * The cloud worker's logic (payment-worker.ts and payment-sweeper.ts only wrap these) against
 * DynamoDB Local with a controlled clock, SQS replaced by a recorder of the batches sent.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let nowMs = Date.parse("2026-05-04T08:00:00.000Z");
const clock = () => new Date(nowMs);
let sent: { paymentId: string; dueAt: string; step?: string; delay: number }[] = [];
let failSends = false;
const send: SendBatch = async (command: SendMessageBatchCommand) => {
  if (failSends) throw new Error("SQS is down");
  for (const entry of command.input.Entries ?? [])
    sent.push({ ...JSON.parse(entry.MessageBody!), delay: entry.DelaySeconds! });
  return {};
};
const scheduler = () => new SqsPaymentScheduler(send, "https://sqs.test/queue", clock, createLogger("silent"));
let payer: PaymentCaller;
let from: string;
let to: string;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
  const session = await register(ctx, {
    email: "queue@example.com",
    password: "long enough pw",
    first_name: "Qu",
    last_name: "Eue",
    phone: null,
    date_of_birth: null,
  });
  payer = { userId: session.user.id, user: session.user };
  const open = async (name: string) =>
    (await createCustomerAccount(ctx, payer.userId, CreateAccountInput.parse({ name, currency: "USD" }))).account.id;
  from = await open("Checking");
  to = await open("Savings");
  const funded = await deposit(ctx, payer.userId, { account_id: from, amount: "500.00" }, null);
  await setJournalStatus(
    ctx,
    payer.userId,
    (JSON.parse(funded.body) as { data: { id: string } }).data.id,
    "post",
    null,
  );
});
afterAll(async () => ctx.dispose());

const pay = async () =>
  (
    await initiatePayment(
      ctx,
      payer,
      {
        userId: payer.userId,
        fromAccountId: from,
        toAccountId: to,
        amount: "3.00",
        currency: "USD",
        forceRail: "SWIFT",
      },
      null,
    )
  ).reply.payment.paymentId;
const message = (paymentId: string, dueAt: Date, messageId = paymentId, step?: string) => ({
  messageId,
  body: JSON.stringify({ paymentId, dueAt: dueAt.toISOString(), ...(step ? { step } : {}) }),
});
/** The messages the worker sent, as SQS would deliver them. */
const delivered = (entries: typeof sent) =>
  entries.map((entry, index) => message(entry.paymentId, new Date(entry.dueAt), `m${index}`, entry.step));

describe("SqsPaymentScheduler", () => {
  it("delays each message to its due time within SQS's 0..900 s, ten per batch, and never throws on a failed send", async () => {
    const now = clock();
    expect(delaySecondsUntil(new Date(nowMs + 1_200), now)).toBe(2);
    expect(delaySecondsUntil(new Date(nowMs - 5_000), now)).toBe(0);
    expect(delaySecondsUntil(new Date(nowMs + 86_400_000), now)).toBe(MAX_DELAY_SECONDS);
    sent = [];
    const batches: number[] = [];
    const counting = new SqsPaymentScheduler(
      async (command) => (batches.push(command.input.Entries!.length), send(command)),
      "q",
      clock,
      createLogger("silent"),
    );
    await counting.scheduleMany(
      Array.from({ length: 23 }, (_, i) => ({
        paymentId: `p${i}`,
        dueAt: new Date(nowMs + i * 100_000).toISOString(),
      })),
    );
    expect(batches).toEqual([10, 10, 3]);
    expect(sent.map((entry) => entry.delay)).toEqual(Array.from({ length: 23 }, (_, i) => Math.min(900, i * 100)));
    failSends = true;
    await expect(scheduler().schedule("p1", clock())).resolves.toBeUndefined();
    failSends = false;
  });
});

describe("runPaymentSteps (the worker) and sweepDuePayments (the sweeper)", () => {
  it("runs a due step and sends the next; an early message (a long wait) is sent again for the rest of it; a bad message is a batch failure", async () => {
    const paymentId = await pay();
    sent = [];
    const reply = await runPaymentSteps(ctx, scheduler(), [
      message(paymentId, clock()),
      { messageId: "bad", body: "{not json" },
      message("no-such-payment", clock(), "unknown"),
    ]);
    expect(reply.batchItemFailures).toEqual([{ itemIdentifier: "bad" }, { itemIdentifier: "unknown" }]);
    const processing = (await getPayment(ctx, paymentId))!;
    expect(processing.status).toBe("processing");
    // SWIFT answers after 2 s: the next step's message is delayed to then (whole seconds, rounded up).
    const answerDelay = Math.ceil((Date.parse(processing.nextDueAt!) - nowMs) / 1000);
    expect(answerDelay).toBeGreaterThanOrEqual(2);
    expect(sent).toEqual([{ paymentId, dueAt: processing.nextDueAt, step: processing.nextDueAt, delay: answerDelay }]);

    // A message due later than now + 1 s (a hop of a wait beyond 15 minutes) changes nothing and is sent on.
    sent = [];
    const later = new Date(nowMs + 3_600_000);
    expect((await runPaymentSteps(ctx, scheduler(), [message(paymentId, later)])).batchItemFailures).toEqual([]);
    expect(sent).toEqual([{ paymentId, dueAt: later.toISOString(), delay: MAX_DELAY_SECONDS }]);
    expect((await getPayment(ctx, paymentId))!.version).toBe(processing.version);

    // A duplicate delivered before the step is due: advancePayment does nothing, the next step is asked again.
    sent = [];
    await runPaymentSteps(ctx, scheduler(), [message(paymentId, clock())]);
    expect((await getPayment(ctx, paymentId))!.version).toBe(processing.version);
    expect(sent).toEqual([{ paymentId, dueAt: processing.nextDueAt, step: processing.nextDueAt, delay: answerDelay }]);

    // Due: the attempt's outcome commits; nothing further is sent for an ended payment.
    nowMs = Date.parse(processing.nextDueAt!) + 10;
    sent = [];
    await runPaymentSteps(ctx, scheduler(), [message(paymentId, clock())]);
    const after = (await getPayment(ctx, paymentId))!;
    if (after.status === "processing")
      expect(sent).toEqual([expect.objectContaining({ paymentId, dueAt: after.nextDueAt })]);
    else expect(sent).toEqual([]);
  });

  it("the sweeper re-enqueues steps due for longer than the grace, and leaves recent ones to their message", async () => {
    const lost = await pay();
    const step = (await getPayment(ctx, lost))!.nextDueAt!;
    sent = [];
    expect(await sweepDuePayments(ctx, scheduler())).toBe(0);
    nowMs += SWEEP_GRACE_MS + 1;
    const found = await sweepDuePayments(ctx, scheduler());
    expect(found).toBeGreaterThanOrEqual(1);
    expect(sent).toContainEqual({ paymentId: lost, dueAt: clock().toISOString(), step, delay: 0 });
    await runPaymentSteps(ctx, scheduler(), delivered(sent.filter((entry) => entry.paymentId === lost)));
    expect((await getPayment(ctx, lost))!.status).toBe("processing");
  });

  it("under a backlog the sweeper sends a step again only after a doubling wait, not every minute", async () => {
    const waiting = await pay();
    nowMs += SWEEP_GRACE_MS + 1;
    const sweeps: number[] = [];
    // Ten sweeps a minute apart while the step's message waits in a backlog (nobody runs it).
    for (let minute = 0; minute < 10; minute += 1) {
      sent = [];
      await sweepDuePayments(ctx, scheduler());
      sweeps.push(sent.filter((entry) => entry.paymentId === waiting).length);
      nowMs += 60_000;
    }
    // Sent at once, then after 2 and 4 more minutes: 3 messages in 10 minutes, not 10.
    expect(SWEEP_REPEAT_BASE_MS).toBe(120_000);
    expect(sweeps).toEqual([1, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    const step = (await getPayment(ctx, waiting))!.nextDueAt!;
    expect(await readMarker(ctx, waiting, step)).toMatchObject({ sweeps: 3 });
    // The backlog drains: the three copies run the step once; the first sends the next step, the others end quietly.
    sent = [];
    const copies = [
      message(waiting, clock(), "c1", step),
      message(waiting, clock(), "c2", step),
      message(waiting, clock(), "c3", step),
    ];
    expect((await runPaymentSteps(ctx, scheduler(), copies)).batchItemFailures).toEqual([]);
    const processing = (await getPayment(ctx, waiting))!;
    expect(processing.status).toBe("processing");
    expect((await paymentHistory(ctx, waiting)).filter((entry) => entry.status === "processing")).toHaveLength(1);
    expect(sent).toEqual([
      { paymentId: waiting, dueAt: processing.nextDueAt, step: processing.nextDueAt, delay: expect.any(Number) },
    ]);
  });

  it("a step that always throws is not a batch failure: it is retried by delayed messages and parked after MAX_STEP_FAILURES", async () => {
    const failing = new Set<string>();
    const failingCtx = withFailingSteps(ctx, failing);
    const doomed = await pay();
    failing.add(doomed);
    let inbox = [message(doomed, clock(), "first", (await getPayment(ctx, doomed))!.nextDueAt!)];
    const delays: number[] = [];
    for (let delivery = 1; delivery <= MAX_STEP_FAILURES; delivery += 1) {
      sent = [];
      const reply = await runPaymentSteps(failingCtx, scheduler(), inbox);
      // Reported as done: SQS does not deliver the message again nor move it to the dead-letter queue.
      expect(reply.batchItemFailures).toEqual([]);
      if (delivery < MAX_STEP_FAILURES) {
        expect(sent).toHaveLength(1);
        delays.push(sent[0]!.delay);
        nowMs = Date.parse(sent[0]!.dueAt);
        inbox = delivered(sent);
      }
    }
    expect(delays).toEqual([30, 60, 120, 240]);
    expect(sent).toEqual([]);
    const parked = (await getPayment(ctx, doomed))!;
    expect(parked).toMatchObject({ status: "parked", nextDueAt: null });
    expect(parked.failureReason).toContain("held for review");
    expect((await listParkedPayments(ctx, { limit: 100 })).items.map((item) => item.paymentId)).toContain(doomed);
    // A late copy of the step finds nothing to do and sends nothing.
    expect((await runPaymentSteps(failingCtx, scheduler(), inbox)).batchItemFailures).toEqual([]);
    expect(sent).toEqual([]);
  });
});
