import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { METRICS_WINDOW, MetricsQuery, MetricsReport } from "@fintech/core/metrics/model";
import { metricsReport } from "@fintech/core/metrics/service";
import { ServicesReport } from "@fintech/core/status/model";
import { checkServices } from "@fintech/core/status/service";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonReply, queryParameters, TAGS } from "../http/openapi";
import { queryWith } from "../http/validate";

// The recording middleware lives apart from these routes, so an app serving other routes (the
// feeds) records requests without bundling the status routes.
export { METRICS_PATH, recordRequestMetrics, routeLabel, STATUS_PREFIX } from "../http/request-metrics";

const system = {
  tags: [TAGS.system] as [typeof TAGS.system],
  security: authenticated,
  "x-stability": "stable" as const,
};

const metricsRoute = createRoute({
  ...system,
  method: "get",
  path: "/metrics",
  operationId: "getRequestMetrics",
  summary: "Request metrics",
  description:
    "Requests, latency percentiles, error rates, a per-step series and the busiest route patterns over the last `window` seconds, merged over every API instance (this endpoint's own polls left out).",
  "x-complexity": "high",
  parameters: queryParameters(MetricsQuery, {
    window: `Seconds to cover, ${METRICS_WINDOW.min} to ${METRICS_WINDOW.max} (default ${METRICS_WINDOW.default})`,
  }),
  responses: {
    200: jsonReply("The figures", "MetricsReport", MetricsReport, {
      window_seconds: 60,
      requests: 240,
      requests_per_second: 4,
      p50_ms: 11.3,
      p99_ms: 64,
      mean_ms: 14.2,
      max_ms: 88.1,
      error_rate: 0,
      client_error_rate: 0.0125,
      server_errors: 0,
      client_errors: 3,
      step_seconds: 1,
      series: [{ t: 1768471200, requests: 4, server_errors: 0, client_errors: 0 }],
      routes: [{ route: "GET /api/v1/accounts", requests: 120, server_errors: 0, client_errors: 0 }],
      instances: 2,
      merged: true,
      instance: { id: "9f3c2a1b7d4e5f60", ring_seconds: 600, seconds_in_memory: 60, unflushed_windows: 1 },
      as_of: "2026-01-15T12:00:00.000Z",
    }),
    ...errors({ 400: ["validation_error"], 401: true, 503: true }),
  },
});

const servicesRoute = createRoute({
  ...system,
  method: "get",
  path: "/services",
  operationId: "getServiceStatus",
  summary: "Service status",
  description:
    "Live checks of the API (its recent error rate and median latency), the database, object storage and authentication, each operational, degraded or down, and the overall status.",
  "x-complexity": "medium",
  responses: {
    200: jsonReply("The checks", "ServicesReport", ServicesReport, {
      overall: "ok",
      services: [
        {
          id: "api",
          name: "API",
          status: "operational",
          latency_ms: 11,
          detail: "0.0% errors over the last 60 s",
          checked_at: "2026-01-15T12:00:00.000Z",
        },
        {
          id: "database",
          name: "Database",
          status: "operational",
          latency_ms: 4,
          detail: "Table ACTIVE",
          checked_at: "2026-01-15T12:00:00.000Z",
        },
      ],
      checked_at: "2026-01-15T12:00:00.000Z",
    }),
    ...errors({ 401: true, 503: true }),
  },
});

/** GET /metrics and GET /services, both behind a bearer token (the /status screen is guarded). */
export const statusRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(metricsRoute, async (c) => {
    const query = queryWith(c, MetricsQuery);
    return c.json(await metricsReport(c.get("core"), c.get("metrics"), query.window), 200);
  })
  .openapi(servicesRoute, async (c) =>
    c.json(await checkServices(c.get("core"), c.get("metrics"), c.get("auth").userId), 200),
  );
