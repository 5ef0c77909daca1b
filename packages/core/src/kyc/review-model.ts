import { z } from "zod";
import {
  DocumentType,
  DOCUMENT_TYPE_LABELS,
  IdentityNumberType,
  InfoRequest,
  KYC_LIMITS,
  KYC_STATUSES,
  KycStatus,
  PRIORITIES,
  Priority,
  ReviewAlert,
  RISK_LEVELS,
  RiskAssessment,
  SubmissionDocument,
  type RiskLevel,
} from "./model";
import { IDENTITY_NUMBER_KINDS, isIdentityNumberType } from "./identity-numbers";

/**
 * The reviewer back office's inputs (the dashboard of docs/product/kyc.md#data, the statuses of
 * docs/product/kyc.md#submission-statuses and the calls of docs/product/kyc.md#calls), as zod
 * schemas the server parses with and the dashboard can import. Browser-safe.
 */

/** The dashboard's periods (docs/product/kyc.md#dashboard: Last 24 hours, 7, 30 or 90 days; default 7 days). */
export const REVIEW_PERIODS = ["24h", "7d", "30d", "90d"] as const;
export type ReviewPeriod = (typeof REVIEW_PERIODS)[number];
export const REVIEW_PERIOD_MS: Record<ReviewPeriod, number> = {
  "24h": 24 * 3_600_000,
  "7d": 7 * 24 * 3_600_000,
  "30d": 30 * 24 * 3_600_000,
  "90d": 90 * 24 * 3_600_000,
};
export const DEFAULT_REVIEW_PERIOD: ReviewPeriod = "7d";

export const REVIEW_SEARCH_MAX = 100;
export const REVIEW_PAGE_MAX = 100;
export const REVIEW_PAGE_DEFAULT = 25;
/** Ids are UUIDs (shared/ids.ts); anything longer is not one of ours and is answered 404 unread. */
export const SUBMISSION_ID_MAX = 64;
export const SUBMISSION_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
/** The list's total stops counting here: "Showing X of 10,000+" is what a larger figure would read as anyway. */
export const REVIEW_TOTAL_MAX = 10_000;

/** A query value of "" means "no filter" (an empty select or search box sends it). */
const unlessEmpty = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const list = (values: readonly string[]) => values.join(", ");

/** The filters of the list and of the export (no paging). */
export const ReviewFilters = z.strictObject({
  status: unlessEmpty(z.enum(KYC_STATUSES, { error: `status must be one of ${list(KYC_STATUSES)}` })),
  search: unlessEmpty(
    z
      .string({ error: "search must be a string" })
      .trim()
      .max(REVIEW_SEARCH_MAX, `search must be at most ${REVIEW_SEARCH_MAX} characters`)
      .transform((text) => (text === "" ? undefined : text.toLowerCase())),
  ),
  country: unlessEmpty(
    z
      .string({ error: "country must be a string" })
      .regex(/^[A-Za-z]{2}$/, "country must be a two-letter ISO 3166-1 code, e.g. IN")
      .transform((code) => code.toUpperCase()),
  ),
  priority: unlessEmpty(z.enum(PRIORITIES, { error: `priority must be one of ${list(PRIORITIES)}` })),
  /** Only submissions submitted within the last period; absent means all time. */
  period: unlessEmpty(z.enum(REVIEW_PERIODS, { error: `period must be one of ${list(REVIEW_PERIODS)}` })),
});
export type ReviewFilters = z.infer<typeof ReviewFilters>;

