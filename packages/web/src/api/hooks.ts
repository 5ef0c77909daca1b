import { useQuery } from "@tanstack/react-query";
import { HEALTH_REFRESH_MS } from "../constants";
import { useSession } from "../session/hooks";
import { api } from "./index";
import type { HealthView } from "./healthView";
import { toHealthView } from "./healthView";
import type { UserProfile } from "./profile";

export const queryKeys = {
  health: ["health"] as const,
  serviceHealth: (userId: string) => ["service-health", userId] as const,
  profile: (userId: string) => ["profile", userId] as const,
};

/** Backend and database health, refreshed every 30 s (docs/product/status.md#constants). */
export function useHealth(refreshMs: number = HEALTH_REFRESH_MS): HealthView & { refresh: () => void } {
  const query = useQuery({
    queryKey: queryKeys.health,
    queryFn: ({ signal }) => api.health.getHealth(signal),
    refetchInterval: refreshMs,
  });
  return { ...toHealthView(query), refresh: () => void query.refetch() };
}

/** The signed-in user's profile; idle while signed out. Keyed by user so accounts never mix. */
export function useProfile() {
  const userId = useSession()?.user.id ?? null;
  return useQuery<UserProfile>({
    queryKey: queryKeys.profile(userId ?? "signed-out"),
    queryFn: () => api.profile.getProfile(),
    enabled: userId !== null,
  });
}
