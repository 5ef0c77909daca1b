import { z } from "zod";
import { ROUTE_LATENCY_HOUR_SECONDS, mergeHistogram, quantile, type Histogram } from "./model";

/**
 * Safe to import from the browser: the typical response time of each route (GET
 * /api/v1/developers/response-times), built from the per-route latency every instance rolls up
 * per hour. Latencies sit in the same fixed log buckets as the global histogram, so hours and
 * instances merge by adding counts and the quantiles are within one bucket (about 19 %).
 */

/** Hours the response times may cover; whole hours, the current (filling) one included. */
export const RESPONSE_TIMES_WINDOW = { min: 1, max: 24, default: 24 } as const;

export const RESPONSE_TIMES_MESSAGES = {
  hours: `hours must be a whole number from ${RESPONSE_TIMES_WINDOW.min} to ${RESPONSE_TIMES_WINDOW.max}`,
} as const;

export const ResponseTimesQuery = z.object({
  hours: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return RESPONSE_TIMES_WINDOW.default;
      const hours = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (!Number.isSafeInteger(hours) || hours < RESPONSE_TIMES_WINDOW.min || hours > RESPONSE_TIMES_WINDOW.max) {
        ctx.addIssue({ code: "custom", message: RESPONSE_TIMES_MESSAGES.hours });
        return z.NEVER;
      }
      return hours;
    }),
});
export type ResponseTimesQuery = z.infer<typeof ResponseTimesQuery>;

export const RouteResponseTime = z.object({
  method: z.string(),
  /** The route in OpenAPI form: /api/v1/ledger/accounts/{id}/balance. */
  path: z.string(),
  /** Successful (below 400) replies measured in the window. */
  requests: z.number().int().nonnegative(),
  /** Median latency in ms. */
  typical_ms: z.number().nonnegative(),
  p95_ms: z.number().nonnegative(),
});
export type RouteResponseTime = z.infer<typeof RouteResponseTime>;

export const ResponseTimesReport = z.object({
  window_hours: z.number().int().positive(),
  /** Start of the oldest hour included (epoch seconds, ISO); the window is whole hours. */
  since: z.string(),
  /** Routes with at least one measured reply, by path then method. */
  routes: z.array(RouteResponseTime),
  /** Instances (Lambda containers / processes) whose figures are in the reply, this one included. */
  instances: z.number().int().nonnegative(),
  /** False when the other instances' figures could not be (fully) read: the reply is partial. */
  merged: z.boolean(),
  as_of: z.string(),
});
export type ResponseTimesReport = z.infer<typeof ResponseTimesReport>;

/** Latency of one route, merged by adding histograms (max for max_ms). */
export interface RouteLatency {
  requests: number;
  max_ms: number;
  histogram: Histogram;
}

/** One instance's per-route latency of one hour, as stored and read back by every instance. */
export interface HourRollup {
  instance_id: string;
  hour_start: number;
  /** "METHOD /route/:pattern" to latency. */
  routes: Record<string, RouteLatency>;
}

const MEASURED_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * Hono's route pattern in OpenAPI form: ":id" and ":id{[0-9]+}" become "{id}", a trailing
 * slash goes. Null for names that are not one route (unmatched requests, middleware-only
 * replies under a wildcard, the overflow tally).
 */
export function openApiPath(pattern: string): string | null {
  if (!pattern.startsWith("/") || pattern.includes("*")) return null;
  const path = pattern
    .split("/")
    .map((segment) => {
      const param = /^:([A-Za-z_][A-Za-z0-9_]*)(\{.*\})?\??$/.exec(segment);
      return param ? `{${param[1]}}` : segment;
    })
    .join("/");
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/** "GET /api/v1/accounts/:id" to its method and OpenAPI path; null when it is not a measured route. */
export function parseRouteName(name: string): { method: string; path: string } | null {
  const space = name.indexOf(" ");
  if (space <= 0) return null;
  const method = name.slice(0, space);
  const path = openApiPath(name.slice(space + 1));
  return path && MEASURED_METHODS.has(method) ? { method, path } : null;
}

export interface ResponseTimesInput {
  /** The current second; the window is the `hours` whole hours ending with the one holding it. */
  now: number;
  hours: number;
  /** This instance's hours from memory: they replace its own stored copies (the table may lag). */
  self: { id: string; hours: HourRollup[] };
  /** Every instance's stored hours overlapping the window (this one's included). */
  shared: HourRollup[];
  merged: boolean;
  asOf: Date;
}

export const firstHourOf = (now: number, hours: number) =>
  now -
  (((now % ROUTE_LATENCY_HOUR_SECONDS) + ROUTE_LATENCY_HOUR_SECONDS) % ROUTE_LATENCY_HOUR_SECONDS) -
  (hours - 1) * ROUTE_LATENCY_HOUR_SECONDS;

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

export function buildResponseTimes(input: ResponseTimesInput): ResponseTimesReport {
  const from = firstHourOf(input.now, input.hours);
  const ownHours = new Set(input.self.hours.map((hour) => hour.hour_start));
  const byRoute = new Map<string, RouteLatency>();
  const instances = new Set<string>();
  const seen = new Set<string>();
  const rollups = [
    ...input.self.hours,
    ...input.shared.filter((hour) => hour.instance_id !== input.self.id || !ownHours.has(hour.hour_start)),
  ];
  for (const hour of rollups) {
    if (hour.hour_start < from || hour.hour_start > input.now) continue;
    const key = `${hour.instance_id}#${hour.hour_start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const [name, latency] of Object.entries(hour.routes)) {
      const route = parseRouteName(name);
      if (!route || latency.requests <= 0) continue;
      instances.add(hour.instance_id);
      const id = `${route.method} ${route.path}`;
      const into = byRoute.get(id) ?? { requests: 0, max_ms: 0, histogram: {} };
      into.requests += latency.requests;
      into.max_ms = Math.max(into.max_ms, latency.max_ms);
      mergeHistogram(into.histogram, latency.histogram);
      byRoute.set(id, into);
    }
  }
  const routes: RouteResponseTime[] = [];
  for (const [id, latency] of byRoute) {
    const typical = quantile(latency.histogram, 0.5, latency.max_ms);
    const p95 = quantile(latency.histogram, 0.95, latency.max_ms);
    if (typical === null || p95 === null) continue;
    const space = id.indexOf(" ");
    routes.push({
      method: id.slice(0, space),
      path: id.slice(space + 1),
      requests: latency.requests,
      typical_ms: roundMs(typical),
      p95_ms: roundMs(p95),
    });
  }
  routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  return {
    window_hours: input.hours,
    since: new Date(from * 1000).toISOString(),
    routes,
    instances: instances.size,
    merged: input.merged,
    as_of: input.asOf.toISOString(),
  };
}
