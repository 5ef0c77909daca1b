import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { z } from "zod";
import { claimOverdueSteps } from "@fintech/core/payments/markers";
import { runPaymentStep } from "@fintech/core/payments/runner";
import type { PaymentScheduler } from "@fintech/core/payments/scheduler";
import { loadConfig, type AppConfig } from "@fintech/core/shared/config";
import type { CoreContext } from "@fintech/core/shared/context";
import type { Logger } from "@fintech/core/shared/logger";

/**
 * The payment lifecycle over SQS (stacks/PaymentWorker.ts): the scheduler the API and the worker
 * use to send a payment's next step as a delayed message, the worker's handling of those
 * messages, and the sweeper's re-enqueueing of due steps whose message was lost. The Lambda
 * entry points (payment-worker.ts, payment-sweeper.ts) only build a context and call these.
 *
 * Each message names its step (the due time it was sent for). The worker runs it with core's
 * runPaymentStep, under a lease on the step's due marker: a duplicate delivered while the step
 * runs does nothing, one delivered after it ran is dropped, and a step that throws is retried by
 * a delayed message and parked after MAX_STEP_FAILURES (core's payments/runner.ts). The sweeper
 * claims the steps it enqueues on their markers, so under a backlog it sends a step again only
 * after a doubling wait (payments/markers.ts), not every minute.
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
export { MAX_STEP_FAILURES, STEP_LEASE_MS } from "@fintech/core/payments/model";

/**
 * A queue message's body: which payment, when to run it (`dueAt`), and which step it is for
 * (`step`, the payment's nextDueAt when it was sent; absent in messages of older releases).
 */
export const PaymentStepMessage = z.object({
  paymentId: z.string().min(1).max(64),
  dueAt: z.iso.datetime(),
  step: z.iso.datetime().optional(),
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

  schedule(paymentId: string, runAt: Date, step?: string): Promise<void> {
    return this.scheduleMany([{ paymentId, dueAt: runAt.toISOString(), ...(step ? { step } : {}) }]);
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
          this.logger.warn("payment step not enqueued; the sweeper will find it", {
            paymentId: batch[Number(failed.Id)]?.paymentId,
            reason: failed.Message,
          });
        }
      } catch (error) {
        this.logger.warn("payment steps not enqueued; the sweeper will find them", {
          error,
          payments: batch.map((step) => step.paymentId),
        });
      }
    }
  }
}

/** The scheduler of a function the stack gave the queue's URL to; none without it (local runs, the feeds). */
export function sqsSchedulerFromEnv(
  ctx: Pick<CoreContext, "clock" | "logger">,
  env: Record<string, string | undefined> = process.env,
): SqsPaymentScheduler | undefined {
  const queueUrl = env[PAYMENT_QUEUE_URL_VARIABLE];
  if (!queueUrl) return undefined;
  const client = new SQSClient({});
  return new SqsPaymentScheduler((command) => client.send(command), queueUrl, ctx.clock, ctx.logger);
}

/** The worker and sweeper answer no request and sign, check or hash nothing: no key secret is bound to them. */
export function workerConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return loadConfig(env);
}

export interface QueueRecord {
  messageId: string;
  body: string;
}

/**
 * Runs the steps of one batch of queue messages. A message for a step not yet due (a wait
 * longer than SQS's 15 minutes) is sent again for the rest of the wait. Otherwise the step runs
 * under its lease (runPaymentStep) and what comes next, if anything, is sent: the next step, or
 * the retry of a step that threw. A duplicate (the step held by another run, or already run)
 * ends quietly. Only an error that could not be recorded on the step (the store failing) is
 * reported for that message, which SQS delivers again after its visibility timeout and, after
 * several failures, moves to the dead-letter queue; the due marker stays, so the sweeper finds
 * the step in any case.
 */
export async function runPaymentSteps(
  ctx: CoreContext,
  scheduler: PaymentScheduler,
  records: QueueRecord[],
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const outcomes = await Promise.all(
    records.map(async (record) => {
      try {
        const step = PaymentStepMessage.parse(JSON.parse(record.body));
        const dueAt = new Date(step.dueAt);
        if (dueAt.getTime() - ctx.clock().getTime() > EARLY_TOLERANCE_MS) {
          await scheduler.schedule(step.paymentId, dueAt, step.step);
          return null;
        }
        const run = await runPaymentStep(ctx, step.paymentId, step.step);
        if (run.runAt) await scheduler.schedule(step.paymentId, new Date(run.runAt), run.step ?? undefined);
        return null;
      } catch (error) {
        ctx.logger.error("payment step failed", { error, messageId: record.messageId });
        return record.messageId;
      }
    }),
  );
  return {
    batchItemFailures: outcomes.filter((id): id is string => id !== null).map((itemIdentifier) => ({ itemIdentifier })),
  };
}

/**
 * The sweeper: enqueues the steps due since at least SWEEP_GRACE_MS that no worker holds and no
 * sweep enqueued recently (their message was lost, or is stuck behind a backlog), each claimed on
 * its marker first so that concurrent sweeps and later ones do not send it again at once.
 */
export async function sweepDuePayments(
  ctx: CoreContext,
  scheduler: Pick<SqsPaymentScheduler, "scheduleMany">,
): Promise<number> {
  const now = ctx.clock();
  const claimed = await claimOverdueSteps(ctx, {
    dueBefore: new Date(now.getTime() - SWEEP_GRACE_MS),
    limit: SWEEP_LIMIT,
  });
  await scheduler.scheduleMany(
    claimed.map((step) => ({ paymentId: step.paymentId, dueAt: now.toISOString(), step: step.dueAt })),
  );
  if (claimed.length > 0) ctx.logger.info("payment sweep enqueued due steps", { count: claimed.length });
  return claimed.length;
}
