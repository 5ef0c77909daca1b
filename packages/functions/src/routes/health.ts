import { Hono, type Context } from "hono";
import { checkHealth, type HealthReport } from "@fintech/core/health/service";
import { SERVICE_UNAVAILABLE_RETRY_SECONDS } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/env";
import { requireAuth } from "../http/middleware";

/** 503 when the database cannot be reached, with Retry-After like every other 503 of the API. */
function healthStatus(c: Context<AppEnv>, report: HealthReport): 200 | 503 {
  if (report.status !== "error") return 200;
  c.header("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_SECONDS));
  return 503;
}

/** Public liveness with real figures; 503 when the database cannot be reached. */
export const publicHealthRoutes = new Hono<AppEnv>().get("/health", async (c) => {
  const report = await checkHealth(c.get("core"));
  return c.json(report, healthStatus(c, report));
});

/** The same checks for a signed-in client: proves the token and the ledger store together. */
export const authenticatedHealthRoutes = new Hono<AppEnv>().get("/health", requireAuth, async (c) => {
  const report = await checkHealth(c.get("core"));
  return c.json({ ...report, user_id: c.get("auth").userId }, healthStatus(c, report));
});
