import { PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { Database } from "../shared/dynamo";
import {
  FLUSH_WINDOW_SECONDS,
  METRICS_ENTITY,
  METRICS_PARTITION_SECONDS,
  METRICS_TTL_SECONDS,
  metricsPartition,
  metricsWindowKey,
  metricsWindowRange,
  partitionStartOf,
  ROUTE_LATENCY_ENTITY,
  ROUTE_LATENCY_PARTITION_SECONDS,
  ROUTE_LATENCY_TTL_SECONDS,
  hourStartOf,
  routeLatencyHourKey,
  routeLatencyHourRange,
  routeLatencyPartition,
  routeLatencyPartitionStartOf,
  windowStartOf,
} from "./keys";
import { ROUTE_LATENCY_HOUR_SECONDS } from "./model";
import type { WindowAggregate } from "./recorder";
import type { HourRollup } from "./response-times";

/** One PutItem per window: the same key again (a window written early, then complete) replaces it. */
export async function saveWindows(db: Database, windows: WindowAggregate[]): Promise<void> {
  await Promise.all(
    windows.map((window) =>
      db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: {
            ...metricsWindowKey(window.window_start, window.instance_id),
            entity: METRICS_ENTITY,
            ...window,
            expires_at: window.window_start + window.window_seconds + METRICS_TTL_SECONDS,
          },
        }),
      ),
    ),
  );
}

const count = z.number().int().nonnegative();
const StoredWindow = z.object({
  instance_id: z.string().min(1),
  window_start: z.number().int(),
  window_seconds: z.number().int().positive(),
  requests: count,
  server_errors: count,
  client_errors: count,
  duration_sum_ms: z.number().nonnegative(),
  max_ms: z.number().nonnegative(),
  histogram: z.record(z.string(), count),
  per_second: z.array(z.tuple([z.number().int(), count, count, count])),
  routes: z.record(z.string(), z.tuple([count, count, count])),
});

/** The partition keys of consecutive time partitions from the one starting at `first` up to `last`. */
function partitionsBetween(first: number, last: number, step: number, key: (start: number) => string): string[] {
  const keys: string[] = [];
  for (let start = first; start <= last; start += step) keys.push(key(start));
  return keys;
}

/**
 * Reads the items of a sort-key range in each partition, page by page; items that do not parse
 * are skipped, never fatal, and reading stops at `max` items with `truncated: true`.
 */
async function readPartitions<T>(
  db: Database,
  query: {
    partitions: string[];
    range: { from: string; to: string };
    max: number;
    parse: (item: Record<string, unknown>) => T | null;
  },
): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  for (const partition of query.partitions) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const reply = await db.doc.send(
        new QueryCommand({
          TableName: db.table,
          KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
          ExpressionAttributeValues: { ":pk": partition, ":from": query.range.from, ":to": query.range.to },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of reply.Items ?? []) {
        const parsed = query.parse(item);
        if (parsed !== null) items.push(parsed);
        if (items.length >= query.max) return { items, truncated: true };
      }
      startKey = reply.LastEvaluatedKey;
    } while (startKey);
  }
  return { items, truncated: false };
}

/** Reads stop after this many items (an hour of 100 instances is 36,000): the reply says it is partial. */
export const MAX_WINDOWS_READ = 20_000;

/**
 * Every instance's windows that overlap [fromSecond, toSecond]: one Query per hour partition
 * (at most two for an hour's window). Items that do not parse are skipped, never fatal.
 */
export async function loadWindows(
  db: Database,
  fromSecond: number,
  toSecond: number,
): Promise<{ windows: WindowAggregate[]; truncated: boolean }> {
  const fromWindow = windowStartOf(fromSecond);
  const toWindow = windowStartOf(toSecond);
  const range = metricsWindowRange(fromWindow, toWindow);
  return readPartitions(db, {
    partitions: partitionsBetween(partitionStartOf(fromWindow), toWindow, METRICS_PARTITION_SECONDS, metricsPartition),
    range,
    max: MAX_WINDOWS_READ,
    parse: (item) => {
      const parsed = StoredWindow.safeParse(item);
      return parsed.success && parsed.data.window_seconds === FLUSH_WINDOW_SECONDS ? parsed.data : null;
    },
  }).then(({ items, truncated }) => ({ windows: items, truncated }));
}

/** One PutItem per instance-hour: the hour's item is replaced as the hour fills. */
export async function saveHourRollups(db: Database, hours: HourRollup[]): Promise<void> {
  await Promise.all(
    hours.map((hour) =>
      db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: {
            ...routeLatencyHourKey(hour.hour_start, hour.instance_id),
            entity: ROUTE_LATENCY_ENTITY,
            ...hour,
            expires_at: hour.hour_start + ROUTE_LATENCY_HOUR_SECONDS + ROUTE_LATENCY_TTL_SECONDS,
          },
        }),
      ),
    ),
  );
}

const StoredHour = z.object({
  instance_id: z.string().min(1),
  hour_start: z.number().int(),
  routes: z.record(
    z.string(),
    z.object({ requests: count, max_ms: z.number().nonnegative(), histogram: z.record(z.string(), count) }),
  ),
});

/** A day of 100 instances is 2,400 items; reads stop after this many and say they are partial. */
export const MAX_HOURS_READ = 5_000;

/**
 * Every instance's per-route latency hours from the hour holding fromSecond to the one holding
 * toSecond: one Query per day partition (at most two for 24 hours). Unparseable items are skipped.
 */
export async function loadHourRollups(
  db: Database,
  fromSecond: number,
  toSecond: number,
): Promise<{ hours: HourRollup[]; truncated: boolean }> {
  const fromHour = hourStartOf(fromSecond);
  const toHour = hourStartOf(toSecond);
  const range = routeLatencyHourRange(fromHour, toHour);
  return readPartitions(db, {
    partitions: partitionsBetween(
      routeLatencyPartitionStartOf(fromHour),
      toHour,
      ROUTE_LATENCY_PARTITION_SECONDS,
      routeLatencyPartition,
    ),
    range,
    max: MAX_HOURS_READ,
    parse: (item) => {
      const parsed = StoredHour.safeParse(item);
      return parsed.success ? parsed.data : null;
    },
  }).then(({ items, truncated }) => ({ hours: items, truncated }));
}
