import { createContext } from "@fintech/core/shared/context";
import { workerConfig } from "./payment-queue";
import { sweepWebhookOwners, webhookQueueFromEnv } from "./webhook-queue";

/**
 * Run every minute by EventBridge (infra/resources/schedules.ts webhookSweeper): enqueues every
 * owner with an enabled webhook endpoint, so a lost stream record or message only delays a
 * delivery, and retries scheduled beyond SQS's 15-minute delay are made when due.
 */
const core = createContext(workerConfig());
const queue = webhookQueueFromEnv();

export async function handler(): Promise<{ enqueued: number }> {
  return sweepWebhookOwners(core, queue);
}
