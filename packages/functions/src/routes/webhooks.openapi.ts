import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  CreateWebhookEndpointInput,
  EVENT_FEEDS,
  EventType,
  MAX_ENDPOINTS_PER_USER,
  PREVIOUS_SECRET_VALID_MS,
  UpdateWebhookEndpointInput,
  WebhookEndpoint,
  WebhookSecretReveal,
} from "@fintech/core/webhooks/model";
import {
  authenticated,
  errors,
  idempotencyKeyParameter,
  jsonBody,
  jsonReply,
  pathParameter,
  REPLAYED_HEADER,
  TAGS,
} from "../http/openapi";

/**
 * The OpenAPI declarations of the webhook endpoint routes (webhooks.ts): the event-type
 * catalogue, and the caller's endpoints with their secrets (docs/webhooks.md#endpoints-and-secrets).
 */

const webhooks = {
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  security: authenticated,
  "x-stability": "beta" as const,
};

export const EventTypeListReply = z.object({
  data: z.array(z.object({ type: EventType, feed: z.enum(EVENT_FEEDS), description: z.string() })),
});
export const WebhookEndpointListReply = z.object({ data: z.array(WebhookEndpoint) });
export const WebhookEndpointReply = z.object({ data: WebhookEndpoint });
export const WebhookSecretReply = z.object({ message: z.string(), data: WebhookSecretReveal });

export const ENDPOINT_ID_EXAMPLE = "we_k3j5m7n2p4q6r5s2t4v6w5x2y4";
const endpointExample: WebhookEndpoint = {
  id: ENDPOINT_ID_EXAMPLE,
  url: "https://hooks.example.com/fintech",
  description: "Order service",
  event_types: ["payment.paymentCompleted", "payment.paymentError"],
  status: "enabled",
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  secret_hint: "Xk4=",
  previous_secret_expires_at: null,
  created_at: "2026-11-27T16:05:00.000Z",
  updated_at: "2026-11-27T16:05:00.000Z",
};
const secretExample = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7hN0mmkhXk4=";
const endpointId = pathParameter("id", "The endpoint's id (`we_...`)", ENDPOINT_ID_EXAMPLE);
const URL_RULES =
  "The URL must be https (http and loopback addresses only on the embedded local stack), carry no user name or password, and resolve only to public addresses: a private, loopback, link-local, carrier-grade NAT, multicast or reserved address, or a cloud metadata name, is refused (400 `webhook_url_forbidden`), as is a name that does not resolve (400 `webhook_url_unresolvable`).";
const NOT_FOUND = "An id that is not one of yours is a 404 `webhook_endpoint_not_found`, as an unknown one is.";
const URL_CODES = ["webhook_url_invalid", "webhook_url_insecure", "webhook_url_forbidden", "webhook_url_unresolvable"];

export const listEventTypesRoute = createRoute({
  ...webhooks,
  method: "get",
  path: "/event-types",
  operationId: "listWebhookEventTypes",
  summary: "List webhook event types",
  description:
    "Every event type an endpoint can subscribe to: `<feed>.<event>`, as the live streams name them, with its feed and what it announces.",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The catalogue", "WebhookEventTypeListReply", EventTypeListReply, {
      data: [
        { type: "payment.paymentCompleted", feed: "payment", description: "A payment completed." },
        { type: "payment.paymentError", feed: "payment", description: "A payment failed, with the reason." },
      ],
    }),
    ...errors({ 401: true, 403: ["insufficient_scope"], 503: true }),
  },
});

export const listEndpointsRoute = createRoute({
  ...webhooks,
  method: "get",
  path: "/endpoints",
  operationId: "listWebhookEndpoints",
  summary: "List webhook endpoints",
  description: "The caller's webhook endpoints, oldest first; never their secrets (only `secret_hint`).",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The endpoints", "WebhookEndpointListReply", WebhookEndpointListReply, { data: [endpointExample] }),
    ...errors({ 401: true, 403: ["insufficient_scope"], 503: true }),
  },
});

