import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  webhooksApi,
  type DeliveryStatusFilter,
  type ReplaySinceReply,
  type WebhookEndpointChanges,
  type WebhookEndpointInput,
} from "../../api/webhooks";
import { useSession } from "../../session/hooks";
import { hasPendingDelivery } from "./view";

/** How often the log is asked again while a delivery waits for an attempt, and otherwise. */
export const PENDING_POLL_MS = 2_000;
export const IDLE_POLL_MS = 10_000;
export const DELIVERIES_PAGE_SIZE = 20;

/** Keyed by the signed-in user, so two sessions' endpoints never mix. */
export const webhookKeys = {
  all: (userId: string) => ["webhooks", userId] as const,
  eventTypes: (userId: string) => ["webhooks", userId, "event-types"] as const,
  endpoints: (userId: string) => ["webhooks", userId, "endpoints"] as const,
  deliveries: (userId: string, endpointId: string) => ["webhooks", userId, "deliveries", endpointId] as const,
};

function useUserId(): string {
  return useSession()?.user.id ?? "signed-out";
}

export function useEventTypes() {
  const userId = useUserId();
  return useQuery({
    queryKey: webhookKeys.eventTypes(userId),
    queryFn: ({ signal }) => webhooksApi.eventTypes(signal),
    enabled: userId !== "signed-out",
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useWebhookEndpoints() {
  const userId = useUserId();
  return useQuery({
    queryKey: webhookKeys.endpoints(userId),
    queryFn: ({ signal }) => webhooksApi.list(signal),
    enabled: userId !== "signed-out",
  });
}

/**
 * One page of an endpoint's log, newest first. While a delivery on it is pending the page is asked
 * again every PENDING_POLL_MS; otherwise every IDLE_POLL_MS, so new events show up on their own.
 */
export function useDeliveries(endpointId: string, status: DeliveryStatusFilter, cursor: string | null) {
  const userId = useUserId();
  return useQuery({
    queryKey: [...webhookKeys.deliveries(userId, endpointId), status, cursor],
    queryFn: ({ signal }) =>
      webhooksApi.deliveries(endpointId, { status, cursor, limit: DELIVERIES_PAGE_SIZE, signal }),
    enabled: userId !== "signed-out",
    refetchInterval: (query) =>
      hasPendingDelivery(query.state.data?.deliveries ?? []) ? PENDING_POLL_MS : IDLE_POLL_MS,
  });
}

/** Each write refreshes the endpoints and every log of the user: an endpoint's status and its log move together. */
function useRefresh() {
  const client = useQueryClient();
  const userId = useUserId();
  return () => client.invalidateQueries({ queryKey: webhookKeys.all(userId) });
}

export function useCreateEndpoint() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: WebhookEndpointInput; idempotencyKey: string }) =>
      webhooksApi.create(input, idempotencyKey),
    onSuccess: refresh,
  });
}

export function useUpdateEndpoint(endpointId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (changes: WebhookEndpointChanges) => webhooksApi.update(endpointId, changes),
    onSuccess: refresh,
  });
}

export function useDeleteEndpoint(endpointId: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => webhooksApi.remove(endpointId), onSuccess: refresh });
}

export function useRotateSecret(endpointId: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => webhooksApi.rotateSecret(endpointId), onSuccess: refresh });
}

export function useSendTestEvent(endpointId: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => webhooksApi.sendTest(endpointId), onSuccess: refresh });
}

export function useReplayDelivery(endpointId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (deliveryId: string) => webhooksApi.replay(endpointId, deliveryId),
    onSuccess: refresh,
  });
}

/** Batches one "Replay since" walks before it stops and says where the rest starts. */
export const REPLAY_SINCE_MAX_BATCHES = 10;

/** Replays every delivery since `since`: the server takes a bounded batch per call, so this walks the batches. */
export function useReplaySince(endpointId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (since: string): Promise<ReplaySinceReply> => {
      let scheduled = 0;
      let from = since;
      for (let batch = 0; batch < REPLAY_SINCE_MAX_BATCHES; batch += 1) {
        const reply = await webhooksApi.replaySince(endpointId, from);
        scheduled += reply.scheduled;
        if (!reply.has_more || !reply.next_since) return { scheduled, has_more: false, next_since: null };
        from = reply.next_since;
      }
      return { scheduled, has_more: true, next_since: from };
    },
    onSuccess: refresh,
  });
}
