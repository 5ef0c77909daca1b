import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  DeliveryListQuery,
  MAX_AUTOMATIC_ATTEMPTS,
  REPLAY_SINCE_MAX_DELIVERIES,
  ReplaySinceInput,
  ReplaySinceReply,
  TEST_EVENT_TYPE,
  WebhookDelivery,
} from "@fintech/core/webhooks/model";
import { MANUAL_SEND_LIMIT, REPLAY_SINCE_LIMIT } from "@fintech/core/webhooks/deliveries";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, queryParameters, TAGS } from "../http/openapi";

/**
 * The OpenAPI declarations of the delivery log, replay and test routes (webhook-deliveries.ts),
 * mounted at /api/v1/webhooks. See docs/webhooks.md#the-delivery-log-replay-and-test-events.
 */

const tags = [TAGS.streaming] as [typeof TAGS.streaming];
const OWNER_ONLY =
  "The signed-in user's own endpoints only: another user's endpoint or delivery is a 404, as an unknown one.";

export const exampleDelivery: WebhookDelivery = {
  id: "wd_0mx1onjee8suthpfnaijh181u00pkaja5",
  endpoint_id: "we_abcdefghijklmnopqrstuvwxyz",
  event_id: "evt_0mx1onjee8suthpfnaijh181u00",
  event_type: "payment.paymentCompleted",
  status: "succeeded",
  attempts: [
    {
      at: "2026-11-29T10:15:02.412Z",
      trigger: "automatic",
      status_code: 500,
      latency_ms: 84,
      error: null,
      response_excerpt: "Internal Server Error",
    },
    {
      at: "2026-11-29T10:15:07.530Z",
      trigger: "automatic",
      status_code: 200,
      latency_ms: 41,
      error: null,
      response_excerpt: '{"received":true}',
    },
  ],
  next_attempt_at: null,
  failure_reason: null,
  created_at: "2026-11-29T10:15:02.390Z",
};

export const DeliveryListReply = z.object({
  data: z.array(WebhookDelivery),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export const DeliveryReply = z.object({ data: WebhookDelivery });
export const ReplaySinceReplyBody = z.object({ data: ReplaySinceReply });

const endpointIdParameter = pathParameter("id", "The endpoint's id (`we_...`)", exampleDelivery.endpoint_id);
const deliveryIdParameter = pathParameter("deliveryId", "The delivery's id (`wd_...`)", exampleDelivery.id);
const notFoundCodes = ["webhook_endpoint_not_found", "webhook_delivery_not_found"];
const readErrors = { 401: true, 403: ["insufficient_scope"], 503: true } as const;
const MANUAL = `Replays and test sends together: at most ${MANUAL_SEND_LIMIT.limit} per minute per user (429 with Retry-After).`;

export const listDeliveriesRoute = createRoute({
  method: "get",
  path: "/endpoints/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "An endpoint's delivery log",
  description: `The endpoint's deliveries of the last 30 days, newest event first, optionally in one state, with every attempt (time, trigger, status code, latency, up to 1 KB of the answer). Paged with \`cursor\` (the \`next_cursor\` of the previous page). ${OWNER_ONLY}`,
  tags,
  "x-stability": "beta",
  "x-complexity": "low",
  security: authenticated,
  parameters: [endpointIdParameter, ...queryParameters(DeliveryListQuery)],
  responses: {
    200: jsonReply("A page of deliveries", "WebhookDeliveryList", DeliveryListReply, {
      data: [exampleDelivery],
      has_more: false,
      next_cursor: null,
    }),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 404: ["webhook_endpoint_not_found"], ...readErrors }),
  },
});

export const getDeliveryRoute = createRoute({
  method: "get",
  path: "/endpoints/{id}/deliveries/{deliveryId}",
  operationId: "getWebhookDelivery",
  summary: "One delivery",
  description: `One delivery of the endpoint with its attempts. ${OWNER_ONLY}`,
  tags,
  "x-stability": "beta",
  "x-complexity": "low",
  security: authenticated,
  parameters: [endpointIdParameter, deliveryIdParameter],
  responses: {
    200: jsonReply("The delivery", "WebhookDeliveryReply", DeliveryReply, { data: exampleDelivery }),
    ...errors({ 404: notFoundCodes, ...readErrors }),
  },
});

