import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Context } from "hono";
import type { Reviewer } from "@fintech/core/approvals/model";
import { CloseParkedInput, CreatePaymentInput, CreatePaymentReply, DecidePaymentInput, MAX_STEP_FAILURES, ParkedListQuery, ParkedPayment, Payment, PaymentListQuery, PaymentReviewCase, PAYMENT_LIST_MAX, PAYMENT_MESSAGES, PARKED_LIST_MAX, REVIEW_LIST_MAX, ReviewListQuery } from "@fintech/core/payments/model";
import { decidePayment, listPaymentReviews, paymentReviewCase } from "@fintech/core/payments/decisions";
import { closeParkedPayment, listParkedPayments } from "@fintech/core/payments/review";
import { SCREENING_MESSAGES } from "@fintech/core/screening/model";
import { initiatePayment, requireOwnPayment } from "@fintech/core/payments/service";
import { listPayments, publicPayment } from "@fintech/core/payments/store";
import type { AppEnv } from "../http/env";
import { idempotencyKey, writeReply } from "../http/idempotency";
import { requireAdmin, requireAuth } from "../http/middleware";
import { authenticated, errors, idempotencyKeyParameter, jsonBody, jsonReply, pathParameter, queryParameters, REPLAYED_HEADER, TAGS } from "../http/openapi";
import { queryWith, readJson } from "../http/validate";

/**
 * Payments (issue 12, spec 001 §7), mounted at /v1/payments: initiate a payment, read one, list
 * the caller's; for admins, the payments parked for review and closing one. Everything lives in
 * core (payments/service.ts, worker.ts, store.ts, review.ts); this module parses, authorises and
 * shapes the replies. The lifecycle runs in the worker (contract §3); the payment stream is
 * routes/payment-stream.ts.
 */

const tags = [TAGS.accounts] as [typeof TAGS.accounts];

const PaymentReply = z.object({ data: Payment });
const nextCursor = z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page");
const PaymentListReply = z.object({ data: z.array(Payment), pagination: z.object({ next_cursor: nextCursor }) });
const ParkedListReply = z.object({ data: z.array(ParkedPayment), pagination: z.object({ next_cursor: nextCursor }) });
const ParkedReply = z.object({ message: z.string(), data: ParkedPayment });
const ReviewListReply = z.object({ data: z.array(PaymentReviewCase), pagination: z.object({ next_cursor: nextCursor }) });
const ReviewCaseReply = z.object({ data: PaymentReviewCase });
const DecisionReply = z.object({ message: z.string(), data: PaymentReviewCase });
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

/** The administrator deciding, as the audit trail records them. */
function reviewerOf(c: Context<AppEnv>): Reviewer {
  const { user } = c.get("auth");
  return { id: user.id, email: user.email, name: `${user.first_name} ${user.last_name}`.trim() || user.email };
}

/* ---------- examples ---------- */

