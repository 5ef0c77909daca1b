import { DeleteTableCommand } from "@aws-sdk/client-dynamodb";
import type { CoreContext } from "@fintech/core/shared/context";
import type { DynamoDbLocal } from "../local/dynamodb-local";

/**
 * Runs a benchmark's clean-up exactly once: at its normal end, after an error, or on Ctrl-C /
 * SIGTERM (then exits 130), so no DynamoDB Local is ever left running.
 */
export function stopOnceOnExit(cleanup: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= cleanup());
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping DynamoDB Local`);
    void stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return stop;
}

/** Deletes the benchmark's table, closes the contexts' clients and stops DynamoDB Local. */
export async function releaseStore(
  tableName: string,
  contexts: CoreContext[],
  dynamo: DynamoDbLocal | null,
): Promise<void> {
  const [first] = contexts;
  if (first) await first.db.raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
  for (const instance of contexts) {
    instance.db.raw.destroy();
    instance.storage.destroy();
  }
  if (dynamo) await dynamo.stop();
}
