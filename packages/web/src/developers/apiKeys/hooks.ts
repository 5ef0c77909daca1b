import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyScope } from "@fintech/core/auth/model";
import { api } from "../../api";
import { useSession } from "../../session/hooks";

/** Keyed by the signed-in user, so two sessions' keys never mix. */
export const apiKeyKeys = {
  list: (userId: string) => ["api-keys", userId] as const,
};

function useUserId(): string {
  return useSession()?.user.id ?? "signed-out";
}

export function useApiKeys() {
  const userId = useUserId();
  return useQuery({
    queryKey: apiKeyKeys.list(userId),
    queryFn: ({ signal }) => api.apiKeys.list(signal),
    enabled: userId !== "signed-out",
  });
}

/** Each write refreshes the list; the created key's secret lives only in the mutation's result. */
function useListRefresh() {
  const client = useQueryClient();
  const userId = useUserId();
  return () => client.invalidateQueries({ queryKey: apiKeyKeys.list(userId) });
}

export function useCreateApiKey() {
  const refresh = useListRefresh();
  return useMutation({
    mutationFn: ({ name, scopes }: { name: string; scopes: readonly ApiKeyScope[] }) =>
      api.apiKeys.create(name, scopes),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  const refresh = useListRefresh();
  return useMutation({
    mutationFn: (id: string) => api.apiKeys.revoke(id),
    onSuccess: refresh,
  });
}
