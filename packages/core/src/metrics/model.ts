import { z } from "zod";

/**
 * Safe to import from the browser: the request-metrics vocabulary, the latency histogram and
 * the reply of GET /api/v1/status/metrics.
 *
 * Latencies go into a histogram with FIXED log-scale buckets, the same on every instance, so
 * histograms of different seconds, windows and Lambda instances merge by adding counts, and
 * p50/p99 come from the merged counts (within one bucket's width, about 19 %).
 */

/**
 * Per-route latency is rolled up per instance per hour (the API explorer's "typical response
 * time"): one rollup's length.
 */
export const ROUTE_LATENCY_HOUR_SECONDS = 3600;

/** Four buckets per doubling: each bucket's upper bound is 2^(1/4) ≈ 1.19 times the previous one. */
export const BUCKETS_PER_DOUBLING = 4;
/** Bucket 0 holds everything up to 2^-3 ms = 0.125 ms. */
const LOWEST_EXPONENT = -3;
/** The last bounded bucket ends at 2^16 ms ≈ 65.5 s; slower requests go into the overflow bucket. */
const HIGHEST_EXPONENT = 16;
export const OVERFLOW_BUCKET = (HIGHEST_EXPONENT - LOWEST_EXPONENT) * BUCKETS_PER_DOUBLING + 1;
export const HISTOGRAM_BUCKETS = OVERFLOW_BUCKET + 1;

/** Sparse histogram: bucket index (as a string, so it is a plain JSON / DynamoDB map) to count. */
export type Histogram = Record<string, number>;

/** Upper bound of a bucket in milliseconds (Infinity for the overflow bucket). */
export function bucketUpperMs(index: number): number {
  if (index >= OVERFLOW_BUCKET) return Number.POSITIVE_INFINITY;
  return 2 ** (index / BUCKETS_PER_DOUBLING + LOWEST_EXPONENT);
}

/** Lower bound of a bucket in milliseconds (0 for bucket 0). */
export function bucketLowerMs(index: number): number {
  return index <= 0 ? 0 : bucketUpperMs(index - 1);
}

/** The bucket a latency falls into: the first whose upper bound is at least the latency. */
export function bucketIndex(ms: number): number {
  if (!Number.isFinite(ms)) return ms > 0 ? OVERFLOW_BUCKET : 0;
  if (ms <= bucketUpperMs(0)) return 0;
  const index = Math.ceil((Math.log2(ms) - LOWEST_EXPONENT) * BUCKETS_PER_DOUBLING - 1e-9);
  return Math.min(Math.max(index, 0), OVERFLOW_BUCKET);
}

/**
 * What one second, one 10-second window or one whole report knows about requests: counts by
 * outcome, the latency histogram, the sum and maximum of latencies. Merging is adding (max for
 * max_ms), so the order and the number of parts never matter.
 */
export interface Aggregate {
  requests: number;
  /** 5xx replies. */
  server_errors: number;
  /** 4xx replies. */
  client_errors: number;
  duration_sum_ms: number;
  max_ms: number;
  histogram: Histogram;
}

export const emptyAggregate = (): Aggregate => ({
  requests: 0,
  server_errors: 0,
  client_errors: 0,
  duration_sum_ms: 0,
  max_ms: 0,
  histogram: {},
});

export function addSample(target: Aggregate, status: number, durationMs: number): void {
  const ms = Number.isFinite(durationMs) && durationMs > 0 ? durationMs : 0;
  target.requests += 1;
  if (status >= 500) target.server_errors += 1;
  else if (status >= 400) target.client_errors += 1;
  target.duration_sum_ms += ms;
  if (ms > target.max_ms) target.max_ms = ms;
  const key = String(bucketIndex(ms));
  target.histogram[key] = (target.histogram[key] ?? 0) + 1;
}

export function mergeInto(target: Aggregate, source: Aggregate): Aggregate {
  target.requests += source.requests;
  target.server_errors += source.server_errors;
  target.client_errors += source.client_errors;
  target.duration_sum_ms += source.duration_sum_ms;
  if (source.max_ms > target.max_ms) target.max_ms = source.max_ms;
  mergeHistogram(target.histogram, source.histogram);
  return target;
}

