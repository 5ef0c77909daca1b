import { QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { toDecimalString, type Currency } from "../money/model";
import { bucketOf, readStatBuckets, totalsByRail } from "../rails/stats";
import { listRails } from "../rails/store";
import { opsFeedPartitions, type OpsFeedKind } from "./keys";
import { opsRowOf, type OpsFeedRow } from "./feed";
import { openBreaks, recentBreaks } from "./breaks";
import {
  ANALYTICS_WINDOW_HOURS,
  JOURNALS_PER_MINUTE_MINUTES,
  perMinute,
  type OpsAnalytics,
  type OpsJournalRow,
  type OpsKycRow,
  type OpsOverview,
  type OpsPaymentRow,
  type OpsRailStat,
} from "./model";

/**
 * The ops console's first paint (GET /api/v1/ops/overview): the last rows of each table, read
 * newest first from the ops feed's own partitions (the live feed then keeps them current), and
 * the analytics: volume and success rate by rail from the rails' counters (rails/stats.ts),
 * journals per minute from the journal partitions of the ops feed, open breaks by class.
 */

/** Items read per journal partition for journals per minute: bounds the overview's cost in a busy hour. */
export const MINUTE_COUNT_ITEMS_PER_PARTITION = 2_500;
/** A payment has several ops items (one per change): read this many per row wanted, to find distinct payments. */
const PAYMENT_ITEMS_PER_ROW = 4;

async function newestItems(ctx: CoreContext, partition: string, limit: number, since?: string) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const reply: QueryCommandOutput = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        IndexName: "gsi2",
        KeyConditionExpression: since ? "gsi2pk = :pk AND gsi2sk >= :since" : "gsi2pk = :pk",
        ExpressionAttributeValues: { ":pk": partition, ...(since ? { ":since": since } : {}) },
        ScanIndexForward: false,
        Limit: limit - items.length,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(reply.Items ?? []));
    start = reply.LastEvaluatedKey;
  } while (start && items.length < limit);
  return { items, more: start !== undefined };
}

/** The latest row of each of the `limit` most recently changed journals, payments or submissions. */
async function recentRows(ctx: CoreContext, kind: OpsFeedKind, limit: number): Promise<OpsFeedRow[]> {
  const perPartition = kind === "payment" ? limit * PAYMENT_ITEMS_PER_ROW : limit;
  const pages = await Promise.all(opsFeedPartitions([kind]).map((p) => newestItems(ctx, p, perPartition)));
  const rows = pages.flatMap((page) => page.items.map(opsRowOf));
  rows.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, limit);
}

async function journalsPerMinute(ctx: CoreContext, now: Date): Promise<OpsAnalytics["journalsPerMinute"]> {
  const since = new Date(now.getTime() - JOURNALS_PER_MINUTE_MINUTES * 60_000).toISOString();
  const pages = await Promise.all(
    opsFeedPartitions(["journal"]).map((partition) =>
      newestItems(ctx, partition, MINUTE_COUNT_ITEMS_PER_PARTITION, since),
    ),
  );
  const times = pages.flatMap((page) => page.items.map((item) => String(item.committed_at)));
  return { ...perMinute(times, now), capped: pages.some((page) => page.more) };
}

async function railStats(ctx: CoreContext, now: Date): Promise<OpsRailStat[]> {
  const from = new Date(now.getTime() - (ANALYTICS_WINDOW_HOURS - 1) * 3_600_000);
  const [rows, rails] = await Promise.all([
    readStatBuckets(ctx, "H", bucketOf("H", from), bucketOf("H", now)),
    listRails(ctx),
  ]);
  const totals = totalsByRail(rows);
  const names = new Map(rails.map((rail) => [rail.id, rail.name]));
  const ids = [...new Set([...rails.map((rail) => rail.id), ...totals.keys()])];
  return ids.map((railId) => {
    const counters = totals.get(railId);
    const finished = (counters?.succeeded ?? 0) + (counters?.failed ?? 0);
    return {
      railId,
      name: names.get(railId) ?? railId,
      attempts: counters?.attempts ?? 0,
      succeeded: counters?.succeeded ?? 0,
      failed: counters?.failed ?? 0,
      successRate: finished === 0 ? null : (counters?.succeeded ?? 0) / finished,
      volume: (Object.entries(counters?.volumeMinor ?? {}) as [Currency, number][])
        .filter(([, minor]) => minor > 0)
        .map(([currency, minor]) => ({ currency, amount: toDecimalString(minor, currency) })),
    };
  });
}

export async function opsOverview(ctx: CoreContext, limit: number): Promise<OpsOverview> {
  const now = ctx.clock();
  const [journals, payments, kyc, breaks, open, perMinuteCounts, rails] = await Promise.all([
    recentRows(ctx, "journal", limit),
    recentRows(ctx, "payment", limit),
    recentRows(ctx, "kyc", limit),
    recentBreaks(ctx, limit),
    openBreaks(ctx),
    journalsPerMinute(ctx, now),
    railStats(ctx, now),
  ]);
  return {
    journals: journals.filter((row): row is OpsJournalRow => row.table === "journal"),
    payments: payments.filter((row): row is OpsPaymentRow => row.table === "payment"),
    kyc: kyc.filter((row): row is OpsKycRow => row.table === "kyc"),
    breaks,
    analytics: {
      windowHours: ANALYTICS_WINDOW_HOURS,
      rails,
      journalsPerMinute: perMinuteCounts,
      openBreaks: open,
    },
    at: now.toISOString(),
  };
}
