import type { KycStatus, Priority } from "@fintech/core/kyc/model";
import {
  REVIEW_PERIODS,
  type BulkResult,
  type BulkRiskSummary,
  type DashboardStats,
  type ReviewPage,
  type ReviewPeriod,
  type ReviewRow,
  type SubmissionDetail,
} from "@fintech/core/kyc/review-model";
import type {
  DryRunResult,
  PublishedRuleSet,
  RuleSetBodyInput,
  RuleSetDraft,
  RulesOverview,
  WatchlistSummary,
} from "@fintech/core/kyc/risk/model";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment, withQuery } from "./query";
import type { DownloadedFile, WriteOptions } from "./types";

/**
 * The reviewer back office (admin only; a user is answered 403): the dashboard list, its stats
 * and CSV export, one submission in full, decisions, bulk decisions, Request Info, and the risk
 * rules with the watchlist. Wire shapes are core's own zod types, the ones the server replies
 * with, from its browser-safe modules: kyc/review-model, and kyc/risk/model for the rule sets and
 * the watchlist, so none of the server code that stores them enters the bundle.
 */

const KYC = "/api/v1/kyc";
const RULES = `${KYC}/rules`;

export { REVIEW_PERIODS, type ReviewPeriod };

/** Filters of GET /dashboard and /dashboard/export; absent or empty values are not sent. */
export interface DashboardFilters {
  status?: KycStatus;
  search?: string;
  country?: string;
  priority?: Priority;
  /** Always sent: the list and the stats cover the same period. */
  period: ReviewPeriod;
}

/** One row of the dashboard list (docs/product/kyc.md#data KYC submission, plus risk level and progress). */
export type DashboardSubmission = ReviewRow;
export type DashboardPage = ReviewPage;
export type { DashboardStats, SubmissionDetail, BulkResult, BulkRiskSummary };
export type LinkedSubmission = SubmissionDetail["linked"]["submissions"][number];
export type ReviewDocument = SubmissionDetail["documents"][number];
export type AuditEntry = SubmissionDetail["audit"][number];

/** The statuses a reviewer sets from the screen (pending is reached through Request Info). */
export const DECISION_STATUSES = ["verified", "rejected", "under_review"] as const satisfies readonly KycStatus[];
export type DecisionStatus = (typeof DECISION_STATUSES)[number];

/** A rule set as an admin edits it: name, description, json-rules-engine rules, country-risk table. */
export type RuleSetDocument = RuleSetBodyInput;
export type { PublishedRuleSet, RuleSetDraft, RulesOverview, DryRunResult, WatchlistSummary };

/** A country of GET /api/v1/kyc/countries, as the country filter lists it. */
export interface CountryOption {
  country: string;
  countryCode: string;
  flag: string;
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
  const page = isRecord(body) ? body : {};
  const cursor = typeof page.next_cursor === "string" && page.next_cursor ? page.next_cursor : null;
  return {
    data,
    next_cursor: cursor,
    has_more: typeof page.has_more === "boolean" ? page.has_more : cursor !== null,
    total: typeof page.total === "number" ? page.total : data.length,
    total_capped: page.total_capped === true,
  };
}

