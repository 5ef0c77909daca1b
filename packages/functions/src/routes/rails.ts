import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "@fintech/core/shared/errors";
import { listDecisions, railMetrics, railsWithLiveFigures, railThroughput } from "@fintech/core/rails/metrics";
import { DecisionsQuery, MetricsQuery, ThroughputQuery } from "@fintech/core/rails/metrics-model";
import { QuoteInput } from "@fintech/core/rails/quote-input";
import { RailEditInput } from "@fintech/core/rails/edit-form";
import { getRail, listRails, railHistory, setRailRunning, updateRail } from "@fintech/core/rails/store";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { jsonBody as parseJsonBody, queryWith } from "../http/validate";
import {
  decisionsRoute,
  getRoute,
  listRoute,
  metricsRoute,
  quoteReply,
  quoteRoute,
  startRoute,
  stopRoute,
  throughputRoute,
  updateRoute,
} from "./rails.openapi";

/**
 * Payment rails (docs/payments-and-rails.md#rails-are-data), mounted at /api/v1/rails: the list and
 * one rail for any signed-in user, edits and start/stop for administrators, and the cost quote of
 * every active rail. Everything lives in core (rails/model.ts: schemas and the cost formula;
 * rails/store.ts); this module parses, authorises and shapes the replies. Metrics, throughput,
 * recent routing decisions and the rails' live figures come from real payment attempts
 * (rails/stats.ts counters, rails/metrics.ts reads). What the OpenAPI document says of each route
 * is in rails.openapi.ts.
 */

const actorOf = (c: Context<AppEnv>) => c.get("auth").user.email;

/** The query parsed with `schema`; a parameter given twice is a 400 (which one would count is a guess). */
function singleQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  const repeated = Object.entries(c.req.queries()).find(([, values]) => values.length > 1);
  if (repeated) throw badRequest(`${repeated[0].slice(0, 40)} may be given once`);
  return queryWith(c, schema);
}

/** Signed-in for every route; the admin routes add requireAdmin (checked on the server, before the body is read). */
export const railRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(quoteRoute, async (c) => {
    const input = await parseJsonBody(c, QuoteInput);
    return c.json({ data: quoteReply(await listRails(c.get("core")), input) }, 200);
  })
  // The fixed paths before /{id}: "metrics" would otherwise be read as a rail id.
  .openapi(metricsRoute, async (c) => {
    singleQuery(c, MetricsQuery);
    return c.json({ data: await railMetrics(c.get("core"), c.get("core").clock()) }, 200);
  })
  .openapi(throughputRoute, async (c) => {
    const { range } = singleQuery(c, ThroughputQuery);
    return c.json({ data: await railThroughput(c.get("core"), range, c.get("core").clock()) }, 200);
  })
  .openapi(decisionsRoute, async (c) => {
    const { limit } = singleQuery(c, DecisionsQuery);
    const auth = c.get("auth");
    return c.json(
      {
        data: await listDecisions(
          c.get("core"),
          { userId: auth.userId, admin: auth.role === "admin" },
          limit,
          c.get("core").clock(),
        ),
      },
      200,
    );
  })
  .openapi(listRoute, async (c) => {
    const core = c.get("core");
    return c.json({ data: await railsWithLiveFigures(core, await listRails(core), core.clock()) }, 200);
  })
  .openapi(getRoute, async (c) => {
    const core = c.get("core");
    const id = c.req.param("id");
    const [rail] = await railsWithLiveFigures(core, [await getRail(core, id)], core.clock());
    return c.json({ data: { ...rail!, history: await railHistory(core, id) } }, 200);
  })
  .openapi({ ...updateRoute, middleware: [requireAdmin] as const }, async (c) => {
    const edit = await parseJsonBody(c, RailEditInput);
    const rail = await updateRail(c.get("core"), c.req.param("id"), edit, actorOf(c));
    return c.json({ message: `Rail ${rail.name} saved`, data: rail }, 200);
  })
  .openapi({ ...startRoute, middleware: [requireAdmin] as const }, async (c) => {
    const rail = await setRailRunning(c.get("core"), c.req.param("id"), true, actorOf(c));
    return c.json({ message: `Rail ${rail.name} started`, data: rail }, 200);
  })
  .openapi({ ...stopRoute, middleware: [requireAdmin] as const }, async (c) => {
    const rail = await setRailRunning(c.get("core"), c.req.param("id"), false, actorOf(c));
    return c.json({ message: `Rail ${rail.name} stopped`, data: rail }, 200);
  });
