import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { issueStreamTicket } from "@fintech/core/auth/stream-ticket";
import { checkHealth } from "@fintech/core/health/service";
import { paymentFeedReader, paymentFeedScope, paymentStreamMessage, presentPaymentEvent, type PaymentFeedEvent } from "@fintech/core/payments/events";
import { CreatePaymentInput, CreatePaymentReply, PAYMENT_EVENT_TYPES, PAYMENT_STATUSES, type PaymentStatus } from "@fintech/core/payments/model";
import { initiatePayment } from "@fintech/core/payments/service";
import { listRails } from "@fintech/core/rails/store";
import type { AppEnv } from "../http/env";
import { idempotencyKey } from "../http/idempotency";
import { handleCommand } from "../http/commands";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, idempotencyKeyParameter, jsonReply, lastEventIdParameter, queryParameter, RETRY_AFTER, schemaRef, sseReply, STREAM_TICKET_SCHEME, TAGS } from "../http/openapi";
import { CURSOR_EVENT, feedOwner, requireStreamAuth, serveFeed } from "../http/sse";
import { parseWith } from "../http/validate";

/**
 * The payment streams and commands (spec 001 §3, §7): `/api/grpc/payment/*` (health, stream,
 * command) and `GET /v1/payments/stream`. Both streams read the payment outbox (the payments'
 * history, contract §2) through the common feed reader, as the KYC and ledger streams do, so
 * Last-Event-ID resumes without loss or repetition and browsers authenticate with stream tickets.
 * A status filter keeps the events whose payment was in one of the statuses once the change that
 * announced them committed (paymentInitiated: pending, paymentCompleted: completed, ...).
 */
export const PAYMENT_STREAM_PATH = "/api/grpc/payment/stream";

const UserId = z.string({ error: "userId is not valid" }).min(1, "userId is not valid").max(64, "userId is not valid");
const STATUS_FILTER_MESSAGE = `status filters must be ${PAYMENT_STATUSES.join(", ")} (any case)`;
/** Repeats beyond this are refused: four statuses exist, a longer list is not a real filter. */
const MAX_STATUS_VALUES = 16;

/**
 * A status filter as given: repeated (`status_filter=PENDING&status_filter=PROCESSING`, as the
 * spec's client sends it), comma-separated, or an array (commands); any case. Empty: no filter.
 */
const StatusFilter = z.preprocess(
  (value) => {
    const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((part) =>
      typeof part === "string" ? part.split(",").map((text) => text.trim().toLowerCase()).filter(Boolean) : [part],
    );
    return parts;
  },
  z
    .array(z.enum(PAYMENT_STATUSES, { error: STATUS_FILTER_MESSAGE }), { error: STATUS_FILTER_MESSAGE })
    .max(MAX_STATUS_VALUES, `Give at most ${MAX_STATUS_VALUES} status filters`)
    .transform((statuses) => [...new Set(statuses)]),
);

/** What one stream delivers: whose payments, and which statuses (none: all). */
interface Subscription {
  owner: string;
  statuses: PaymentStatus[];
}

const GrpcStreamQuery = z.object({ userId: UserId.optional(), statusFilter: StatusFilter });
const RestStreamQuery = z.object({ user_id: UserId.optional(), status_filter: StatusFilter });

function streamUrl({ owner, statuses }: Subscription): string {
  const params = new URLSearchParams({ userId: owner });
  if (statuses.length > 0) params.set("statusFilter", statuses.join(","));
  return `${PAYMENT_STREAM_PATH}?${params.toString()}`;
}

function servePayments(c: Context<AppEnv>, { owner, statuses }: Subscription): Response {
  const wanted = new Set(statuses);
  const matches = (event: PaymentFeedEvent) => wanted.size === 0 || wanted.has(event.status);
  return serveFeed(c, {
    scope: paymentFeedScope(owner),
    reader: paymentFeedReader(c.get("core"), owner),
    present: (event, at) => (matches(event) ? { event: event.type, data: presentPaymentEvent(event, at) } : null),
  });
}

/* ---------- commands ---------- */

const COMMANDS = ["initiatePayment", "subscribeToPayments"] as const;
type CommandName = (typeof COMMANDS)[number];

const SubscribeToPayments = z.object({ userId: UserId.optional(), statusFilter: StatusFilter });

const InitiatePaymentResult = CreatePaymentReply.extend({ replayed: z.boolean().describe("true when this replays an earlier command with the same Idempotency-Key") });
const SubscribeToPaymentsResult = z.object({
  streamUrl: z.string().describe("The stream URL with this subscription's filters; it starts at the moment it is opened"),
  ticket: z.string().describe("A stream ticket: append `&ticket=` for EventSource (bearer clients need none)"),
  ticketExpiresAt: z.string(),
});

