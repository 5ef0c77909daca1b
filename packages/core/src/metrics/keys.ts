import { ROUTE_LATENCY_HOUR_SECONDS } from "./model";

/** Key formats of the metrics domain; nothing else builds these keys. */

/** Every flushed aggregate covers this many seconds, aligned to epoch multiples of it. */
export const FLUSH_WINDOW_SECONDS = 10;
/** Aggregates are grouped by hour, so a window of up to an hour reads at most two partitions. */
export const METRICS_PARTITION_SECONDS = 3600;
/** Aggregates expire (table TTL) this long after their window: the longest window a report covers, plus slack. */
export const METRICS_TTL_SECONDS = 3600 + 600;

export const METRICS_ENTITY = "metrics";

const pad = (seconds: number) => String(seconds).padStart(11, "0");

export const windowStartOf = (second: number) =>
  second - (((second % FLUSH_WINDOW_SECONDS) + FLUSH_WINDOW_SECONDS) % FLUSH_WINDOW_SECONDS);
export const partitionStartOf = (second: number) =>
  second - (((second % METRICS_PARTITION_SECONDS) + METRICS_PARTITION_SECONDS) % METRICS_PARTITION_SECONDS);

export const metricsPartition = (partitionStart: number) => `METRICS#${pad(partitionStart)}`;

/** One instance's aggregate of one 10-second window. */
export const metricsWindowKey = (windowStart: number, instanceId: string) => ({
  pk: metricsPartition(partitionStartOf(windowStart)),
  sk: `W#${pad(windowStart)}#${instanceId}`,
});

/** Sort-key bounds of every instance's windows starting from `fromWindow` to `toWindow`, inclusive. */
export const metricsWindowRange = (fromWindow: number, toWindow: number) => ({
  from: `W#${pad(fromWindow)}#`,
  to: `W#${pad(toWindow)}#~`,
});

/**
 * Per-route latency is kept longer than the 10-second windows (a day, for the API explorer's
 * "typical response time"), so it is rolled up per instance per HOUR: one item each, replaced
 * as the hour fills. Items are grouped by day, so a 24-hour window reads at most two partitions.
 */
export const ROUTE_LATENCY_PARTITION_SECONDS = 86_400;
/** The longest window the response times cover (24 h), plus the hour still filling, plus slack. */
export const ROUTE_LATENCY_TTL_SECONDS = 86_400 + 2 * 3600;
export const ROUTE_LATENCY_ENTITY = "route_latency";

export const hourStartOf = (second: number) =>
  second - (((second % ROUTE_LATENCY_HOUR_SECONDS) + ROUTE_LATENCY_HOUR_SECONDS) % ROUTE_LATENCY_HOUR_SECONDS);
export const routeLatencyPartitionStartOf = (second: number) =>
  second -
  (((second % ROUTE_LATENCY_PARTITION_SECONDS) + ROUTE_LATENCY_PARTITION_SECONDS) % ROUTE_LATENCY_PARTITION_SECONDS);

export const routeLatencyPartition = (partitionStart: number) => `ROUTE_LATENCY#${pad(partitionStart)}`;

/** One instance's per-route latency of one hour. */
export const routeLatencyHourKey = (hourStart: number, instanceId: string) => ({
  pk: routeLatencyPartition(routeLatencyPartitionStartOf(hourStart)),
  sk: `H#${pad(hourStart)}#${instanceId}`,
});

/** Sort-key bounds of every instance's hours from `fromHour` to `toHour`, inclusive. */
export const routeLatencyHourRange = (fromHour: number, toHour: number) => ({
  from: `H#${pad(fromHour)}#`,
  to: `H#${pad(toHour)}#~`,
});
