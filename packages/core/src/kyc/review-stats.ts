import type { CoreContext } from "../shared/context";
import { parseWith } from "../shared/validation";
import { KycStatus, type KycSubmission } from "./model";
import {
  REVIEW_PERIOD_MS,
  STAT_TREND_FIGURES,
  StatsQuery,
  type DashboardStats,
  type StatFigures,
} from "./review-model";
import { readSubmissions, submissionsQuery } from "./review-list";

/**
 * The dashboard's stat cards (the Dashboard stats of docs/product/kyc.md#data), computed from the
 * submissions themselves, with trends against the previous period of the same length.
 *
 * Every figure is about a cohort: the submissions SUBMITTED within the period, and what became of
 * them so far. The previous period's cohort is read the same way, so the trends compare like with
 * like. "Pending Review" (a card of docs/product/kyc.md#dashboard) counts the cohort's undecided
 * submissions: pending (the applicant's turn) plus under_review (the reviewer's turn); both are
 * also given apart.
 *
 * Cost: one Query of the submissions index over the last max(2 x period, 60 days), projecting the
 * four fields used. At KYC volumes that is fine up to STATS_MAX_SUBMISSIONS; beyond it the reply
 * says `complete: false` (figures over the newest ones only). The design for more is per-day
 * counters written in the same transaction as each change (docs/kyc.md#reviewer-back-office).
 */

export const STATS_MAX_SUBMISSIONS = 50_000;
const GROWTH_WINDOW_MS = 30 * 24 * 3_600_000;

type StatSource = Pick<KycSubmission, "status" | "submitted_at" | "decided_at"> & { submitted_ms: number };

const round1 = (value: number) => Math.round(value * 10) / 10;
const percentChange = (current: number, previous: number) =>
  previous === 0 ? null : round1(((current - previous) / previous) * 100);

function figures(cohort: StatSource[]): StatFigures {
  const count = (status: KycStatus) => cohort.filter((item) => item.status === status).length;
  const decided = cohort.filter(
    (item) => item.decided_at !== null && (item.status === "verified" || item.status === "rejected"),
  );
  const verified = count("verified");
  const rejected = count("rejected");
  const processingHours = decided.map((item) => (Date.parse(item.decided_at!) - item.submitted_ms) / 3_600_000);
  return {
    total_submissions: cohort.length,
    verified,
    pending: count("pending") + count("under_review"),
    awaiting_applicant: count("pending"),
    under_review: count("under_review"),
    rejected,
    average_processing_time:
      processingHours.length === 0
        ? null
        : round1(processingHours.reduce((sum, hours) => sum + hours, 0) / processingHours.length),
    success_rate: verified + rejected === 0 ? null : round1((verified / (verified + rejected)) * 100),
  };
}

function trend(name: (typeof STAT_TREND_FIGURES)[number], current: StatFigures, previous: StatFigures): number | null {
  const now = current[name];
  const before = previous[name];
  if (now === null || before === null) return null;
  return name === "success_rate" ? round1(now - before) : percentChange(now, before);
}

export async function dashboardStats(
  ctx: CoreContext,
  query: unknown,
  maxSubmissions = STATS_MAX_SUBMISSIONS,
): Promise<DashboardStats> {
  const { period } = parseWith(StatsQuery, query);
  const now = ctx.clock().getTime();
  const length = REVIEW_PERIOD_MS[period];
  const windowMs = Math.max(2 * length, 2 * GROWTH_WINDOW_MS);
  const read = await readSubmissions(
    ctx,
    {
      ...submissionsQuery({}, new Date(now - windowMs)),
      ProjectionExpression: "#status, submitted_at, decided_at",
      ExpressionAttributeNames: { "#status": "status" },
    },
    (item): StatSource | null => {
      const status = KycStatus.safeParse(item.status);
      if (!status.success || typeof item.submitted_at !== "string") return null;
      const decidedAt = typeof item.decided_at === "string" ? item.decided_at : null;
      return {
        status: status.data,
        submitted_at: item.submitted_at,
        decided_at: decidedAt,
        submitted_ms: Date.parse(item.submitted_at),
      };
    },
    maxSubmissions,
  );
  // Open-ended at the top: a submission dated a little after "now" (another instance's clock ahead)
  // counts in the current period.
  const submittedBetween = (from: number, until = Number.POSITIVE_INFINITY) =>
    read.items.filter((item) => item.submitted_ms >= from && item.submitted_ms < until);
  const current = figures(submittedBetween(now - length));
  const previous = figures(submittedBetween(now - 2 * length, now - length));
  const lastMonth = submittedBetween(now - GROWTH_WINDOW_MS).length;
  const monthBefore = submittedBetween(now - 2 * GROWTH_WINDOW_MS, now - GROWTH_WINDOW_MS).length;
  return {
    period,
    from: new Date(now - length).toISOString(),
    to: new Date(now).toISOString(),
    ...current,
    monthly_growth: percentChange(lastMonth, monthBefore),
    previous,
    trends: Object.fromEntries(
      STAT_TREND_FIGURES.map((name) => [name, trend(name, current, previous)]),
    ) as DashboardStats["trends"],
    complete: read.complete,
  };
}
