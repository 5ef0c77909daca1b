import { KYC_STATUSES, PRIORITIES, type KycStatus, type Priority, type RiskLevel } from "@fintech/core/kyc/model";
import { DEFAULT_REVIEW_PERIOD } from "@fintech/core/kyc/review-model";
import { REVIEW_PERIODS, type DashboardFilters, type DashboardStats, type ReviewPeriod } from "../api/kycReview";

/**
 * The dashboard's wording and formats (docs/product/kyc.md#submission-list): pure, so the screen
 * and the tests agree.
 */

export const DEFAULT_PERIOD: ReviewPeriod = DEFAULT_REVIEW_PERIOD;

export const PERIOD_LABELS: Record<ReviewPeriod, string> = {
  "24h": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
};

export const STATUS_LABELS: Record<KycStatus, string> = {
  pending: "Pending",
  under_review: "Under Review",
  verified: "Verified",
  rejected: "Rejected",
};

export const PRIORITY_LABELS: Record<Priority, string> = { high: "High", medium: "Medium", low: "Low" };

/**
 * Status colours of docs/product/kyc.md#submission-list: verified green, rejected red, under_review
 * yellow, pending blue; each pair keeps 4.5:1 in its theme.
 */
export const STATUS_TONES: Record<KycStatus, string> = {
  verified: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  rejected: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  under_review: "bg-yellow-100 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-200",
  pending: "bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200",
};

export const PRIORITY_TONES: Record<Priority, string> = {
  high: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  medium: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  low: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
};

export const RISK_TONES: Record<RiskLevel, string> = {
  Low: "text-emerald-700 dark:text-emerald-300",
  Medium: "text-amber-700 dark:text-amber-300",
  High: "text-red-700 dark:text-red-300",
};

const INR = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});

/** Whole rupees in the Indian grouping, no decimals: 250000 -> "₹2,50,000". */
export function formatInr(rupees: number): string {
  return INR.format(Number.isFinite(rupees) ? Math.round(rupees) : 0);
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * docs/product/kyc.md#submission-list: under an hour "Just now", under a day "Nh ago", else "Nd
 * ago" (whole units, rounded down).
 */
export function submittedAge(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const elapsed = Math.max(0, now - at);
  if (elapsed < HOUR_MS) return "Just now";
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
  return `${Math.floor(elapsed / DAY_MS)}d ago`;
}

/** The average time to a decision: "N/A" when unknown (no decisions, or the stats failed to load). */
export function formatProcessingTime(hours: number | null | undefined): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours) || hours < 0) return "N/A";
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  if (hours < 48) return `${hours < 10 ? hours.toFixed(1) : Math.round(hours)}h`;
  return `${(hours / 24).toFixed(1)} days`;
}

const tenths = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** "87.5%"; a rate with nothing behind it (no decisions yet) is "N/A". */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "N/A";
  return `${tenths(value)}%`;
}

export interface TrendView {
  /** "+12.5%", "−4%", "0%" or "—" (nothing to compare with). */
  text: string;
  direction: "up" | "down" | "flat" | "none";
  /** For screen readers: "up 12.5% on the previous 7 days". */
  description: string;
}

/**
 * A card's change against the previous period of the same length. The server sends a percent
 * change for counts, percentage points for a rate ("pts"), or null when the previous period had
 * nothing to compare with (a rise from zero).
 */
export function formatTrend(
  change: number | null | undefined,
  period: ReviewPeriod,
  unit: "percent" | "points" = "percent",
): TrendView {
  const previous = `the previous ${PERIOD_LABELS[period].replace(/^Last /, "")}`;
  if (change === null || change === undefined || !Number.isFinite(change)) {
    return { text: "—", direction: "none", description: `no figures for ${previous} to compare with` };
  }
  const rounded = Math.round(change * 10) / 10;
  const size = unit === "points" ? `${tenths(Math.abs(rounded))} pts` : `${tenths(Math.abs(rounded))}%`;
  if (rounded === 0)
    return { text: unit === "points" ? "0 pts" : "0%", direction: "flat", description: `unchanged from ${previous}` };
  if (rounded > 0) return { text: `+${size}`, direction: "up", description: `up ${size} on ${previous}` };
  return { text: `\u2212${size}`, direction: "down", description: `down ${size} on ${previous}` };
}

