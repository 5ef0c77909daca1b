import { createContext } from "@fintech/core/shared/context";
import { runIntegrityMessages, sqsIntegrityQueueFromEnv } from "./integrity-queue";
import { workerConfig, type QueueRecord } from "./payment-queue";

/**
 * Consumer of the IntegrityJobs queue (stacks/IntegrityJobs.ts): runs each message's
 * whole-ledger integrity job a page at a time until the invocation's time is nearly up, then
 * sends the job to the queue again (see runIntegrityMessages).
 */
const core = createContext(workerConfig());
const queue = sqsIntegrityQueueFromEnv();
if (!queue) throw new Error("INTEGRITY_QUEUE_URL is not set (stacks/IntegrityJobs.ts sets it)");

export interface SqsEvent {
  Records: QueueRecord[];
}

/** What the handler reads of Lambda's context object. */
export interface InvocationContext {
  getRemainingTimeInMillis(): number;
}

/** Partial batch response: only the failed messages come back (ReportBatchItemFailures). */
export async function handler(
  event: SqsEvent,
  context: InvocationContext,
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  return runIntegrityMessages(core, queue!, event.Records, () => context.getRemainingTimeInMillis());
}
