import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { z } from "zod";
import type { IntegrityJobQueue } from "@fintech/core/ledger/integrity-queue";
import { runIntegrityStep } from "@fintech/core/ledger/integrity-steps";
import { INTEGRITY_JOB_ID } from "@fintech/core/ledger/integrity-model";
import type { CoreContext } from "@fintech/core/shared/context";
import type { QueueRecord } from "./payment-queue";

/**
 * The whole-ledger integrity check over SQS (stacks/IntegrityJobs.ts): the queue the API sends a
 * started job to, and the worker's handling of its messages. One message stands for "run this
 * job from where it stands": the worker runs steps while its invocation has time, then sends the
 * job to the queue again. Steps are idempotent (core's ledger/integrity-steps.ts), so a duplicate
 * or redelivered message only costs a read.
 */

export const INTEGRITY_QUEUE_URL_VARIABLE = "INTEGRITY_QUEUE_URL";
/** SQS delays a message by at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;
/**
 * Time kept free at the end of an invocation: a step (one page, one transaction) takes well
 * under a second, but a slow store call may last up to about 16 s with its retries
 * (shared/dynamo.ts), and the next message must still be sent.
 */
export const STEP_RESERVE_MS = 20_000;

export const IntegrityStepMessage = z.object({ jobId: z.string().regex(INTEGRITY_JOB_ID) });

/** The one SQS call the queue makes; a test gives a recording fake. */
export type SendMessage = (command: SendMessageCommand) => Promise<unknown>;

export class SqsIntegrityQueue implements IntegrityJobQueue {
  constructor(
    private readonly send: SendMessage,
    private readonly queueUrl: string,
  ) {}

  /** Unlike a payment step, a failed send is thrown: the caller fails the job (API) or lets SQS redeliver (worker). */
  async enqueue(jobId: string, delaySeconds = 0): Promise<void> {
    await this.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify({ jobId } satisfies z.infer<typeof IntegrityStepMessage>),
        DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))),
      }),
    );
  }
}

/** The queue of a function the stack gave its URL to; none without it (local runs, other functions). */
export function sqsIntegrityQueueFromEnv(
  env: Record<string, string | undefined> = process.env,
): SqsIntegrityQueue | undefined {
  const queueUrl = env[INTEGRITY_QUEUE_URL_VARIABLE];
  if (!queueUrl) return undefined;
  const client = new SQSClient({});
  return new SqsIntegrityQueue((command) => client.send(command), queueUrl);
}

/**
 * Runs the jobs of a batch of messages: steps while the invocation has more than STEP_RESERVE_MS
 * left, then the job goes back on the queue (after the retry delay when a step failed). A message
 * whose job could not be sent on is reported failed, so SQS delivers it again after its
 * visibility timeout; a message that is not a job id is dropped (no delivery would ever work).
 */
export async function runIntegrityMessages(
  ctx: CoreContext,
  queue: Pick<SqsIntegrityQueue, "enqueue">,
  records: QueueRecord[],
  remainingMs: () => number,
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const failures: string[] = [];
  for (const record of records) {
    let message: z.infer<typeof IntegrityStepMessage>;
    try {
      message = IntegrityStepMessage.parse(JSON.parse(record.body));
    } catch (error) {
      ctx.logger.error("integrity message dropped: not a job", { error, messageId: record.messageId });
      continue;
    }
    try {
      for (;;) {
        const outcome = await runIntegrityStep(ctx, message.jobId);
        if (outcome.state === "continue") {
          if (remainingMs() > STEP_RESERVE_MS) continue;
          await queue.enqueue(message.jobId);
        } else if (outcome.state === "retry") {
          await queue.enqueue(message.jobId, outcome.delayMs / 1000);
        } else if (outcome.state === "finished") {
          ctx.logger.info("integrity check finished", {
            jobId: message.jobId,
            status: outcome.job.status,
            ok: outcome.job.result?.ok ?? null,
          });
        }
        break;
      }
    } catch (error) {
      ctx.logger.error("integrity message failed; SQS delivers it again", {
        error,
        messageId: record.messageId,
        jobId: message.jobId,
      });
      failures.push(record.messageId);
    }
  }
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
}
