import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { z } from "zod";
import { updateCase } from "@fintech/core/compliance/cases";
import { exportReport } from "@fintech/core/compliance/export";
import { CaseUpdateInput, ExportInput, PeriodQuery, TaxQuery } from "@fintech/core/compliance/model";
import { ctrReport, sarReport, taxReport } from "@fintech/core/compliance/reports";
import { badRequest } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { jsonBody, queryWith } from "../http/validate";
import { ctrRoute, exportRoute, sarRoute, taxRoute, updateCaseRoute } from "./compliance.openapi";

/**
 * Compliance reports (docs/money-operations.md#compliance-reports), mounted at
 * /api/v1/compliance, administrators only: the CTR, SAR-candidate and tax reports over a period,
 * a case's status change and the CSV/PDF export. The rules, reads and cases are in
 * core/compliance; this module parses, authorises and shapes the replies.
 */

/** The query parsed with `schema`; a parameter given twice is a 400 (which one would count is a guess). */
function singleQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  const repeated = Object.entries(c.req.queries()).find(([, values]) => values.length > 1);
  if (repeated) throw badRequest(`${repeated[0].slice(0, 40)} may be given once`);
  return queryWith(c, schema);
}

/** Signed in and an administrator for every route, checked before any query or body is read. */
export const complianceRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth).use(requireAdmin))
  .openapi(ctrRoute, async (c) => c.json({ data: await ctrReport(c.get("core"), singleQuery(c, PeriodQuery)) }, 200))
  .openapi(sarRoute, async (c) => c.json({ data: await sarReport(c.get("core"), singleQuery(c, PeriodQuery)) }, 200))
  .openapi(taxRoute, async (c) => {
    const { rate, ...period } = singleQuery(c, TaxQuery);
    return c.json({ data: await taxReport(c.get("core"), period, rate) }, 200);
  })
  .openapi(updateCaseRoute, async (c) => {
    const input = await jsonBody(c, CaseUpdateInput);
    const changed = await updateCase(c.get("core"), c.req.param("id"), input, c.get("auth").user.email);
    return c.json({ data: changed }, 200);
  })
  .openapi(exportRoute, async (c) => {
    const input = await jsonBody(c, ExportInput);
    return c.json({ data: await exportReport(c.get("core"), input) }, 201);
  });
