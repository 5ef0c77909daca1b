import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { KYC_LIMITS, KycStatus } from "@fintech/core/kyc/model";
import { KYC_EXPORT_MAX_ROWS } from "@fintech/core/kyc/review";
import { LINK_LIMITS } from "@fintech/core/kyc/risk/links";
import {
  APPROVAL_CONFIRMATION_WORD,
  BulkRiskInput,
  BulkRiskSummary,
  BulkUpdateInput,
  BulkUpdateReply,
  DashboardStats,
  DecisionInput,
  DismissAlertInput,
  RequestInfoInput,
  ResubmitInput,
  REVIEW_SEARCH_MAX,
  ReviewFilters,
  ReviewListQuery,
  ReviewPage,
  StatsQuery,
  SubmissionDetail,
} from "@fintech/core/kyc/review-model";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, queryParameters, TAGS } from "../http/openapi";

/**
 * The OpenAPI declarations of the reviewer back office's routes (kyc-review.ts): what the document
 * says of each route (path, parameters, replies, examples). The handlers are there, registered in
 * the order the document lists them.
 */

/* ---------- examples ---------- */

const EXAMPLE_ID = "5b3f8c1e-2d4a-4e6b-9c7d-1a2b3c4d5e6f";
const EXAMPLE_USER = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";
const rowExample = {
  id: EXAMPLE_ID,
  user_id: EXAMPLE_USER,
  name: "Asha Rao",
  email: "asha@example.com",
  phone: "+919876543210",
  location: "India",
  country: "IN",
  status: "under_review",
  risk_score: 35,
  risk_level: "Medium",
  amount: 50000,
  priority: "medium",
  progress: 100,
  submitted_at: "2026-01-15T09:30:00.000Z",
  verified_at: null,
  decided_at: null,
  notes: "",
  info_requested: false,
  alert_open: false,
  documents: [{ type: "passport", status: "verified", uploaded_at: "2026-01-15T09:34:00.000Z" }],
} as const;
const { documents: _rowDocuments, ...rowWithoutDocuments } = rowExample;
const detailExample = {
  ...rowWithoutDocuments,
  documents: [
    {
      type: "passport",
      status: "verified",
      uploaded_at: "2026-01-15T09:34:00.000Z",
      verified_at: "2026-01-15T09:34:02.000Z",
      file_name: "passport.png",
      checks: null,
      url: "https://kyc-documents.s3.amazonaws.com/users/0f1e.../passport.png?X-Amz-Signature=...",
      face_url: null,
      url_expires_at: "2026-01-15T10:05:00.000Z",
    },
  ],
  identity_numbers: {
    aadhaar: { masked: "XXXX XXXX 1234", verified_at: "2026-01-15T09:31:00.000Z" },
    pan: { masked: "AAAAAXXXXA", verified_at: "2026-01-15T09:32:00.000Z" },
  },
  risk: {
    risk_score: 35,
    level: "Medium",
    priority: "medium",
    flags: [{ code: "high_amount", message: "Amount above the review threshold" }],
    verdict: "review",
    reasons: [{ rule: "high_amount", points: 35, reason: "Amount above the review threshold" }],
    rule_set_version: 3,
    assessed_at: "2026-01-15T09:34:02.000Z",
  },
  risk_check: {
    risk_score: 35,
    level: "Medium",
    reject_recommended: false,
    acknowledgement_required: false,
    warnings: [],
    live: null,
  },
  linked: {
    submissions: [
      {
        id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
        user_id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        name: "Ravi Kumar",
        status: "under_review",
        risk_score: 50,
        risk_level: "Medium",
        submitted_at: "2026-01-16T11:00:00.000Z",
        relation: "later",
        alert_open: false,
        shared: [{ kind: "identity_number", type: "aadhaar" }],
      },
    ],
    more: false,
  },
  review_alert: null,
  info_request: null,
  updated_at: "2026-01-15T09:34:02.000Z",
  audit: [
    {
      actor: "Asha Rao",
      actor_id: EXAMPLE_USER,
      actor_role: "applicant",
      at: "2026-01-15T09:30:00.000Z",
      action: "started",
      from: null,
      to: "pending",
      note: null,
    },
    {
      actor: "Automated checks",
      actor_id: "system",
      actor_role: "system",
      at: "2026-01-15T09:34:02.000Z",
      action: "submitted_for_review",
      from: "pending",
      to: "under_review",
      note: null,
    },
  ],
};
const figuresExample = {
  total_submissions: 40,
  verified: 28,
  pending: 8,
  awaiting_applicant: 3,
  under_review: 5,
  rejected: 4,
  average_processing_time: 5.2,
  success_rate: 87.5,
};
const statsExample = {
  ...figuresExample,
  period: "7d",
  from: "2026-01-08T12:00:00.000Z",
  to: "2026-01-15T12:00:00.000Z",
  monthly_growth: 12.5,
  previous: {
    total_submissions: 32,
    verified: 20,
    pending: 6,
    awaiting_applicant: 2,
    under_review: 4,
    rejected: 6,
    average_processing_time: 6.5,
    success_rate: 76.9,
  },
  trends: {
    total_submissions: 25,
    verified: 40,
    pending: 33.3,
    rejected: -33.3,
    average_processing_time: -20,
    success_rate: 10.6,
  },
  complete: true,
};

