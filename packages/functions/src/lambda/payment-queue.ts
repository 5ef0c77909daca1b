import { randomBytes } from "node:crypto";
import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { z } from "zod";
import type { PaymentScheduler } from "@fintech/core/payments/scheduler";
import { advancePayment, duePayments } from "@fintech/core/payments/worker";
import { loadConfig, type AppConfig } from "@fintech/core/shared/config";
import type { CoreContext } from "@fintech/core/shared/context";
import type { Logger } from "@fintech/core/shared/logger";

/**
 * The payment lifecycle over SQS (stacks/PaymentWorker.ts): the scheduler the API and the worker
 * use to send a payment's next step as a delayed message, the worker's handling of those
 * messages, and the sweeper's re-enqueueing of due steps whose message was lost. The Lambda
 * entry points (payment-worker.ts, payment-sweeper.ts) only build a context and call these.
 */

/** SQS holds a message for at most 15 minutes; a later step is sent again on arrival (a hop). */
export const MAX_DELAY_SECONDS = 900;
/** SendMessageBatch takes at most 10 entries. */
const SQS_BATCH = 10;
export const PAYMENT_QUEUE_URL_VARIABLE = "PAYMENT_QUEUE_URL";
/**
 * The sweeper re-enqueues steps due at least this long ago: a step due more recently most likely
 * has its message on the way (the worker runs it within moments of its due time), and a duplicate
 * would only cost a read.
 */
export const SWEEP_GRACE_MS = 30_000;
/** Due steps the sweeper takes per run (a backlog larger than this is taken over the next runs). */
export const SWEEP_LIMIT = 1_000;
/** A message that arrives this much before its due time is early by design (a hop), not by clock skew. */
const EARLY_TOLERANCE_MS = 1_000;

/** A queue message's body: which payment, and when its step is due. */
export const PaymentStepMessage = z.object({
  paymentId: z.string().min(1).max(64),
  dueAt: z.iso.datetime(),
});
export type PaymentStepMessage = z.infer<typeof PaymentStepMessage>;

/** The DelaySeconds that makes a message arrive at dueAt, within SQS's 0..900 s. */
export function delaySecondsUntil(dueAt: Date, now: Date): number {
  const seconds = Math.ceil((dueAt.getTime() - now.getTime()) / 1000);
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, seconds));
}

/** The one SQS call the scheduler makes; a test gives a recording fake. */
export type SendBatch = (command: SendMessageBatchCommand) => Promise<{ Failed?: { Id?: string; Message?: string }[] }>;

/**
 * PaymentScheduler over SQS. A failed send is logged, never thrown: the step is already
 * committed and has its due marker, so the sweeper enqueues it within a minute or two; failing
 * the caller (an API request whose payment did commit) would be worse than a late step.
 */
export class SqsPaymentScheduler implements PaymentScheduler {
  constructor(
    private readonly send: SendBatch,
    private readonly queueUrl: string,
    private readonly clock: () => Date,
    private readonly logger: Logger,
  ) {}

  schedule(paymentId: string, dueAt: Date): Promise<void> {
    return this.scheduleMany([{ paymentId, dueAt: dueAt.toISOString() }]);
  }

  async scheduleMany(steps: PaymentStepMessage[]): Promise<void> {
    const now = this.clock();
    for (let start = 0; start < steps.length; start += SQS_BATCH) {
      const batch = steps.slice(start, start + SQS_BATCH);
      try {
        const reply = await this.send(
          new SendMessageBatchCommand({
            QueueUrl: this.queueUrl,
            Entries: batch.map((step, index) => ({
              Id: String(index),
              MessageBody: JSON.stringify(step),
              DelaySeconds: delaySecondsUntil(new Date(step.dueAt), now),
            })),
          }),
        );
        for (const failed of reply.Failed ?? []) {
          this.logger.warn("payment step not enqueued; the sweeper will find it", { paymentId: batch[Number(failed.Id)]?.paymentId, reason: failed.Message });
        }
      } catch (error) {
        this.logger.warn("payment steps not enqueued; the sweeper will find them", { error, payments: batch.map((step) => step.paymentId) });
      }
    }
  }
}

/** The scheduler of a function the stack gave the queue's URL to; none without it (local runs, the feeds). */
export function sqsSchedulerFromEnv(ctx: Pick<CoreContext, "clock" | "logger">, env: Record<string, string | undefined> = process.env): SqsPaymentScheduler | undefined {
  const queueUrl = env[PAYMENT_QUEUE_URL_VARIABLE];
  if (!queueUrl) return undefined;
  const client = new SQSClient({});
  return new SqsPaymentScheduler((command) => client.send(command), queueUrl, ctx.clock, ctx.logger);
}

/**
 * The worker and sweeper answer no request and sign or check no tokens; the shared config still
 * requires a JWT_SECRET (for the API's sake), so they get a random one nothing ever verifies.
 */
export function workerConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return loadConfig({ ...env, JWT_SECRET: env.JWT_SECRET ?? randomBytes(32).toString("hex") });
}

export interface QueueRecord {
  messageId: string;
  body: string;
}

/**
 * Runs the steps of one batch of queue messages. A message for a step not yet due (a wait
 * longer than SQS's 15 minutes) is sent again for the rest of the wait. Otherwise advancePayment
 * runs (idempotent: a duplicate or early message changes nothing) and the next step, if any, is
 * sent. A failure is reported for that message alone, which SQS delivers again after its
 * visibility timeout and, after several failures, moves to the dead-letter queue; the due marker
 * stays, so the sweeper finds the step in any case.
 */
export async function runPaymentSteps(ctx: CoreContext, scheduler: PaymentScheduler, records: QueueRecord[]): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const outcomes = await Promise.all(
    records.map(async (record) => {
      try {
        const step = PaymentStepMessage.parse(JSON.parse(record.body));
        const dueAt = new Date(step.dueAt);
        if (dueAt.getTime() - ctx.clock().getTime() > EARLY_TOLERANCE_MS) {
          await scheduler.schedule(step.paymentId, dueAt);
          return null;
        }
        const advanced = await advancePayment(ctx, step.paymentId);
        if (advanced.nextDueAt) await scheduler.schedule(step.paymentId, new Date(advanced.nextDueAt));
        return null;
      } catch (error) {
        ctx.logger.error("payment step failed", { error, messageId: record.messageId });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: outcomes.filter((id): id is string => id !== null).map((itemIdentifier) => ({ itemIdentifier })) };
}

/** The sweeper: enqueues every step due since at least SWEEP_GRACE_MS (its message was lost or is late). */
export async function sweepDuePayments(ctx: CoreContext, scheduler: Pick<SqsPaymentScheduler, "scheduleMany">): Promise<number> {
  const now = ctx.clock();
  const due = await duePayments(ctx, new Date(now.getTime() - SWEEP_GRACE_MS), SWEEP_LIMIT);
  await scheduler.scheduleMany(due.map((paymentId) => ({ paymentId, dueAt: now.toISOString() })));
  if (due.length > 0) ctx.logger.info("payment sweep enqueued due steps", { count: due.length });
  return due.length;
}
