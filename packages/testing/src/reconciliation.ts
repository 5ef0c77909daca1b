import { PutObjectCommand } from "@aws-sdk/client-s3";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "@fintech/core/shared/context";
import {
  expectationPut,
  settlementReference,
  type SettlementExpectation,
} from "@fintech/core/reconciliation/expectations";

/**
 * Test kit of the reconciliation: expectations written straight to the table (the bench and
 * tests that need many settled attempts; the worker's own writing of them has its test), and a
 * settlement object put the way a processor puts one (with a checksum: the bucket has Object Lock).
 */

/** BatchWrites expectation items, 25 at a time, retrying what DynamoDB leaves unprocessed. */
export async function seedExpectations(
  ctx: CoreContext,
  expectations: Iterable<SettlementExpectation>,
  concurrency = 8,
): Promise<number> {
  let written = 0;
  let batch: Record<string, unknown>[] = [];
  const inFlight = new Set<Promise<void>>();
  const send = async (items: Record<string, unknown>[]) => {
    let pending = items.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const reply = await ctx.db.doc.send(new BatchWriteCommand({ RequestItems: { [ctx.db.table]: pending } }));
      pending = (reply.UnprocessedItems?.[ctx.db.table] ?? []) as typeof pending;
    }
  };
  const flush = async () => {
    const items = batch;
    batch = [];
    const task = send(items).finally(() => inFlight.delete(task));
    inFlight.add(task);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  };
  for (const expectation of expectations) {
    batch.push(expectationPut(ctx.db.table, expectation, expectation.completedAt).Put.Item);
    written++;
    if (batch.length === 25) await flush();
  }
  if (batch.length > 0) await flush();
  await Promise.all(inFlight);
  return written;
}

/** `count` expectations of a rail-day, USD, deterministic amounts and references. */
export function* syntheticExpectations(
  railId: string,
  date: string,
  count: number,
  prefix = "SYN",
): Generator<SettlementExpectation> {
  for (let index = 0; index < count; index++) {
    const amountMinor = 1_000 + ((index * 7_919) % 500_000);
    const paymentId = `${prefix}-${date.replaceAll("-", "")}-${String(index).padStart(8, "0")}`;
    yield {
      railId,
      reference: settlementReference(paymentId, 1),
      paymentId,
      attempt: 1,
      amountMinor,
      currency: "USD",
      feeMinor: 5 + Math.round(amountMinor / 1000),
      completedAt: new Date(Date.parse(`${date}T00:00:00.000Z`) + (index % 86_000) * 1000).toISOString(),
    };
  }
}

/** Puts a settlement object as a processor does (checksummed). */
export async function putSettlementObject(ctx: CoreContext, key: string, body: string | Uint8Array): Promise<void> {
  const client = await ctx.storage.client();
  await client.send(
    new PutObjectCommand({
      Bucket: ctx.storage.settlementsBucket,
      Key: key,
      Body: body,
      ContentType: "text/csv",
      ChecksumAlgorithm: "CRC32",
    }),
  );
}
