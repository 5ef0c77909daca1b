import { setTimeout as delay } from "node:timers/promises";
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import type { Database } from "@fintech/core/shared/dynamo";
import { isAwsError } from "@fintech/core/shared/dynamo";
import { appTable, toCreateTableInput } from "../resources/table";

/**
 * Creates the table from infra/resources when it is missing. An existing table (a data directory
 * kept from an earlier version) gets the indexes of infra/resources it lacks; nothing else is
 * changed.
 */
export async function ensureTable(db: Database): Promise<"created" | "existing"> {
  try {
    const described = await db.raw.send(new DescribeTableCommand({ TableName: db.table }));
    await addMissingIndexes(
      db,
      new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName)),
    );
    return "existing";
  } catch (error) {
    if (!isAwsError(error, "ResourceNotFoundException")) throw error;
  }
  try {
    await db.raw.send(new CreateTableCommand(toCreateTableInput(db.table, appTable, { withStream: false })));
  } catch (error) {
    // Another process created it between our describe and create.
    if (!isAwsError(error, "ResourceInUseException")) throw error;
  }
  await waitUntilTableExists({ client: db.raw, maxWaitTime: 60 }, { TableName: db.table });
  await db.raw.send(
    new UpdateTimeToLiveCommand({
      TableName: db.table,
      TimeToLiveSpecification: { AttributeName: appTable.ttlAttribute, Enabled: true },
    }),
  );
  return "created";
}

async function addMissingIndexes(db: Database, present: Set<string | undefined>): Promise<void> {
  const wanted = toCreateTableInput(db.table, appTable, { withStream: false });
  for (const index of wanted.GlobalSecondaryIndexes.filter((one) => !present.has(one.IndexName))) {
    const names = new Set<string>(index.KeySchema.map((key) => key.AttributeName));
    await db.raw.send(
      new UpdateTableCommand({
        TableName: db.table,
        AttributeDefinitions: wanted.AttributeDefinitions.filter((attribute) => names.has(attribute.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    // DynamoDB builds one new index at a time per table: the next update waits for this one.
    await untilIndexesActive(db);
  }
}

const INDEX_WAIT_LIMIT_MS = 60_000;
const INDEX_POLL_MS = 50;

async function untilIndexesActive(db: Database): Promise<void> {
  for (let waited = 0; waited < INDEX_WAIT_LIMIT_MS; waited += INDEX_POLL_MS) {
    const table = (await db.raw.send(new DescribeTableCommand({ TableName: db.table }))).Table;
    const building = (table?.GlobalSecondaryIndexes ?? []).some(
      (index) => index.IndexStatus !== undefined && index.IndexStatus !== "ACTIVE",
    );
    if (table?.TableStatus === "ACTIVE" && !building) return;
    await delay(INDEX_POLL_MS);
  }
  throw new Error(`The indexes of ${db.table} were not active after ${INDEX_WAIT_LIMIT_MS / 1000} s`);
}
