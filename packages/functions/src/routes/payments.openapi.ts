import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  CloseParkedInput,
  CreatePaymentInput,
  CreatePaymentReply,
  CreateRecipientInput,
  DecidePaymentInput,
  MAX_STEP_FAILURES,
  ParkedListQuery,
  ParkedPayment,
  Payment,
  PaymentDetail,
  PaymentListQuery,
  PaymentReviewCase,
  PAYMENT_LIST_MAX,
  PAYMENT_MESSAGES,
  PARKED_LIST_MAX,
  Recipient,
  RECIPIENTS_MAX,
  RenameRecipientInput,
  REVIEW_LIST_MAX,
  ReviewListQuery,
} from "@fintech/core/payments/model";
import { SCREENING_MESSAGES } from "@fintech/core/screening/model";
import {
  authenticated,
  errors,
  idempotencyKeyParameter,
  jsonBody,
  jsonReply,
  pathParameter,
  queryParameters,
  REPLAYED_HEADER,
  TAGS,
} from "../http/openapi";

/**
 * The OpenAPI declarations of the payments routes (payments.ts): what the document says of each
 * route (path, parameters, replies, examples). The handlers are there, registered in the order the
 * document lists them.
 */

const tags = [TAGS.accounts] as [typeof TAGS.accounts];

const PaymentReply = z.object({ data: Payment });
const nextCursor = z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page");
const PaymentListReply = z.object({ data: z.array(Payment), pagination: z.object({ next_cursor: nextCursor }) });
const ParkedListReply = z.object({ data: z.array(ParkedPayment), pagination: z.object({ next_cursor: nextCursor }) });
const ParkedReply = z.object({ message: z.string(), data: ParkedPayment });
const ReviewListReply = z.object({
  data: z.array(PaymentReviewCase),
  pagination: z.object({ next_cursor: nextCursor }),
});
const ReviewCaseReply = z.object({ data: PaymentReviewCase });
const DecisionReply = z.object({ message: z.string(), data: PaymentReviewCase });
const PaymentDetailReply = z.object({ data: PaymentDetail });
const RecipientListReply = z.object({ data: z.array(Recipient) });
const RecipientReply = z.object({ data: Recipient });
const RecipientDeletedReply = z.object({ message: z.string() });
const ADMIN_ONLY = "Administrators only (a user is answered 403 `admin_required`).";

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
      {
        railId: "ach",
        rail: "ACH",
        status: "active",
        costMinor: 30,
        cost: "0.30",
        successRate: 0.985,
        attemptsInWindow: 0,
        avgProcessingTime: 1.2,
        slaTarget: 99.9,
        score: 24_595,
        eliminated: false,
        note: "chosen",
      },
    ],
    destinationCountry: "US",
    excluded: [{ railId: "sepa", rail: "SEPA", reason: "SEPA carries EUR only" }],
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
  attempts: [
    {
      number: 1,
      railId: "ach",
      rail: "ACH",
      status: "succeeded",
      startedAt: "2026-01-15T10:00:00.050Z",
      dueAt: "2026-01-15T10:00:01.250Z",
      finishedAt: "2026-01-15T10:00:01.260Z",
      errorCode: null,
      errorMessage: null,
      retriable: null,
    },
  ],
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
    match: {
      list: "Seeded sanctions sample (SDN style) 2026-01",
      entry: "KIM, Jong Un",
      matchedName: "KIM, Jong Un",
      entryType: "individual",
      entryCountry: "KP",
      score: 1,
    },
    lists: ["Seeded sanctions sample (SDN style) 2026-01", "Uploaded watchlist (sanctions entries)"],
    at: EXAMPLE_AT,
  },
  decision: null,
  canDecide: true,
  cannotDecideReason: null,
};

const idParameter = pathParameter("id", "The payment id (paymentId)", examplePayment.paymentId);

/* ---------- the payment quote (rails: what each can carry, routing and fees) ---------- */

