import { createContext } from "@fintech/core/shared/context";
import { sqsSchedulerFromEnv, sweepDuePayments, workerConfig } from "./payment-queue";

/**
 * Run every minute by EventBridge (infra/resources/schedules.ts paymentSweeper): enqueues the payment
 * steps that are due and whose queue message was lost, so no payment stays in processing after a
 * crash. Reads the due markers, claims each step it enqueues on its marker (one conditional
 * UpdateItem: the only write it makes) and sends the messages; the worker does the rest.
 */
const core = createContext(workerConfig());
const scheduler = sqsSchedulerFromEnv(core);
if (!scheduler) throw new Error("PAYMENT_QUEUE_URL is not set (stacks/PaymentWorker.ts sets it)");

export async function handler(): Promise<{ enqueued: number }> {
  return { enqueued: await sweepDuePayments(core, scheduler!) };
}