async function runCommand(c: Context<AppEnv>, name: CommandName, args: Record<string, unknown>): Promise<z.infer<typeof InitiatePaymentResult> | z.infer<typeof SubscribeToPaymentsResult>> {
  const core = c.get("core");
  const auth = c.get("auth");
  switch (name) {
    case "initiatePayment": {
      // The payments service validates the input (userId must be the caller's) and honours the key.
      const result = await initiatePayment(core, auth, args, idempotencyKey(c));
      return { ...result.reply, replayed: result.replayed };
    }
    case "subscribeToPayments": {
      const input = parseWith(SubscribeToPayments, args);
      const owner = feedOwner(c, input.userId);
      const ticket = await issueStreamTicket(core, { id: auth.userId, role: auth.role });
      return { streamUrl: streamUrl({ owner, statuses: input.statusFilter }), ticket: ticket.ticket, ticketExpiresAt: ticket.expires_at };
    }
  }
}

/* ---------- health ---------- */

const PaymentHealthReply = z.object({
  success: z.boolean().describe("true when the payment store answers"),
  service: z.literal("payment-stream"),
  status: z.enum(["ok", "error"]),
  message: z.string(),
  time: z.string(),
  database: z.object({ connected: z.boolean(), latency_ms: z.number() }),
  rails: z.object({ active: z.number().int(), total: z.number().int() }).nullable().describe("Rails payments can be routed to (null when the store does not answer)"),
});

async function paymentHealth(c: Context<AppEnv>) {
  const core = c.get("core");
  const report = await checkHealth(core);
  const connected = report.database.connected;
  const rails = connected ? await listRails(core).catch(() => null) : null;
  const reply: z.infer<typeof PaymentHealthReply> = {
    success: connected,
    service: "payment-stream",
    status: connected ? "ok" : "error",
    message: connected ? "Payment service operational" : "Database unavailable",
    time: report.time,
    database: { connected, latency_ms: report.database.latency_ms },
    rails: rails ? { active: rails.filter((rail) => rail.status === "active").length, total: rails.length } : null,
  };
  if (!connected) c.header("Retry-After", "5");
  return c.json(reply, connected ? 200 : 503);
}

/* ---------- declarations ---------- */

const streaming = { tags: [TAGS.streaming] as [typeof TAGS.streaming], "x-stability": "stable" as const };

const PaymentCommandInput = z.union([
  z.object({ command: z.object({ initiatePayment: CreatePaymentInput }).strict() }),
  z.object({ command: z.object({ subscribeToPayments: SubscribeToPayments }).strict() }),
]);

const PaymentCommandReply = z.object({
  command: z.enum(COMMANDS),
  result: z.union([InitiatePaymentResult.describe("initiatePayment: as POST /v1/payments"), SubscribeToPaymentsResult.describe("subscribeToPayments")]),
});

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

const streamEvents = {
  [CURSOR_EVENT]: { name: "StreamCursorEvent", schema: z.object({ at: z.string() }).describe("Moves the resume point (its id) without an event: at the start, with heartbeats and at the end") },
  ...Object.fromEntries(PAYMENT_EVENT_TYPES.map((type) => [type, { name: `Payment${type[0]!.toUpperCase()}${type.slice(1)}Event`, schema: paymentStreamMessage(type) }])),
};

const STATUS_SCHEMA = { type: "array" as const, items: { type: "string" as const, enum: [...PAYMENT_STATUSES, ...PAYMENT_STATUSES.map((status) => status.toUpperCase())] } };
/** A repeatable status filter (`?x=PENDING&x=PROCESSING`; commas work too). */
const statusFilterParameter = (name: string) => ({
  ...queryParameter(name, "Only events whose payment was in one of these statuses after the change (repeat the parameter or separate with commas; any case). None: every event.", STATUS_SCHEMA, ["PENDING", "PROCESSING"]),
  style: "form" as const,
  explode: true,
});
const streamParameters = (userParameter: string, statusParameter: string) => [
  queryParameter(userParameter, "Whose payments (default: the caller's; another user's needs the admin role, else 403)", { type: "string", maxLength: 64 }),
  statusFilterParameter(statusParameter),
  queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
  lastEventIdParameter(),
];
const streamErrors = errors({ 400: ["validation_error", "invalid_event_id"], 401: ["unauthorized", "invalid_token", "invalid_api_key", "invalid_ticket"], 403: ["forbidden"], 503: true });
const STREAM_WIRE =
  "Each message's `event:` is the type and its `data:` is `{event: {<type>: {...}}, type, paymentId, status, at}` (spec 001 §3, §7; `status` is the payment's status after the change, lower case). The wire is the ledger stream's: `retry:`, a `cursor` event first, `id:` on every event (resume with Last-Event-ID or `?lastEventId=`), heartbeats, a clean end after a while. Browsers authenticate with `?ticket=` (POST /api/v1/auth/stream-ticket or the subscribeToPayments command), other clients with the bearer header.";