export function kycReviewEndpoints(http: HttpClient) {
  return {
    /** GET /dashboard: a page of submissions matching the filters, newest first. */
    async dashboard(
      filters: DashboardFilters,
      page: { limit: number; cursor?: string | null },
      signal?: AbortSignal,
    ): Promise<DashboardPage> {
      const path = withQuery(`${KYC}/dashboard`, {
        ...dashboardParams(filters),
        limit: page.limit,
        cursor: page.cursor,
      });
      return toDashboardPage(await http.authCall<unknown>("GET", path, { signal }));
    },
    /** GET /dashboard/stats: the period's figures and their change against the period before. */
    async stats(period: ReviewPeriod, signal?: AbortSignal): Promise<DashboardStats> {
      return unwrapData<DashboardStats>(
        await http.authCall<unknown>("GET", withQuery(`${KYC}/dashboard/stats`, { period }), { signal }),
      );
    },
    /** GET /dashboard/export: the filtered list as CSV. */
    async exportCsv(filters: DashboardFilters, signal?: AbortSignal): Promise<DownloadedFile> {
      return http.authFile(withQuery(`${KYC}/dashboard/export`, dashboardParams(filters)), signal);
    },
    async submission(id: string, signal?: AbortSignal): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(
        await http.authCall<unknown>("GET", `${KYC}/submissions/${segment(id)}`, { signal }),
      );
    },
    /**
     * PUT /submissions/{id} {status, notes, acknowledge_risk?}: a decision, recorded in the audit
     * trail with the reviewer and the reason.
     */
    async decide(
      id: string,
      change: { status: DecisionStatus; notes: string; acknowledge_risk?: boolean },
      options?: WriteOptions,
    ): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(
        await http.authCall<unknown>("PUT", `${KYC}/submissions/${segment(id)}`, { ...options, body: change }),
      );
    },
    /** POST /submissions/bulk-update {ids, status, notes?}: one result per id. */
    async bulkUpdate(
      change: { ids: string[]; status: DecisionStatus; notes?: string; acknowledge_risk?: boolean },
      options?: WriteOptions,
    ): Promise<BulkResult[]> {
      const reply = await http.authCall<unknown>("POST", `${KYC}/submissions/bulk-update`, {
        ...options,
        body: change,
      });
      return unwrapList<BulkResult>(reply, ["results", "data"]);
    },
    /** POST /submissions/bulk-risk {ids}: what a bulk action would touch, by risk (reads only). */
    async bulkRisk(ids: string[], signal?: AbortSignal): Promise<BulkRiskSummary> {
      return unwrapData<BulkRiskSummary>(
        await http.authCall<unknown>("POST", `${KYC}/submissions/bulk-risk`, { body: { ids }, signal }),
      );
    },
    /** POST /submissions/{id}/dismiss-alert {reason}: a re-score's alert dealt with, the reason audited. */
    async dismissAlert(id: string, reason: string, options?: WriteOptions): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(
        await http.authCall<unknown>("POST", `${KYC}/submissions/${segment(id)}/dismiss-alert`, {
          ...options,
          body: { reason },
        }),
      );
    },
    /** POST /submissions/{id}/request-info {message}: back to the applicant, who sees it in the wizard. */
    async requestInfo(id: string, message: string, options?: WriteOptions): Promise<SubmissionDetail> {
      return unwrapData<SubmissionDetail>(
        await http.authCall<unknown>("POST", `${KYC}/submissions/${segment(id)}/request-info`, {
          ...options,
          body: { message },
        }),
      );
    },
    /** GET /countries (any signed-in user): the country filter's choices. */
    async countries(signal?: AbortSignal): Promise<CountryOption[]> {
      return unwrapList<CountryOption>(await http.authCall<unknown>("GET", `${KYC}/countries`, { signal }), [
        "countries",
        "data",
      ]);
    },
    rules: {
      /** GET /rules: the live version, the draft, and every published version (newest first). */
      async overview(signal?: AbortSignal): Promise<RulesOverview> {
        return unwrapData<RulesOverview>(await http.authCall<unknown>("GET", RULES, { signal }));
      },
      async version(version: number, signal?: AbortSignal): Promise<PublishedRuleSet> {
        return unwrapData<PublishedRuleSet>(
          await http.authCall<unknown>("GET", `${RULES}/versions/${segment(version)}`, { signal }),
        );
      },
      /**
       * PUT /draft: the server validates the rule set (a refusal names what is wrong); with
       * expectedRevision, a draft someone else saved in between is not overwritten (409).
       */
      async saveDraft(ruleSet: RuleSetDocument, expectedRevision?: number): Promise<RuleSetDraft> {
        // Revision 0 ("there was no draft") is a guard too, so it is sent (withQuery drops zeros).
        const path =
          expectedRevision === undefined ? `${RULES}/draft` : `${RULES}/draft?expected_revision=${expectedRevision}`;
        return unwrapData<RuleSetDraft>(await http.authCall<unknown>("PUT", path, { body: ruleSet }));
      },
      /**
       * POST /test: the given rules (else the draft, else the live version) against a stored
       * submission; nothing is saved.
       */
      async test(submissionId: string, ruleSet?: RuleSetDocument): Promise<DryRunResult> {
        return unwrapData<DryRunResult>(
          await http.authCall<unknown>("POST", `${RULES}/test`, {
            body: { submission_id: submissionId, ...(ruleSet ? { rules: ruleSet } : {}) },
          }),
        );
      },
      /**
       * POST /publish {draft_revision}: that revision of the draft becomes the next version, used by
       * the next evaluation everywhere (a draft changed since is a 409, not published unseen).
       */
      async publish(draftRevision: number, options?: WriteOptions): Promise<PublishedRuleSet> {
        return unwrapData<PublishedRuleSet>(
          await http.authCall<unknown>("POST", `${RULES}/publish`, {
            ...options,
            body: { draft_revision: draftRevision },
          }),
        );
      },
      async watchlist(signal?: AbortSignal): Promise<WatchlistSummary> {
        return unwrapData<WatchlistSummary>(await http.authCall<unknown>("GET", `${RULES}/watchlist`, { signal }));
      },
      /** POST /watchlist {csv, name}: the file's rows become the current list. */
      async uploadWatchlist(upload: { csv: string; name: string }, options?: WriteOptions): Promise<WatchlistSummary> {
        return unwrapData<WatchlistSummary>(
          await http.authCall<unknown>("POST", `${RULES}/watchlist`, { ...options, body: upload }),
        );
      },
    },
  };
}

export type KycReviewApi = ReturnType<typeof kycReviewEndpoints>;

/**
 * The back office over the app's client (same origin, the stored session's token, a 401 signs
 * out), loaded with the dashboard so the initial bundle does not carry it.
 */
export const kycReviewApi: KycReviewApi = kycReviewEndpoints(appHttp);