const QuotedRailSchema = z.object({
  rail: z.string(),
  fee: z.string().describe("In the payment's currency"),
  feeCurrency: z.string(),
  settlementSeconds: z.number().int(),
});
const PaymentQuoteReply = z.object({
  amount: z.string(),
  currency: z.string(),
  rail: z.string().describe("The rail routing would pick now"),
  fee: z.string().describe("What will be charged, in the payment's currency"),
  feeCurrency: z.string(),
  total: z.string().describe("amount + fee: what is held from the paying account"),
  settlementSeconds: z.number().int(),
  arrivalEstimate: z.string().describe('Human text, e.g. "within 1 business day"'),
  payee: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("own"), name: z.string(), accountId: z.string() }),
    z.object({ kind: z.literal("user"), name: z.string(), email: z.string() }),
    z.object({ kind: z.literal("external"), name: z.string(), accountLast4: z.string(), country: z.string() }),
  ]),
  eligible: z.array(QuotedRailSchema).describe("Rails that can carry it, best first"),
  excluded: z.array(z.object({ rail: z.string(), reason: z.string() })).describe("Rails that cannot, and why"),
});

export const quotePaymentRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/quote",
  operationId: "quotePayment",
  summary: "Quote a payment before sending it",
  description:
    "The same body as POST /v1/payments; nothing is written and no Idempotency-Key is taken. Returns the rail routing would pick now (its best rail: a quote never explores), its fee in the payment's currency, the total held (amount + fee), the settlement time and an arrival estimate, the payee as the payment shows it, every rail that can carry the payment (best first) and every rail that cannot, with why. The refusals are those of creating the payment, in the same order (400, 403 `kyc_required`, 404, 422 funds / currency / `limit_exceeded` / `payee_cannot_receive` / `embargoed_country`, 422 `rail_ineligible` when `forceRail` names a rail that cannot carry it, 422 `no_eligible_rail` when none can), so a quote says nothing a payment attempt would not. Quotes are rate limited per user (429 `rate_limited`).",
  "x-complexity": "medium",
  request: {
    body: jsonBody("PaymentQuoteInput", CreatePaymentInput, {
      userId: examplePayment.userId,
      fromAccountId: examplePayment.fromAccountId,
      amount: "42.50",
      currency: "USD",
      toEmail: "grace@example.com",
    }),
  },
  responses: {
    200: jsonReply("The quote", "PaymentQuoteReply", PaymentQuoteReply, {
      amount: "42.50",
      currency: "USD",
      rail: "Card",
      fee: "0.14",
      feeCurrency: "USD",
      total: "42.64",
      settlementSeconds: 1800,
      arrivalEstimate: "within 30 minutes",
      payee: { kind: "user", name: "grace@example.com", email: "grace@example.com" },
      eligible: [
        { rail: "Card", fee: "0.14", feeCurrency: "USD", settlementSeconds: 1800 },
        { rail: "ACH", fee: "0.09", feeCurrency: "USD", settlementSeconds: 86400 },
      ],
      excluded: [{ rail: "SEPA", reason: "SEPA carries EUR only" }],
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_amount", "same_account"],
      401: true,
      403: ["not_your_user_id", "kyc_required"],
      404: ["account_not_found"],
      422: [
        "insufficient_funds",
        "payee_cannot_receive",
        "self_payment_by_email",
        "currency_mismatch",
        "account_inactive",
        "account_type_not_payable",
        "rail_not_available",
        "rail_ineligible",
        "no_rail_available",
        "no_eligible_rail",
        "embargoed_country",
        "limit_exceeded",
      ],
      423: ["account_locked"],
      429: ["rate_limited"],
      503: true,
    }),
  },
});

