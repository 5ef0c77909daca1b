import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import {
  paymentFeedReader,
  paymentFeedScope,
  presentPaymentEvent,
  type PaymentFeedEvent,
} from "@fintech/core/payments/events";
import { PAYMENT_STATUSES } from "@fintech/core/payments/model";
import { FEED_ROUTE, PAYMENT_FEED_PATH } from "@fintech/core/events/feed-paths";
import { withEventIdentity } from "@fintech/core/webhooks/events";
import type { AppEnv } from "../http/app-context";
import {
  authenticated,
  errors,
  lastEventIdParameter,
  queryParameter,
  sseReply,
  STREAM_TICKET_SCHEME,
  TAGS,
} from "../http/openapi";
import {
  CURSOR_EVENT,
  feedOwner,
  requireFeedAuth,
  serveFeed,
  FEED_CURSOR_EVENTS,
  FEED_END_EVENTS,
} from "../http/feed-response";
import { parseWith } from "../http/validate";
import { PAYMENT_FEED_EVENTS, PaymentStatusFilter, PaymentUserId, type PaymentSubscription } from "./feeds";

/**
 * The payment streams (docs/product/payments.md#payment-events): `GET /api/grpc/payment/stream` and
 * `GET /v1/payments/stream`. Both read the payment outbox (the payments' history,
 * docs/payments-and-rails.md#the-payment-feeds) through the common feed reader, as the KYC and
 * ledger streams do, so Last-Event-ID resumes without loss or repetition and browsers authenticate
 * with stream tickets. A status filter keeps the events whose payment was in one of the statuses
 * once the change that announced them committed (paymentInitiated: pending, paymentCompleted:
 * completed, ...). The health check and commands beside them are in payment-commands.ts, what both
 * share (path, filters, events) in feeds.ts.
 */

const GrpcStreamQuery = z.object({ userId: PaymentUserId.optional(), statusFilter: PaymentStatusFilter });
const RestStreamQuery = z.object({ user_id: PaymentUserId.optional(), status_filter: PaymentStatusFilter });

function servePayments(c: Context<AppEnv>, { owner, statuses }: PaymentSubscription): Promise<Response> {
  const wanted = new Set(statuses);
  const matches = (event: PaymentFeedEvent) => wanted.size === 0 || wanted.has(event.status);
  return serveFeed(c, {
    scope: paymentFeedScope(owner),
    reader: paymentFeedReader(c.get("core"), owner),
    present: (event, delivery) =>
      matches(event)
        ? { event: event.type, data: withEventIdentity(presentPaymentEvent(event, delivery.at), delivery) }
        : null,
  });
}

/* ---------- declarations ---------- */

const streaming = { tags: [TAGS.streaming] as [typeof TAGS.streaming], "x-stability": "stable" as const };

const EXAMPLE_PAYMENT_ID = "3f0c8a52-6d1b-4e7a-9c2f-5b8d7e6a1c40";
const STREAM_EXAMPLE = [
  "retry: 3000",
  "id: eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4wMDBaIn0.c2ln",
  `event: ${CURSOR_EVENT}`,
  'data: {"at":"2026-01-15T10:00:00.000Z"}',
  "",
  "id: eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4xMDBaIn0.c2ln",
  "event: paymentStatusUpdate",
  `data: {"event":{"paymentStatusUpdate":{"paymentId":"${EXAMPLE_PAYMENT_ID}","status":"processing","message":"Sent on ACH"}},"type":"paymentStatusUpdate","paymentId":"${EXAMPLE_PAYMENT_ID}","status":"processing","at":"2026-01-15T10:00:00.100Z"}`,
  "",
  "",
].join("\n");

const streamEvents = { ...FEED_CURSOR_EVENTS, ...PAYMENT_FEED_EVENTS, ...FEED_END_EVENTS };

const STATUS_SCHEMA = {
  type: "array" as const,
  items: {
    type: "string" as const,
    enum: [...PAYMENT_STATUSES, ...PAYMENT_STATUSES.map((status) => status.toUpperCase())],
  },
};
/** A repeatable status filter (`?x=PENDING&x=PROCESSING`; commas work too). */
const statusFilterParameter = (name: string) => ({
  ...queryParameter(
    name,
    "Only events whose payment was in one of these statuses after the change (repeat the parameter or separate with commas; any case). None: every event.",
    STATUS_SCHEMA,
    ["PENDING", "PROCESSING"],
  ),
  style: "form" as const,
  explode: true,
});
const streamParameters = (userParameter: string, statusParameter: string) => [
  queryParameter(
    userParameter,
    "Whose payments (default: the caller's; another user's needs the admin role, else 403)",
    { type: "string", maxLength: 64 },
  ),
  statusFilterParameter(statusParameter),
  queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
  lastEventIdParameter(),
];
const streamErrors = errors({
  400: ["validation_error", "invalid_event_id"],
  401: ["unauthorized", "invalid_token", "invalid_api_key", "invalid_ticket"],
  403: ["forbidden"],
  429: ["too_many_streams"],
  503: true,
});
const STREAM_WIRE =
  "Each message's `event:` is the type and its `data:` is `{event: {<type>: {...}}, type, paymentId, status, at}` (docs/product/payments.md#payment-events; `status` is the payment's status after the change, lower case). The wire is the ledger stream's: `retry:`, a `cursor` event first, `id:` on every event (resume with Last-Event-ID or `?lastEventId=`), heartbeats, a clean end after a while. Browsers authenticate with `?ticket=` (POST /api/v1/auth/stream-ticket or the subscribeToPayments command), other clients with the bearer header.";

const grpcStreamRoute = createRoute({
  ...streaming,
  method: "get",
  path: FEED_ROUTE,
  operationId: "streamPaymentEvents",
  summary: "Payment event stream (server-sent events)",
  description: `The user's payment events as they commit: paymentInitiated, paymentStatusUpdate, paymentCompleted, paymentError. ${STREAM_WIRE}`,
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: streamParameters("userId", "statusFilter"),
  responses: { 200: sseReply("The event stream.", streamEvents, STREAM_EXAMPLE), ...streamErrors },
});

const restStreamRoute = createRoute({
  ...streaming,
  method: "get",
  path: FEED_ROUTE,
  operationId: "streamPayments",
  summary: "Payment event stream, REST path (server-sent events)",
  description: `The same stream as GET ${PAYMENT_FEED_PATH} under the payments API's names: \`user_id\` and a repeatable \`status_filter\` (e.g. \`status_filter=PENDING&status_filter=PROCESSING\`). ${STREAM_WIRE}`,
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: streamParameters("user_id", "status_filter"),
  responses: { 200: sseReply("The event stream.", streamEvents, STREAM_EXAMPLE), ...streamErrors },
});

export const paymentFeedRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...grpcStreamRoute, middleware: [requireFeedAuth] as const },
  (c) => {
    const query = parseWith(GrpcStreamQuery, {
      userId: c.req.query("userId"),
      statusFilter: c.req.queries("statusFilter"),
    });
    return servePayments(c, { owner: feedOwner(c, query.userId), statuses: query.statusFilter });
  },
);

/** Mounted at /v1/payments before the payments routes, so /v1/payments/stream is never taken for a payment id. */
export const paymentRestFeedRoutes = $(new OpenAPIHono<AppEnv>()).openapi(
  { ...restStreamRoute, middleware: [requireFeedAuth] as const },
  (c) => {
    const query = parseWith(RestStreamQuery, {
      user_id: c.req.query("user_id"),
      status_filter: c.req.queries("status_filter"),
    });
    return servePayments(c, { owner: feedOwner(c, query.user_id), statuses: query.status_filter });
  },
);