export const ReviewListQuery = ReviewFilters.extend({
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(REVIEW_PAGE_MAX, `limit must be at most ${REVIEW_PAGE_MAX}`)
    .default(REVIEW_PAGE_DEFAULT),
  /** Opaque; verified (signature, length, filters) by the list, which answers 400 invalid_cursor. */
  cursor: unlessEmpty(z.string({ error: "cursor must be a string" })),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

export const StatsQuery = z.strictObject({
  period: unlessEmpty(z.enum(REVIEW_PERIODS, { error: `period must be one of ${list(REVIEW_PERIODS)}` })).transform(
    (period) => period ?? DEFAULT_REVIEW_PERIOD,
  ),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

const note = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(KYC_LIMITS.maxNoteLength, `${field} must be at most ${KYC_LIMITS.maxNoteLength} characters`);

const acknowledgeRisk = z
  .boolean({ error: "acknowledge_risk must be true or false" })
  .optional()
  .describe(
    "Approving a High-risk submission, or one the risk rules recommend rejecting, needs true: the reviewer has seen the warnings (recorded in the audit trail)",
  );

/** What a reviewer may set (PUT /submissions/{id} of docs/product/kyc.md#calls: status, notes). */
export const DecisionInput = z.strictObject({
  status: z.enum(KYC_STATUSES, { error: `status must be one of ${list(KYC_STATUSES)}` }),
  notes: note("notes")
    .optional()
    .describe(
      `The reason or note, kept in the audit trail with the reviewer; required to reject or to send the submission back (pending); at most ${KYC_LIMITS.maxNoteLength} characters`,
    ),
  acknowledge_risk: acknowledgeRisk,
});
export type DecisionInput = z.infer<typeof DecisionInput>;

const bulkIds = z
  .array(
    z
      .string({ error: "ids must be strings" })
      .max(SUBMISSION_ID_MAX, `ids must be at most ${SUBMISSION_ID_MAX} characters`),
    { error: "ids must be a list of submission ids" },
  )
  .min(1, "ids must name at least one submission")
  .max(KYC_LIMITS.maxBulkIds, `ids may name at most ${KYC_LIMITS.maxBulkIds} submissions`)
  .refine((ids) => new Set(ids).size === ids.length, "ids must not repeat a submission");

export const BulkUpdateInput = z.strictObject({
  ids: bulkIds,
  status: z.enum(KYC_STATUSES, { error: `status must be one of ${list(KYC_STATUSES)}` }),
  notes: note("notes").optional(),
  acknowledge_risk: acknowledgeRisk,
});
export type BulkUpdateInput = z.infer<typeof BulkUpdateInput>;

/** The submissions a bulk action is about to touch, for their risk summary. */
export const BulkRiskInput = z.strictObject({ ids: bulkIds });
export type BulkRiskInput = z.infer<typeof BulkRiskInput>;

/** A required reason is "required": absent, empty or only spaces is missing (the schemas trim). */
export const REASON_REQUIRED_MESSAGES = {
  rejected: "notes must say why the submission is rejected",
  pending: "notes must tell the applicant what to provide",
  requestInfo: "message must say what the applicant should provide",
  dismissAlert: "reason must say why the alert needs no further action",
} as const;

/** The reason a decision to `status` lacks, as the 400 `kyc_reason_required` says it; null when none is missing. */
export function missingReason(status: KycStatus, notes: string | undefined): string | null {
  if (notes?.trim()) return null;
  if (status === "rejected") return REASON_REQUIRED_MESSAGES.rejected;
  if (status === "pending") return REASON_REQUIRED_MESSAGES.pending;
  return null;
}

/**
 * Whether `body[field]` is a reason that is missing: absent, null or only spaces. Checked before
 * the schema, so that a missing reason is answered `kyc_reason_required` and anything malformed
 * (a number, an unknown field) `validation_error`.
 */
export function reasonIsMissing(body: unknown, field: string): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const value = (body as Record<string, unknown>)[field];
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

export const RequestInfoInput = z.strictObject({
  message: note("message").min(1, REASON_REQUIRED_MESSAGES.requestInfo),
});
export type RequestInfoInput = z.infer<typeof RequestInfoInput>;

export const DismissAlertInput = z.strictObject({
  reason: note("reason")
    .min(1, REASON_REQUIRED_MESSAGES.dismissAlert)
    .describe("Why the alert needs no further action; kept in the audit trail"),
});
export type DismissAlertInput = z.infer<typeof DismissAlertInput>;

export const ResubmitInput = z.strictObject({
  note: note("note").optional(),
});
export type ResubmitInput = z.infer<typeof ResubmitInput>;

/**
 * The transitions a reviewer may make (docs/product/kyc.md#submission-statuses fixes only Approve
 * and Reject from the detail modal; the rest is ours: docs/kyc.md#reviewer-back-office):
 * - under_review -> verified | rejected: the decision.
 * - pending -> rejected: an incomplete submission can be refused (e.g. evident fraud), but not
 *   approved: approving needs every step done.
 * - pending -> under_review: only when the applicant has done every step (a reviewer withdrawing
 *   a Request Info they no longer need).
 * - under_review -> pending: a Request Info; needs a message to the applicant.
 * - verified | rejected -> under_review: reopening a decision; needs a note saying why.
 * - verified <-> rejected directly: refused; reopen first, so the audit shows both steps.
 */
export type TransitionRule = { allowed: true; needsNote: boolean } | { allowed: false; reason: string };

export function reviewerTransition(from: KycStatus, to: KycStatus, complete: boolean): TransitionRule {
  if (from === to) return { allowed: true, needsNote: false };
  switch (`${from}>${to}`) {
    case "under_review>verified":
    case "under_review>rejected":
    case "pending>rejected":
      return { allowed: true, needsNote: false };
    case "pending>verified":
      return {
        allowed: false,
        reason: "An incomplete submission cannot be approved: the applicant has not finished every step",
      };
    case "pending>under_review":
      return complete
        ? { allowed: true, needsNote: false }
        : { allowed: false, reason: "This submission cannot go to review: the applicant has not finished every step" };
    case "under_review>pending":
      return { allowed: true, needsNote: true };
    case "verified>under_review":
    case "rejected>under_review":
      return { allowed: true, needsNote: true };
    default:
      return {
        allowed: false,
        reason: `A ${from} submission cannot become ${to} directly: reopen it (under_review) first`,
      };
  }
}

/* ---------- replies (the server builds them; the dashboard reads them) ---------- */

export const ReviewRow = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  location: z.string(),
  country: z.string(),
  status: KycStatus,
  risk_score: z.number().int(),
  risk_level: z.enum(RISK_LEVELS),
  /** Whole rupees (docs/product/kyc.md#dashboard: INR without decimals). */
  amount: z.number().int(),
  priority: Priority,
  progress: z.number().int(),
  submitted_at: z.string(),
  verified_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  notes: z.string(),
  info_requested: z.boolean().describe("Whether a Request Info is waiting for the applicant"),
  alert_open: z
    .boolean()
    .describe("Whether a re-score raised an alert on this decided submission that no reviewer has dealt with yet"),
  documents: z.array(SubmissionDocument.pick({ type: true, status: true, uploaded_at: true })),
});
export type ReviewRow = z.infer<typeof ReviewRow>;

export const ReviewPage = z.object({
  data: z.array(ReviewRow),
  next_cursor: z
    .string()
    .nullable()
    .describe("Pass as `cursor` for the next page (same filters); null on the last page"),
  has_more: z.boolean(),
  total: z
    .number()
    .int()
    .describe(`Every submission the filters match, not just this page (counting stops at ${REVIEW_TOTAL_MAX})`),
  total_capped: z.boolean().describe(`True when more than ${REVIEW_TOTAL_MAX} submissions match`),
});
export type ReviewPage = z.infer<typeof ReviewPage>;

/** What a reviewer sees of a stored document: everything but the object keys, which become links. */
export const ReviewedDocumentFields = SubmissionDocument.pick({
  type: true,
  status: true,
  uploaded_at: true,
  verified_at: true,
  file_name: true,
  checks: true,
});

export const ReviewDocument = ReviewedDocumentFields.extend({
  url: z.string().describe("Presigned GET of the document image, valid until url_expires_at"),
  face_url: z.string().nullable().describe("Presigned GET of the face image stored beside it, if any"),
  url_expires_at: z.string(),
});
export type ReviewDocument = z.infer<typeof ReviewDocument>;

/** The audit row ({actor, at, from, to, note}) plus the action and who the actor was. */
export const ReviewAuditRow = z.object({
  actor: z.string(),
  actor_id: z.string(),
  actor_role: z.enum(["applicant", "reviewer", "system"]),
  at: z.string(),
  action: z.string(),
  from: KycStatus.nullable(),
  to: KycStatus.nullable(),
  note: z.string().nullable(),
});
export type ReviewAuditRow = z.infer<typeof ReviewAuditRow>;

/* ---------- the approval guard (the server enforces it; the screens show the same words) ---------- */

/** What the reviewer types to approve a submission the guard warns about. */
export const APPROVAL_CONFIRMATION_WORD = "APPROVE";
export const confirmationMatches = (typed: string) => typed.trim() === APPROVAL_CONFIRMATION_WORD;

/**
 * The risk an approval would accept: the higher of the stored assessment and the live rule set's
 * assessment now (a dry run of the published rules), and whether either recommends rejecting.
 */
export const ApprovalRisk = z.object({
  risk_score: z
    .number()
    .int()
    .nullable()
    .describe("The higher of the stored and the live score; null when never assessed"),
  level: z.enum(RISK_LEVELS).nullable(),
  reject_recommended: z.boolean().describe("The stored or the live assessment's verdict is reject"),
  acknowledgement_required: z
    .boolean()
    .describe("Approving needs acknowledge_risk: true (High risk or reject recommended)"),
  warnings: z.array(z.string()).describe("Why, in words for the reviewer"),
});
export type ApprovalRisk = z.infer<typeof ApprovalRisk>;

export function approvalRisk(stored: RiskAssessment | null, live: RiskAssessment | null): ApprovalRisk {
  // The live assessment first: it is what the published rules say now.
  const assessments = [live, stored].filter((assessment): assessment is RiskAssessment => assessment !== null);
  const highest = assessments.reduce<RiskAssessment | null>(
    (best, next) => (!best || next.risk_score > best.risk_score ? next : best),
    null,
  );
  const when = (assessment: RiskAssessment) =>
    assessment === live
      ? `under the live rules (v${assessment.rule_set_version})`
      : `when last assessed (rules v${assessment.rule_set_version})`;
  const warnings: string[] = [];
  const high = assessments.find((assessment) => assessment.level === "High");
  if (high) warnings.push(`High risk: score ${high.risk_score} ${when(high)}`);
  const rejecting = assessments.find((assessment) => assessment.verdict === "reject");
  if (rejecting) warnings.push(`The risk rules recommend rejecting it ${when(rejecting)}`);
  return {
    risk_score: highest?.risk_score ?? null,
    level: highest?.level ?? null,
    reject_recommended: rejecting !== undefined,
    acknowledgement_required: warnings.length > 0,
    warnings,
  };
}

export const RiskCheck = ApprovalRisk.extend({
  live: RiskAssessment.nullable().describe(
    "What the published rule set gives the submission now (nothing is stored by reading it)",
  ),
});
export type RiskCheck = z.infer<typeof RiskCheck>;

/* ---------- linked submissions ---------- */

export const LinkShare = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("identity_number"), type: z.string().describe("aadhaar, pan, ...") }),
  z.object({
    kind: z.literal("document_image"),
    document_type: DocumentType.describe("This submission's document"),
    other_document_type: DocumentType.describe("The linked submission's document"),
    distance: z
      .number()
      .int()
      .describe("Bits that differ between the two pictures' perceptual hashes (0: the same picture)"),
  }),
]);
export type LinkShare = z.infer<typeof LinkShare>;

