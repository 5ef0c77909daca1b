import { CreateTableCommand, DescribeTableCommand, UpdateTimeToLiveCommand, waitUntilTableExists } from "@aws-sdk/client-dynamodb";
import type { Database } from "@fintech/core/shared/dynamo";
import { isAwsError } from "@fintech/core/shared/dynamo";
import { appTable, toCreateTableInput } from "../spec/table";

/** Creates the table from infra/spec when it is missing; an existing table is left as it is. */
export async function ensureTable(db: Database): Promise<"created" | "existing"> {
  try {
    await db.raw.send(new DescribeTableCommand({ TableName: db.table }));
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
