import { QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { BREAKS_PARTITION } from "../reconciliation/keys";
import { z } from "zod";
import { Currency } from "../money/model";
import { BREAK_CLASSES, BreakClass, BreakStatus } from "../reconciliation/model";
import type { OpsAnalytics, OpsBreakRow } from "./model";

/**
 * Reconciliation breaks as the ops console shows them, read from the items the reconciliation
 * stores (one partition, newest settlement day first). Breaks are not in the ops feed: they are
 * raised by a nightly or per-file job, not by traffic, so the console re-reads them with the
 * overview instead of following them live.
 */

/** Items read to count open breaks: bounds the overview's cost; the reply says when it was reached. */
export const OPEN_BREAKS_READ_LIMIT = 10_000;

/** The fields of a stored break (reconciliation/model.ts ReconciliationBreak) the console shows. */
const StoredBreak = z.object({
  id: z.string(),
  railId: z.string(),
  class: BreakClass,
  status: BreakStatus,
  difference: z.string().nullable(),
  currency: Currency.nullable(),
  committed_at: z.string(),
});

function breakRow(item: Record<string, unknown>): OpsBreakRow | null {
  const parsed = StoredBreak.safeParse(item);
  if (!parsed.success) return null;
  const found = parsed.data;
  return {
    table: "break",
    id: found.id,
    change: found.status === "resolved" ? "resolved" : "opened",
    railId: found.railId,
    class: found.class,
    status: found.status,
    amount: found.difference,
    currency: found.currency,
    at: found.committed_at,
  };
}

async function readBreaks(ctx: CoreContext, limit: number, openOnly: boolean) {
  const items: Record<string, unknown>[] = [];
  let read = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const reply: QueryCommandOutput = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": BREAKS_PARTITION, ...(openOnly ? { ":open": "open" } : {}) },
        ...(openOnly
          ? {
              FilterExpression: "#status = :open",
              ProjectionExpression: "#class",
              ExpressionAttributeNames: { "#status": "status", "#class": "class" },
            }
          : {}),
        ScanIndexForward: false,
        Limit: limit - read,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(reply.Items ?? []));
    read += reply.ScannedCount ?? 0;
    start = reply.LastEvaluatedKey;
  } while (start && read < limit);
  return { items, more: start !== undefined };
}

/** The breaks of the most recent settlement days, newest first. */
export async function recentBreaks(ctx: CoreContext, limit: number): Promise<OpsBreakRow[]> {
  const { items } = await readBreaks(ctx, limit, false);
  return items.flatMap((item) => breakRow(item) ?? []);
}

/** Open breaks by class. */
export async function openBreaks(ctx: CoreContext): Promise<OpsAnalytics["openBreaks"]> {
  const { items } = await readBreaks(ctx, OPEN_BREAKS_READ_LIMIT, true);
  const counts = new Map<string, number>();
  for (const item of items) counts.set(String(item.class), (counts.get(String(item.class)) ?? 0) + 1);
  const byClass = BREAK_CLASSES.flatMap((breakClass) => {
    const count = counts.get(breakClass) ?? 0;
    return count > 0 ? [{ class: breakClass, count }] : [];
  });
  return { total: byClass.reduce((sum, entry) => sum + entry.count, 0), byClass };
}
