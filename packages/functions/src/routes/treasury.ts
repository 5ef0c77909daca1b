import { $, OpenAPIHono } from "@hono/zod-openapi";
import { parseFxDays } from "@fintech/core/fx/rates";
import { fxPositions, fxRevenueByDay } from "@fintech/core/fx/treasury";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { positionsRoute, revenueRoute } from "./treasury.openapi";

/** Treasury, mounted at /api/v1/treasury (administrators): FX positions and FX revenue by day. */
export const treasuryRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth, requireAdmin))
  .openapi(positionsRoute, async (c) => c.json({ data: await fxPositions(c.get("core")) }, 200))
  .openapi(revenueRoute, async (c) => {
    const days = parseFxDays(c.req.query("days"));
    return c.json({ days, data: await fxRevenueByDay(c.get("core"), days) }, 200);
  });
