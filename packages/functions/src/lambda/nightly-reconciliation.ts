import type { NightlyReply } from "@fintech/core/reconciliation/model";
import { reconcileNight } from "@fintech/core/reconciliation/service";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";

/**
 * Run every night by EventBridge (infra/resources/schedules.ts nightlyReconciliation, wired in
 * stacks/Reconciliation.ts): reconciles the previous day's files that no event reconciled and
 * raises a missing-file break, logged for the stack's missing-file alarm, for each expected file
 * that did not arrive. The run is idempotent, so EventBridge's retries are safe.
 */
const core = createContext(loadConfig(process.env));

/** What EventBridge sends a scheduled target; only its time is read, the day before it is checked. */
export interface ScheduledEvent {
  time?: string;
}

export async function handler(event: ScheduledEvent = {}): Promise<NightlyReply> {
  const fired = event.time ? new Date(event.time) : core.clock();
  return reconcileNight(core, Number.isNaN(fired.getTime()) ? core.clock() : fired);
}