/** "the same Aadhaar number" / "a near-duplicate Passport picture (their National ID Card)". */
export function shareLabel(share: LinkShare): string {
  if (share.kind === "identity_number")
    return `the same ${isIdentityNumberType(share.type) ? IDENTITY_NUMBER_KINDS[share.type].label : `${share.type} number`}`;
  const mine = DOCUMENT_TYPE_LABELS[share.document_type];
  const theirs = DOCUMENT_TYPE_LABELS[share.other_document_type];
  const picture = share.distance === 0 ? "the same" : "a near-duplicate";
  return `${picture} ${mine} picture${theirs === mine ? "" : ` (their ${theirs})`}`;
}

export const LinkedSubmission = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  status: KycStatus,
  risk_score: z.number().int(),
  risk_level: z.enum(RISK_LEVELS),
  submitted_at: z.string(),
  relation: z.enum(["earlier", "later"]).describe("Submitted before or after this one"),
  alert_open: z.boolean(),
  shared: z.array(LinkShare).describe("What the two submissions share"),
});
export type LinkedSubmission = z.infer<typeof LinkedSubmission>;

export const LinkedSubmissions = z.object({
  submissions: z
    .array(LinkedSubmission)
    .describe("Other users' submissions sharing an identity number or a picture with this one, oldest first"),
  more: z.boolean().describe("More are linked than are listed"),
});
export type LinkedSubmissions = z.infer<typeof LinkedSubmissions>;

