import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { webhooksApi, type WebhookDelivery, type WebhookEndpoint } from "../api/webhooks";
import { startBrowserFeed } from "../live/browserFeed";
import type { LiveStream } from "../live/feedClient";
import type { ConnectionStatus } from "../live/feedState";
import { ANY_EVENT } from "../live/streamSource";
import { useSession } from "../session/hooks";
import { DEMO_SCOPES, readStreamEvent, type DemoScope, type StreamEvent } from "./demoEvents";

/** Each scope's events as they come, unparsed beyond JSON: the demo shows every event, known or new. */
const demoStream = (scope: DemoScope): LiveStream<StreamEvent> => ({
  label: `Streaming demo (${scope})`,
  eventNames: [ANY_EVENT],
  parse: (name, data) => readStreamEvent(scope, name, data),
});

/**
 * The ledger, KYC and payment feeds while `streaming` is on, through the browser's one live
 * connection (live/browserFeed.ts: one connection per browser whatever the tabs and screens).
 * Returns the connection's state ("offline" while off or signed out).
 */
export function useDemoStream(streaming: boolean, onEvent: (event: StreamEvent) => void): ConnectionStatus {
  const userId = useSession()?.user.id ?? null;
  const [status, setStatus] = useState<ConnectionStatus>("offline");
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  }, [onEvent]);

  useEffect(() => {
    if (!streaming || !userId) {
      setStatus("offline");
      return;
    }
    const stops = DEMO_SCOPES.map((scope) =>
      startBrowserFeed({
        stream: demoStream(scope),
        scope,
        userId,
        onEvent: (event) => latest.current(event),
        // The scopes share one connection: its state comes to each; one is enough to show.
        onStatus: scope === "payment" ? setStatus : () => undefined,
        onResumed: () => undefined,
      }),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [streaming, userId]);

  return status;
}

/** How often Webhook Debug asks for the latest deliveries while it is shown or the stream runs. */
export const WEBHOOK_POLL_MS = 5_000;
/** The latest deliveries shown per endpoint. */
export const DELIVERIES_SHOWN = 5;

export interface EndpointWithDeliveries {
  endpoint: WebhookEndpoint;
  deliveries: WebhookDelivery[];
}

/** The user's webhook endpoints, each with its latest deliveries (GET /api/v1/webhooks/endpoints and …/deliveries). */
export function useWebhookDebug(enabled: boolean, polling: boolean) {
  const userId = useSession()?.user.id ?? "signed-out";
  return useQuery({
    queryKey: ["streaming-demo", userId, "webhooks"],
    queryFn: async ({ signal }): Promise<EndpointWithDeliveries[]> => {
      const endpoints = await webhooksApi.list(signal);
      return Promise.all(
        endpoints.map(async (endpoint) => ({
          endpoint,
          deliveries: (await webhooksApi.deliveries(endpoint.id, { limit: DELIVERIES_SHOWN, signal })).deliveries,
        })),
      );
    },
    enabled: enabled && userId !== "signed-out",
    refetchInterval: polling ? WEBHOOK_POLL_MS : false,
    retry: false,
  });
}
