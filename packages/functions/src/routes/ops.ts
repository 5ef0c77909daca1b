import { $, OpenAPIHono } from "@hono/zod-openapi";
import { opsOverview } from "@fintech/core/ops/overview";
import { OVERVIEW_DEFAULT_LIMIT } from "@fintech/core/ops/model";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { parseWith } from "../http/validate";
import { OverviewQuery, overviewRoute } from "./ops.openapi";

/**
 * The ops console's reads for administrators (docs/money-operations.md#ops-console), mounted at
 * /api/v1/ops. The live part is the admin feed (ops-feed.ts); the rules are in core/ops.
 */
export const opsRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth, requireAdmin)).openapi(
  overviewRoute,
  async (c) => {
    const query = parseWith(OverviewQuery, c.req.query());
    return c.json({ data: await opsOverview(c.get("core"), query.limit ?? OVERVIEW_DEFAULT_LIMIT) }, 200);
  },
);
