/** Key formats of the metrics domain; nothing else builds these keys. */

/** Every flushed aggregate covers this many seconds, aligned to epoch multiples of it. */
export const FLUSH_WINDOW_SECONDS = 10;
/** Aggregates are grouped by hour, so a window of up to an hour reads at most two partitions. */
export const METRICS_PARTITION_SECONDS = 3600;
/** Aggregates expire (table TTL) this long after their window: the longest window a report covers, plus slack. */
export const METRICS_TTL_SECONDS = 3600 + 600;

export const METRICS_ENTITY = "metrics";

const pad = (seconds: number) => String(seconds).padStart(11, "0");

export const windowStartOf = (second: number) => second - (((second % FLUSH_WINDOW_SECONDS) + FLUSH_WINDOW_SECONDS) % FLUSH_WINDOW_SECONDS);
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