const healthRoute = createRoute({
  ...streaming,
  method: "get",
  path: "/health",
  operationId: "getPaymentStreamHealth",
  summary: "Payment streaming service health",
  description: "The connect check of the payment streaming client: a bearer token, then a real DescribeTable and the rails (how many are active). 503 with Retry-After when the store does not answer.",
  "x-complexity": "medium",
  security: authenticated,
  responses: {
    200: jsonReply("The payment service answers", "PaymentHealthReply", PaymentHealthReply, {
      success: true,
      service: "payment-stream",
      status: "ok",
      message: "Payment service operational",
      time: "2026-01-15T10:00:00.000Z",
      database: { connected: true, latency_ms: 4 },
      rails: { active: 6, total: 6 },
    }),
    503: jsonReply("The payment store cannot be reached", "PaymentHealthReply", PaymentHealthReply, {
      success: false,
      service: "payment-stream",
      status: "error",
      message: "Database unavailable",
      time: "2026-01-15T10:00:00.000Z",
      database: { connected: false, latency_ms: 2001 },
      rails: null,
    }, RETRY_AFTER),
    ...errors({ 401: true }),
  },
});

const grpcStreamRoute = createRoute({
  ...streaming,
  method: "get",
  path: "/stream",
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
  path: "/stream",
  operationId: "streamPayments",
  summary: "Payment event stream, REST path (server-sent events)",
  description: `The same stream as GET /api/grpc/payment/stream under the payments API's names: \`user_id\` and a repeatable \`status_filter\` (e.g. \`status_filter=PENDING&status_filter=PROCESSING\`). ${STREAM_WIRE}`,
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: streamParameters("user_id", "status_filter"),
  responses: { 200: sseReply("The event stream.", streamEvents, STREAM_EXAMPLE), ...streamErrors },
});

const commandRoute = createRoute({
  ...streaming,
  method: "post",
  path: "/command",
  operationId: "runPaymentCommand",
  summary: "Run a payment command",
  description:
    "One gRPC-style command per request, `{command: {<name>: {...arguments}}}`: `initiatePayment` (the body of POST /v1/payments; honours Idempotency-Key; `userId` must be the caller's) and `subscribeToPayments` (`userId`, `statusFilter` as a list: answers the stream URL with those filters and a stream ticket). A refusal is 'Payment command failed' with the `reason` and the status of the underlying error.",
  "x-complexity": "medium",
  security: authenticated,
  parameters: [idempotencyKeyParameter()],
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: schemaRef("PaymentCommandInput", PaymentCommandInput, "input"),
          example: { command: { subscribeToPayments: { userId: "8d2f3c4b-1a2b-4c3d-9e8f-7a6b5c4d3e2f", statusFilter: ["pending", "processing"] } } },
        },
      },
    },
  },
  responses: {
    200: jsonReply("The command's result", "PaymentCommandReply", PaymentCommandReply, {
      command: "subscribeToPayments",
      result: { streamUrl: `${PAYMENT_STREAM_PATH}?userId=8d2f3c4b-1a2b-4c3d-9e8f-7a6b5c4d3e2f&statusFilter=pending%2Cprocessing`, ticket: "eyJhbGciOiJIUzI1NiJ9.e30.c2ln", ticketExpiresAt: "2026-01-15T10:01:00.000Z" },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "unknown_command", "invalid_amount", "invalid_idempotency_key"],
      401: true,
      403: ["forbidden"],
      404: ["account_not_found"],
      409: ["idempotency_in_progress"],
      413: ["payload_too_large"],
      422: ["insufficient_funds", "idempotency_key_reused", "rail_not_available", "no_rail_available"],
      423: ["account_locked"],
      503: true,
    }),
  },
});

export const paymentStreamRoutes = new OpenAPIHono<AppEnv>()
  .openapi({ ...healthRoute, middleware: [requireAuth] as const }, paymentHealth)
  .openapi({ ...grpcStreamRoute, middleware: [requireStreamAuth] as const }, (c) => {
    const query = parseWith(GrpcStreamQuery, { userId: c.req.query("userId"), statusFilter: c.req.queries("statusFilter") });
    return servePayments(c, { owner: feedOwner(c, query.userId), statuses: query.statusFilter });
  })
  .openapi({ ...commandRoute, middleware: [requireAuth] as const }, (c) => handleCommand(c, COMMANDS, "Payment command failed", (name, args) => runCommand(c, name, args)));

/** Mounted at /v1/payments before the payments routes, so /v1/payments/stream is never taken for a payment id. */
export const paymentFeedRoutes = $(new OpenAPIHono<AppEnv>()).openapi({ ...restStreamRoute, middleware: [requireStreamAuth] as const }, (c) => {
  const query = parseWith(RestStreamQuery, { user_id: c.req.query("user_id"), status_filter: c.req.queries("status_filter") });
  return servePayments(c, { owner: feedOwner(c, query.user_id), statuses: query.status_filter });
});