const review = { tags: [TAGS.kyc] as [typeof TAGS.kyc], security: authenticated, "x-stability": "beta" as const };
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";
const submissionId = pathParameter("id", "The submission's id", EXAMPLE_ID);
const FILTER_DESCRIPTIONS = {
  status: "Only submissions in this status",
  search: `Case-insensitive substring of the name, e-mail, submission id or user id (at most ${REVIEW_SEARCH_MAX} characters)`,
  country: "Only submissions for this country (ISO 3166-1 alpha-2)",
  priority: "Only submissions of this priority",
  period: "Only submissions submitted within the last 24 hours, 7, 30 or 90 days (absent: all time)",
  limit: "Page size",
  cursor: "The `next_cursor` of the previous page (signed and bound to these filters)",
};
const detailReply = (description: string) =>
  jsonReply(description, "KycSubmissionDetailReply", z.object({ data: SubmissionDetail }), { data: detailExample });
const GUARDRAILS = `Rejecting (status rejected) and sending back (status pending) need a reason in \`notes\` (400 \`kyc_reason_required\` when absent or blank). Approving is checked against the live rules at that moment: a submission that is High risk, or that the rules recommend rejecting (stored or live assessment), is approved only with \`acknowledge_risk: true\` (409 \`kyc_risk_acknowledgement_required\` naming the warnings otherwise; the dashboard asks the reviewer to type ${APPROVAL_CONFIRMATION_WORD} first), and the acknowledgement is audited with the warnings. Every decision keeps the reviewer and the reason in \`audit\`.`;
const DECISION_RULES =
  "Transitions: under_review -> verified | rejected (announces verificationCompleted VERIFIED/REJECTED on the KYC stream); pending -> rejected (an incomplete submission can be refused, not approved); pending -> under_review only when every step is done; under_review -> pending is a Request Info (`notes` is the message, required); verified | rejected -> under_review reopens a decision (`notes` required); verified <-> rejected directly is refused (reopen first). The same status with new notes only records the note. Anything else is a 409 `kyc_invalid_transition`.";

export const dashboardRoute = createRoute({
  ...review,
  method: "get",
  path: "/dashboard",
  operationId: "listKycSubmissions",
  summary: "Reviewer dashboard: submissions",
  description: `Every KYC submission, newest first, filtered (status, search, country, priority, period) and paged by cursor; \`total\` counts every match for "Showing X of Y". ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: queryParameters(ReviewListQuery, FILTER_DESCRIPTIONS),
  responses: {
    200: jsonReply("A page of submissions", "KycReviewPage", ReviewPage, {
      data: [rowExample],
      next_cursor: null,
      has_more: false,
      total: 1,
      total_capped: false,
    }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 403: ["admin_required"], 503: true }),
  },
});

export const statsRoute = createRoute({
  ...review,
  method: "get",
  path: "/dashboard/stats",
  operationId: "getKycDashboardStats",
  summary: "Reviewer dashboard: stats with trends",
  description: `The stat cards for the submissions submitted within the period (default 7d): totals by outcome, Pending Review (pending + under_review), average processing time (hours, submission to decision), success rate (verified / decided), monthly growth, and each figure's change against the previous period of the same length. ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: queryParameters(StatsQuery, { period: "The period: 24h, 7d (default), 30d or 90d" }),
  responses: {
    200: jsonReply("The stats", "KycDashboardStatsReply", z.object({ data: DashboardStats }), { data: statsExample }),
    ...errors({ 400: ["validation_error"], 401: true, 403: ["admin_required"], 503: true }),
  },
});