export const SubmissionDetail = ReviewRow.omit({ documents: true }).extend({
  documents: z.array(ReviewDocument),
  /** Masked only ("XXXX XXXX 1234"); the keyed hash is for duplicate detection, not for people. */
  identity_numbers: z.partialRecord(IdentityNumberType, z.object({ masked: z.string(), verified_at: z.string() })),
  risk: RiskAssessment.nullable().describe(
    "Score, level, flags, verdict and reasons (the rules that fired), with the rule-set version",
  ),
  risk_check: RiskCheck.describe("What approving would accept, checked against the live rules now"),
  linked: LinkedSubmissions,
  review_alert: ReviewAlert.nullable().describe("An open alert from a re-score (see linked), for a decided submission"),
  info_request: InfoRequest.nullable(),
  updated_at: z.string(),
  audit: z.array(ReviewAuditRow).describe("Every change, oldest first: who, when, from, to, note"),
});
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

/* ---------- bulk risk summary ---------- */

export const BulkRiskItem = ApprovalRisk.extend({ id: z.string(), name: z.string(), status: KycStatus });
export type BulkRiskItem = z.infer<typeof BulkRiskItem>;

export const BulkRiskSummary = z.object({
  requested: z.number().int(),
  found: z.number().int().describe("Submissions that exist (unknown ids are left out)"),
  by_level: z
    .record(z.enum(RISK_LEVELS), z.number().int())
    .describe("How many are Low, Medium and High (the higher of stored and live)"),
  unassessed: z.number().int(),
  highest_score: z.number().int().nullable(),
  reject_recommended: z.number().int().describe("How many the risk rules recommend rejecting"),
  acknowledgement_required: z.boolean().describe("Approving them needs acknowledge_risk: true"),
  submissions: z.array(BulkRiskItem),
});
export type BulkRiskSummary = z.infer<typeof BulkRiskSummary>;

