import { createContext } from "@fintech/core/shared/context";
import { workerConfig } from "./payment-queue";
import { fanOutStreamRecords, webhookQueueFromEnv, type StreamRecord } from "./webhook-queue";

/**
 * On the table's stream, filtered to the INSERTs of user feed outbox items (stacks/Webhooks.ts):
 * sends one message per owner with an enabled endpoint to the WebhookDispatch queue. Reads the
 * owners' endpoints, writes nothing, holds no key.
 */
const core = createContext(workerConfig());
const queue = webhookQueueFromEnv();

export interface DynamoStreamEvent {
  Records: StreamRecord[];
}

/** Partial batch response: Lambda retries the stream from the first failed record. */
export async function handler(event: DynamoStreamEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const { batchItemFailures } = await fanOutStreamRecords(core, queue, event.Records);
  return { batchItemFailures };
}
