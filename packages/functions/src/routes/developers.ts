import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import { RESPONSE_TIMES_WINDOW, ResponseTimesQuery, ResponseTimesReport } from "@fintech/core/metrics/response-times";
import { loadSharedHours, responseTimesFrom, type SharedHours } from "@fintech/core/metrics/service";
import type { AppEnv } from "../http/app-context";
import { errors, jsonReply, publicAccess, queryParameters, TAGS } from "../http/openapi";
import { queryWith } from "../http/validate";

/** Where app.ts mounts these routes. */
export const DEVELOPERS_PREFIX = "/api/v1/developers";

/**
 * The explorer asks for the response times on every visit; a reply this fresh is good enough
 * for a "typical" figure and spares the table a read of up to a day of items per visit.
 */
export const RESPONSE_TIMES_CACHE_SECONDS = 30;

const example: ResponseTimesReport = {
  window_hours: 24,
  since: "2026-01-01T00:00:00.000Z",
  routes: [
    { method: "GET", path: "/api/v1/ledger/accounts/{id}/balance", requests: 1840, typical_ms: 11.31, p95_ms: 26.91 },
    { method: "GET", path: "/health", requests: 2880, typical_ms: 3.36, p95_ms: 6.73 },
  ],
  instances: 3,
  merged: true,
  as_of: "2026-01-01T23:59:30.000Z",
};

export const listResponseTimesRoute = createRoute({
  method: "get",
  path: "/response-times",
  operationId: "listResponseTimes",
  tags: [TAGS.system],
  summary: "Typical response time per route",
  description:
    "Median (`typical_ms`) and 95th percentile (`p95_ms`) latency of every route that served replies (status below 400) in the " +
    "last `hours` whole hours (default 24, the current hour included), merged over every API instance from the real request " +
    "metrics. Paths are in OpenAPI form. Figures are within about 19 % (one latency bucket). Replies are cached for " +
    `${RESPONSE_TIMES_CACHE_SECONDS} s. Public: the API explorer shows them next to each endpoint.`,
  security: publicAccess,
  "x-stability": "beta",
  "x-complexity": "medium",
  parameters: queryParameters(ResponseTimesQuery, {
    hours: `Whole hours to cover, ${RESPONSE_TIMES_WINDOW.min} to ${RESPONSE_TIMES_WINDOW.max} (default ${RESPONSE_TIMES_WINDOW.default}).`,
  }),
  responses: {
    200: jsonReply(
      "Response times per route, by path then method.",
      "ResponseTimesReport",
      ResponseTimesReport,
      example,
    ),
    ...errors({ 400: ["validation_error"] }),
  },
});

/**
 * GET /response-times (public): what the API explorer shows as each endpoint's typical response
 * time. Every instance's stored hours of the longest window are read at most once per
 * RESPONSE_TIMES_CACHE_SECONDS, whatever `hours` callers ask for; each window length's reply
 * is kept for the same time.
 */
export function developerRoutes(metrics: RequestMetrics) {
  let cache: { until: number; shared: Promise<SharedHours>; replies: Map<number, ResponseTimesReport> } | null = null;
  return new OpenAPIHono<AppEnv>().openapi(listResponseTimesRoute, async (c) => {
    // The declaration documents the query; core's schema validates it (a bad value is the API's {message, code} 400).
    const { hours } = queryWith(c, ResponseTimesQuery);
    const core = c.get("core");
    const now = core.clock().getTime();
    if (!cache || cache.until <= now) {
      cache = {
        until: now + RESPONSE_TIMES_CACHE_SECONDS * 1000,
        shared: loadSharedHours(core, metrics.nowSecond()),
        replies: new Map(),
      };
    }
    const current = cache;
    let reply = current.replies.get(hours);
    if (!reply) {
      reply = responseTimesFrom(core, metrics, hours, await current.shared);
      current.replies.set(hours, reply);
    }
    return c.json(reply, 200);
  });
}