/** The summary of the items of a bulk selection (pure: the server builds it, tests check it). */
export function summariseBulkRisk(requested: number, items: BulkRiskItem[]): BulkRiskSummary {
  const byLevel: Record<RiskLevel, number> = { Low: 0, Medium: 0, High: 0 };
  let unassessed = 0;
  for (const item of items) {
    if (item.level) byLevel[item.level] += 1;
    else unassessed += 1;
  }
  const scores = items.flatMap((item) => (item.risk_score === null ? [] : [item.risk_score]));
  return {
    requested,
    found: items.length,
    by_level: byLevel,
    unassessed,
    highest_score: scores.length ? Math.max(...scores) : null,
    reject_recommended: items.filter((item) => item.reject_recommended).length,
    acknowledgement_required: items.some((item) => item.acknowledgement_required),
    submissions: items,
  };
}

const StatFigures = z.object({
  total_submissions: z.number().int(),
  verified: z.number().int(),
  pending: z.number().int().describe("Pending Review: not decided yet (awaiting_applicant + under_review)"),
  awaiting_applicant: z.number().int(),
  under_review: z.number().int(),
  rejected: z.number().int(),
  average_processing_time: z
    .number()
    .nullable()
    .describe("Hours from submission to decision over the decided ones; null when none is decided"),
  success_rate: z
    .number()
    .nullable()
    .describe("Percent of the decided ones that were verified; null when none is decided"),
});
export type StatFigures = z.infer<typeof StatFigures>;
export const STAT_TREND_FIGURES = [
  "total_submissions",
  "verified",
  "pending",
  "rejected",
  "average_processing_time",
  "success_rate",
] as const;

export const DashboardStats = StatFigures.extend({
  period: z.enum(REVIEW_PERIODS),
  from: z.string(),
  to: z.string(),
  monthly_growth: z
    .number()
    .nullable()
    .describe(
      "Percent change of submissions in the last 30 days against the 30 days before; null when there were none before",
    ),
  previous: StatFigures.describe("The same figures for the previous period of the same length"),
  trends: z
    .record(z.enum(STAT_TREND_FIGURES), z.number().nullable())
    .describe(
      "Change against the previous period: percent for counts and processing time, percentage points for the success rate; null when there is nothing to compare with",
    ),
  complete: z
    .boolean()
    .describe("False when the window held more submissions than the stats read (figures over the newest only)"),
});
export type DashboardStats = z.infer<typeof DashboardStats>;

export const BULK_OUTCOMES = ["updated", "unchanged", "not_found", "refused"] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];
export const BulkResult = z.object({
  id: z.string(),
  ok: z.boolean(),
  outcome: z.enum(BULK_OUTCOMES),
  status: KycStatus.nullable().describe("The status after the update; null when refused or not found"),
  code: z.string().nullable(),
  message: z.string().nullable().describe("Why it was refused or not found"),
});
export type BulkResult = z.infer<typeof BulkResult>;
export const BulkUpdateReply = z.object({
  results: z.array(BulkResult).describe("One per id, in the order given"),
  summary: z.record(z.enum(BULK_OUTCOMES), z.number().int()),
});
export type BulkUpdateReply = z.infer<typeof BulkUpdateReply>;
