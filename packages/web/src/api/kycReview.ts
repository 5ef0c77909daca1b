import type { DocumentStatus, DocumentType, ImageChecks, KycStatus, Priority, RiskLevel } from "@fintech/core/kyc/model";
import { apiBaseUrl } from "../config";
import { credentialStore } from "../session/credentialStore";
import { createHttpClient, type HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment, withQuery } from "./query";
import type { DownloadedFile, WriteOptions } from "./types";
import { writeRequest } from "./write";

/**
 * The reviewer back office (admin only; a user is answered 403): the dashboard list, its stats
 * and CSV export, one submission in full, decisions, bulk decisions, Request Info, and the risk
 * rules with the watchlist. Wire shapes as the server sends them (snake_case); they are written
 * out here until the SDK is regenerated with these routes, after which they can become
 * ApiReply<...> aliases like the other endpoint modules.
 */

const KYC = "/api/v1/kyc";
const RULES = `${KYC}/rules`;

/** The dashboard's periods: the list and the stats cover the last 24 hours, 7, 30 or 90 days. */
export const REVIEW_PERIODS = ["24h", "7d", "30d", "90d"] as const;
export type ReviewPeriod = (typeof REVIEW_PERIODS)[number];

/** Filters of GET /dashboard and /dashboard/export; absent or empty values are not sent. */
export interface DashboardFilters {
  status?: KycStatus;
  search?: string;
  country?: string;
  priority?: Priority;
  period: ReviewPeriod;
}

/** One row of the dashboard list (spec 001 §3 KYC submission, plus the risk level). */
export interface DashboardSubmission {
  id: string;
  user_id: string;
  name: string;
  email: string;
  phone: string;
  location: string;
  country: string;
  status: KycStatus;
  risk_score: number;
  risk_level: RiskLevel;
  /** Whole rupees. */
  amount: number;
  priority: Priority;
  submitted_at: string;
  verified_at: string | null;
  notes: string;
  documents: { type: DocumentType; status: DocumentStatus; uploaded_at: string }[];
}

export interface DashboardPage {
  data: DashboardSubmission[];
  /** Absent or null on the last page. */
  next_cursor: string | null;
  /** Every submission the filters match (not just this page). */
  total: number;
}

/** Change against the previous period of the same length, per figure (null: nothing to compare with). */
export type StatTrends = Partial<Record<"total_submissions" | "verified" | "pending" | "rejected" | "success_rate" | "average_processing_time", number | null>>;

export interface DashboardStats {
  total_submissions: number;
  verified: number;
  pending: number;
  rejected: number;
  /** Hours from submission to decision, over the decisions of the period; null when there were none. */
  average_processing_time: number | null;
  /** Percent of the period's decisions that verified. */
  success_rate: number;
  monthly_growth: number;
  trends: StatTrends;
}

export interface RiskReason {
  rule: string;
  points: number;
  reason: string;
}

export interface SubmissionRisk {
  risk_score: number;
  level: RiskLevel;
  flags: { code: string; message: string }[];
  reasons: RiskReason[];
  rule_set_version: number;
  verdict?: string;
  assessed_at?: string;
}

export interface ReviewDocument {
  type: DocumentType;
  status: DocumentStatus;
  uploaded_at: string;
  verified_at?: string | null;
  file_name?: string | null;
  /** Presigned GET of the image, short-lived. */
  url: string | null;
  face_url?: string | null;
  checks: ImageChecks | null;
}

export interface AuditEntry {
  actor: string;
  at: string;
  action: string;
  from: KycStatus | null;
  to: KycStatus | null;
  note: string | null;
}

/** GET /submissions/{id}: the submission with its documents, risk breakdown and audit trail. */
export interface SubmissionDetail extends Omit<DashboardSubmission, "documents" | "risk_level"> {
  risk_level?: RiskLevel;
  progress?: number;
  documents: ReviewDocument[];
  identity_numbers?: Partial<Record<"aadhaar" | "pan", { masked: string; verified_at: string }>>;
  risk: SubmissionRisk | null;
  audit: AuditEntry[];
  info_request: { message: string; requested_at: string; requested_by: string } | null;
}

/** The statuses a reviewer sets (pending is the applicant's own state). */
export const DECISION_STATUSES = ["verified", "rejected", "under_review"] as const satisfies readonly KycStatus[];
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

export interface BulkResult {
  id: string;
  ok: boolean;
  /** The status after the update (ok) or the reason it was refused. */
  status?: KycStatus;
  message?: string;
}

/** A rule set as the risk engine stores it: json-rules-engine rules plus the set's own settings. */
export type RuleSetDocument = Record<string, unknown>;

export interface RuleSetVersion {
  version: number;
  published_at: string;
  published_by: string;
  rules: RuleSetDocument;
}

export interface RulesOverview {
  /** The live version (null before the first publish: the built-in defaults apply). */
  published: RuleSetVersion | null;
  /** The editable draft; null when nobody has saved one since the last publish. */
  draft: { rules: RuleSetDocument; updated_at: string; updated_by: string } | null;
  /** Every published version, newest first. */
  versions: { version: number; published_at: string; published_by: string }[];
}

/** A dry run of rules against a stored submission: the assessment it would get; nothing is saved. */
export interface RuleTestResult {
  risk_score: number;
  level: RiskLevel;
  priority: Priority;
  verdict: string;
  flags: { code: string; message: string }[];
  reasons: RiskReason[];
}

/** A country of GET /api/v1/kyc/countries, as the country filter lists it. */
export interface CountryOption {
  country: string;
  countryCode: string;
  flag: string;
}

