import { FLUSH_WINDOW_SECONDS } from "./keys";
import {
  emptyAggregate,
  mergeInto,
  quantile,
  seriesStepSeconds,
  type MetricsReport,
  type RouteFigures,
  type SeriesPoint,
} from "./model";
import type { RouteCounts, SecondBucket, WindowAggregate } from "./recorder";

export const TOP_ROUTES = 10;

export interface ReportInput {
  /** The current second (still filling); the window is the `windowSeconds` seconds ending with it. */
  now: number;
  windowSeconds: number;
  self: {
    id: string;
    /** This instance's seconds from its ring. */
    seconds: SecondBucket[];
    /** Windows from here on are taken from the ring; the table's copies of them are ignored. */
    coverageStart: number;
    ringSeconds: number;
    secondsInMemory: number;
    unflushedWindows: number;
  };
  /** Every instance's flushed windows overlapping the report's window (this one's included). */
  shared: WindowAggregate[];
  merged: boolean;
  asOf: Date;
}

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
const share = (part: number, whole: number) => (whole > 0 ? round(part / whole, 4) : 0);
const ms = (value: number | null) => (value === null ? null : round(value, 2));

/**
 * Merges this instance's live seconds with every instance's flushed windows. Request counts
 * are exact per second; percentiles come from the merged histograms of the windows that
 * overlap the report's window (an edge window counts whole, so they may lean up to 9 s older).
 */
export function buildReport(input: ReportInput): MetricsReport {
  const { now, windowSeconds, self } = input;
  const from = now - windowSeconds + 1;
  const step = seriesStepSeconds(windowSeconds);
  const total = emptyAggregate();
  const perSecond = new Map<number, [number, number, number]>();
  const routes = new Map<string, RouteCounts>();
  const instances = new Set<string>([self.id]);

  const addSecond = (second: number, requests: number, server: number, client: number) => {
    if (second < from || second > now) return;
    const into = perSecond.get(second) ?? [0, 0, 0];
    into[0] += requests;
    into[1] += server;
    into[2] += client;
    perSecond.set(second, into);
  };
  const addRoutes = (entries: Iterable<[string, RouteCounts]>) => {
    for (const [route, counts] of entries) {
      const into = routes.get(route) ?? [0, 0, 0];
      into[0] += counts[0];
      into[1] += counts[1];
      into[2] += counts[2];
      routes.set(route, into);
    }
  };

  const seen = new Set<string>();
  for (const window of input.shared) {
    // The ring is the truth for this instance's recent windows (the table may lag behind it).
    if (window.instance_id === self.id && window.window_start >= self.coverageStart) continue;
    if (window.window_start + FLUSH_WINDOW_SECONDS - 1 < from || window.window_start > now) continue;
    const key = `${window.instance_id}#${window.window_start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let inside = 0;
    for (const [second, requests, server, client] of window.per_second) {
      if (second >= from && second <= now) inside += requests;
      addSecond(second, requests, server, client);
    }
    if (inside === 0) continue;
    instances.add(window.instance_id);
    mergeInto(total, { ...window, requests: 0, server_errors: 0, client_errors: 0 });
    addRoutes(Object.entries(window.routes));
  }

  for (const bucket of self.seconds) {
    if (bucket.second < Math.max(from, self.coverageStart) || bucket.second > now) continue;
    addSecond(bucket.second, bucket.requests, bucket.server_errors, bucket.client_errors);
    mergeInto(total, { ...bucket, requests: 0, server_errors: 0, client_errors: 0 });
    addRoutes(bucket.routes);
  }

  for (const [requests, server, client] of perSecond.values()) {
    total.requests += requests;
    total.server_errors += server;
    total.client_errors += client;
  }

  // Complete steps only: the step holding the current second is still filling.
  const series: SeriesPoint[] = [];
  const firstStep = from - (((from % step) + step) % step);
  for (let t = firstStep; t + step - 1 < now; t += step) {
    const point: SeriesPoint = { t, requests: 0, server_errors: 0, client_errors: 0 };
    for (let second = Math.max(t, from); second < t + step; second += 1) {
      const counts = perSecond.get(second);
      if (!counts) continue;
      point.requests += counts[0];
      point.server_errors += counts[1];
      point.client_errors += counts[2];
    }
    series.push(point);
  }

  const topRoutes: RouteFigures[] = [...routes.entries()]
    .map(([route, [requests, server, client]]) => ({ route, requests, server_errors: server, client_errors: client }))
    .sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route))
    .slice(0, TOP_ROUTES);

  const histogramTotal = Object.values(total.histogram).reduce((sum, value) => sum + value, 0);
  const hasLatency = histogramTotal > 0;
  return {
    window_seconds: windowSeconds,
    requests: total.requests,
    requests_per_second: round(total.requests / windowSeconds, 2),
    p50_ms: ms(quantile(total.histogram, 0.5, total.max_ms)),
    p99_ms: ms(quantile(total.histogram, 0.99, total.max_ms)),
    mean_ms: hasLatency ? ms(total.duration_sum_ms / histogramTotal) : null,
    max_ms: hasLatency ? ms(total.max_ms) : null,
    error_rate: share(total.server_errors, total.requests),
    client_error_rate: share(total.client_errors, total.requests),
    server_errors: total.server_errors,
    client_errors: total.client_errors,
    step_seconds: step,
    series,
    routes: topRoutes,
    instances: instances.size,
    merged: input.merged,
    instance: {
      id: self.id,
      ring_seconds: self.ringSeconds,
      seconds_in_memory: self.secondsInMemory,
      unflushed_windows: self.unflushedWindows,
    },
    as_of: input.asOf.toISOString(),
  };
}
