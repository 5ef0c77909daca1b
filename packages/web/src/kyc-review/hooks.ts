import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { kycReviewApi, type DashboardFilters, type ReviewPeriod } from "../api/kycReview";
import { useSession } from "../session/hooks";

/** Submissions per page of the dashboard list. */
export const DASHBOARD_PAGE_SIZE = 25;

/** Every back-office read is keyed by the signed-in reviewer, so two sessions' data never mix. */
export const reviewKeys = {
  all: (userId: string) => ["kyc-review", userId] as const,
  list: (userId: string, filters: DashboardFilters) => ["kyc-review", userId, "list", filters] as const,
  stats: (userId: string, period: ReviewPeriod) => ["kyc-review", userId, "stats", period] as const,
  detail: (userId: string, id: string) => ["kyc-review", userId, "detail", id] as const,
  bulkRisk: (userId: string, ids: readonly string[]) => ["kyc-review", userId, "bulk-risk", ...ids] as const,
  rules: (userId: string) => ["kyc-review", userId, "rules"] as const,
  watchlist: (userId: string) => ["kyc-review", userId, "watchlist"] as const,
};

/** The signed-in user and whether the back office is theirs to see (the server checks again). */
export function useReviewer(): { userId: string; isAdmin: boolean; signedIn: boolean } {
  const user = useSession()?.user ?? null;
  return { userId: user?.id ?? "signed-out", isAdmin: user?.role === "admin", signedIn: user !== null };
}

/** The dashboard list: pages of DASHBOARD_PAGE_SIZE asked for with the previous page's cursor. */
export function useDashboardPages(filters: DashboardFilters) {
  const { userId, isAdmin } = useReviewer();
  return useInfiniteQuery({
    queryKey: reviewKeys.list(userId, filters),
    queryFn: ({ pageParam, signal }) =>
      kycReviewApi.dashboard(filters, { limit: DASHBOARD_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: isAdmin,
    // A 403 or a bad filter will not get better by asking again at once.
    retry: false,
  });
}

export function useDashboardStats(period: ReviewPeriod) {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: reviewKeys.stats(userId, period),
    queryFn: ({ signal }) => kycReviewApi.stats(period, signal),
    enabled: isAdmin,
    retry: false,
  });
}

/** One submission for the detail modal; idle until a row is opened. */
export function useSubmissionDetail(id: string | null) {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: reviewKeys.detail(userId, id ?? ""),
    queryFn: ({ signal }) => kycReviewApi.submission(id ?? "", signal),
    enabled: isAdmin && id !== null,
    retry: false,
    // Presigned image URLs expire; a reopened detail asks for fresh ones.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The risk of a bulk selection, read when Bulk Actions opens (the approval is checked again by the server). */
export function useBulkRisk(ids: readonly string[]) {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: reviewKeys.bulkRisk(userId, ids),
    queryFn: ({ signal }) => kycReviewApi.bulkRisk([...ids], signal),
    enabled: isAdmin && ids.length > 0,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useRulesOverview() {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: reviewKeys.rules(userId),
    queryFn: ({ signal }) => kycReviewApi.rules.overview(signal),
    enabled: isAdmin,
    retry: false,
  });
}

export function useRuleVersion(version: number | null) {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: [...reviewKeys.rules(userId), "version", version ?? 0],
    queryFn: ({ signal }) => kycReviewApi.rules.version(version ?? 0, signal),
    enabled: isAdmin && version !== null,
    // A published version never changes.
    staleTime: Infinity,
    retry: false,
  });
}

export function useWatchlist() {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: reviewKeys.watchlist(userId),
    queryFn: ({ signal }) => kycReviewApi.rules.watchlist(signal),
    enabled: isAdmin,
    retry: false,
  });
}

/** After a decision: the list, the stats and any open detail are stale. */
export function useInvalidateReview() {
  const queryClient = useQueryClient();
  const { userId } = useReviewer();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: reviewKeys.all(userId) }), [queryClient, userId]);
}

/** The country filter's choices; they change with a deploy at most. */
export function useCountryOptions() {
  const { userId, isAdmin } = useReviewer();
  return useQuery({
    queryKey: [...reviewKeys.all(userId), "countries"],
    queryFn: ({ signal }) => kycReviewApi.countries(signal),
    enabled: isAdmin,
    staleTime: Infinity,
    retry: false,
  });
}
