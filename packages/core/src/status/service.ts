import { findUserById } from "../auth/users";
import { issueToken, verifyToken } from "../auth/token";
import { checkHealth, type HealthReport } from "../health/service";
import { metricsReport } from "../metrics/service";
import type { RequestMetrics } from "../metrics/recorder";
import type { MetricsReport } from "../metrics/model";
import type { CoreContext } from "../shared/context";
import {
  API_CHECK_WINDOW_SECONDS,
  API_ERROR_RATE,
  SERVICE_NAMES,
  SLOW_CHECK_MS,
  type ServiceCheck,
  type ServiceStatus,
  type ServicesReport,
} from "./model";

const percent = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.001 ? 3 : 1)}%`;
const reason = (error: unknown) => (error instanceof Error ? error.message || error.name : String(error));
const bySpeed = (latencyMs: number): ServiceStatus => (latencyMs > SLOW_CHECK_MS ? "degraded" : "operational");

/** API: this process answers (it is running this code) and few recent replies were 5xx, over all instances. */
export function apiCheck(report: MetricsReport, checkedAt: string): ServiceCheck {
  const status: ServiceStatus =
    report.requests > 0 && report.error_rate >= API_ERROR_RATE.down
      ? "down"
      : report.requests > 0 && report.error_rate >= API_ERROR_RATE.degraded
        ? "degraded"
        : "operational";
  const traffic =
    report.requests === 0
      ? `no requests in the last ${report.window_seconds} s`
      : `${percent(report.error_rate)} 5xx of ${report.requests} request${report.requests === 1 ? "" : "s"} in the last ${report.window_seconds} s`;
  const instances = report.instances === 1 ? "1 instance" : `${report.instances} instances`;
  return {
    id: "api",
    name: SERVICE_NAMES.api,
    status,
    latency_ms: Math.round(report.p50_ms ?? 0),
    detail: `Answering · ${traffic} · ${instances}`,
    checked_at: checkedAt,
  };
}

/** Database: the health check's DescribeTable, with the SDK agent's socket figures. */
export function databaseCheck(health: HealthReport): ServiceCheck {
  const db = health.database;
  const status: ServiceStatus = db.connected ? bySpeed(db.latency_ms) : "down";
  const detail = db.connected
    ? `Table ${db.table_status ?? "ACTIVE"} · ${db.in_use}/${db.max_open_connections} connections in use`
    : `Table unavailable: ${db.error ?? "no answer"}`;
  return {
    id: "database",
    name: SERVICE_NAMES.database,
    status,
    latency_ms: db.latency_ms,
    detail,
    checked_at: health.time,
  };
}

/** Object storage: the health check's HeadBucket on the KYC documents bucket. */
export function storageCheck(health: HealthReport, bucket: string): ServiceCheck {
  const storage = health.storage;
  const status: ServiceStatus = storage.connected ? bySpeed(storage.latency_ms) : "down";
  const detail = storage.connected
    ? `Bucket ${bucket} reachable`
    : `Bucket ${bucket} unavailable${storage.error && storage.error !== "UnknownError" ? `: ${storage.error}` : " (missing or not accessible)"}`;
  return {
    id: "storage",
    name: SERVICE_NAMES.storage,
    status,
    latency_ms: storage.latency_ms,
    detail,
    checked_at: health.time,
  };
}

/**
 * Authentication: a token signed and verified with the configured secret (the round trip every
 * request relies on), then a real read of the caller's user record.
 */
export async function authCheck(ctx: CoreContext, userId: string): Promise<ServiceCheck> {
  const started = performance.now();
  const now = ctx.clock();
  let status: ServiceStatus;
  let detail: string;
  try {
    const { token } = await issueToken(
      { id: `status-probe-${userId}`, role: "user" },
      ctx.config.SESSION_KEYS,
      60,
      now,
    );
    const claims = await verifyToken(token, ctx.config.SESSION_KEYS, now);
    if (claims.sub !== `status-probe-${userId}`) throw new Error("verified token carries another subject");
    try {
      const user = await findUserById(ctx.db, userId);
      if (!user) throw new Error("user record not found");
      const latency = performance.now() - started;
      status = bySpeed(latency);
      detail = "Token signed and verified · user record read";
    } catch (error) {
      status = "down";
      detail = `Token round trip OK · user record read failed: ${reason(error)}`;
    }
  } catch (error) {
    status = "down";
    detail = `Token round trip failed: ${reason(error)}`;
  }
  return {
    id: "auth",
    name: SERVICE_NAMES.auth,
    status,
    latency_ms: Math.round(performance.now() - started),
    detail,
    checked_at: ctx.clock().toISOString(),
  };
}

/** All four checks in parallel; the overall status is the /health status of the same run. */
export async function checkServices(
  ctx: CoreContext,
  metrics: RequestMetrics,
  userId: string,
): Promise<ServicesReport> {
  const [health, traffic, auth] = await Promise.all([
    checkHealth(ctx),
    metricsReport(ctx, metrics, API_CHECK_WINDOW_SECONDS),
    authCheck(ctx, userId),
  ]);
  const checkedAt = ctx.clock().toISOString();
  return {
    overall: health.status,
    services: [apiCheck(traffic, checkedAt), databaseCheck(health), storageCheck(health, ctx.storage.kycBucket), auth],
    checked_at: checkedAt,
  };
}