const writeErrors = {
  401: true,
  403: ["insufficient_scope"],
  409: ["webhook_endpoint_disabled", "webhook_delivery_in_progress"],
  429: true,
  503: true,
} as const;

export const replayDeliveryRoute = createRoute({
  method: "post",
  path: "/endpoints/{id}/deliveries/{deliveryId}/replay",
  operationId: "replayWebhookDelivery",
  summary: "Send one delivery again now",
  description: `Attempts the delivery again at once (trigger \`replay\`), whatever its state: the same body and the same \`webhook-id\`, freshly signed. Answers with the delivery and its new attempt; a 2xx answer makes it succeeded. A disabled endpoint is a 409 \`webhook_endpoint_disabled\`. ${MANUAL} ${OWNER_ONLY}`,
  tags,
  "x-stability": "beta",
  "x-complexity": "medium",
  security: authenticated,
  parameters: [endpointIdParameter, deliveryIdParameter],
  responses: {
    200: jsonReply("The delivery with the replay's attempt", "WebhookDeliveryReply", DeliveryReply, {
      data: {
        ...exampleDelivery,
        attempts: [
          ...exampleDelivery.attempts,
          { ...exampleDelivery.attempts[1]!, at: "2026-11-29T11:02:00.000Z", trigger: "replay" },
        ],
      },
    }),
    ...errors({ 404: notFoundCodes, ...writeErrors }),
  },
});

export const replaySinceRoute = createRoute({
  method: "post",
  path: "/endpoints/{id}/replay",
  operationId: "replayWebhookDeliveriesSince",
  summary: "Send every delivery since a time again",
  description: `Schedules another attempt, now, of every delivery of the endpoint whose event happened at or after \`since\` (at most 30 days back, else 400 \`replay_since_too_old\`), oldest first, at most ${REPLAY_SINCE_MAX_DELIVERIES} per call: \`has_more\` says more matched, and \`next_since\` is where the next call starts. A succeeded or failed delivery gets one more attempt (trigger \`replay\`); a pending one is brought forward on its schedule of ${MAX_AUTOMATIC_ATTEMPTS} automatic attempts. At most ${REPLAY_SINCE_LIMIT.limit} calls per hour per user. ${OWNER_ONLY}`,
  tags,
  "x-stability": "beta",
  "x-complexity": "high",
  security: authenticated,
  parameters: [endpointIdParameter],
  request: { body: jsonBody("ReplaySinceInput", ReplaySinceInput, { since: "2026-11-29T00:00:00Z" }) },
  responses: {
    200: jsonReply("How many deliveries were scheduled", "ReplaySinceReply", ReplaySinceReplyBody, {
      data: { scheduled: 42, has_more: false, next_since: null },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "replay_since_too_old"],
      404: ["webhook_endpoint_not_found"],
      413: ["payload_too_large"],
      ...writeErrors,
    }),
  },
});

export const sendTestEventRoute = createRoute({
  method: "post",
  path: "/endpoints/{id}/test",
  operationId: "sendWebhookTestEvent",
  summary: "Send a test event",
  description: `Delivers a \`${TEST_EVENT_TYPE}\` event (a fresh event id; its data says it is a test) to the endpoint at once, signed like every delivery, and answers with the delivery and its attempt. A test delivery is not retried on its own; replay sends it again. ${MANUAL} ${OWNER_ONLY}`,
  tags,
  "x-stability": "beta",
  "x-complexity": "medium",
  security: authenticated,
  parameters: [endpointIdParameter],
  responses: {
    200: jsonReply("The test delivery with its attempt", "WebhookDeliveryReply", DeliveryReply, {
      data: {
        ...exampleDelivery,
        id: "wd_0mx1qbxhc0123456789abcdef00pkaja5",
        event_id: "evt_0mx1qbxhc0123456789abcdef00",
        event_type: TEST_EVENT_TYPE,
        attempts: [{ ...exampleDelivery.attempts[1]!, trigger: "test" }],
      },
    }),
    ...errors({ 404: ["webhook_endpoint_not_found"], ...writeErrors }),
  },
});