/** Adds one histogram's counts into another (fixed buckets: merging is adding). */
export function mergeHistogram(target: Histogram, source: Histogram): Histogram {
  for (const [key, count] of Object.entries(source)) {
    target[key] = (target[key] ?? 0) + count;
  }
  return target;
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram, in ms; null when it is empty. Inside the bucket
 * that holds the rank the value is interpolated geometrically, and never reported above the
 * largest latency actually seen (maxMs), so one request reports exactly its own latency's bucket.
 */
export function quantile(histogram: Histogram, q: number, maxMs = Number.POSITIVE_INFINITY): number | null {
  const entries = Object.entries(histogram)
    .map(([key, count]) => [Number(key), count] as const)
    .filter(([index, count]) => Number.isInteger(index) && count > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [index, count] of entries) {
    if (seen + count < rank) {
      seen += count;
      continue;
    }
    const fraction = (rank - seen) / count;
    const lower = Math.max(bucketLowerMs(index), index === 0 ? 0 : 1e-6);
    const upper = index >= OVERFLOW_BUCKET ? Math.max(maxMs, lower) : bucketUpperMs(index);
    const value = index === 0 ? upper * fraction : lower * (upper / lower) ** fraction;
    return Math.min(value, maxMs);
  }
  return null;
}

/** Methods are a closed set, so per-route tallies stay bounded whatever a client sends. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
export const normalizeMethod = (method: string): string => {
  const upper = method.toUpperCase();
  return KNOWN_METHODS.has(upper) ? upper : "OTHER";
};

/** Requests that matched no route are tallied under one name, never under their raw path. */
export const UNMATCHED_ROUTE = "(unmatched)";

/** Seconds the recent-traffic figures may cover (GET /api/v1/status/metrics?window=). */
export const METRICS_WINDOW = { min: 10, max: 3600, default: 60 } as const;

export const METRICS_MESSAGES = {
  window: `window must be a whole number of seconds from ${METRICS_WINDOW.min} to ${METRICS_WINDOW.max}`,
} as const;

export const MetricsQuery = z.object({
  window: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return METRICS_WINDOW.default;
      const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (!Number.isSafeInteger(seconds) || seconds < METRICS_WINDOW.min || seconds > METRICS_WINDOW.max) {
        ctx.addIssue({ code: "custom", message: METRICS_MESSAGES.window });
        return z.NEVER;
      }
      return seconds;
    }),
});
export type MetricsQuery = z.infer<typeof MetricsQuery>;

/** The series step for a window: about 60 points or fewer, on a round number of seconds. */
export function seriesStepSeconds(windowSeconds: number): number {
  const steps = [1, 2, 5, 10, 15, 30, 60];
  return steps.find((step) => windowSeconds / step <= 60) ?? 60;
}

export const SeriesPoint = z.object({
  /** Start of the step, epoch seconds. */
  t: z.number(),
  requests: z.number(),
  server_errors: z.number(),
  client_errors: z.number(),
});
export type SeriesPoint = z.infer<typeof SeriesPoint>;

export const RouteFigures = z.object({
  /** "METHOD /route/:pattern" – never a raw path. */
  route: z.string(),
  requests: z.number(),
  server_errors: z.number(),
  client_errors: z.number(),
});
export type RouteFigures = z.infer<typeof RouteFigures>;

/** GET /api/v1/status/metrics. */
export const MetricsReport = z.object({
  window_seconds: z.number(),
  requests: z.number(),
  requests_per_second: z.number(),
  p50_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
  mean_ms: z.number().nullable(),
  max_ms: z.number().nullable(),
  /** Share of requests answered 5xx, 0..1. */
  error_rate: z.number(),
  /** Share of requests answered 4xx, 0..1. */
  client_error_rate: z.number(),
  server_errors: z.number(),
  client_errors: z.number(),
  step_seconds: z.number(),
  /** Complete steps only, oldest first; the current, still-filling second is in the totals but not here. */
  series: z.array(SeriesPoint),
  /** Busiest route patterns in the window. */
  routes: z.array(RouteFigures),
  /** Instances (Lambda containers / processes) whose figures are in the reply, this one included. */
  instances: z.number(),
  /** False when the other instances' figures could not be read: the reply is this instance's alone. */
  merged: z.boolean(),
  instance: z.object({
    id: z.string(),
    ring_seconds: z.number(),
    seconds_in_memory: z.number(),
    unflushed_windows: z.number(),
  }),
  as_of: z.string(),
});
export type MetricsReport = z.infer<typeof MetricsReport>;
