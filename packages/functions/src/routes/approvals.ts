import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { decideDeposit, depositDecisions, listDepositApprovals } from "@fintech/core/approvals/deposits";
import {
  DecisionInput,
  DecisionRecord,
  DepositApproval,
  DEPOSIT_QUEUE_MAX,
  ThresholdEditInput,
  ThresholdsView,
  type Reviewer,
} from "@fintech/core/approvals/model";
import { readThresholds, thresholdsView, updateThreshold } from "@fintech/core/approvals/thresholds";
import type { AppEnv } from "../http/app-context";
import { requireAdmin, requireAuth } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, TAGS } from "../http/openapi";
import { depositExample, EXAMPLE_IDS, JournalReply } from "../http/reply-schemas";
import { readJson } from "../http/validate";

/**
 * Four eyes (docs/trust-and-safety.md#four-eyes), mounted at /api/v1/approvals: the thresholds
 * (everyone reads them; administrators set them) and the administrators' queue of deposit drafts
 * above the threshold, which an administrator other than the deposit's maker and owner approves
 * (posts) or rejects (voids) with a reason. Payments above the threshold are decided with the
 * payment reviews (routes/payments.ts, POST /v1/payments/{id}/decision). Everything lives in
 * core/approvals.
 */

const ledger = { tags: [TAGS.ledger] as [typeof TAGS.ledger], security: authenticated, "x-stability": "beta" as const };
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

const ThresholdsReply = z.object({ data: ThresholdsView });
const ThresholdsChangedReply = z.object({ message: z.string(), data: ThresholdsView });
const QueueReply = z.object({
  data: z.array(DepositApproval),
  has_more: z.boolean().describe(`More than ${DEPOSIT_QUEUE_MAX} deposits wait: decide some to see the rest`),
});
const DepositDecisionReply = z.object({
  message: z.string(),
  data: z.object({ decision: DecisionRecord, transaction: JournalReply }),
});
const DecisionsReply = z.object({ data: z.array(DecisionRecord) });

