import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import type { MetricsReport } from "./model";
import { RequestMetrics, type RequestMetricsOptions } from "./recorder";
import { buildReport } from "./report";
import {
  buildResponseTimes,
  firstHourOf,
  RESPONSE_TIMES_WINDOW,
  type HourRollup,
  type ResponseTimesReport,
} from "./response-times";
import { loadHourRollups, loadWindows, saveHourRollups, saveWindows } from "./store";

/**
 * The request metrics of one process (one Lambda instance), flushing its windows to the table.
 * A function without write access to the table (the read-only Feeds Lambda) keeps its figures
 * in memory: the first AccessDenied turns flushing off for the instance, with one warning.
 */
export function createRequestMetrics(ctx: CoreContext, options: Partial<RequestMetricsOptions> = {}): RequestMetrics {
  const logger = ctx.logger.child({ component: "metrics" });
  let writable = true;
  return new RequestMetrics({
    clock: ctx.clock,
    logger,
    sink: async (windows, hours) => {
      if (!writable) return;
      try {
        await Promise.all([saveWindows(ctx.db, windows), saveHourRollups(ctx.db, hours)]);
      } catch (error) {
        if (!isAwsError(error, "AccessDeniedException")) throw error;
        writable = false;
        logger.warn("metrics stay in memory: no write access to the table", { error });
      }
    },
    ...options,
  });
}

/**
 * Recent traffic over every instance: the windows all instances flushed to the table, merged
 * with this instance's own live seconds. If the table cannot be read the reply is this
 * instance's figures alone, marked merged: false.
 */
export async function metricsReport(
  ctx: CoreContext,
  metrics: RequestMetrics,
  windowSeconds: number,
): Promise<MetricsReport> {
  const now = metrics.nowSecond();
  const from = now - windowSeconds + 1;
  let shared: Awaited<ReturnType<typeof loadWindows>> = { windows: [], truncated: false };
  let merged = true;
  try {
    shared = await loadWindows(ctx.db, from, now);
    if (shared.truncated) {
      merged = false;
      ctx.logger.warn("metrics read truncated", { window_seconds: windowSeconds, windows: shared.windows.length });
    }
  } catch (error) {
    merged = false;
    ctx.logger.warn("metrics of other instances unavailable", { error });
  }
  return buildReport({
    now,
    windowSeconds,
    self: {
      id: metrics.instanceId,
      seconds: metrics.seconds(from, now, now),
      coverageStart: metrics.coverageStart(now),
      ringSeconds: metrics.ringSeconds,
      secondsInMemory: metrics.secondsInMemory(),
      unflushedWindows: metrics.unflushedWindows(now),
    },
    shared: shared.windows,
    merged,
    asOf: ctx.clock(),
  });
}

/** Every instance's stored latency hours; merged: false when they could not be (fully) read. */
export interface SharedHours {
  hours: HourRollup[];
  merged: boolean;
}

/**
 * Every instance's stored per-route latency hours of the last `hours` whole hours before `now`
 * (by default the longest window, so one read serves reports of any length). A table that
 * cannot be read, or a read cut at its item limit, gives what could be read with merged: false.
 */
export async function loadSharedHours(
  ctx: CoreContext,
  now: number,
  hours: number = RESPONSE_TIMES_WINDOW.max,
): Promise<SharedHours> {
  try {
    const shared = await loadHourRollups(ctx.db, firstHourOf(now, hours), now);
    if (shared.truncated) ctx.logger.warn("response times read truncated", { hours, items: shared.hours.length });
    return { hours: shared.hours, merged: !shared.truncated };
  } catch (error) {
    ctx.logger.warn("response times of other instances unavailable", { error });
    return { hours: [], merged: false };
  }
}

/**
 * Typical response time per route over the last `hours` whole hours: the stored hours merged with
 * this instance's own from memory.
 */
export function responseTimesFrom(
  ctx: CoreContext,
  metrics: RequestMetrics,
  hours: number,
  shared: SharedHours,
): ResponseTimesReport {
  return buildResponseTimes({
    now: metrics.nowSecond(),
    hours,
    self: { id: metrics.instanceId, hours: metrics.routeLatencyHours() },
    shared: shared.hours,
    merged: shared.merged,
    asOf: ctx.clock(),
  });
}