export const createEndpointRoute = createRoute({
  ...webhooks,
  method: "post",
  path: "/endpoints",
  operationId: "createWebhookEndpoint",
  summary: "Register a webhook endpoint",
  description: `Registers a receiver for the event types given; the reply carries its signing secret (\`whsec_...\`), shown this once. ${URL_RULES} At most ${MAX_ENDPOINTS_PER_USER} endpoints per user (409 \`webhook_endpoint_limit\`). With an Idempotency-Key, a retry within 24 h answers the same endpoint and secret.`,
  "x-complexity": "medium",
  parameters: [idempotencyKeyParameter()],
  request: {
    body: jsonBody("CreateWebhookEndpointInput", CreateWebhookEndpointInput, {
      url: "https://hooks.example.com/fintech",
      description: "Order service",
      event_types: ["payment.paymentCompleted", "payment.paymentError"],
    }),
  },
  responses: {
    201: jsonReply(
      "The endpoint and its secret, shown once",
      "WebhookSecretReply",
      WebhookSecretReply,
      {
        message: "Webhook endpoint created: copy the signing secret now, it is not shown again",
        data: { endpoint: endpointExample, secret: secretExample },
      },
      REPLAYED_HEADER,
    ),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_idempotency_key", ...URL_CODES],
      401: true,
      403: ["insufficient_scope"],
      409: ["webhook_endpoint_limit"],
      413: ["payload_too_large"],
      422: ["idempotency_key_reused"],
      503: true,
    }),
  },
});

export const getEndpointRoute = createRoute({
  ...webhooks,
  method: "get",
  path: "/endpoints/{id}",
  operationId: "getWebhookEndpoint",
  summary: "Get a webhook endpoint",
  description: `One of the caller's endpoints, with its status (a disabled endpoint says why: \`manual\`, \`gone\` after a 410 answer, \`failing\` after failing for 5 days). ${NOT_FOUND}`,
  "x-complexity": "low",
  parameters: [endpointId],
  responses: {
    200: jsonReply("The endpoint", "WebhookEndpointReply", WebhookEndpointReply, { data: endpointExample }),
    ...errors({ 401: true, 403: ["insufficient_scope"], 404: ["webhook_endpoint_not_found"], 503: true }),
  },
});

export const updateEndpointRoute = createRoute({
  ...webhooks,
  method: "patch",
  path: "/endpoints/{id}",
  operationId: "updateWebhookEndpoint",
  summary: "Change a webhook endpoint",
  description: `Changes the fields given: \`url\` (checked as at registration), \`description\`, \`event_types\`, \`enabled\`. Enabling a disabled endpoint clears its reason and failing streak. ${URL_RULES} ${NOT_FOUND}`,
  "x-complexity": "medium",
  parameters: [endpointId],
  request: {
    body: jsonBody("UpdateWebhookEndpointInput", UpdateWebhookEndpointInput, { enabled: false }),
  },
  responses: {
    200: jsonReply("The endpoint as it is now", "WebhookEndpointReply", WebhookEndpointReply, {
      data: {
        ...endpointExample,
        status: "disabled",
        disabled_reason: "manual",
        disabled_at: "2026-11-28T09:00:00.000Z",
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", ...URL_CODES],
      401: true,
      403: ["insufficient_scope"],
      404: ["webhook_endpoint_not_found"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const deleteEndpointRoute = createRoute({
  ...webhooks,
  method: "delete",
  path: "/endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: `Deletes one of the caller's endpoints: nothing more is delivered to it. ${NOT_FOUND}`,
  "x-complexity": "medium",
  parameters: [endpointId],
  responses: {
    204: { description: "Deleted" },
    ...errors({ 401: true, 403: ["insufficient_scope"], 404: ["webhook_endpoint_not_found"], 503: true }),
  },
});

export const rotateSecretRoute = createRoute({
  ...webhooks,
  method: "post",
  path: "/endpoints/{id}/rotate-secret",
  operationId: "rotateWebhookEndpointSecret",
  summary: "Rotate a webhook endpoint's secret",
  description: `A new signing secret, shown this once. The previous one keeps signing beside it (two \`v1,\` signatures in \`webhook-signature\`) for ${PREVIOUS_SECRET_VALID_MS / 3_600_000} h (\`previous_secret_expires_at\`), so receivers can switch without missing a delivery; rotating again within that time retires the oldest at once. ${NOT_FOUND}`,
  "x-complexity": "medium",
  parameters: [endpointId],
  responses: {
    200: jsonReply("The endpoint and its new secret, shown once", "WebhookSecretReply", WebhookSecretReply, {
      message: "Signing secret rotated: copy it now, it is not shown again",
      data: {
        endpoint: { ...endpointExample, secret_hint: "Qm8=", previous_secret_expires_at: "2026-11-28T16:05:00.000Z" },
        secret: "whsec_p2Vh6cJ0bL1rZyQnW8tE3uA5sD7fG9hK2mN4oP6qQm8=",
      },
    }),
    ...errors({ 401: true, 403: ["insufficient_scope"], 404: ["webhook_endpoint_not_found"], 503: true }),
  },
});