const EXAMPLE_AT = "2026-01-15T10:00:00.000Z";
const examplePayment: Payment = {
  paymentId: "6f1c2d3e-4a5b-5c6d-8e7f-8091a2b3c4d5",
  userId: "0b8f0f5e-2a47-4c1d-9b7e-3f0d6c2a9e11",
  status: "pending",
  amount: "250.00",
  amountMinor: 25_000,
  currency: "USD",
  fee: "0.30",
  feeMinor: 30,
  feeBreakdown: { fixedFee: "0.05", fxSpread: "0.00", networkFee: "0.25" },
  selectedRail: "ACH",
  railId: "ach",
  fromAccountId: "3c1d7e1a-5b2f-4c8e-9d0a-7e6f5a4b3c2d",
  payee: { kind: "user", email: "grace@example.com" },
  description: "Dinner",
  attempts: [],
  routing: {
    strategy: "expected_value",
    chosenRailId: "ach",
    chosenRail: "ACH",
    defaultRailId: "ach",
    defaultRail: "ACH",
    currency: "USD",
    amountMinor: 25_000,
    savingMinor: 0,
    saving: "0.00",
    reason: "ACH has the highest expected value: the lowest cost at a 98.5 % success estimate",
    decidedAt: EXAMPLE_AT,
    candidates: [
      { railId: "ach", rail: "ACH", status: "active", costMinor: 30, cost: "0.30", successRate: 0.985, attemptsInWindow: 0, avgProcessingTime: 1.2, slaTarget: 99.9, score: 24_595, eliminated: false, note: "chosen" },
    ],
  },
  journalId: "6f1c2d3e-4a5b-5c6d-8e7f-8091a2b3c4d5",
  estimatedFee: "0.30",
  estimatedTime: "1.2 s",
  fxRate: 1,
  initiatedAt: EXAMPLE_AT,
  createdAt: EXAMPLE_AT,
  updatedAt: EXAMPLE_AT,
  completedAt: null,
  failureReason: null,
};
const exampleCompleted: Payment = {
  ...examplePayment,
  status: "completed",
  attempts: [{ number: 1, railId: "ach", rail: "ACH", status: "succeeded", startedAt: "2026-01-15T10:00:00.050Z", dueAt: "2026-01-15T10:00:01.250Z", finishedAt: "2026-01-15T10:00:01.260Z", errorCode: null, errorMessage: null, retriable: null }],
  updatedAt: "2026-01-15T10:00:01.260Z",
  completedAt: "2026-01-15T10:00:01.260Z",
};

const exampleParked: ParkedPayment = {
  paymentId: examplePayment.paymentId,
  userId: examplePayment.userId,
  status: "parked",
  amount: examplePayment.amount,
  currency: "USD",
  selectedRail: "ACH",
  stuckStatus: "processing",
  stepFailures: MAX_STEP_FAILURES,
  lastError: "Error: The rail's record could not be read",
  reason: PAYMENT_MESSAGES.parked(MAX_STEP_FAILURES),
  parkedAt: "2026-01-15T10:08:00.000Z",
  closedAt: null,
  closedBy: null,
  note: null,
};

const exampleHeld: PaymentReviewCase = {
  paymentId: examplePayment.paymentId,
  userId: examplePayment.userId,
  status: "held_for_review",
  kind: "screening",
  amount: "250.00",
  amountMinor: 25_000,
  currency: "USD",
  fee: "0.30",
  payee: { kind: "external", name: "Kim Jong Un", accountLast4: "3000", country: "CN" },
  description: "Invoice 42",
  createdAt: EXAMPLE_AT,
  why: 'Payee name "Kim Jong Un" matched "KIM, Jong Un" (as "KIM, Jong Un") on Seeded sanctions sample (SDN style) 2026-01, score 1',
  screening: {
    subject: "beneficiary",
    result: "hit",
    screenedName: "Kim Jong Un",
    screenedCountry: "CN",
    match: { list: "Seeded sanctions sample (SDN style) 2026-01", entry: "KIM, Jong Un", matchedName: "KIM, Jong Un", entryType: "individual", entryCountry: "KP", score: 1 },
    lists: ["Seeded sanctions sample (SDN style) 2026-01", "Uploaded watchlist (sanctions entries)"],
    at: EXAMPLE_AT,
  },
  decision: null,
  canDecide: true,
  cannotDecideReason: null,
};

const idParameter = pathParameter("id", "The payment id (paymentId)", examplePayment.paymentId);

/* ---------- routes ---------- */

const createPaymentRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/",
  operationId: "createPayment",
  summary: "Initiate a payment",
  description: [
    "Spec 001 §7. `userId` must be your own (else 403). Exactly one payee: `toAccountId` (another of your accounts), `toEmail` (another user: their oldest active account of the currency receives it; you never see its id or balance; an unknown email and a user without such an account get the same 422 `payee_cannot_receive`; paying yourself by email is a 422 `self_payment_by_email`) or `beneficiary` (an external account: the amount goes to the clearing account of the currency).",
    "The routing chooses the rail (`preferredRail` / `forceRail` name a rail, e.g. ACH); the fee is that rail's cost (the shared cost formula) and is the price: a retry on another rail keeps it.",
    `One transaction holds amount + fee on your account (a draft journal: the funds are no longer available; 422 \`insufficient_funds\` otherwise), stores the payment, its routing decision and its first event. The payment then moves pending → processing → completed | failed in the background (GET /v1/payments/{id}, or the payment stream). If the platform cannot process a step of it ${MAX_STEP_FAILURES} times in a row, it is \`parked\` for review instead: the hold is released (nothing is paid) and \`failureReason\` says so.`,
    `Before the hold, the payee is screened: a beneficiary (or a platform user whose KYC country is known) in an embargoed country is refused, 422 \`embargoed_country\`, with nothing written; a payee whose name matches a sanctions list makes the payment \`held_for_review\` (the hold stays, nothing is scheduled: "${SCREENING_MESSAGES.heldForReview}"). An amount above the four-eyes threshold (GET /api/v1/approvals/thresholds) makes it \`awaiting_approval\`. Either waits until an administrator other than you approves it (it then proceeds as pending) or rejects it (the hold is released and it ends failed).`,
    "Payments to another user or an outside account count against your money limits (GET /api/v1/ledger/limits): 403 `kyc_required` while your identity is not verified, 422 `limit_exceeded` when the amount would pass a rolling limit; payments between your own accounts are never limited. Everything about your side (your accounts, your funds, your level and limits, the rail) is checked before the payee is looked up, so until you could pay, no reply depends on who the payee is. At most 20 payments a minute per user, with the stream's `initiatePayment` (429 `rate_limited` with Retry-After).",
    "Send an Idempotency-Key to retry safely: the same key and body replay the first reply byte for byte; another body is a 422 `idempotency_key_reused`. Validation errors are never recorded.",
  ].join(" "),
  "x-complexity": "high",
  parameters: [idempotencyKeyParameter()],
  request: {
    body: jsonBody("CreatePaymentInput", CreatePaymentInput, { userId: examplePayment.userId, fromAccountId: examplePayment.fromAccountId, amount: "250.00", currency: "USD", toEmail: "grace@example.com", description: "Dinner" }),
  },
  responses: {
    201: jsonReply("The payment: pending, or held_for_review / awaiting_approval when it waits for an administrator (a replay with the same Idempotency-Key is byte for byte the first reply)", "CreatePaymentReply", CreatePaymentReply, { message: "Payment initiated", payment: examplePayment }, REPLAYED_HEADER),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_amount", "invalid_idempotency_key", "same_account"],
      401: true,
      403: ["not_your_user_id", "kyc_required"],
      404: ["account_not_found"],
      409: ["idempotency_in_progress"],
      422: ["insufficient_funds", "idempotency_key_reused", "payee_cannot_receive", "self_payment_by_email", "currency_mismatch", "account_inactive", "account_type_not_payable", "rail_not_available", "no_rail_available", "embargoed_country", "limit_exceeded"],
      423: ["account_locked"],
      429: ["rate_limited"],
      503: true,
    }),
  },
});

const getPaymentRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/{id}",
  operationId: "getPayment",
  summary: "One of your payments",
  description: "Status, the rail's name (`selectedRail`: the current or last attempt's), fee and its breakdown, every attempt with its outcome, and the routing decision (candidates, scores, why this rail, the saving against the default rail). Another user's payment is the same 404 as an unknown id.",
  "x-complexity": "low",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The payment", "PaymentReply", PaymentReply, { data: exampleCompleted }),
    ...errors({ 401: true, 404: ["payment_not_found"], 503: true }),
  },
});

const listPaymentsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/",
  operationId: "listPayments",
  summary: "Your payments",
  description: `Your payments, newest first, optionally of one status; \`limit\` 1-${PAYMENT_LIST_MAX} (default 20); \`cursor\` is the previous page's next_cursor (signed, bound to the status filter: another filter's cursor is a 400 \`invalid_cursor\`).`,
  "x-complexity": "low",
  parameters: queryParameters(PaymentListQuery),
  responses: {
    200: jsonReply("A page of payments", "PaymentListReply", PaymentListReply, { data: [exampleCompleted], pagination: { next_cursor: null } }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 503: true }),
  },
});

const listParkedRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/parked",
  operationId: "listParkedPayments",
  summary: "Payments parked for review",
  description: `Payments whose next step failed ${MAX_STEP_FAILURES} times in a row and were parked instead of retried forever (their hold was released: nothing was paid), newest first, open and closed (\`closedAt\`). Each shows the status it was stuck in, how often its step failed and the last error, to find the cause. \`limit\` 1-${PARKED_LIST_MAX} (default 50), \`cursor\` the previous page's next_cursor. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: queryParameters(ParkedListQuery),
  responses: {
    200: jsonReply("A page of parked payments", "ParkedPaymentListReply", ParkedListReply, { data: [exampleParked], pagination: { next_cursor: null } }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 403: ["admin_required"], 503: true }),
  },
});

const closeParkedRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/{id}/close",
  operationId: "closeParkedPayment",
  summary: "Close a parked payment",
  description: `Ends a parked payment as failed once its case is reviewed, with a note (1-500 characters) kept on the review item with who closed it and when. The payer's payment says it was closed after review; nothing is paid (its hold was released when it was parked). A parked payment is never resumed: placing a new hold would be a new decision on the payer's money, so the payer sends a new payment. 404 for an unknown id, 409 \`payment_not_parked\` for a payment that is not parked. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  request: { body: jsonBody("CloseParkedPaymentInput", CloseParkedInput, { note: "The rail's record was restored; the payer was told to send the payment again." }) },
  responses: {
    200: jsonReply("The review item, closed", "CloseParkedPaymentReply", ParkedReply, {
      message: "Payment closed",
      data: { ...exampleParked, status: "failed", closedAt: "2026-01-15T11:00:00.000Z", closedBy: "admin@example.com", note: "The rail's record was restored; the payer was told to send the payment again." },
    }),
    ...errors({ 400: ["validation_error", "invalid_json"], 401: true, 403: ["admin_required"], 404: ["payment_not_found"], 409: ["payment_not_parked"], 503: true }),
  },
});

const listReviewsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/reviews",
  operationId: "listPaymentReviews",
  summary: "Payments waiting for an administrator",
  description: `Payments held for review (their payee matched a sanctions list) or awaiting approval (above the four-eyes threshold), newest first; \`kind\` (screening or four_eyes) narrows the list. Each shows why it waits, the payee's screening (list, matched entry, score, screened name and country) and whether you may decide it (not your own payment). \`limit\` 1-${REVIEW_LIST_MAX} (default 50), \`cursor\` the previous page's next_cursor. ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: queryParameters(ReviewListQuery),
  responses: {
    200: jsonReply("A page of payments waiting for a decision", "PaymentReviewListReply", ReviewListReply, { data: [exampleHeld], pagination: { next_cursor: null } }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 403: ["admin_required"], 503: true }),
  },
});

const getReviewRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/reviews/{id}",
  operationId: "getPaymentReview",
  summary: "A payment's screening and review",
  description: `Any payment as administrators review it: its payee's screening decision (stored for clear results too), and, if it waited for a decision, why and what was decided (who, when, the reason). ${ADMIN_ONLY}`,
  "x-complexity": "low",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The payment's review", "PaymentReviewReply", ReviewCaseReply, { data: exampleHeld }),
    ...errors({ 401: true, 403: ["admin_required"], 404: ["payment_not_found"], 503: true }),
  },
});

const decideRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/{id}/decision",
  operationId: "decidePayment",
  summary: "Approve or reject a waiting payment",
  description: `For a payment held for review or awaiting approval: \`approve\` releases it (it becomes pending and proceeds; its hold was in place all along), \`reject\` refuses it (the hold is voided and the payment ends failed: "${PAYMENT_MESSAGES.refusedAfterReview}"). A reason (1-500 characters) is required; who decided, when and why are kept in the payment's history. The payer cannot decide their own payment (403 \`second_approver_required\`); a payment that does not wait, or was decided meanwhile, is a 409 \`payment_not_awaiting_decision\`. ${ADMIN_ONLY}`,
  "x-complexity": "medium",
  parameters: [idParameter],
  request: { body: jsonBody("DecidePaymentInput", DecidePaymentInput, { decision: "approve", reason: "Name match is a different person: date of birth and address differ from the SDN entry." }) },
  responses: {
    200: jsonReply("The payment's review after the decision", "DecidePaymentReply", DecisionReply, {
      message: "Payment approved",
      data: { ...exampleHeld, status: "pending", canDecide: false, cannotDecideReason: PAYMENT_MESSAGES.notWaiting, decision: { outcome: "approved", reason: "Name match is a different person: date of birth and address differ from the SDN entry.", by: { id: "a3c1d7e1-5b2f-4c8e-9d0a-7e6f5a4b3c2d", email: "compliance@example.com" }, at: "2026-01-15T10:05:00.000Z" } },
    }),
    ...errors({ 400: ["validation_error", "invalid_json"], 401: true, 403: ["admin_required", "second_approver_required"], 404: ["payment_not_found"], 409: ["payment_not_awaiting_decision"], 413: ["payload_too_large"], 503: true }),
  },
});

/* ---------- handlers ---------- */

export const paymentRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(createPaymentRoute, async (c) => {
    const result = await initiatePayment(c.get("core"), c.get("auth"), await readJson(c), idempotencyKey(c));
    return writeReply(c, { body: result.body, replayed: result.replayed }, 201);
  })
  // The fixed path before /{id}: "parked" would otherwise be read as a payment id.
  .openapi({ ...listParkedRoute, middleware: [requireAdmin] as const }, async (c) => {
    const query = queryWith(c, ParkedListQuery);
    const page = await listParkedPayments(c.get("core"), query);
    return c.json({ data: page.items, pagination: { next_cursor: page.next_cursor } }, 200);
  })
  .openapi({ ...listReviewsRoute, middleware: [requireAdmin] as const }, async (c) => {
    const query = queryWith(c, ReviewListQuery);
    const page = await listPaymentReviews(c.get("core"), reviewerOf(c), query);
    return c.json({ data: page.items, pagination: { next_cursor: page.next_cursor } }, 200);
  })
  .openapi({ ...getReviewRoute, middleware: [requireAdmin] as const }, async (c) => c.json({ data: await paymentReviewCase(c.get("core"), reviewerOf(c), c.req.param("id")) }, 200))
  .openapi({ ...decideRoute, middleware: [requireAdmin] as const }, async (c) => {
    const decided = await decidePayment(c.get("core"), c.req.param("id"), reviewerOf(c), await readJson(c));
    return c.json({ message: decided.decision?.outcome === "rejected" ? "Payment rejected" : "Payment approved", data: decided }, 200);
  })
  .openapi({ ...closeParkedRoute, middleware: [requireAdmin] as const }, async (c) => {
    const closed = await closeParkedPayment(c.get("core"), c.req.param("id"), c.get("auth").user.email, await readJson(c));
    return c.json({ message: "Payment closed", data: closed }, 200);
  })
  .openapi(listPaymentsRoute, async (c) => {
    const query = queryWith(c, PaymentListQuery);
    const page = await listPayments(c.get("core"), c.get("auth").userId, query);
    return c.json({ data: page.items, pagination: { next_cursor: page.next_cursor } }, 200);
  })
  .openapi(getPaymentRoute, async (c) => {
    const payment = await requireOwnPayment(c.get("core"), c.get("auth").userId, c.req.param("id"));
    return c.json({ data: publicPayment(payment) }, 200);
  });
