import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReopenBreakInput, ResolveBreakInput } from "@fintech/core/reconciliation/model";
import { useSession } from "../session/hooks";
import { reconciliationApi, type BreakQuery, type FileQuery } from "./api";

/** Every reconciliation read is keyed by the signed-in user, so two sessions' data never mix. */
export const reconKeys = {
  all: (userId: string) => ["reconciliation", userId] as const,
  files: (userId: string, query: FileQuery) => ["reconciliation", userId, "files", query] as const,
  breaks: (userId: string, query: BreakQuery) => ["reconciliation", userId, "breaks", query] as const,
  positions: (userId: string, date: string) => ["reconciliation", userId, "positions", date] as const,
};

/** Files and breaks change as files arrive: asked again this often while a screen shows them. */
export const RECON_REFRESH_MS = 15_000;
/** Files per page of the console's table. */
export const FILES_PAGE = 25;
export const BREAKS_PAGE = 25;

/** The signed-in user and whether reconciliation is theirs to see (the server checks the role again). */
export function useReconViewer(): { userId: string; isAdmin: boolean } {
  const user = useSession()?.user ?? null;
  return { userId: user?.id ?? "signed-out", isAdmin: user?.role === "admin" };
}

/** The newest files, one page at a time ("Show more" asks the next with the reply's cursor). */
export function useSettlementFiles(query: Omit<FileQuery, "cursor">, enabled = true) {
  const { userId } = useReconViewer();
  return useInfiniteQuery({
    queryKey: reconKeys.files(userId, query),
    queryFn: ({ pageParam, signal }) => reconciliationApi.files({ ...query, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    retry: false,
    refetchInterval: RECON_REFRESH_MS,
  });
}

export function useBreaks(query: Omit<BreakQuery, "cursor">, enabled = true) {
  const { userId } = useReconViewer();
  return useInfiniteQuery({
    queryKey: reconKeys.breaks(userId, query),
    queryFn: ({ pageParam, signal }) => reconciliationApi.breaks({ ...query, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    retry: false,
    refetchInterval: RECON_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

export function usePositions(date: string, enabled = true) {
  const { userId } = useReconViewer();
  return useQuery({
    queryKey: reconKeys.positions(userId, date),
    queryFn: ({ signal }) => reconciliationApi.positions(date, signal),
    enabled,
    retry: false,
    refetchInterval: RECON_REFRESH_MS,
  });
}

/** After any change every reconciliation read is asked again (a resolution moves counts, positions and lists). */
export function useInvalidateRecon() {
  const queryClient = useQueryClient();
  const { userId } = useReconViewer();
  return () => queryClient.invalidateQueries({ queryKey: reconKeys.all(userId) });
}

export type BreakAction =
  | { kind: "resolve"; id: string; input: ResolveBreakInput; idempotencyKey: string }
  | { kind: "reopen"; id: string; input: ReopenBreakInput; idempotencyKey: string };

/** Resolve (match or write off) or reopen a break; admins only. */
export function useBreakAction() {
  const invalidate = useInvalidateRecon();
  return useMutation({
    mutationFn: (action: BreakAction) =>
      action.kind === "resolve"
        ? reconciliationApi.resolve(action.id, action.input, action.idempotencyKey)
        : reconciliationApi.reopen(action.id, action.input, action.idempotencyKey),
    onSuccess: () => void invalidate(),
  });
}