export const createPaymentRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/",
  operationId: "createPayment",
  summary: "Initiate a payment",
  description: [
    "The payment call of docs/product/payments.md#calls. `userId` must be your own (else 403). Exactly one payee: `toAccountId` (another of your accounts), `toEmail` (another user: their oldest active account of the currency receives it; you never see its id or balance; an unknown email and a user without such an account get the same 422 `payee_cannot_receive`; paying yourself by email is a 422 `self_payment_by_email`) or `beneficiary` (an external account: the amount goes to the clearing account of the currency).",
    "The routing chooses the rail (`preferredRail` / `forceRail` name a rail, e.g. ACH); the fee is that rail's cost (the shared cost formula) and is the price: a retry on another rail keeps it.",
    `One transaction holds amount + fee on your account (a draft journal: the funds are no longer available; 422 \`insufficient_funds\` otherwise), stores the payment, its routing decision and its first event. The payment then moves pending → processing → completed | failed in the background (GET /v1/payments/{id}, or the payment stream). If the platform cannot process a step of it ${MAX_STEP_FAILURES} times in a row, it is \`parked\` for review instead: the hold is released (nothing is paid) and \`failureReason\` says so.`,
    `Before the hold, the payee is screened: a beneficiary (or a platform user whose KYC country is known) in an embargoed country is refused, 422 \`embargoed_country\`, with nothing written; a payee whose name matches a sanctions list makes the payment \`held_for_review\` (the hold stays, nothing is scheduled: "${SCREENING_MESSAGES.heldForReview}"). An amount above the four-eyes threshold (GET /api/v1/approvals/thresholds) makes it \`awaiting_approval\`. Either waits until an administrator other than you approves it (it then proceeds as pending) or rejects it (the hold is released and it ends failed).`,
    "Payments to another user or an outside account count against your money limits (GET /api/v1/ledger/limits): 403 `kyc_required` while your identity is not verified, 422 `limit_exceeded` when the amount would pass a rolling limit; payments between your own accounts are never limited. Everything about your side (your accounts, your funds, your level and limits, the rail) is checked before the payee is looked up, so until you could pay, no reply depends on who the payee is. At most 20 payments a minute per user, with the stream's `initiatePayment` (429 `rate_limited` with Retry-After).",
    "Send an Idempotency-Key to retry safely: the same key and body replay the first reply byte for byte; another body is a 422 `idempotency_key_reused`. Validation errors are never recorded.",
  ].join(" "),
  "x-complexity": "high",
  parameters: [idempotencyKeyParameter()],
  request: {
    body: jsonBody("CreatePaymentInput", CreatePaymentInput, {
      userId: examplePayment.userId,
      fromAccountId: examplePayment.fromAccountId,
      amount: "250.00",
      currency: "USD",
      toEmail: "grace@example.com",
      description: "Dinner",
    }),
  },
  responses: {
    201: jsonReply(
      "The payment: pending, or held_for_review / awaiting_approval when it waits for an administrator (a replay with the same Idempotency-Key is byte for byte the first reply)",
      "CreatePaymentReply",
      CreatePaymentReply,
      { message: "Payment initiated", payment: examplePayment },
      REPLAYED_HEADER,
    ),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_amount", "invalid_idempotency_key", "same_account"],
      401: true,
      403: ["not_your_user_id", "kyc_required"],
      404: ["account_not_found"],
      409: ["idempotency_in_progress"],
      422: [
        "insufficient_funds",
        "idempotency_key_reused",
        "payee_cannot_receive",
        "self_payment_by_email",
        "currency_mismatch",
        "account_inactive",
        "account_type_not_payable",
        "rail_not_available",
        "rail_ineligible",
        "no_rail_available",
        "no_eligible_rail",
        "embargoed_country",
        "limit_exceeded",
      ],
      423: ["account_locked"],
      429: ["rate_limited"],
      503: true,
    }),
  },
});

export const getPaymentRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/{id}",
  operationId: "getPayment",
  summary: "One of your payments",
  description:
    "Status, the rail's name (`selectedRail`: the current or last attempt's), fee and its breakdown, every attempt with its outcome, and the routing decision (candidates, scores, why this rail, the saving against the default rail). Another user's payment is the same 404 as an unknown id.",
  "x-complexity": "low",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The payment", "PaymentReply", PaymentReply, { data: exampleCompleted }),
    ...errors({ 401: true, 404: ["payment_not_found"], 503: true }),
  },
});

export const listPaymentsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/",
  operationId: "listPayments",
  summary: "Your payments",
  description: `Your payments, newest first. Filters (all optional, combined): \`status\`, \`rail\` (the rail that carries or carried it), \`currency\`, \`from\`/\`to\` (creation date, a UTC day or an ISO date-time), \`minAmount\`/\`maxAmount\` (decimal, in the payment's currency), \`counterparty\` (part of the payee: email, beneficiary name, account's last four) and \`q\` (part of the payee or the description). \`limit\` 1-${PAYMENT_LIST_MAX} (default 20); \`cursor\` is the previous page's next_cursor (signed, bound to the filters: another filter's cursor is a 400 \`invalid_cursor\`).`,
  "x-complexity": "low",
  parameters: queryParameters(PaymentListQuery),
  responses: {
    200: jsonReply("A page of payments", "PaymentListReply", PaymentListReply, {
      data: [exampleCompleted],
      pagination: { next_cursor: null },
    }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 503: true }),
  },
});

