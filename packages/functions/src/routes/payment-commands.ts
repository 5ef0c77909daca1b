import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { issueStreamTicket } from "@fintech/core/auth/stream-ticket";
import { checkHealth } from "@fintech/core/health/service";
import { CreatePaymentInput, CreatePaymentReply } from "@fintech/core/payments/model";
import { initiatePayment } from "@fintech/core/payments/service";
import { listRails } from "@fintech/core/rails/store";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey } from "../http/idempotency";
import { handleCommand } from "../http/commands";
import { requireAuth } from "../http/middleware";
import {
  authenticated,
  errors,
  idempotencyKeyParameter,
  jsonReply,
  RETRY_AFTER,
  schemaRef,
  TAGS,
} from "../http/openapi";
import { feedOwner } from "../http/feed-response";
import { parseWith } from "../http/validate";
import { PAYMENT_FEED_PATH } from "@fintech/core/events/feed-paths";
import { PaymentStatusFilter, paymentFeedUrl, PaymentUserId } from "./feeds";

/**
 * The payment streaming client's health check and commands (docs/product/payments.md#calls): `GET
 * /api/grpc/payment/health` and `POST /api/grpc/payment/command`, served by the API beside the
 * payment stream (payment-feed.ts) at the same prefix.
 */

/* ---------- commands ---------- */

const COMMANDS = ["initiatePayment", "subscribeToPayments"] as const;
type CommandName = (typeof COMMANDS)[number];

const SubscribeToPayments = z.object({ userId: PaymentUserId.optional(), statusFilter: PaymentStatusFilter });

const InitiatePaymentResult = CreatePaymentReply.extend({
  replayed: z.boolean().describe("true when this replays an earlier command with the same Idempotency-Key"),
});
const SubscribeToPaymentsResult = z.object({
  streamUrl: z
    .string()
    .describe("The stream URL with this subscription's filters; it starts at the moment it is opened"),
  ticket: z.string().describe("A stream ticket: append `&ticket=` for EventSource (bearer clients need none)"),
  ticketExpiresAt: z.string(),
});

async function runCommand(
  c: Context<AppEnv>,
  name: CommandName,
  args: Record<string, unknown>,
): Promise<z.infer<typeof InitiatePaymentResult> | z.infer<typeof SubscribeToPaymentsResult>> {
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
      const ticket = await issueStreamTicket(core, { id: auth.userId, role: auth.role }, auth.credential);
      return {
        streamUrl: paymentFeedUrl({ owner, statuses: input.statusFilter }),
        ticket: ticket.ticket,
        ticketExpiresAt: ticket.expires_at,
      };
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
  rails: z
    .object({ active: z.number().int(), total: z.number().int() })
    .nullable()
    .describe("Rails payments can be routed to (null when the store does not answer)"),
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
  result: z.union([
    InitiatePaymentResult.describe("initiatePayment: as POST /v1/payments"),
    SubscribeToPaymentsResult.describe("subscribeToPayments"),
  ]),
});

const healthRoute = createRoute({
  ...streaming,
  method: "get",
  path: "/health",
  operationId: "getPaymentStreamHealth",
  summary: "Payment streaming service health",
  description:
    "The connect check of the payment streaming client: a bearer token, then a real DescribeTable and the rails (how many are active). 503 with Retry-After when the store does not answer.",
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
    503: jsonReply(
      "The payment store cannot be reached",
      "PaymentHealthReply",
      PaymentHealthReply,
      {
        success: false,
        service: "payment-stream",
        status: "error",
        message: "Database unavailable",
        time: "2026-01-15T10:00:00.000Z",
        database: { connected: false, latency_ms: 2001 },
        rails: null,
      },
      RETRY_AFTER,
    ),
    ...errors({ 401: true }),
  },
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
          example: {
            command: {
              subscribeToPayments: {
                userId: "8d2f3c4b-1a2b-4c3d-9e8f-7a6b5c4d3e2f",
                statusFilter: ["pending", "processing"],
              },
            },
          },
        },
      },
    },
  },
  responses: {
    200: jsonReply("The command's result", "PaymentCommandReply", PaymentCommandReply, {
      command: "subscribeToPayments",
      result: {
        streamUrl: `${PAYMENT_FEED_PATH}?userId=8d2f3c4b-1a2b-4c3d-9e8f-7a6b5c4d3e2f&statusFilter=pending%2Cprocessing`,
        ticket: "eyJhbGciOiJIUzI1NiJ9.e30.c2ln",
        ticketExpiresAt: "2026-01-15T10:01:00.000Z",
      },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "unknown_command", "invalid_amount", "invalid_idempotency_key"],
      401: true,
      403: ["forbidden", "kyc_required"],
      404: ["account_not_found"],
      409: ["idempotency_in_progress"],
      413: ["payload_too_large"],
      422: [
        "insufficient_funds",
        "idempotency_key_reused",
        "rail_not_available",
        "no_rail_available",
        "payee_cannot_receive",
        "limit_exceeded",
      ],
      423: ["account_locked"],
      429: ["rate_limited"],
      503: true,
    }),
  },
});

/**
 * Mounted before the stream (payment-feed.ts), the commands after it, so the document lists the
 * prefix's routes in that order.
 */
export const paymentStreamHealthRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...healthRoute, middleware: [requireAuth] as const },
  paymentHealth,
);

export const paymentCommandRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...commandRoute, middleware: [requireAuth] as const },
  (c) => handleCommand(c, COMMANDS, "Payment command failed", (name, args) => runCommand(c, name, args)),
);