/** "Showing X of Y submissions"; past the server's counting limit, "Showing X of 10,000+ submissions". */
export const showingText = (shown: number, total: number, capped = false): string =>
  `Showing ${shown.toLocaleString("en-IN")} of ${total.toLocaleString("en-IN")}${capped ? "+" : ""} submission${total === 1 && !capped ? "" : "s"}`;

export interface StatCardView {
  label: string;
  value: string;
  trend: TrendView;
  /** Whether the change is good news: a rise in pending reviews is not. */
  tone: "good" | "bad" | "neutral";
}

/**
 * The four cards of docs/product/kyc.md#dashboard with their change against the previous period. Without stats
 * (a failed load) every figure is zero and there is no trend (docs/product/kyc.md#submission-list: zeroed stats).
 */
export function statCards(stats: DashboardStats | null, period: ReviewPeriod): StatCardView[] {
  const trend = (figure: keyof DashboardStats["trends"], unit: "percent" | "points" = "percent") =>
    formatTrend(stats?.trends[figure] ?? null, period, unit);
  const count = (value: number | undefined) => (value ?? 0).toLocaleString("en-IN");
  const tone = (view: TrendView, risingIsGood: boolean): StatCardView["tone"] =>
    view.direction === "up"
      ? risingIsGood
        ? "good"
        : "bad"
      : view.direction === "down"
        ? risingIsGood
          ? "bad"
          : "good"
        : "neutral";
  const cards: [string, string, TrendView, boolean][] = [
    ["Total Submissions", count(stats?.total_submissions), trend("total_submissions"), true],
    ["Verified", count(stats?.verified), trend("verified"), true],
    ["Pending Review", count(stats?.pending), trend("pending"), false],
    ["Success Rate", stats ? formatPercent(stats.success_rate) : "0%", trend("success_rate", "points"), true],
  ];
  return cards.map(([label, value, view, risingIsGood]) => ({
    label,
    value,
    trend: view,
    tone: tone(view, risingIsGood),
  }));
}

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

/** Longest search the dashboard sends (the server bounds it too). */
export const MAX_SEARCH_LENGTH = 100;

/**
 * The filters a link carries (?status=pending&period=30d…); unknown values are dropped, so a
 * hand-edited URL never reaches the server as a bad request.
 */
export function filtersFromSearch(search: URLSearchParams): DashboardFilters {
  const status = search.get("status");
  const priority = search.get("priority");
  const period = search.get("period");
  const country = search.get("country")?.trim().toUpperCase() ?? "";
  const text = search.get("search")?.slice(0, MAX_SEARCH_LENGTH) ?? "";
  return {
    period: isOneOf(REVIEW_PERIODS, period) ? period : DEFAULT_PERIOD,
    ...(isOneOf(KYC_STATUSES, status) ? { status } : {}),
    ...(isOneOf(PRIORITIES, priority) ? { priority } : {}),
    ...(/^[A-Z]{2}$/.test(country) ? { country } : {}),
    ...(text.trim() ? { search: text } : {}),
  };
}

/** The filters as URL parameters; the default period and empty values are left out. */
export function filtersToSearch(filters: DashboardFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.search?.trim()) search.set("search", filters.search);
  if (filters.status) search.set("status", filters.status);
  if (filters.country) search.set("country", filters.country);
  if (filters.priority) search.set("priority", filters.priority);
  if (filters.period !== DEFAULT_PERIOD) search.set("period", filters.period);
  return search;
}

export const hasNarrowingFilters = (filters: DashboardFilters): boolean =>
  Boolean(filters.status || filters.priority || filters.country || filters.search?.trim());

/** The export's file name when the server gives none: kyc-submissions-YYYY-MM-DD.csv (UTC). */
export const exportFilename = (fromServer: string | null, now: Date = new Date()): string =>
  fromServer ?? `kyc-submissions-${now.toISOString().slice(0, 10)}.csv`;