/** The administrator deciding, as the audit trail records them. */
function reviewerOf(c: Context<AppEnv>): Reviewer {
  const { user } = c.get("auth");
  return { id: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`.trim() || user.email };
}

/* ---------- examples ---------- */

const thresholdsExample = {
  thresholds: [
    { kind: "deposit", currency: "USD", amount: "10000.00", amount_minor: 1_000_000 },
    { kind: "payment", currency: "USD", amount: "10000.00", amount_minor: 1_000_000 },
  ],
  version: 0,
  updated_at: null,
  updated_by: null,
} as const;
const bigDeposit = { ...depositExample, amount: "25000.00", total_amount: "25000.00", total_amount_minor: 2_500_000 };
const queueExample = {
  journal_id: EXAMPLE_IDS.journal,
  owner_id: EXAMPLE_IDS.user,
  created_by: { id: EXAMPLE_IDS.user, name: "Ada Lovelace" },
  account_id: EXAMPLE_IDS.account,
  account_name: "Everyday",
  amount: "25000.00",
  amount_minor: 2_500_000,
  currency: "USD",
  threshold: "10000.00",
  description: "Salary",
  created_at: "2026-01-15T10:00:00.000Z",
  can_decide: true,
  cannot_decide_reason: null,
} as const;
const decisionExample = {
  decision: "approve",
  reason: "Payroll file matches the employer's remittance advice.",
  decided_by: { id: "a3c1d7e1-5b2f-4c8e-9d0a-7e6f5a4b3c2d", email: "compliance@example.com", name: "Grace Hopper" },
  decided_at: "2026-01-15T10:05:00.000Z",
} as const;

const depositId = pathParameter("id", "The deposit's transaction (journal) id", EXAMPLE_IDS.journal);

/* ---------- routes ---------- */

const getThresholdsRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/thresholds",
  operationId: "getApprovalThresholds",
  summary: "Four-eyes thresholds",
  description:
    "Per kind (deposit, payment) and currency: amounts strictly above these need a second person. A deposit draft above its threshold is approved by an administrator other than the person who made it and the account's owner (its owner's own post is a 403 `second_approver_required`); a payment above it is created `awaiting_approval`. `version` 0 means the seeded defaults are in force.",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The thresholds", "ApprovalThresholdsReply", ThresholdsReply, { data: thresholdsExample }),
    ...errors({ 401: true, 503: true }),
  },
});

const setThresholdRoute = createRoute({
  ...ledger,
  method: "put",
  path: "/thresholds",
  operationId: "setApprovalThreshold",
  summary: "Set a four-eyes threshold (admin)",
  description: `Sets one threshold (kind, currency, amount > 0 in the currency's decimals); it holds from the next request on. Two edits at once: the second is a 409 \`thresholds_changed\`. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  request: {
    body: jsonBody("ThresholdEditInput", ThresholdEditInput, { kind: "payment", currency: "USD", amount: "5000.00" }),
  },
  responses: {
    200: jsonReply("The thresholds after the change", "ApprovalThresholdsChangedReply", ThresholdsChangedReply, {
      message: "Threshold updated",
      data: {
        ...thresholdsExample,
        thresholds: [
          thresholdsExample.thresholds[0],
          { kind: "payment", currency: "USD", amount: "5000.00", amount_minor: 500_000 },
        ],
        version: 1,
        updated_at: "2026-01-15T10:00:00.000Z",
        updated_by: "compliance@example.com",
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_amount"],
      401: true,
      403: ["admin_required"],
      409: ["thresholds_changed"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

const depositQueueRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/deposits",
  operationId: "listDepositApprovals",
  summary: "Deposits awaiting a second approver (admin)",
  description: `Deposit drafts above their currency's threshold, oldest first (at most ${DEPOSIT_QUEUE_MAX}). \`can_decide\` is false for a deposit you made or that is into your own account: another administrator decides it. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  responses: {
    200: jsonReply("The queue", "DepositApprovalQueueReply", QueueReply, { data: [queueExample], has_more: false }),
    ...errors({ 401: true, 403: ["admin_required"], 503: true }),
  },
});

const decideDepositRoute = createRoute({
  ...ledger,
  method: "post",
  path: "/deposits/{id}/decision",
  operationId: "decideDeposit",
  summary: "Approve or reject a deposit above the threshold (admin)",
  description: `\`approve\` posts the draft (its amount becomes the account's balance), \`reject\` voids it (its pending amount is removed); a reason (1-500 characters) is required and kept with who decided and when (GET .../decisions; the transaction's history names the administrator). 403 \`second_approver_required\` when you made the deposit or own its account; 409 \`deposit_not_awaiting_approval\` when it is no longer a draft above the threshold (decided meanwhile, say). ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [depositId],
  request: {
    body: jsonBody("DepositDecisionInput", DecisionInput, { decision: "approve", reason: decisionExample.reason }),
  },
  responses: {
    200: jsonReply("The decision and the transaction after it", "DepositDecisionReply", DepositDecisionReply, {
      message: "Deposit approved",
      data: {
        decision: decisionExample,
        transaction: {
          ...bigDeposit,
          status: "posted",
          posted_at: decisionExample.decided_at,
          timestamp: decisionExample.decided_at,
          history: [
            ...bigDeposit.history,
            {
              operation: "post",
              status: "posted",
              at: decisionExample.decided_at,
              by: { id: decisionExample.decided_by.id, name: decisionExample.decided_by.name },
            },
          ],
        },
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required", "second_approver_required"],
      404: ["deposit_not_found"],
      409: ["deposit_not_awaiting_approval", "already_posted", "voided"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

const depositDecisionsRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/deposits/{id}/decisions",
  operationId: "listDepositDecisions",
  summary: "A deposit's approval decisions (admin)",
  description: `Every four-eyes decision taken on a deposit, oldest first: approve or reject, the reason, who and when. Empty for a deposit never decided (or an unknown id). ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: [depositId],
  responses: {
    200: jsonReply("The decisions", "DepositDecisionsReply", DecisionsReply, { data: [decisionExample] }),
    ...errors({ 401: true, 403: ["admin_required"], 503: true }),
  },
});

/* ---------- handlers ---------- */

export const approvalRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(getThresholdsRoute, async (c) => c.json({ data: thresholdsView(await readThresholds(c.get("core"))) }, 200))
  .openapi({ ...setThresholdRoute, middleware: [requireAdmin] as const }, async (c) => {
    const thresholds = await updateThreshold(c.get("core"), reviewerOf(c), await readJson(c));
    return c.json({ message: "Threshold updated", data: thresholdsView(thresholds) }, 200);
  })
  .openapi({ ...depositQueueRoute, middleware: [requireAdmin] as const }, async (c) => {
    const queue = await listDepositApprovals(c.get("core"), reviewerOf(c));
    return c.json({ data: queue.items, has_more: queue.has_more }, 200);
  })
  .openapi({ ...decideDepositRoute, middleware: [requireAdmin] as const }, async (c) => {
    const decided = await decideDeposit(c.get("core"), c.req.param("id"), reviewerOf(c), await readJson(c));
    return c.json(
      { message: decided.decision.decision === "approve" ? "Deposit approved" : "Deposit rejected", data: decided },
      200,
    );
  })
  .openapi({ ...depositDecisionsRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ data: await depositDecisions(c.get("core"), c.req.param("id")) }, 200),
  );
