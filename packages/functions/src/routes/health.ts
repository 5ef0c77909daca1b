import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { checkHealth, type HealthReport as Report } from "@fintech/core/health/service";
import { SERVICE_UNAVAILABLE_RETRY_SECONDS } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, jsonReply, publicAccess, RETRY_AFTER, TAGS } from "../http/openapi";
import { AuthenticatedHealthReport, HealthReport, healthExample } from "../http/reply-schemas";

/** 503 when the database cannot be reached, with Retry-After like every other 503 of the API. */
function healthStatus(c: Context<AppEnv>, report: Report): 200 | 503 {
  if (report.status !== "error") return 200;
  c.header("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_SECONDS));
  return 503;
}

const unhealthyExample = {
  ...healthExample,
  status: "error",
  message: "Database unavailable",
  database: { ...healthExample.database, connected: false, error: "connect ECONNREFUSED", table_status: null },
};

const publicHealth = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  summary: "Liveness with real figures",
  description:
    "Checks the database (DescribeTable) and object storage (HeadBucket) in parallel. `degraded` when storage is down; 503 when the database is.",
  tags: [TAGS.system],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: publicAccess,
  responses: {
    200: jsonReply("The service is up (status ok or degraded)", "HealthReport", HealthReport, healthExample),
    503: jsonReply(
      "The database cannot be reached (status error); Retry-After in seconds",
      "HealthReport",
      HealthReport,
      unhealthyExample,
      RETRY_AFTER,
    ),
  },
});

/** Public liveness with real figures; 503 when the database cannot be reached. */
export const publicHealthRoutes = new OpenAPIHono<AppEnv>().openapi(publicHealth, async (c) => {
  const report = await checkHealth(c.get("core"));
  return c.json(report, healthStatus(c, report));
});

const authenticatedHealth = createRoute({
  method: "get",
  path: "/health",
  operationId: "getAuthenticatedHealth",
  summary: "Health for a signed-in client",
  description:
    "The same checks as GET /health, answered only with a valid bearer token or API key: proves the credential and the store together. Carries the caller's user id.",
  tags: [TAGS.system],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: authenticated,
  middleware: [requireAuth] as const,
  responses: {
    200: jsonReply(
      "The service is up and the credential is valid",
      "AuthenticatedHealthReport",
      AuthenticatedHealthReport,
      { ...healthExample, user_id: "6f1c2b9e-8d4a-4e1b-9c3f-2a7d5e8b1c04" },
    ),
    ...errors({ 401: true }),
    503: jsonReply(
      "The database cannot be reached; Retry-After in seconds",
      "AuthenticatedHealthReport",
      AuthenticatedHealthReport,
      { ...unhealthyExample, user_id: "6f1c2b9e-8d4a-4e1b-9c3f-2a7d5e8b1c04" },
      RETRY_AFTER,
    ),
  },
});

/** The same checks for a signed-in client: proves the token and the ledger store together. */
export const authenticatedHealthRoutes = new OpenAPIHono<AppEnv>().openapi(authenticatedHealth, async (c) => {
  const report = await checkHealth(c.get("core"));
  return c.json({ ...report, user_id: c.get("auth").userId }, healthStatus(c, report));
});