export const exportRoute = createRoute({
  ...review,
  method: "get",
  path: "/dashboard/export",
  operationId: "exportKycSubmissions",
  summary: "Export Report (CSV)",
  description: `Every submission matching the dashboard's filters (at most ${KYC_EXPORT_MAX_ROWS.toLocaleString("en-US")}; more is a 422 \`export_too_large\`) as a CSV download, with a header row. Cells a spreadsheet would run as formulas are escaped with a leading quote. ${ADMIN_ONLY}`,
  "x-complexity": "high",
  parameters: queryParameters(ReviewFilters, FILTER_DESCRIPTIONS),
  responses: {
    200: {
      description: "The CSV file (Content-Disposition: attachment)",
      headers: {
        "Content-Disposition": {
          description: 'attachment; filename="kyc-submissions-YYYY-MM-DD.csv"',
          schema: { type: "string" },
        },
      },
      content: {
        "text/csv": {
          schema: { type: "string" },
          example: `id,user_id,name,email,phone,location,country,status,risk_score,risk_level,amount,priority,progress,submitted_at,verified_at,decided_at,info_requested,notes,documents\n${EXAMPLE_ID},${EXAMPLE_USER},Asha Rao,asha@example.com,+919876543210,India,IN,under_review,35,Medium,50000,medium,100,2026-01-15T09:30:00.000Z,,,no,,passport:verified\n`,
        },
      },
    },
    ...errors({ 400: ["validation_error"], 401: true, 403: ["admin_required"], 422: ["export_too_large"], 503: true }),
  },
});

