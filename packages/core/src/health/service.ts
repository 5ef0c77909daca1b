import type { CoreContext } from "../shared/context";
import { connectionStats, describeTable, type ConnectionStats } from "../shared/dynamo";
import { headBucket, type ObjectStorage } from "../shared/storage";

export type HealthStatus = "ok" | "degraded" | "error";

export interface HealthReport {
  status: HealthStatus;
  message: string;
  time: string;
  timestamp: number;
  database: ConnectionStats & {
    connected: boolean;
    error: string | null;
    table_status: string | null;
    latency_ms: number;
  };
  storage: { connected: boolean; error: string | null; latency_ms: number };
}

const MESSAGES: Record<HealthStatus, string> = {
  ok: "All systems operational",
  degraded: "Database reachable; object storage unavailable",
  error: "Database unavailable",
};

async function timed<T>(
  probe: () => Promise<T>,
): Promise<{ value: T | null; error: string | null; latency_ms: number }> {
  const started = performance.now();
  try {
    const value = await probe();
    return { value, error: null, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      value: null,
      error: error instanceof Error ? error.message : String(error),
      latency_ms: Math.round(performance.now() - started),
    };
  }
}

/** HeadBucket, timed once the client exists: its first use loads the S3 SDK, no part of the bucket's answer. */
async function timedHeadBucket(storage: ObjectStorage) {
  await storage.client().catch(() => undefined);
  return timed(() => headBucket(storage));
}

/**
 * Real checks, run in parallel: a DescribeTable against the table and a HeadBucket against the
 * KYC bucket. The database figures are the SDK HTTP agent's sockets (DynamoDB has no pool).
 */
export async function checkHealth(ctx: CoreContext): Promise<HealthReport> {
  const [table, bucket] = await Promise.all([timed(() => describeTable(ctx.db)), timedHeadBucket(ctx.storage)]);
  const databaseUp = table.value !== null && table.value.status === "ACTIVE";
  const status: HealthStatus = !databaseUp ? "error" : bucket.error ? "degraded" : "ok";
  const now = ctx.clock();
  return {
    status,
    message: MESSAGES[status],
    time: now.toISOString(),
    timestamp: now.getTime(),
    database: {
      connected: databaseUp,
      error: table.error ?? (databaseUp ? null : `Table status ${table.value?.status ?? "unknown"}`),
      table_status: table.value?.status ?? null,
      latency_ms: table.latency_ms,
      ...connectionStats(ctx.db.agent),
    },
    storage: { connected: bucket.error === null, error: bucket.error, latency_ms: bucket.latency_ms },
  };
}
