import { createRoute } from "@hono/zod-openapi";
import { FX_DEFAULT_DAYS, FX_MAX_DAYS, PositionsReply, RevenueReply } from "@fintech/core/fx/model";
import { authenticated, errors, jsonReply, queryParameter, TAGS } from "../http/openapi";

/** The OpenAPI declarations of the treasury routes (treasury.ts): FX positions and FX revenue. */

const treasury = {
  tags: [TAGS.ledger] as [typeof TAGS.ledger],
  security: authenticated,
  "x-stability": "beta" as const,
};
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

export const positionsRoute = createRoute({
  ...treasury,
  method: "get",
  path: "/positions",
  operationId: "getTreasuryPositions",
  summary: "FX position per currency",
  description: `Per currency: the FX position account's posted balance (what quoted conversions left the platform holding; negative where it paid out more than it took in), its pending part, and the FX revenue posted. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  responses: {
    200: jsonReply("Positions", "TreasuryPositionsReply", PositionsReply, {
      data: [
        {
          currency: "USD",
          position: "99.50",
          position_minor: 9950,
          pending: "0.00",
          revenue: "0.50",
          revenue_minor: 50,
        },
      ],
    }),
    ...errors({ 401: true, 403: ["admin_required"] }),
  },
});

export const revenueRoute = createRoute({
  ...treasury,
  method: "get",
  path: "/revenue",
  operationId: "getTreasuryRevenue",
  summary: "FX revenue by day",
  description: `The spread earned per UTC day and currency over the last \`days\` days (default ${FX_DEFAULT_DAYS}, at most ${FX_MAX_DAYS}), oldest first: spread legs posted that day less those unposted, with how many conversions. ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: [
    queryParameter("days", "Days back", { type: "integer", minimum: 1, maximum: FX_MAX_DAYS }, FX_DEFAULT_DAYS),
  ],
  responses: {
    200: jsonReply("Revenue by day", "TreasuryRevenueReply", RevenueReply, {
      days: 1,
      data: [{ date: "2026-11-27", currency: "USD", revenue: "0.50", revenue_minor: 50, conversions: 1 }],
    }),
    ...errors({ 400: ["invalid_days"], 401: true, 403: ["admin_required"] }),
  },
});
