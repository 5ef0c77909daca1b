import { z } from "zod";
import {
  IdentityNumberType,
  InfoRequest,
  KYC_LIMITS,
  KYC_STATUSES,
  KycStatus,
  PRIORITIES,
  Priority,
  RISK_LEVELS,
  RiskAssessment,
  SubmissionDocument,
} from "./model";

/**
 * The reviewer back office's inputs (spec 001 §3 dashboard, §4 statuses, §7 calls), as zod
 * schemas the server parses with and the dashboard can import. Browser-safe.
 */

/** The dashboard's periods (spec 001 §2: Last 24 hours, 7, 30 or 90 days; default 7 days). */
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
const unlessEmpty = <S extends z.ZodType>(schema: S) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const list = (values: readonly string[]) => values.join(", ");

/** The filters of the list and of the export (no paging). */
export const ReviewFilters = z.strictObject(
  {
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
  },
);
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
  period: unlessEmpty(z.enum(REVIEW_PERIODS, { error: `period must be one of ${list(REVIEW_PERIODS)}` })).transform((period) => period ?? DEFAULT_REVIEW_PERIOD),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

const note = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .max(KYC_LIMITS.maxNoteLength, `${field} must be at most ${KYC_LIMITS.maxNoteLength} characters`);

/** What a reviewer may set (spec 001 §7 PUT /submissions/{id}: status, notes). */
export const DecisionInput = z.strictObject({
  status: z.enum(KYC_STATUSES, { error: `status must be one of ${list(KYC_STATUSES)}` }),
  notes: note("notes").optional(),
});
export type DecisionInput = z.infer<typeof DecisionInput>;

export const BulkUpdateInput = z.strictObject({
  ids: z
    .array(z.string({ error: "ids must be strings" }).max(SUBMISSION_ID_MAX, `ids must be at most ${SUBMISSION_ID_MAX} characters`), { error: "ids must be a list of submission ids" })
    .min(1, "ids must name at least one submission")
    .max(KYC_LIMITS.maxBulkIds, `ids may name at most ${KYC_LIMITS.maxBulkIds} submissions`)
    .refine((ids) => new Set(ids).size === ids.length, "ids must not repeat a submission"),
  status: z.enum(KYC_STATUSES, { error: `status must be one of ${list(KYC_STATUSES)}` }),
  notes: note("notes").optional(),
});
export type BulkUpdateInput = z.infer<typeof BulkUpdateInput>;

export const RequestInfoInput = z.strictObject({
  message: note("message").min(1, "message must say what the applicant should provide"),
});
export type RequestInfoInput = z.infer<typeof RequestInfoInput>;

export const ResubmitInput = z.strictObject({
  note: note("note").optional(),
});
export type ResubmitInput = z.infer<typeof ResubmitInput>;

/**
 * The transitions a reviewer may make (spec 001 §4 only fixes Approve and Reject from the detail
 * modal; the rest is ours, see the README):
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
      return { allowed: false, reason: "An incomplete submission cannot be approved: the applicant has not finished every step" };
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
      return { allowed: false, reason: `A ${from} submission cannot become ${to} directly: reopen it (under_review) first` };
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
  /** Whole rupees (spec 001 §2: INR without decimals). */
  amount: z.number().int(),
  priority: Priority,
  progress: z.number().int(),
  submitted_at: z.string(),
  verified_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  notes: z.string(),
  info_requested: z.boolean().describe("Whether a Request Info is waiting for the applicant"),
  documents: z.array(SubmissionDocument.pick({ type: true, status: true, uploaded_at: true })),
});
export type ReviewRow = z.infer<typeof ReviewRow>;

export const ReviewPage = z.object({
  data: z.array(ReviewRow),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page (same filters); null on the last page"),
  has_more: z.boolean(),
  total: z.number().int().describe(`Every submission the filters match, not just this page (counting stops at ${REVIEW_TOTAL_MAX})`),
  total_capped: z.boolean().describe(`True when more than ${REVIEW_TOTAL_MAX} submissions match`),
});
export type ReviewPage = z.infer<typeof ReviewPage>;

/** What a reviewer sees of a stored document: everything but the object keys, which become links. */
export const ReviewedDocumentFields = SubmissionDocument.pick({ type: true, status: true, uploaded_at: true, verified_at: true, file_name: true, checks: true });

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

export const SubmissionDetail = ReviewRow.omit({ documents: true }).extend({
  documents: z.array(ReviewDocument),
  /** Masked only ("XXXX XXXX 1234"); the keyed hash is for duplicate detection, not for people. */
  identity_numbers: z.partialRecord(IdentityNumberType, z.object({ masked: z.string(), verified_at: z.string() })),
  risk: RiskAssessment.nullable().describe("Score, level, flags, verdict and reasons (the rules that fired), with the rule-set version"),
  info_request: InfoRequest.nullable(),
  updated_at: z.string(),
  audit: z.array(ReviewAuditRow).describe("Every change, oldest first: who, when, from, to, note"),
});
export type SubmissionDetail = z.infer<typeof SubmissionDetail>;

const StatFigures = z.object({
  total_submissions: z.number().int(),
  verified: z.number().int(),
  pending: z.number().int().describe("Pending Review: not decided yet (awaiting_applicant + under_review)"),
  awaiting_applicant: z.number().int(),
  under_review: z.number().int(),
  rejected: z.number().int(),
  average_processing_time: z.number().nullable().describe("Hours from submission to decision over the decided ones; null when none is decided"),
  success_rate: z.number().nullable().describe("Percent of the decided ones that were verified; null when none is decided"),
});
export type StatFigures = z.infer<typeof StatFigures>;
export const STAT_TREND_FIGURES = ["total_submissions", "verified", "pending", "rejected", "average_processing_time", "success_rate"] as const;

export const DashboardStats = StatFigures.extend({
  period: z.enum(REVIEW_PERIODS),
  from: z.string(),
  to: z.string(),
  monthly_growth: z.number().nullable().describe("Percent change of submissions in the last 30 days against the 30 days before; null when there were none before"),
  previous: StatFigures.describe("The same figures for the previous period of the same length"),
  trends: z
    .record(z.enum(STAT_TREND_FIGURES), z.number().nullable())
    .describe("Change against the previous period: percent for counts and processing time, percentage points for the success rate; null when there is nothing to compare with"),
  complete: z.boolean().describe("False when the window held more submissions than the stats read (figures over the newest only)"),
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
