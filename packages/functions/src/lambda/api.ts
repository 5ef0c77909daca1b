import type { IntegrityJobQueue } from "@fintech/core/ledger/integrity-queue";
import type { PaymentScheduler } from "@fintech/core/payments/scheduler";
import { bufferedHandler } from "./buffered";
import { lambdaContext } from "./context";

const core = await lambdaContext();

/** Loads something once, at its first use; a failed load is tried again by the next use. */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/*
 * The queues the stack gives the API: each new payment's next step goes to the payment queue, an
 * admin's whole-ledger check to the integrity queue (it runs outside the request). Their modules
 * carry the workers' code too, which a request that sends nothing never needs, so they load at
 * the first message. Without its URL in the environment a queue sends nothing, as without one.
 */
const paymentQueue = onFirstUse(async () => (await import("./payment-queue")).sqsSchedulerFromEnv(core));
const integrityQueue = onFirstUse(async () => (await import("./integrity-queue")).sqsIntegrityQueueFromEnv());
const paymentScheduler: PaymentScheduler = {
  async schedule(paymentId, runAt, step) {
    await (await paymentQueue())?.schedule(paymentId, runAt, step);
  },
};
const integrityJobs: IntegrityJobQueue = {
  async enqueue(jobId) {
    await (await integrityQueue())?.enqueue(jobId);
  },
};

/** Buffered API: every route of the Hono app behind CloudFront's /api/*, /v1/*, /health. */
export const { handler } = bufferedHandler({ ...core, paymentScheduler, integrityJobs });
