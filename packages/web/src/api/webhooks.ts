import { z } from "zod";
import {
  EventType,
  ReplaySinceReply,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookSecretReveal,
  type CreateWebhookEndpointInput,
  type UpdateWebhookEndpointInput,
} from "@fintech/core/webhooks/model";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { ApiError } from "./errors";
import { segment, withQuery } from "./query";

/**
 * The webhooks API as /developers/webhooks uses it (docs/webhooks.md#the-webhooks-screen): the
 * signed-in user's endpoints, their secrets (in the create and rotate replies only), and each
 * endpoint's delivery log with replay and test send. Replies are read through core's schemas,
 * the ones the server builds them with: a reply that does not match is an error, never a blank row.
 */

const BASE = "/api/v1/webhooks";
const endpointPath = (id: string) => `${BASE}/endpoints/${segment(id)}`;

export type { ReplaySinceReply, WebhookDelivery, WebhookEndpoint, WebhookSecretReveal };
export type WebhookEndpointInput = z.input<typeof CreateWebhookEndpointInput>;
export type WebhookEndpointChanges = z.input<typeof UpdateWebhookEndpointInput>;

/** One entry of the event-type catalogue an endpoint subscribes from. */
export const EventTypeInfo = z.object({ type: EventType, feed: z.string(), description: z.string() });
export type EventTypeInfo = z.infer<typeof EventTypeInfo>;

const DeliveryPage = z.object({ data: z.array(WebhookDelivery), next_cursor: z.string().nullable().optional() });
export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}

/** The delivery log's filter: every delivery, or those in one state. */
export type DeliveryStatusFilter = WebhookDelivery["status"] | "all";

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(`${what}: the reply is not in the expected format`, "invalid-response");
  return result.data;
}

const dataOf = <T>(schema: z.ZodType<T>) => z.object({ data: schema });

export function webhookEndpoints(http: HttpClient) {
  return {
    /** GET /event-types -> {data: [{type, feed, description}]}: what an endpoint may subscribe to. */
    async eventTypes(signal?: AbortSignal): Promise<EventTypeInfo[]> {
      const body = await http.authCall<unknown>("GET", `${BASE}/event-types`, { signal });
      return parsed(dataOf(z.array(EventTypeInfo)), body, "Event types").data;
    },
    /** GET /endpoints -> {data: [endpoint]}. */
    async list(signal?: AbortSignal): Promise<WebhookEndpoint[]> {
      const body = await http.authCall<unknown>("GET", `${BASE}/endpoints`, { signal });
      return parsed(dataOf(z.array(WebhookEndpoint)), body, "Webhook endpoints").data;
    },
    /** GET /endpoints/{id}; 404 webhook_endpoint_not_found for an unknown or foreign id. */
    async get(id: string, signal?: AbortSignal): Promise<WebhookEndpoint> {
      const body = await http.authCall<unknown>("GET", endpointPath(id), { signal });
      return parsed(dataOf(WebhookEndpoint), body, "Webhook endpoint").data;
    },
    /**
     * POST /endpoints -> 201 {data: {endpoint, secret}}: the only reply besides a rotation that
     * carries the secret. 400 webhook_url_* for a refused URL, 409 webhook_endpoint_limit.
     */
    async create(input: WebhookEndpointInput, idempotencyKey?: string): Promise<WebhookSecretReveal> {
      const body = await http.authCall<unknown>("POST", `${BASE}/endpoints`, { body: input, idempotencyKey });
      return parsed(dataOf(WebhookSecretReveal), body, "New webhook endpoint").data;
    },
    /** PATCH /endpoints/{id} with the fields that change. */
    async update(id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint> {
      const body = await http.authCall<unknown>("PATCH", endpointPath(id), { body: changes });
      return parsed(dataOf(WebhookEndpoint), body, "Webhook endpoint").data;
    },
    /** DELETE /endpoints/{id}: the endpoint and its log are gone; nothing more is delivered to it. */
    async remove(id: string): Promise<void> {
      await http.authCall<unknown>("DELETE", endpointPath(id));
    },
    /** POST /endpoints/{id}/rotate-secret -> {data: {endpoint, secret}}; the old secret signs too for 24 h. */
    async rotateSecret(id: string): Promise<WebhookSecretReveal> {
      const body = await http.authCall<unknown>("POST", `${endpointPath(id)}/rotate-secret`);
      return parsed(dataOf(WebhookSecretReveal), body, "Rotated secret").data;
    },
    /** GET /endpoints/{id}/deliveries?status=&cursor=&limit= -> newest first, with the next page's cursor. */
    async deliveries(
      id: string,
      options: { status?: DeliveryStatusFilter; cursor?: string | null; limit?: number; signal?: AbortSignal } = {},
    ): Promise<WebhookDeliveryPage> {
      const status = options.status === "all" ? undefined : options.status;
      const body = await http.authCall<unknown>(
        "GET",
        withQuery(`${endpointPath(id)}/deliveries`, { status, cursor: options.cursor, limit: options.limit }),
        { signal: options.signal },
      );
      const page = parsed(DeliveryPage, body, "Delivery log");
      return { deliveries: page.data, nextCursor: page.next_cursor ?? null };
    },
    /** GET /endpoints/{id}/deliveries/{deliveryId}. */
    async delivery(id: string, deliveryId: string, signal?: AbortSignal): Promise<WebhookDelivery> {
      const body = await http.authCall<unknown>("GET", `${endpointPath(id)}/deliveries/${segment(deliveryId)}`, {
        signal,
      });
      return parsed(dataOf(WebhookDelivery), body, "Delivery").data;
    },
    /** POST .../deliveries/{deliveryId}/replay: one more attempt now, same webhook-id. */
    async replay(id: string, deliveryId: string): Promise<WebhookDelivery> {
      const body = await http.authCall<unknown>("POST", `${endpointPath(id)}/deliveries/${segment(deliveryId)}/replay`);
      return parsed(dataOf(WebhookDelivery), body, "Replayed delivery").data;
    },
    /**
     * POST /endpoints/{id}/replay {since} -> {data: {scheduled, has_more, next_since}}: the
     * deliveries since then, again, a bounded batch per call (has_more: call again from next_since).
     */
    async replaySince(id: string, since: string): Promise<ReplaySinceReply> {
      const body = await http.authCall<unknown>("POST", `${endpointPath(id)}/replay`, { body: { since } });
      return parsed(dataOf(ReplaySinceReply), body, "Replay").data;
    },
    /** POST /endpoints/{id}/test -> {data: delivery}: a webhook.test event, attempted at once. */
    async sendTest(id: string): Promise<WebhookDelivery> {
      const body = await http.authCall<unknown>("POST", `${endpointPath(id)}/test`);
      return parsed(dataOf(WebhookDelivery), body, "Test delivery").data;
    },
  };
}

export type WebhooksApi = ReturnType<typeof webhookEndpoints>;

/** Over the app's one client; loaded with the webhooks screen only, so the initial bundle does not carry it. */
export const webhooksApi: WebhooksApi = webhookEndpoints(appHttp);