export const detailRoute = createRoute({
  ...review,
  method: "get",
  path: "/submissions/{id}",
  operationId: "getKycSubmission",
  summary: "One submission in full",
  description: `The submission with its documents (each with short-lived presigned links to the image and face image), the risk breakdown (flags and the rules that fired), \`risk_check\` (what the live rules say now and whether approving needs \`acknowledge_risk\`), \`linked\` (other users' submissions sharing an identity number or a picture with it, earlier or later, with their status; the first ${LINK_LIMITS.shown}), an open \`review_alert\`, masked identity numbers, the open Request Info, and \`audit\`: every change with who, when, from, to and note. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [submissionId],
  responses: {
    200: detailReply("The submission"),
    ...errors({ 401: true, 403: ["admin_required"], 404: ["kyc_submission_not_found"], 503: true }),
  },
});

export const decideRoute = createRoute({
  ...review,
  method: "put",
  path: "/submissions/{id}",
  operationId: "decideKycSubmission",
  summary: "Approve, reject, reopen or annotate a submission",
  description: `Sets the status (and notes, at most ${KYC_LIMITS.maxNoteLength} characters), recorded in the audit trail with the reviewer, time, from, to and note. ${GUARDRAILS} ${DECISION_RULES} ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [submissionId],
  request: {
    body: jsonBody("KycDecisionInput", DecisionInput, {
      status: "rejected",
      notes: "The passport photo belongs to someone else",
    }),
  },
  responses: {
    200: detailReply("The submission after the decision"),
    ...errors({
      400: ["validation_error", "invalid_json", "kyc_reason_required", "kyc_note_required"],
      401: true,
      403: ["admin_required"],
      404: ["kyc_submission_not_found"],
      409: ["kyc_invalid_transition", "kyc_submission_superseded", "kyc_risk_acknowledgement_required"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const bulkRoute = createRoute({
  ...review,
  method: "post",
  path: "/submissions/bulk-update",
  operationId: "bulkUpdateKycSubmissions",
  summary: "The same decision for many submissions",
  description: `1 to ${KYC_LIMITS.maxBulkIds} distinct ids. Each id is its own change, not all-or-nothing: the reply says for each (in the order given) whether it was updated, unchanged (already so), not found, or refused (with the reason and code, e.g. \`kyc_risk_acknowledgement_required\` for a risky approval without \`acknowledge_risk\`), and the summary counts them. A reject or send-back without \`notes\` is refused as a whole (400 \`kyc_reason_required\`). Ask POST /submissions/bulk-risk first to show what the action touches. ${GUARDRAILS} ${DECISION_RULES} ${ADMIN_ONLY}`,
  "x-complexity": "high",
  request: {
    body: jsonBody("KycBulkUpdateInput", BulkUpdateInput, {
      ids: [EXAMPLE_ID],
      status: "verified",
      notes: "Batch review",
    }),
  },
  responses: {
    200: jsonReply("One result per id", "KycBulkUpdateReply", BulkUpdateReply, {
      results: [{ id: EXAMPLE_ID, ok: true, outcome: "updated", status: "verified", code: null, message: null }],
      summary: { updated: 1, unchanged: 0, not_found: 0, refused: 0 },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "kyc_reason_required"],
      401: true,
      403: ["admin_required"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const bulkRiskRoute = createRoute({
  ...review,
  method: "post",
  path: "/submissions/bulk-risk",
  operationId: "summariseKycBulkRisk",
  summary: "The risk of the submissions a bulk action would touch",
  description: `For 1 to ${KYC_LIMITS.maxBulkIds} distinct ids: how many are Low, Medium and High, the highest score, how many the risk rules recommend rejecting, and whether approving them needs \`acknowledge_risk\`, with each submission's figures. Each is the higher of its stored assessment and the live rules' assessment now (what the approval will be checked against). Unknown ids are left out. Writes nothing. ${ADMIN_ONLY}`,
  "x-complexity": "high",
  request: { body: jsonBody("KycBulkRiskInput", BulkRiskInput, { ids: [EXAMPLE_ID] }) },
  responses: {
    200: jsonReply("The risk summary", "KycBulkRiskReply", z.object({ data: BulkRiskSummary }), {
      data: {
        requested: 1,
        found: 1,
        by_level: { Low: 0, Medium: 0, High: 1 },
        unassessed: 0,
        highest_score: 90,
        reject_recommended: 1,
        acknowledgement_required: true,
        submissions: [
          {
            id: EXAMPLE_ID,
            name: "Asha Rao",
            status: "under_review",
            risk_score: 90,
            level: "High",
            reject_recommended: true,
            acknowledgement_required: true,
            warnings: [
              "High risk: score 90 under the live rules (v3)",
              "The risk rules recommend rejecting it under the live rules (v3)",
            ],
          },
        ],
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const dismissAlertRoute = createRoute({
  ...review,
  method: "post",
  path: "/submissions/{id}/dismiss-alert",
  operationId: "dismissKycReviewAlert",
  summary: "Dismiss a review alert with a reason",
  description: `A verified submission whose risk rose when a later submission shared its identity number or a picture keeps its status and gets \`review_alert\` (shown in the list as an open alert, priority high). The reviewer either reopens it (PUT status under_review, which also closes the alert) or dismisses the alert here with a reason (400 \`kyc_reason_required\` without one), kept in the audit trail. 409 \`kyc_no_review_alert\` when no alert is open. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: [submissionId],
  request: {
    body: jsonBody("KycDismissAlertInput", DismissAlertInput, {
      reason: "The later applicant is the impostor; this holder's documents were checked again",
    }),
  },
  responses: {
    200: detailReply("The submission without the alert"),
    ...errors({
      400: ["validation_error", "invalid_json", "kyc_reason_required"],
      401: true,
      403: ["admin_required"],
      404: ["kyc_submission_not_found"],
      409: ["kyc_no_review_alert"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const requestInfoRoute = createRoute({
  ...review,
  method: "post",
  path: "/submissions/{id}/request-info",
  operationId: "requestKycInfo",
  summary: "Request Info from the applicant",
  description: `Sends the submission back to the applicant (status pending) with a message they see in the wizard (\`info_request\`); they answer with POST /api/v1/kyc/resubmit. The message is required (400 \`kyc_reason_required\` when absent or blank) and kept in the audit trail with the reviewer. From under_review, or again on a pending submission (the message is replaced); a decided one must be reopened first (409). ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [submissionId],
  request: {
    body: jsonBody("KycRequestInfoInput", RequestInfoInput, {
      message: "Please upload a clearer photo of your passport",
    }),
  },
  responses: {
    200: detailReply("The submission, now waiting for the applicant"),
    ...errors({
      400: ["validation_error", "invalid_json", "kyc_reason_required"],
      401: true,
      403: ["admin_required"],
      404: ["kyc_submission_not_found"],
      409: ["kyc_invalid_transition"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const resubmitRoute = createRoute({
  ...review,
  method: "post",
  path: "/resubmit",
  operationId: "resubmitKyc",
  summary: "Answer a Request Info",
  description:
    "The signed-in applicant's own submission goes back to review after a reviewer's Request Info: only while one is open (else 409 `kyc_no_info_request`) and once every step is done (else 409 `kyc_incomplete`, naming what is missing). The optional note is kept in the audit trail; the submission is rescored and moves to under_review.",
  "x-complexity": "medium",
  request: { body: jsonBody("KycResubmitInput", ResubmitInput, { note: "Uploaded a sharper passport photo" }) },
  responses: {
    200: jsonReply(
      "The submission's state",
      "KycResubmitReply",
      z.object({
        message: z.string(),
        data: z.object({ id: z.string(), status: KycStatus, progress: z.number().int(), updated_at: z.string() }),
      }),
      {
        message: "Your KYC submission is back with a reviewer",
        data: { id: EXAMPLE_ID, status: "under_review", progress: 100, updated_at: "2026-01-16T08:00:00.000Z" },
      },
    ),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      404: ["kyc_submission_not_found"],
      409: ["kyc_no_info_request", "kyc_incomplete"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});