export const listParkedRoute = createRoute({
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
    200: jsonReply("A page of parked payments", "ParkedPaymentListReply", ParkedListReply, {
      data: [exampleParked],
      pagination: { next_cursor: null },
    }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 403: ["admin_required"], 503: true }),
  },
});

export const closeParkedRoute = createRoute({
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
  request: {
    body: jsonBody("CloseParkedPaymentInput", CloseParkedInput, {
      note: "The rail's record was restored; the payer was told to send the payment again.",
    }),
  },
  responses: {
    200: jsonReply("The review item, closed", "CloseParkedPaymentReply", ParkedReply, {
      message: "Payment closed",
      data: {
        ...exampleParked,
        status: "failed",
        closedAt: "2026-01-15T11:00:00.000Z",
        closedBy: "admin@example.com",
        note: "The rail's record was restored; the payer was told to send the payment again.",
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required"],
      404: ["payment_not_found"],
      409: ["payment_not_parked"],
      503: true,
    }),
  },
});

export const listReviewsRoute = createRoute({
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
    200: jsonReply("A page of payments waiting for a decision", "PaymentReviewListReply", ReviewListReply, {
      data: [exampleHeld],
      pagination: { next_cursor: null },
    }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 403: ["admin_required"], 503: true }),
  },
});

