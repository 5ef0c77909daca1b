import { Hono } from "hono";
import { checkHealth } from "@fintech/core/health/service";
import type { AppEnv } from "../http/env";
import { requireAuth } from "../http/middleware";

/** Public liveness with real figures; 503 when the database cannot be reached. */
export const publicHealthRoutes = new Hono<AppEnv>().get("/health", async (c) => {
  const report = await checkHealth(c.get("core"));
  return c.json(report, report.status === "error" ? 503 : 200);
});

/** The same checks for a signed-in client: proves the token and the ledger store together. */
export const authenticatedHealthRoutes = new Hono<AppEnv>().get("/health", requireAuth, async (c) => {
  const report = await checkHealth(c.get("core"));
  return c.json({ ...report, user_id: c.get("auth").userId }, report.status === "error" ? 503 : 200);
});
