import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { kycFeedReader, kycFeedScope, presentKycEvent } from "@fintech/core/kyc/events";
import { ledgerFeedReader, presentLedgerEvent } from "@fintech/core/ledger/events";
import { paymentFeedReader, paymentFeedScope, presentPaymentEvent } from "@fintech/core/payments/events";
import { FEED_ROUTE } from "@fintech/core/events/feed-paths";
import { withEventIdentity } from "@fintech/core/webhooks/events";
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
  combinedFeedIds,
  feedChannel,
  feedOwner,
  requireFeedAuth,
  serveFeeds,
  FEED_CURSOR_EVENTS,
  FEED_END_EVENTS,
  type FeedChannel,
} from "../http/feed-response";
import { parseWith } from "../http/validate";
import { KYC_FEED_EVENTS, LEDGER_FEED_EVENTS, PAYMENT_FEED_EVENTS } from "./feeds";
import { OPS_FEED_EVENT_DOCS, opsFeedChannel } from "./ops-feed";

/**
 * The live feed, one stream for several feeds: the browser keeps a single live connection for all
 * its tabs and screens (packages/web/src/live), so it asks for every feed its screens need at once:
 * `GET /api/grpc/live/stream?scopes=ledger,kyc,payment` (LIVE_FEED_PATH). Each event is the one its
 * own feed sends, named `<scope>.<event>` (`ledger.balanceUpdate`); the resume id carries each
 * feed's own cursor, so a reconnect with another set of scopes resumes those it had and starts the
 * new ones from now. The single feeds stay as they are for the SDK and API clients.
 */

export const LIVE_SCOPES = ["ledger", "kyc", "payment", "ops"] as const;
export type LiveScope = (typeof LIVE_SCOPES)[number];

const SCOPES_MESSAGE = `scopes must list one or more of ${LIVE_SCOPES.join(", ")}, separated by commas`;
/** Repeats beyond this are refused before reading: four scopes exist. */
const MAX_SCOPE_VALUES = 10;

const ScopeList = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean)
      : value,
  z
    .array(z.enum(LIVE_SCOPES, { error: SCOPES_MESSAGE }), { error: SCOPES_MESSAGE })
    .min(1, SCOPES_MESSAGE)
    .max(MAX_SCOPE_VALUES, SCOPES_MESSAGE)
    // In one order whatever the order asked, so the same set always makes the same resume id.
    .transform((scopes) => LIVE_SCOPES.filter((scope) => scopes.includes(scope))),
);
const StreamQuery = z.object({
  scopes: ScopeList,
  userId: z.string().min(1, "userId is not valid").max(64, "userId is not valid").optional(),
});

/** Each scope's feed as its own stream serves it, its events renamed `<scope>.<event>`. */
const channelOf: Record<LiveScope, (c: Context<AppEnv>, owner: string) => FeedChannel> = {
  ledger: (c, owner) =>
    feedChannel({
      scope: `ledger:${owner}`,
      reader: ledgerFeedReader(c.get("core"), owner),
      present: (entry, delivery) => ({
        event: `ledger.${entry.event.type}`,
        data: withEventIdentity(presentLedgerEvent(entry, delivery.at), delivery),
      }),
    }),
  kyc: (c, owner) => {
    const audience = c.get("auth").role === "admin" ? "reviewer" : "applicant";
    return feedChannel({
      scope: kycFeedScope(owner),
      reader: kycFeedReader(c.get("core"), owner, audience),
      present: (event, delivery) => ({
        event: `kyc.${event.type}`,
        data: withEventIdentity(presentKycEvent(event, delivery.at, audience), delivery),
      }),
    });
  },
  payment: (c, owner) =>
    feedChannel({
      scope: paymentFeedScope(owner),
      reader: paymentFeedReader(c.get("core"), owner),
      present: (event, delivery) => ({
        event: `payment.${event.type}`,
        data: withEventIdentity(presentPaymentEvent(event, delivery.at), delivery),
      }),
    }),
  // The whole platform's changes, not the owner's: administrators only (403 otherwise).
  ops: (c) => opsFeedChannel(c, "ops."),
};

/* ---------- declarations ---------- */

const scoped = (scope: LiveScope, events: Record<string, { name: string; schema: z.ZodType }>) =>
  Object.fromEntries(Object.entries(events).map(([event, entry]) => [`${scope}.${event}`, entry]));

const STREAM_EXAMPLE = [
  "retry: 2000",
  "id: ledger=eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4wMDBaIn0.c2ln,kyc=eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4wMDBaIn0.c2ln",
  `event: ${CURSOR_EVENT}`,
  'data: {"at":"2026-01-15T10:00:00.000Z"}',
  "",
  "id: ledger=eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4xMDBaIn0.c2ln,kyc=eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4wMDBaIn0.c2ln",
  "event: ledger.balanceUpdate",
  'data: {"type":"balanceUpdate","accountId":"acc_01","accountName":"Everyday","balance":"1250.00","available":"1150.00","changeAmount":"100.00","changeType":"CREDIT","operation":"create","currency":"USD","transactionId":"jrn_01","at":"2026-01-15T10:00:00.100Z"}',
  "",
  "",
].join("\n");

const streamRoute = createRoute({
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  "x-stability": "stable" as const,
  method: "get",
  path: FEED_ROUTE,
  operationId: "streamLiveEvents",
  summary: "Several feeds on one stream (server-sent events)",
  description:
    "The ledger, KYC and payment events of the user on one connection (what the web app uses, so a browser holds one stream whatever its tabs show). `scopes` lists the feeds (`ledger,kyc,payment,ops`, any order, at least one; `ops`, the administrators' feed of every journal, payment and KYC change, is 403 `admin_required` for anyone else). Each message's `event:` is `<scope>.<event>` (`ledger.balanceUpdate`, `kyc.documentVerified`, `payment.paymentCompleted`) and its `data:` is what that feed's own stream sends. The `id:` carries every feed's resume point: reconnect with it as Last-Event-ID (or `?lastEventId=`), with the same scopes or others; the feeds it had resume, new ones start from now. The wire is otherwise the ledger stream's. A user holds at most 5 open streams of any kind (429 `too_many_streams` with Retry-After beyond), and a stream ends with an `unauthorized` event once its session is signed out or its API key revoked.",
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: [
    ...queryParameters(StreamQuery, {
      scopes: "The feeds to carry, comma-separated: ledger, kyc, payment, ops (ops: administrators only)",
      userId: "Whose feeds (default: the caller's; another user's needs the admin role, else 403)",
    }),
    queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
    lastEventIdParameter(),
  ],
  responses: {
    200: sseReply(
      "The event stream.",
      {
        ...FEED_CURSOR_EVENTS,
        ...scoped("ledger", LEDGER_FEED_EVENTS),
        ...scoped("kyc", KYC_FEED_EVENTS),
        ...scoped("payment", PAYMENT_FEED_EVENTS),
        ...scoped("ops", OPS_FEED_EVENT_DOCS),
        ...FEED_END_EVENTS,
      },
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

export const liveFeedRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...streamRoute, middleware: [requireFeedAuth] as const },
  (c) => {
    const query = parseWith(StreamQuery, { scopes: c.req.queries("scopes")?.join(","), userId: c.req.query("userId") });
    const owner = feedOwner(c, query.userId);
    return serveFeeds(
      c,
      query.scopes.map((scope) => channelOf[scope](c, owner)),
      combinedFeedIds(query.scopes, LIVE_SCOPES),
    );
  },
);
