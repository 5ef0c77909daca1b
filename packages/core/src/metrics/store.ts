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
  windowStartOf,
} from "./keys";
import type { WindowAggregate } from "./recorder";

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
  const windows: WindowAggregate[] = [];
  for (let partition = partitionStartOf(fromWindow); partition <= toWindow; partition += METRICS_PARTITION_SECONDS) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const reply = await db.doc.send(
        new QueryCommand({
          TableName: db.table,
          KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
          ExpressionAttributeValues: { ":pk": metricsPartition(partition), ":from": range.from, ":to": range.to },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of reply.Items ?? []) {
        const parsed = StoredWindow.safeParse(item);
        if (parsed.success && parsed.data.window_seconds === FLUSH_WINDOW_SECONDS) windows.push(parsed.data);
        if (windows.length >= MAX_WINDOWS_READ) return { windows, truncated: true };
      }
      startKey = reply.LastEvaluatedKey;
    } while (startKey);
  }
  return { windows, truncated: false };
}
