import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { FEED_ROUTE } from "@fintech/core/events/feed-paths";
import { OPS_FEED_KINDS } from "@fintech/core/ops/keys";
import type { Delivery } from "@fintech/core/events/feed";
import { OPS_FEED_SCOPE, opsFeedReader, type OpsFeedRow } from "@fintech/core/ops/feed";
import { OPS_FEED_EVENTS, OPS_MESSAGES } from "@fintech/core/ops/model";
import { forbidden } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/app-context";
import {
  authenticated,
  errors,
  lastEventIdParameter,
  queryParameter,
  queryParameters,
  sseReply,
  STREAM_TICKET_SCHEME,
  TAGS,
} from "../http/openapi";
import {
  CURSOR_EVENT,
  feedChannel,
  requireFeedAuth,
  serveFeed,
  FEED_CURSOR_EVENTS,
  FEED_END_EVENTS,
  type FeedChannel,
} from "../http/feed-response";
import { parseWith } from "../http/validate";

/**
 * The administrators' ops feed (docs/money-operations.md#ops-console): `GET /api/grpc/ops/stream`,
 * every journal, payment and KYC submission as it changes, one event per change named after its
 * table (`journal`, `payment`, `kyc`) with the row the console shows. On the common feed
 * mechanism (cursor, resume, tickets, heartbeats, leases); the browser takes it as the `ops` scope
 * of its one live stream (live-feed.ts).
 */

/** Only administrators watch the whole platform: anyone else is refused before a stream opens. */
export function assertOpsWatcher(c: Context<AppEnv>): void {
  if (c.get("auth").role !== "admin") throw forbidden(OPS_MESSAGES.adminOnly, "admin_required");
}

/**
 * An ops event's data: the row, with the event's stable id as `event_id` and its commit instant as
 * `created_at` (docs/webhooks.md#event-ids). The row's own `id` is its journal's, payment's or
 * submission's, which the console merges rows by, so the event id takes another name here.
 */
function opsEventData(row: OpsFeedRow, delivery: Pick<Delivery<OpsFeedRow>, "id" | "at">) {
  return { ...row, event_id: delivery.id, created_at: delivery.at };
}

const OpsEventIdentity = z.object({
  event_id: z.string().describe("The event's stable id: the same on every connection (docs/webhooks.md#event-ids)"),
  created_at: z.string().describe("When the change committed (ISO 8601)"),
});

/** The ops feed as a channel of a stream (this route's, or the live stream's `ops` scope). */
export function opsFeedChannel(c: Context<AppEnv>, eventPrefix = ""): FeedChannel {
  assertOpsWatcher(c);
  return feedChannel({
    scope: OPS_FEED_SCOPE,
    reader: opsFeedReader(c.get("core")),
    present: (row, delivery) => ({ event: `${eventPrefix}${row.table}`, data: opsEventData(row, delivery) }),
  });
}

export const OPS_FEED_EVENT_DOCS = {
  journal: { name: "OpsJournalEvent", schema: OPS_FEED_EVENTS.journal.extend(OpsEventIdentity.shape) },
  payment: { name: "OpsPaymentEvent", schema: OPS_FEED_EVENTS.payment.extend(OpsEventIdentity.shape) },
  kyc: { name: "OpsKycEvent", schema: OPS_FEED_EVENTS.kyc.extend(OpsEventIdentity.shape) },
};

const TABLES_MESSAGE = `tables must list one or more of ${OPS_FEED_KINDS.join(", ")}, separated by commas`;
const StreamQuery = z.object({
  tables: z
    .preprocess(
      (value) =>
        typeof value === "string"
          ? value
              .split(",")
              .map((part) => part.trim())
              .filter(Boolean)
          : value,
      z
        .array(z.enum(OPS_FEED_KINDS, { error: TABLES_MESSAGE }), { error: TABLES_MESSAGE })
        .min(1, TABLES_MESSAGE)
        .max(OPS_FEED_KINDS.length * 2, TABLES_MESSAGE),
    )
    .optional(),
});

const STREAM_EXAMPLE = [
  "retry: 2000",
  "id: eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4wMDBaIn0.c2ln",
  `event: ${CURSOR_EVENT}`,
  'data: {"at":"2026-01-15T10:00:00.000Z"}',
  "",
  "id: eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4xMDBaIn0.c2ln",
  "event: payment",
  'data: {"table":"payment","id":"pay_01","change":"initiated","railId":"ach","rail":"ACH","status":"pending","amount":"40.00","currency":"USD","userId":"usr_02","at":"2026-01-15T10:00:00.100Z"}',
  "",
  "",
].join("\n");

const streamRoute = createRoute({
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  "x-stability": "beta" as const,
  method: "get",
  path: FEED_ROUTE,
  operationId: "streamOpsEvents",
  summary: "Ops feed: every journal, payment and KYC change (server-sent events, administrators)",
  description:
    "Every journal, payment and KYC submission of the platform as it changes, for the ops console. Each message's `event:` is the table (`journal`, `payment`, `kyc`) and its `data:` the row as the console shows it (the overview's row shape). `tables` narrows the feed. A journal or submission is announced in its latest state: a reader away during several quick changes of one gets the last. The wire is the ledger stream's (`retry:`, a `cursor` event first, `id:` on every event, resume with Last-Event-ID or `?lastEventId=`, heartbeats, a clean end). Administrators only: anyone else is answered 403 `admin_required`.",
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: [
    ...queryParameters(StreamQuery, {
      tables: "The tables to carry, comma-separated: journal, payment, kyc (default: all)",
    }),
    queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
    lastEventIdParameter(),
  ],
  responses: {
    200: sseReply(
      "The event stream.",
      { ...FEED_CURSOR_EVENTS, ...OPS_FEED_EVENT_DOCS, ...FEED_END_EVENTS },
      STREAM_EXAMPLE,
    ),
    ...errors({
      400: ["validation_error", "invalid_event_id"],
      401: ["unauthorized", "invalid_token", "invalid_api_key", "invalid_ticket"],
      403: ["admin_required"],
      429: ["too_many_streams"],
      503: true,
    }),
  },
});

export const opsFeedRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...streamRoute, middleware: [requireFeedAuth] as const },
  (c) => {
    assertOpsWatcher(c);
    const query = parseWith(StreamQuery, { tables: c.req.queries("tables")?.join(",") });
    const tables = query.tables ? new Set(query.tables) : null;
    return serveFeed(c, {
      scope: OPS_FEED_SCOPE,
      reader: opsFeedReader(c.get("core"), tables ? OPS_FEED_KINDS.filter((kind) => tables.has(kind)) : undefined),
      present: (row, delivery) => ({ event: row.table, data: opsEventData(row, delivery) }),
    });
  },
);
