import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { OpsOverview, OVERVIEW_DEFAULT_LIMIT, OVERVIEW_MAX_LIMIT, OPS_MESSAGES } from "@fintech/core/ops/model";
import { authenticated, errors, jsonReply, queryParameters, TAGS } from "../http/openapi";

/** The OpenAPI declarations of the ops console's routes (ops.ts). */

export const OverviewQuery = z.object({
  limit: z.coerce
    .number({ error: OPS_MESSAGES.limit })
    .int(OPS_MESSAGES.limit)
    .min(1, OPS_MESSAGES.limit)
    .max(OVERVIEW_MAX_LIMIT, OPS_MESSAGES.limit)
    .optional(),
});

const OverviewReply = z.object({ data: OpsOverview });

const at = "2026-01-15T10:00:00.000Z";
const overviewExample = {
  data: {
    journals: [
      {
        table: "journal",
        id: "jrn_01",
        change: "posted",
        type: "transfer",
        status: "posted",
        amount: "125.00",
        currency: "USD",
        ownerId: "usr_01",
        description: "Rent",
        at,
      },
    ],
    payments: [
      {
        table: "payment",
        id: "pay_01",
        change: "completed",
        railId: "ach",
        rail: "ACH",
        status: "completed",
        amount: "40.00",
        currency: "USD",
        userId: "usr_02",
        at,
      },
    ],
    kyc: [
      {
        table: "kyc",
        id: "kyc_01",
        change: "submitted",
        status: "pending",
        riskLevel: null,
        riskScore: 0,
        country: "IN",
        userId: "usr_03",
        at,
      },
    ],
    breaks: [
      {
        table: "break",
        id: "ach_2026-01-14_nofile",
        change: "opened",
        railId: "ach",
        class: "missing_file",
        status: "open",
        amount: null,
        currency: null,
        at,
      },
    ],
    analytics: {
      windowHours: 24,
      rails: [
        {
          railId: "ach",
          name: "ACH",
          attempts: 12,
          succeeded: 11,
          failed: 1,
          successRate: 0.9167,
          volume: [{ currency: "USD", amount: "1520.00" }],
        },
      ],
      journalsPerMinute: {
        from: "2026-01-15T09:01:00.000Z",
        counts: Array.from({ length: 60 }, () => 0),
        capped: false,
      },
      openBreaks: { total: 1, byClass: [{ class: "missing_file", count: 1 }] },
    },
    at,
  },
};

export const overviewRoute = createRoute({
  tags: [TAGS.system] as [typeof TAGS.system],
  security: authenticated,
  "x-stability": "beta" as const,
  method: "get",
  path: "/overview",
  operationId: "getOpsOverview",
  summary: "Ops console: recent activity and analytics",
  description: `The last \`limit\` (default ${OVERVIEW_DEFAULT_LIMIT}, at most ${OVERVIEW_MAX_LIMIT}) journals, payments and KYC submissions by latest change, the most recent reconciliation breaks, and analytics: per rail the attempts, success rate and volume of the last 24 hours, journals per minute over the last hour, and open breaks by class. The admin feed (GET /api/grpc/ops/stream, or \`ops\` on the live stream) keeps the tables current. Administrators only (a user is answered 403 \`admin_required\`).`,
  "x-complexity": "medium",
  parameters: queryParameters(OverviewQuery, { limit: "Rows per table" }),
  responses: {
    200: jsonReply("The overview", "OpsOverviewReply", OverviewReply, overviewExample),
    ...errors({ 400: ["validation_error"], 401: true, 403: ["admin_required"] }),
  },
});
