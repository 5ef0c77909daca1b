import { createContext } from "@fintech/core/shared/context";
import { runPaymentSteps, sqsSchedulerFromEnv, workerConfig, type QueueRecord } from "./payment-queue";

/**
 * Consumer of the PaymentSteps queue (stacks/PaymentWorker.ts): runs each message's payment step
 * under its lease and sends what comes next (see runPaymentSteps). Its context has no scheduler,
 * so the step itself sends nothing: the next message is sent once, here, from what the run returns.
 */
const core = createContext(workerConfig());
const scheduler = sqsSchedulerFromEnv(core);
if (!scheduler) throw new Error("PAYMENT_QUEUE_URL is not set (stacks/PaymentWorker.ts sets it)");

export interface SqsEvent {
  Records: QueueRecord[];
}

/** Partial batch response: only the failed messages come back (ReportBatchItemFailures). */
export async function handler(event: SqsEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  return runPaymentSteps(core, scheduler!, event.Records);
}
