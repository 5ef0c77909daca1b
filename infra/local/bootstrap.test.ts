import { randomUUID } from "node:crypto";
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appTable, toCreateTableInput, type AppTableSpec } from "../resources/table";
import { ensureTable } from "./bootstrap";
import { createTestContext } from "@fintech/testing/context";

/**
 * The local bootstrap against DynamoDB Local: a table kept from an earlier version gets the indexes
 * of infra/resources it lacks.
 */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

it("adds the indexes the table gained to an existing table, and leaves a complete one alone", async () => {
  const older = { ...ctx.db, table: `older-${randomUUID()}` };
  const earlierSpec = { ...appTable, globalIndexes: appTable.globalIndexes.slice(0, 1) } as unknown as AppTableSpec;
  await ctx.db.raw.send(new CreateTableCommand(toCreateTableInput(older.table, earlierSpec, { withStream: false })));
  try {
    const indexNames = async () =>
      (
        (await ctx.db.raw.send(new DescribeTableCommand({ TableName: older.table }))).Table?.GlobalSecondaryIndexes ??
        []
      )
        .map((index) => index.IndexName)
        .sort();
    expect(await indexNames()).toEqual(["gsi1"]);
    expect(await ensureTable(older)).toBe("existing");
    expect(await indexNames()).toEqual(appTable.globalIndexes.map((index) => index.name).sort());
    expect(await ensureTable(older)).toBe("existing");
    expect(await indexNames()).toEqual(appTable.globalIndexes.map((index) => index.name).sort());
  } finally {
    await ctx.db.raw.send(new DeleteTableCommand({ TableName: older.table }));
  }
});
