import { randomUUID } from "node:crypto";
import type { CoreContext } from "../shared/context";
import {
  isActiveStatus,
  MAX_STEP_FAILURES,
  PAYMENT_PARKED_LOG_MESSAGE,
  stepRetryDelayMs,
  type PaymentStatus,
} from "./model";
import { recordStepFailure, releaseStepLease } from "./markers";
import { getPayment } from "./store";
import { advancePayment, parkPayment, type StepLease } from "./worker";

/**
 * How the drivers (the cloud's queue worker, infra/local's worker) run a payment's step: under a
 * lease on its due marker (markers.ts), so that
 * - a step delivered twice runs once: the second delivery finds the lease held and does nothing
 *   (`busy`: not an error, so a queue does not deliver it again);
 * - a delivery for a step that another run already finished is dropped (`stale`), so a duplicate
 *   message does not live on into the payment's next step (a delivery that finds its step not
 *   yet due is `waiting`: the driver asks again for its time);
 * - a step that throws is recorded on its marker and tried again after a growing wait
 *   (stepRetryDelayMs); its MAX_STEP_FAILURES-th failure parks the payment for review (worker.ts
 *   parkPayment: the hold is voided) instead of looping.
 * Only an error that could not even be recorded (the store itself failing) is thrown, for the
 * driver's own retry (the queue's redelivery, the local sweep).
 */

export type StepRunOutcome = "ran" | "waiting" | "busy" | "stale" | "failed" | "parked";

export interface StepRun {
  outcome: StepRunOutcome;
  status: PaymentStatus;
  /**
   * When the driver should run the payment again (its next step, or a failed step's retry); null:
   * nothing to ask for.
   */
  runAt: string | null;
  /** The step that run is for (its due time): a scheduler's `step`. */
  step: string | null;
  /** For `failed` and `parked`: how often the step has failed. */
  failures?: number;
}

const errorText = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * Runs what is due of one payment under a lease. With `expectedStep` (a queue message's step), a
 * delivery that ran nothing and whose step is no longer the payment's next one is `stale`: the
 * run that did that step asked for the next one. (One that finds a later step due runs it: that
 * step's own delivery is then the stale one.)
 */
export async function runPaymentStep(ctx: CoreContext, paymentId: string, expectedStep?: string): Promise<StepRun> {
  const lease: StepLease = { owner: randomUUID(), held: null, busy: false, committed: 0 };
  try {
    const result = await advancePayment(ctx, paymentId, lease);
    if (lease.busy) return { outcome: "busy", status: result.status, runAt: null, step: null };
    // Still holding a step that did not commit (transaction conflicts): let the next delivery have it.
    if (lease.held) await releaseStepLease(ctx, paymentId, lease.held.dueAt, lease.owner);
    if (lease.committed > 0)
      return { outcome: "ran", status: result.status, runAt: result.nextDueAt, step: result.nextDueAt };
    if (expectedStep !== undefined && result.nextDueAt !== expectedStep)
      return { outcome: "stale", status: result.status, runAt: null, step: null };
    return { outcome: "waiting", status: result.status, runAt: result.nextDueAt, step: result.nextDueAt };
  } catch (error) {
    // Failed before it held a step (e.g. the payment could not be read): nothing to count it on.
    if (!lease.held) throw error;
    return stepFailed(ctx, paymentId, lease, lease.held, error);
  }
}

async function stepFailed(
  ctx: CoreContext,
  paymentId: string,
  lease: StepLease,
  held: NonNullable<StepLease["held"]>,
  error: unknown,
): Promise<StepRun> {
  const failures = held.failures + 1;
  const lastError = errorText(error);
  const log = { payment_id: paymentId, step: held.dueAt, failures, error: lastError };
  if (failures >= MAX_STEP_FAILURES) {
    try {
      const payment = await getPayment(ctx, paymentId);
      if (
        payment &&
        isActiveStatus(payment.status) &&
        payment.nextDueAt === held.dueAt &&
        (await parkPayment(ctx, payment, failures, lastError, lease.owner))
      ) {
        ctx.logger.error(PAYMENT_PARKED_LOG_MESSAGE, log);
        return { outcome: "parked", status: "parked", runAt: null, step: null, failures };
      }
    } catch (parkError) {
      // Parking failed too: the failure is recorded below and the next try parks again.
      ctx.logger.error("payment could not be parked; its step is tried again", {
        ...log,
        park_error: errorText(parkError),
      });
    }
  }
  const retryAt = new Date(ctx.clock().getTime() + stepRetryDelayMs(failures)).toISOString();
  const recorded = await recordStepFailure(ctx, paymentId, held.dueAt, lease.owner, {
    failures,
    error: lastError,
    retryAt,
  });
  ctx.logger.warn("payment step failed; it is tried again later", { ...log, retry_at: recorded ? retryAt : null });
  const payment = await getPayment(ctx, paymentId);
  // Not recorded: this run lost the step (its lease ran out and another run took it, or the step
  // was run meanwhile); whoever holds it now schedules what comes next.
  return {
    outcome: "failed",
    status: payment?.status ?? "pending",
    runAt: recorded ? retryAt : null,
    step: recorded ? held.dueAt : null,
    failures,
  };
}
