import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  bulkRisk,
  bulkUpdate,
  dashboardStats,
  decide,
  detailOf,
  dismissAlert,
  exportSubmissions,
  listSubmissions,
  requestInfo,
  resubmit,
  submissionDetail,
  type Reviewer,
} from "@fintech/core/kyc/review";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { readJson } from "../http/validate";
import {
  bulkRiskRoute,
  bulkRoute,
  dashboardRoute,
  decideRoute,
  detailRoute,
  dismissAlertRoute,
  exportRoute,
  requestInfoRoute,
  resubmitRoute,
  statsRoute,
} from "./kyc-review.openapi";

/**
 * The reviewer back office (docs/kyc.md#reviewer-back-office), mounted at /api/v1/kyc beside the
 * applicant's and the documents' route modules. Admin only, except POST /resubmit (the applicant's
 * own). The middleware is registered per path, never on "*": a "*" middleware of a module mounted
 * at a shared prefix would also run for the other modules' routes under that prefix. What the
 * OpenAPI document says of each route is in kyc-review.openapi.ts.
 */

const reviewerOf = (c: Context<AppEnv>): Reviewer => {
  const { user } = c.get("auth");
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email };
};

export const kycReviewRoutes = $(
  new OpenAPIHono<AppEnv>()
    // "/dashboard/*" covers /dashboard itself too.
    .use("/dashboard/*", requireAuth, requireAdmin)
    .use("/submissions/*", requireAuth, requireAdmin)
    .use("/resubmit", requireAuth),
)
  .openapi(dashboardRoute, async (c) => c.json(await listSubmissions(c.get("core"), c.req.query()), 200))
  .openapi(statsRoute, async (c) => c.json({ data: await dashboardStats(c.get("core"), c.req.query()) }, 200))
  .openapi(exportRoute, async (c) => {
    const { filename, csv } = await exportSubmissions(c.get("core"), c.req.query());
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  })
  // Registered before /submissions/{id}/..., which shares its first segment.
  .openapi(bulkRoute, async (c) => c.json(await bulkUpdate(c.get("core"), reviewerOf(c), await readJson(c)), 200))
  .openapi(bulkRiskRoute, async (c) => c.json({ data: await bulkRisk(c.get("core"), await readJson(c)) }, 200))
  .openapi(detailRoute, async (c) => c.json({ data: await submissionDetail(c.get("core"), c.req.param("id")) }, 200))
  .openapi(decideRoute, async (c) => {
    const core = c.get("core");
    const decided = await decide(core, reviewerOf(c), c.req.param("id"), await readJson(c));
    return c.json({ data: await detailOf(core, decided) }, 200);
  })
  .openapi(requestInfoRoute, async (c) => {
    const core = c.get("core");
    const changed = await requestInfo(core, reviewerOf(c), c.req.param("id"), await readJson(c));
    return c.json({ data: await detailOf(core, changed) }, 200);
  })
  .openapi(dismissAlertRoute, async (c) => {
    const core = c.get("core");
    const changed = await dismissAlert(core, reviewerOf(c), c.req.param("id"), await readJson(c));
    return c.json({ data: await detailOf(core, changed) }, 200);
  })
  .openapi(resubmitRoute, async (c) => {
    const submission = await resubmit(c.get("core"), c.get("auth").userId, await readJson(c));
    const message =
      submission.status === "under_review" ? "Your KYC submission is back with a reviewer" : "Your answer was recorded";
    return c.json(
      {
        message,
        data: {
          id: submission.id,
          status: submission.status,
          progress: submission.progress,
          updated_at: submission.updated_at,
        },
      },
      200,
    );
  });