export const getReviewRoute = createRoute({
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

export const decideRoute = createRoute({
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
  request: {
    body: jsonBody("DecidePaymentInput", DecidePaymentInput, {
      decision: "approve",
      reason: "Name match is a different person: date of birth and address differ from the SDN entry.",
    }),
  },
  responses: {
    200: jsonReply("The payment's review after the decision", "DecidePaymentReply", DecisionReply, {
      message: "Payment approved",
      data: {
        ...exampleHeld,
        status: "pending",
        canDecide: false,
        cannotDecideReason: PAYMENT_MESSAGES.notWaiting,
        decision: {
          outcome: "approved",
          reason: "Name match is a different person: date of birth and address differ from the SDN entry.",
          by: { id: "a3c1d7e1-5b2f-4c8e-9d0a-7e6f5a4b3c2d", email: "compliance@example.com" },
          at: "2026-01-15T10:05:00.000Z",
        },
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["admin_required", "second_approver_required"],
      404: ["payment_not_found"],
      409: ["payment_not_awaiting_decision"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

const exampleRecipient: Recipient = {
  recipientId: "9a7c1e2d-3b4f-4a5b-8c6d-7e8f9a0b1c2d",
  label: "ACME GmbH (invoices)",
  kind: "external",
  email: null,
  beneficiary: { name: "ACME GmbH", accountNumber: "DE89370400440532013000", bankCode: "COBADEFFXXX", country: "DE" },
  createdAt: EXAMPLE_AT,
  updatedAt: EXAMPLE_AT,
};
const recipientIdParameter = pathParameter("recipientId", "The recipient id", exampleRecipient.recipientId);

export const getPaymentDetailRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/{id}/detail",
  operationId: "getPaymentDetail",
  summary: "A payment's timeline, routing and fee",
  description:
    "The payment with its timeline, oldest first (created, the hold, a wait for review or approval and its outcome, each attempt on a rail with its outcome, then posted or the hold released), the routing decision (the rail chosen and why, the eligible rails best first, the excluded ones with the reason) and the fee actually charged (nothing when the hold was released). Why a payment waits is shown only as its status: screening details and an administrator's reason are for administrators (GET /v1/payments/reviews/{id}). Its payer and administrators may read it; for anyone else it is the same 404 as an unknown id.",
  "x-complexity": "low",
  parameters: [idParameter],
  responses: {
    200: jsonReply("The payment's detail", "PaymentDetailReply", PaymentDetailReply, {
      data: {
        payment: exampleCompleted,
        timeline: [
          {
            kind: "created",
            at: EXAMPLE_AT,
            title: "Payment created",
            detail: "250.00 USD to grace@example.com",
            rail: null,
            tone: "info",
          },
          {
            kind: "held",
            at: EXAMPLE_AT,
            title: "250.30 USD held",
            detail: "The amount and the 0.30 USD quoted fee are set aside from your account until the payment ends",
            rail: null,
            tone: "info",
          },
          {
            kind: "attempt_started",
            at: "2026-01-15T10:00:00.050Z",
            title: "Attempt 1 on ACH",
            detail: "Sent to ACH; its answer was due by 2026-01-15T10:00:01.250Z",
            rail: "ACH",
            tone: "info",
          },
          {
            kind: "attempt_succeeded",
            at: "2026-01-15T10:00:01.260Z",
            title: "ACH confirmed the payment",
            detail: null,
            rail: "ACH",
            tone: "success",
          },
          {
            kind: "posted",
            at: "2026-01-15T10:00:01.260Z",
            title: "Posted",
            detail: "250.00 USD paid to grace@example.com; fee 0.30 USD",
            rail: null,
            tone: "success",
          },
        ],
        routing: {
          strategy: "expected_value",
          chosenRail: "ACH",
          reason: examplePayment.routing.reason,
          eligible: [{ rail: "ACH", cost: "0.30", score: 24_595, successRate: 0.985, note: "chosen", chosen: true }],
          excluded: [],
        },
        feeCharged: { fee: "0.30", feeMinor: 30, currency: "USD", note: "Charged on completion (ACH)" },
      },
    }),
    ...errors({ 401: true, 404: ["payment_not_found"], 503: true }),
  },
});

export const listRecipientsRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "get",
  path: "/recipients",
  operationId: "listRecipients",
  summary: "Your saved recipients",
  description: `The people (by email) and outside accounts (beneficiaries) you saved to pay again, by label; at most ${RECIPIENTS_MAX}. Only yours.`,
  "x-complexity": "low",
  responses: {
    200: jsonReply("Your recipients", "RecipientListReply", RecipientListReply, { data: [exampleRecipient] }),
    ...errors({ 401: true, 503: true }),
  },
});

export const addRecipientRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "post",
  path: "/recipients",
  operationId: "addRecipient",
  summary: "Save a recipient",
  description: `A label (1-60 characters) and exactly one payee: \`email\` (a person on the platform; not looked up, so saving tells nothing about who is registered) or \`beneficiary\` (name, account number or IBAN (an IBAN must be valid and of the beneficiary's country), optional bank code, country). At most ${RECIPIENTS_MAX} per user: 422 \`too_many_recipients\`.`,
  "x-complexity": "low",
  request: {
    body: jsonBody("CreateRecipientInput", CreateRecipientInput, {
      label: "ACME GmbH (invoices)",
      beneficiary: {
        name: "ACME GmbH",
        accountNumber: "DE89 3704 0044 0532 0130 00",
        bankCode: "COBADEFFXXX",
        country: "DE",
      },
    }),
  },
  responses: {
    201: jsonReply("The recipient, saved", "RecipientReply", RecipientReply, { data: exampleRecipient }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      413: ["payload_too_large"],
      422: ["too_many_recipients"],
      503: true,
    }),
  },
});

export const renameRecipientRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "patch",
  path: "/recipients/{recipientId}",
  operationId: "renameRecipient",
  summary: "Rename a saved recipient",
  description:
    "A new label (1-60 characters); the payee stays as saved. Another user's recipient is the same 404 as an unknown id.",
  "x-complexity": "low",
  parameters: [recipientIdParameter],
  request: { body: jsonBody("RenameRecipientInput", RenameRecipientInput, { label: "ACME (supplier)" }) },
  responses: {
    200: jsonReply("The recipient, renamed", "RecipientReply", RecipientReply, {
      data: { ...exampleRecipient, label: "ACME (supplier)" },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      404: ["recipient_not_found"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const deleteRecipientRoute = createRoute({
  tags,
  security: authenticated,
  "x-stability": "beta",
  method: "delete",
  path: "/recipients/{recipientId}",
  operationId: "deleteRecipient",
  summary: "Delete a saved recipient",
  description:
    "Removes it from your list (payments already made to it are not changed). Another user's recipient is the same 404 as an unknown id.",
  "x-complexity": "low",
  parameters: [recipientIdParameter],
  responses: {
    200: jsonReply("Deleted", "RecipientDeletedReply", RecipientDeletedReply, { message: "Recipient deleted" }),
    ...errors({ 401: true, 404: ["recipient_not_found"], 503: true }),
  },
});
