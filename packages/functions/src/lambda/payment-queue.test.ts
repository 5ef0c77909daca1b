import type { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "../../../../infra/local/testing";
import { register } from "@fintech/core/auth/service";
import { createCustomerAccount } from "@fintech/core/ledger/accounts";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { deposit, setJournalStatus } from "@fintech/core/ledger/service";
import { initiatePayment, type PaymentCaller } from "@fintech/core/payments/service";
import { getPayment } from "@fintech/core/payments/store";
import { createLogger } from "@fintech/core/shared/logger";
import { delaySecondsUntil, MAX_DELAY_SECONDS, runPaymentSteps, SqsPaymentScheduler, SWEEP_GRACE_MS, sweepDuePayments, type SendBatch } from "./payment-queue";

/**
 * The cloud worker's logic (payment-worker.ts and payment-sweeper.ts only wrap these) against
 * DynamoDB Local with a controlled clock, SQS replaced by a recorder of the batches sent.
 */

type TestContext = Awaited<ReturnType<typeof createTestContext>>;
let ctx: TestContext;
let nowMs = Date.parse("2026-05-04T08:00:00.000Z");
const clock = () => new Date(nowMs);
let sent: { paymentId: string; dueAt: string; delay: number }[] = [];
let failSends = false;
const send: SendBatch = async (command: SendMessageBatchCommand) => {
  if (failSends) throw new Error("SQS is down");
  for (const entry of command.input.Entries ?? []) sent.push({ ...JSON.parse(entry.MessageBody!), delay: entry.DelaySeconds! });
  return {};
};
const scheduler = () => new SqsPaymentScheduler(send, "https://sqs.test/queue", clock, createLogger("silent"));
let payer: PaymentCaller;
let from: string;
let to: string;

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
  const session = await register(ctx, { email: "queue@example.com", password: "long enough pw", first_name: "Qu", last_name: "Eue", phone: null, date_of_birth: null });
  payer = { userId: session.user.id, user: session.user };
  const open = async (name: string) => (await createCustomerAccount(ctx, payer.userId, CreateAccountInput.parse({ name, currency: "USD" }))).account.id;
  from = await open("Checking");
  to = await open("Savings");
  const funded = await deposit(ctx, payer.userId, { account_id: from, amount: "500.00" }, null);
  await setJournalStatus(ctx, payer.userId, (JSON.parse(funded.body) as { data: { id: string } }).data.id, "post", null);
});
afterAll(async () => ctx.dispose());

const pay = async () => (await initiatePayment(ctx, payer, { userId: payer.userId, fromAccountId: from, toAccountId: to, amount: "3.00", currency: "USD", forceRail: "SWIFT" }, null)).reply.payment.paymentId;
const message = (paymentId: string, dueAt: Date, messageId = paymentId) => ({ messageId, body: JSON.stringify({ paymentId, dueAt: dueAt.toISOString() }) });

describe("SqsPaymentScheduler", () => {
  it("delays each message to its due time within SQS's 0..900 s, ten per batch, and never throws on a failed send", async () => {
    const now = clock();
    expect(delaySecondsUntil(new Date(nowMs + 1_200), now)).toBe(2);
    expect(delaySecondsUntil(new Date(nowMs - 5_000), now)).toBe(0);
    expect(delaySecondsUntil(new Date(nowMs + 86_400_000), now)).toBe(MAX_DELAY_SECONDS);
    sent = [];
    const batches: number[] = [];
    const counting = new SqsPaymentScheduler(async (command) => (batches.push(command.input.Entries!.length), send(command)), "q", clock, createLogger("silent"));
    await counting.scheduleMany(Array.from({ length: 23 }, (_, i) => ({ paymentId: `p${i}`, dueAt: new Date(nowMs + i * 100_000).toISOString() })));
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
    const reply = await runPaymentSteps(ctx, scheduler(), [message(paymentId, clock()), { messageId: "bad", body: "{not json" }, message("no-such-payment", clock(), "unknown")]);
    expect(reply.batchItemFailures).toEqual([{ itemIdentifier: "bad" }, { itemIdentifier: "unknown" }]);
    const processing = (await getPayment(ctx, paymentId))!;
    expect(processing.status).toBe("processing");
    // SWIFT answers after 2 s: the next step's message is delayed to then (whole seconds, rounded up).
    const answerDelay = Math.ceil((Date.parse(processing.nextDueAt!) - nowMs) / 1000);
    expect(answerDelay).toBeGreaterThanOrEqual(2);
    expect(sent).toEqual([{ paymentId, dueAt: processing.nextDueAt, delay: answerDelay }]);

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
    expect(sent).toEqual([{ paymentId, dueAt: processing.nextDueAt, delay: answerDelay }]);

    // Due: the attempt's outcome commits; nothing further is sent for an ended payment.
    nowMs = Date.parse(processing.nextDueAt!) + 10;
    sent = [];
    await runPaymentSteps(ctx, scheduler(), [message(paymentId, clock())]);
    const after = (await getPayment(ctx, paymentId))!;
    if (after.status === "processing") expect(sent).toEqual([expect.objectContaining({ paymentId, dueAt: after.nextDueAt })]);
    else expect(sent).toEqual([]);
  });

  it("the sweeper re-enqueues steps due for longer than the grace, and leaves recent ones to their message", async () => {
    const lost = await pay();
    sent = [];
    expect(await sweepDuePayments(ctx, scheduler())).toBe(0);
    nowMs += SWEEP_GRACE_MS + 1;
    const found = await sweepDuePayments(ctx, scheduler());
    expect(found).toBeGreaterThanOrEqual(1);
    expect(sent).toContainEqual({ paymentId: lost, dueAt: clock().toISOString(), delay: 0 });
    await runPaymentSteps(ctx, scheduler(), sent.filter((entry) => entry.paymentId === lost).map((entry) => message(entry.paymentId, new Date(entry.dueAt))));
    expect((await getPayment(ctx, lost))!.status).toBe("processing");
  });
});