export interface WatchlistSummary {
  version: number | null;
  entries: number;
  uploaded_at: string | null;
  uploaded_by: string | null;
  /** The first few names, for a glance. */
  sample: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The query string of the dashboard list and export: trimmed search, empty values left out. */
export const dashboardParams = (filters: DashboardFilters) => ({
  status: filters.status,
  search: filters.search?.trim(),
  country: filters.country?.trim().toUpperCase(),
  priority: filters.priority,
  period: filters.period,
});

function toDashboardPage(body: unknown): DashboardPage {
  const data = unwrapList<DashboardSubmission>(body);
  const cursor = isRecord(body) && typeof body.next_cursor === "string" && body.next_cursor ? body.next_cursor : null;
  const total = isRecord(body) && typeof body.total === "number" ? body.total : data.length;
  return { data, next_cursor: cursor, total };
}

export function kycReviewEndpoints(http: HttpClient) {
  return {
    /** GET /dashboard: a page of submissions matching the filters, newest first. */
    async dashboard(filters: DashboardFilters, page: { limit: number; cursor?: string | null }, signal?: AbortSignal): Promise<DashboardPage> {
      const path = withQuery(`${KYC}/dashboard`, { ...dashboardParams(filters), limit: page.limit, cursor: page.cursor });
      return toDashboardPage(await http.authCall<unknown>("GET", path, { signal }));
    },
    /** GET /dashboard/stats: the period's figures and their change against the period before. */
    async stats(period: ReviewPeriod, signal?: AbortSignal): Promise<DashboardStats> {
      return unwrapData<DashboardStats>(await http.authCall<unknown>("GET", withQuery(`${KYC}/dashboard/stats`, { period }), { signal }));
    },
    /** GET /dashboard/export: the filtered list as CSV. */
    async exportCsv(filters: DashboardFilters, signal?: AbortSignal): Promise<DownloadedFile> {
      return http.authFile(withQuery(`${KYC}/dashboard/export`, dashboardParams(filters)), signal);
    },
    async submission(id: string, signal?: AbortSignal): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(await http.authCall<unknown>("GET", `${KYC}/submissions/${segment(id)}`, { signal }));
    },
    /** PUT /submissions/{id} {status, notes}: a decision, recorded in the audit trail. */
    async decide(id: string, change: { status: DecisionStatus; notes: string }, options?: WriteOptions): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(await http.authCall<unknown>("PUT", `${KYC}/submissions/${segment(id)}`, writeRequest(change, options)));
    },
    /** POST /submissions/bulk-update {ids, status, notes?}: one result per id. */
    async bulkUpdate(change: { ids: string[]; status: DecisionStatus; notes?: string }, options?: WriteOptions): Promise<BulkResult[]> {
      const reply = await http.authCall<unknown>("POST", `${KYC}/submissions/bulk-update`, writeRequest(change, options));
      return unwrapList<BulkResult>(reply, ["results", "data"]);
    },
    /** POST /submissions/{id}/request-info {message}: back to the applicant, who sees it in the wizard. */
    async requestInfo(id: string, message: string, options?: WriteOptions): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(await http.authCall<unknown>("POST", `${KYC}/submissions/${segment(id)}/request-info`, writeRequest({ message }, options)));
    },
    /** GET /countries (any signed-in user): the country filter's choices. */
    async countries(signal?: AbortSignal): Promise<CountryOption[]> {
      return unwrapList<CountryOption>(await http.authCall<unknown>("GET", `${KYC}/countries`, { signal }), ["countries", "data"]);
    },
    rules: {
      async overview(signal?: AbortSignal): Promise<RulesOverview> {
        return unwrapData<RulesOverview>(await http.authCall<unknown>("GET", RULES, { signal }));
      },
      async version(version: number, signal?: AbortSignal): Promise<RuleSetVersion> {
        return unwrapData<RuleSetVersion>(await http.authCall<unknown>("GET", `${RULES}/versions/${segment(version)}`, { signal }));
      },
      /** PUT /draft: the server validates the rule set and refuses it with a message naming what is wrong. */
      async saveDraft(rules: RuleSetDocument): Promise<unknown> {
        return http.authCall<unknown>("PUT", `${RULES}/draft`, { body: { rules } });
      },
      /** POST /test: the draft (or the given rules) against a submission, nothing saved. */
      async test(submissionId: string, rules?: RuleSetDocument): Promise<RuleTestResult> {
        return unwrapData<RuleTestResult>(await http.authCall<unknown>("POST", `${RULES}/test`, { body: { submission_id: submissionId, ...(rules ? { rules } : {}) } }));
      },
      /** POST /publish: the draft becomes the next version, used by the next evaluation everywhere. */
      async publish(options?: WriteOptions): Promise<RuleSetVersion> {
        return unwrapData<RuleSetVersion>(await http.authCall<unknown>("POST", `${RULES}/publish`, writeRequest({}, options)));
      },
      async watchlist(signal?: AbortSignal): Promise<WatchlistSummary> {
        return unwrapData<WatchlistSummary>(await http.authCall<unknown>("GET", `${RULES}/watchlist`, { signal }));
      },
      /** POST /watchlist {csv}: replaces the list with the file's rows. */
      async uploadWatchlist(csv: string, options?: WriteOptions): Promise<WatchlistSummary> {
        return unwrapData<WatchlistSummary>(await http.authCall<unknown>("POST", `${RULES}/watchlist`, writeRequest({ csv }, options)));
      },
    },
  };
}

export type KycReviewApi = ReturnType<typeof kycReviewEndpoints>;

/**
 * The back office over the app's client (same origin, the stored session's token, a 401 signs
 * out). Its own instance until createApi (api/api.ts) gains a kycReview group.
 */
export const kycReviewApi: KycReviewApi = kycReviewEndpoints(
  createHttpClient({ baseUrl: apiBaseUrl, fetch: (url, init) => globalThis.fetch(url, init), credentials: credentialStore }),
);
