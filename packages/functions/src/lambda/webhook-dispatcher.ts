import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";
import { loadBoundSecrets } from "./secrets";
import { dispatchMessages, webhookQueueFromEnv, type QueueRecord } from "./webhook-queue";

/**
 * Consumer of the WebhookDispatch queue (stacks/Webhooks.ts): records an owner's new deliveries
 * and makes the due attempts, or makes one delivery's retry when due (see dispatchMessages). The
 * only function bound to the keyring that decrypts the endpoints' signing secrets.
 */
await loadBoundSecrets();
const core = createContext(loadConfig());
const queue = webhookQueueFromEnv();

export interface SqsEvent {
  Records: QueueRecord[];
}

/** Partial batch response: only the failed messages come back (ReportBatchItemFailures). */
export async function handler(event: SqsEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  return dispatchMessages(core, queue, event.Records);
}
