import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import {
  isTransactionEvent,
  ledgerFeedReader,
  presentLedgerEvent,
  type LedgerFeedEvent,
} from "@fintech/core/ledger/events";
import { withEventIdentity } from "@fintech/core/webhooks/events";
import { FEED_ROUTE } from "@fintech/core/events/feed-paths";
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
import { EXAMPLE_IDS } from "../http/example-ids";
import {
  CURSOR_EVENT,
  feedOwner,
  requireFeedAuth,
  serveFeed,
  FEED_CURSOR_EVENTS,
  FEED_END_EVENTS,
} from "../http/feed-response";
import { parseWith } from "../http/validate";
import { AccountIdList, IncludeTransactionsFlag, LEDGER_FEED_EVENTS, StatusList } from "./feeds";

/**
 * The ledger stream: `GET /api/grpc/ledger/stream`. The names are those of
 * docs/product/ledger-workspace.md#live-updates (a gRPC-style surface); the transport is SSE. The
 * commands beside it are in ledger-commands.ts, what both share (path, filters, events) in
 * feeds.ts.
 */

/** What one stream delivers; the subscribe commands (ledger-commands.ts) build a URL with exactly these. */
const StreamQuery = z.object({
  userId: z.string().min(1).max(64).optional(),
  accountIds: AccountIdList.optional(),
  statusFilter: StatusList.optional(),
  includeTransactions: IncludeTransactionsFlag.optional(),
});
type StreamQuery = z.infer<typeof StreamQuery>;

/** The filters of a subscription: accounts concerned, transaction statuses, transactions at all. */
function matches(query: StreamQuery, { event, accounts, transactionStatus }: LedgerFeedEvent): boolean {
  if (query.accountIds?.length && !accounts.some((account) => query.accountIds!.includes(account))) return false;
  if (isTransactionEvent(event)) {
    if (query.includeTransactions === "false") return false;
    if (query.statusFilter?.length && (!transactionStatus || !query.statusFilter.includes(transactionStatus)))
      return false;
  }
  return true;
}

/* ---------- declarations ---------- */

const STREAM_EXAMPLE = [
  "retry: 3000",
  "id: eyJ0IjoxNzY4NDcxMjAwMDAwfQ.c2ln",
  `event: ${CURSOR_EVENT}`,
  'data: {"at":"2026-01-15T10:00:00.000Z"}',
  "",
  "id: eyJ0IjoxNzY4NDcxMjAwMTAwfQ.c2ln",
  "event: balanceUpdate",
  `data: {"type":"balanceUpdate","accountId":"${EXAMPLE_IDS.account}","accountName":"Everyday","balance":"1250.00","available":"1150.00","changeAmount":"100.00","changeType":"DEBIT","operation":"create","currency":"USD","transactionId":"${EXAMPLE_IDS.journal}","at":"2026-01-15T10:00:00.100Z"}`,
  "",
  "",
].join("\n");

const streamRoute = createRoute({
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  "x-stability": "stable" as const,
  method: "get",
  path: FEED_ROUTE,
  operationId: "streamLedgerEvents",
  summary: "Ledger event stream (server-sent events)",
  description:
    "The signed-in user's ledger events as they commit, as `text/event-stream`: first `retry:` and a `cursor` event, then for each event its `id:` (the resume cursor), `event:` (its name) and `data:` (JSON). Quiet streams get a heartbeat comment with a `cursor` event; the stream ends cleanly after a while and the client reconnects with `Last-Event-ID`. Browsers authenticate with `?ticket=` (POST /api/v1/auth/stream-ticket), other clients with the bearer header. An administrator may watch another user's feed with `userId`.",
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: [
    ...queryParameters(StreamQuery, {
      userId: "Whose feed (default: the caller's; another user's needs the admin role, else 403)",
      accountIds: "Only events concerning these accounts (comma-separated, at most 50)",
      statusFilter: "Only transaction events in these statuses (comma-separated: draft, posted)",
      includeTransactions: "false leaves transaction events out",
    }),
    queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
    lastEventIdParameter(),
  ],
  responses: {
    200: sseReply(
      "The event stream.",
      { ...FEED_CURSOR_EVENTS, ...LEDGER_FEED_EVENTS, ...FEED_END_EVENTS },
      STREAM_EXAMPLE,
    ),
    ...errors({
      400: ["validation_error", "invalid_event_id"],
      401: ["unauthorized", "invalid_token", "invalid_api_key", "invalid_ticket"],
      403: ["forbidden"],
      429: ["too_many_streams"],
      503: true,
    }),
  },
});

export const ledgerFeedRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...streamRoute, middleware: [requireFeedAuth] as const },
  (c) => {
    const query = parseWith(StreamQuery, c.req.query());
    const owner = feedOwner(c, query.userId);
    return serveFeed(c, {
      scope: `ledger:${owner}`,
      reader: ledgerFeedReader(c.get("core"), owner),
      present: (entry, delivery) =>
        matches(query, entry)
          ? { event: entry.event.type, data: withEventIdentity(presentLedgerEvent(entry, delivery.at), delivery) }
          : null,
    });
  },
);
