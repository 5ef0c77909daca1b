import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { journalKey } from "./keys";
import { countItems } from "@fintech/testing/ledger/steps";
import { createAccount, deposit, setJournalStatus } from "./service";
import { exportTransactions } from "./history-export";

/**
 * Limits of one item and one request: idempotency records of post/unpost must not grow the
 * journal item (DynamoDB refuses items over 400 KB), and the CSV export stops at its cap.
 */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

const idOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;
const actor = { id: "user-1", name: "Ada Lovelace" };

describe("keyed post/unpost idempotency records", () => {
  it("150 keyed posts/unposts with 200-character keys on one journal all succeed, and every replay returns its original bytes", async () => {
    const owner = "opkey-owner";
    const { account } = await createAccount(ctx, owner, { name: "Busy", currency: "USD" }, null);
    const journalId = idOf((await deposit(ctx, owner, { account_id: account.id, amount: "10.00" }, null)).body);
    const replies: { key: string; operation: "post" | "unpost"; body: string }[] = [];
    for (let index = 0; index < 150; index++) {
      const operation = index % 2 === 0 ? "post" : "unpost";
      const key = `${String(index).padStart(4, "0")}-${"k".repeat(195)}`;
      const result = await setJournalStatus(ctx, owner, journalId, operation, key, actor);
      expect(result.replayed).toBe(false);
      replies.push({ key, operation, body: result.body });
    }
    const items = await countItems(ctx);
    for (const { key, operation, body } of replies) {
      const again = await setJournalStatus(ctx, owner, journalId, operation, key, actor);
      expect(again).toEqual({ body, replayed: true });
    }
    expect(await countItems(ctx)).toBe(items);
    // Another request under a used key is refused, and writes nothing.
    const reused = await setJournalStatus(ctx, owner, journalId, "unpost", replies[0]!.key, actor).catch(
      (error: unknown) => error,
    );
    expect(reused).toMatchObject({ status: 422, code: "idempotency_key_reused" });
    expect(await countItems(ctx)).toBe(items);

    // The journal holds its history (who and when), not the replies: far below the item limit.
    const stored = await ctx.db.doc.send(
      new GetCommand({ TableName: ctx.db.table, Key: journalKey(journalId), ConsistentRead: true }),
    );
    expect(stored.Item!.history).toHaveLength(151);
    expect(stored.Item!.history[150]).toMatchObject({ operation: "unpost", status: "draft", by: actor });
    expect(Object.keys(stored.Item!.operation_replies)).toHaveLength(0);
    expect(Buffer.byteLength(JSON.stringify(stored.Item))).toBeLessThan(40_000);
  }, 120_000);
});

describe("CSV export cap", () => {
  it("refuses with 422 when more rows match than the cap, and exports when the filters narrow it", async () => {
    const owner = "export-owner";
    const { account } = await createAccount(ctx, owner, { name: "Exports", currency: "USD" }, null);
    for (const description of ["one", "two", "three", "four"])
      await deposit(ctx, owner, { account_id: account.id, amount: "1", description }, null);
    const tooMany = await exportTransactions(ctx, owner, {}, 3).catch((error: unknown) => error);
    expect(tooMany).toMatchObject({ status: 422, code: "export_too_large" });
    expect((tooMany as Error).message).toContain("narrow the filters");
    const narrowed = await exportTransactions(ctx, owner, { q: "three" }, 3);
    expect(narrowed.rows).toBe(1);
    expect(narrowed.csv.split("\n")[0]).toBe(
      "id,created_at,posted_at,type,status,description,currency,amount,debit_account,credit_account,idempotency_key,counterparty,fee",
    );
  }, 60_000);
});
