import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/errors";
import { DECISIONS_SHOWN, railsApi, type Rail, type RailEditFormValues, type ThroughputRange } from "../api/rails";
import { useSession } from "../session/hooks";
import { replaceRail } from "./console";

/** Every rails read is keyed by the signed-in user, so two sessions' data never mix. */
export const railKeys = {
  list: (userId: string) => ["rails", userId, "list"] as const,
  detail: (userId: string, id: string) => ["rails", userId, "detail", id] as const,
  metrics: (userId: string) => ["rails", userId, "metrics"] as const,
  throughput: (userId: string, range: ThroughputRange) => ["rails", userId, "throughput", range] as const,
  decisions: (userId: string) => ["rails", userId, "decisions", DECISIONS_SHOWN] as const,
};

/** The console's traffic panels (metrics, decisions, throughput) are asked again this often while it is open. */
export const TRAFFIC_REFRESH_MS = 15_000;

/** The signed-in user and whether rail edits are theirs to make (the server checks the role again). */
export function useRailsViewer(): { userId: string; isAdmin: boolean } {
  const user = useSession()?.user ?? null;
  return { userId: user?.id ?? "signed-out", isAdmin: user?.role === "admin" };
}

export function useRails() {
  const { userId } = useRailsViewer();
  return useQuery({ queryKey: railKeys.list(userId), queryFn: ({ signal }) => railsApi.list(signal), retry: false });
}

/** GET /rails/metrics: the summary tiles' traffic figures and the per-rail bars. */
export function useRailMetrics() {
  const { userId } = useRailsViewer();
  return useQuery({
    queryKey: railKeys.metrics(userId),
    queryFn: ({ signal }) => railsApi.metrics(signal),
    retry: false,
    refetchInterval: TRAFFIC_REFRESH_MS,
  });
}

/** GET /rails/throughput for the monitor's chosen range; the previous range stays on screen while the next loads. */
export function useRailThroughput(range: ThroughputRange) {
  const { userId } = useRailsViewer();
  return useQuery({
    queryKey: railKeys.throughput(userId, range),
    queryFn: ({ signal }) => railsApi.throughput(range, signal),
    retry: false,
    refetchInterval: TRAFFIC_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

/** GET /rails/decisions: the Smart Payment Routing panel. */
export function useRoutingDecisions() {
  const { userId } = useRailsViewer();
  return useQuery({
    queryKey: railKeys.decisions(userId),
    queryFn: ({ signal }) => railsApi.decisions(DECISIONS_SHOWN, signal),
    retry: false,
    refetchInterval: TRAFFIC_REFRESH_MS,
  });
}

/** One rail with its change history (the edit drawer); asked again whenever the drawer opens. */
export function useRailDetail(id: string) {
  const { userId } = useRailsViewer();
  return useQuery({
    queryKey: railKeys.detail(userId, id),
    queryFn: ({ signal }) => railsApi.get(id, signal),
    retry: false,
    staleTime: 0,
  });
}

/** After a change the server answered with the rail: the card shows it at once, the list is asked again. */
function useRailChanged() {
  const queryClient = useQueryClient();
  const { userId } = useRailsViewer();
  return (rail: Rail) => {
    queryClient.setQueryData<Rail[]>(railKeys.list(userId), (rails) => (rails ? replaceRail(rails, rail) : rails));
    void queryClient.invalidateQueries({ queryKey: railKeys.list(userId) });
    void queryClient.invalidateQueries({ queryKey: railKeys.detail(userId, rail.id) });
  };
}

/** Start (-> active) or stop (-> down) a rail; admins only. */
export function useRailToggle() {
  const changed = useRailChanged();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: "start" | "stop" }) =>
      action === "start" ? railsApi.start(id) : railsApi.stop(id),
    onSuccess: changed,
  });
}

/**
 * Save the edit drawer's form (as typed: FX spread and error injection in percent). A 409 (the
 * rail changed since the drawer opened) asks the rail and its history again, so the admin sees
 * what changed.
 */
export function useRailSave() {
  const changed = useRailChanged();
  const queryClient = useQueryClient();
  const { userId } = useRailsViewer();
  return useMutation({
    mutationFn: ({ id, edit }: { id: string; edit: RailEditFormValues }) => railsApi.update(id, edit),
    onSuccess: changed,
    onError: (error, { id }) => {
      if (!(error instanceof ApiError) || error.status !== 409) return;
      void queryClient.invalidateQueries({ queryKey: railKeys.list(userId) });
      void queryClient.invalidateQueries({ queryKey: railKeys.detail(userId, id) });
    },
  });
}
