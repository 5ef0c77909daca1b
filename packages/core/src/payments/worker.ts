import type { CoreContext } from "../shared/context";
import type { PaymentStatus } from "./model";
import { dueMarkers } from "./store";

/**
 * Advances one payment by the step that is due (contract §3). Idempotent and safe to call twice
 * at once, early (nothing happens before the step is due) or late (catches up).
 */
export async function advancePayment(_ctx: CoreContext, _paymentId: string): Promise<{ status: PaymentStatus; nextDueAt: string | null }> {
  throw new Error("advancePayment: not implemented yet");
}

/** Ids of active payments whose next step is due at or before `now` (the sweeper's work list). */
export async function duePayments(ctx: CoreContext, now: Date, limit = 100): Promise<string[]> {
  return dueMarkers(ctx, now, limit);
}
