import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { UNMATCHED_ROUTE } from "@fintech/core/metrics/model";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import type { AppEnv } from "./app-context";

/** Where the status routes are mounted (app.ts) and the one path left out of the figures. */
export const STATUS_PREFIX = "/api/v1/status";
export const METRICS_PATH = `${STATUS_PREFIX}/metrics`;

/**
 * The route pattern that answered: the last matched route registered for a method (app.use
 * middleware is registered for ALL). With none, the reply came from notFound (a 404, tallied
 * as "(unmatched)") or from middleware alone (a CORS preflight, a 401 under a guarded prefix),
 * named by the most specific middleware pattern. Never the raw path.
 */
export function routeLabel(c: Context): string {
  const routes = matchedRoutes(c);
  for (let index = routes.length - 1; index >= 0; index -= 1) {
    const route = routes[index]!;
    if (route.method !== "ALL") return route.path;
  }
  if (c.res.status === 404) return UNMATCHED_ROUTE;
  const scoped = routes.map((route) => route.path).filter((path) => path !== "*" && path !== "/*");
  return scoped.at(-1) ?? "*";
}

const isMetricsPath = (path: string) => path.replace(/\/+$/, "") === METRICS_PATH;

/**
 * Records every request (method, route pattern, status, duration) except the metrics endpoint
 * itself, which the status page polls every 2 s. Recording is synchronous and cannot throw into
 * the request; the table write happens later, off the request's path.
 */
export function recordRequestMetrics(metrics: RequestMetrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("metrics", metrics);
    const started = performance.now();
    let failed = false;
    try {
      await next();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      try {
        if (!isMetricsPath(c.req.path)) {
          metrics.record({
            method: c.req.method,
            route: routeLabel(c),
            status: failed ? 500 : c.res.status,
            durationMs: performance.now() - started,
          });
        }
      } catch (error) {
        c.get("logger")?.error("request metrics not recorded", { error });
      }
    }
  };
}
