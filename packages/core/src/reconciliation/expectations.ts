import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { CURRENCIES, type Currency } from "../money/model";
import { systemAccountId } from "../ledger/accounts";
import { railCostMinor, type RailFees } from "../rails/cost";
import { EXPECTATION_SHARDS, expectationKey, expectationPartition } from "./keys";

/**
 * Settlement expectations (docs/money-operations.md#settlement-files): what a rail owes us a
 * settlement line for. The payment worker writes one in the transaction that completes a payment
 * whose money went to Clearing (an external beneficiary): only those leave the platform over a
 * rail, and only those does a rail settle. A payment to an account on the platform never leaves
 * the ledger, so no rail reports it.
 */

export interface SettlementExpectation {
  railId: string;
  reference: string;
  paymentId: string;
  attempt: number;
  amountMinor: number;
  currency: Currency;
  /** The carrying rail's cost for this payment (railCostMinor): the fee the rail's line should state. */
  feeMinor: number;
  /** ISO time the attempt succeeded. */
  completedAt: string;
}

/** Stable and unique per attempt; at most 64 characters (a payment id is a UUID). */
export const settlementReference = (paymentId: string, attempt: number): string => `PAY-${paymentId}-${attempt}`;

export const completionDay = (completedAt: string): string => completedAt.slice(0, 10);

/** The item the worker's success transaction puts (a Put: a replayed step writes the same item). */
export function expectationPut(table: string, expectation: SettlementExpectation, committedAt: string) {
  const date = completionDay(expectation.completedAt);
  return {
    Put: {
      TableName: table,
      Item: {
        ...expectationKey(expectation.railId, date, expectation.reference),
        entity: "settlement_expectation",
        rail_id: expectation.railId,
        date,
        reference: expectation.reference,
        payment_id: expectation.paymentId,
        attempt: expectation.attempt,
        amount_minor: expectation.amountMinor,
        currency: expectation.currency,
        fee_minor: expectation.feeMinor,
        completed_at: expectation.completedAt,
        committed_at: committedAt,
      },
    },
  };
}

export function expectationFromItem(item: Record<string, unknown>): SettlementExpectation {
  return {
    railId: String(item.rail_id),
    reference: String(item.reference),
    paymentId: String(item.payment_id),
    attempt: Number(item.attempt),
    amountMinor: Number(item.amount_minor),
    currency: item.currency as Currency,
    feeMinor: Number(item.fee_minor),
    completedAt: String(item.completed_at),
  };
}

const PROJECTION = "#reference, amount_minor, currency, fee_minor, completed_at";

const REFERENCE_PATTERN = /^PAY-(.+)-(\d+)$/;

/**
 * An expectation as a reconciliation holds it, one per settled attempt of the rail-day: the
 * reference (the same string as the map's key), three numbers and the currency's shared name.
 * The rail is the day's, the payment id and attempt are read back from the reference
 * (settlementReference) and the completion time is kept as epoch milliseconds, so a 200,000-attempt
 * day holds no other string per attempt (docs/benchmarks.md#reconciliation).
 */
class HeldExpectation implements SettlementExpectation {
  constructor(
    readonly railId: string,
    readonly reference: string,
    readonly amountMinor: number,
    readonly currency: Currency,
    readonly feeMinor: number,
    private readonly completedMs: number,
  ) {}
  get paymentId(): string {
    return REFERENCE_PATTERN.exec(this.reference)?.[1] ?? "";
  }
  get attempt(): number {
    return Number(REFERENCE_PATTERN.exec(this.reference)?.[2] ?? 0);
  }
  get completedAt(): string {
    return new Date(this.completedMs).toISOString();
  }
}

/**
 * Every expectation of a rail-day (EXPECTATION_SHARDS Queries in parallel), keyed by reference.
 * Pages are turned into expectations as they arrive, never gathered, and repeated values (rail,
 * currency) are shared: the map is what a reconciliation holds in memory for the whole file.
 */
export async function loadDayExpectations(
  ctx: CoreContext,
  railId: string,
  date: string,
): Promise<{ expectations: Map<string, SettlementExpectation>; itemsRead: number }> {
  const expectations = new Map<string, SettlementExpectation>();
  let itemsRead = 0;
  const readShard = async (shard: number) => {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": expectationPartition(railId, date, shard) },
          ProjectionExpression: PROJECTION,
          ExpressionAttributeNames: { "#reference": "reference" },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        itemsRead++;
        const reference = String(item.reference);
        const currency = CURRENCY_NAMES.get(String(item.currency)) ?? (String(item.currency) as Currency);
        expectations.set(
          reference,
          new HeldExpectation(
            railId,
            reference,
            Number(item.amount_minor),
            currency,
            Number(item.fee_minor),
            Date.parse(String(item.completed_at)),
          ),
        );
      }
      start = page.LastEvaluatedKey;
    } while (start);
  };
  await Promise.all(Array.from({ length: EXPECTATION_SHARDS }, (_, shard) => readShard(shard)));
  return { expectations, itemsRead };
}

const CURRENCY_NAMES = new Map<string, Currency>(
  (Object.keys(CURRENCIES) as Currency[]).map((currency) => [currency, currency]),
);

/** Whether a rail had any settled attempt on a day (the nightly's question: was a file due?). */
export async function railHadSettlements(ctx: CoreContext, railId: string, date: string): Promise<boolean> {
  const found = await Promise.all(
    Array.from({ length: EXPECTATION_SHARDS }, (_, shard) =>
      ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": expectationPartition(railId, date, shard) },
          Limit: 1,
          ProjectionExpression: "pk",
        }),
      ),
    ),
  );
  return found.some((reply) => (reply.Items?.length ?? 0) > 0);
}

/**
 * The expectation items of a completing payment: one when its money went to Clearing (it left the
 * platform over the carrying rail), none otherwise.
 */
export function settlementExpectationItems(
  table: string,
  payment: { paymentId: string; payeeAccountId: string; amountMinor: number; currency: Currency },
  attempt: { railId: string; number: number },
  carryingRail: RailFees,
  completedAt: string,
) {
  if (payment.payeeAccountId !== systemAccountId("clearing", payment.currency)) return [];
  const expectation: SettlementExpectation = {
    railId: attempt.railId,
    reference: settlementReference(payment.paymentId, attempt.number),
    paymentId: payment.paymentId,
    attempt: attempt.number,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    feeMinor: railCostMinor(carryingRail, payment.amountMinor, payment.currency).totalMinor,
    completedAt,
  };
  return [expectationPut(table, expectation, completedAt)];
}
