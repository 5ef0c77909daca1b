import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { kycFeedReader, kycFeedScope, presentKycEvent } from "@fintech/core/kyc/events";
import type { KycEventType } from "@fintech/core/kyc/model";
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
import { KYC_FEED_EVENTS, KycUserId } from "./feeds";

/**
 * The KYC stream (docs/product/kyc.md#live-updates): `GET /api/grpc/kyc/stream`. As the ledger's: a gRPC-style
 * surface, served as SSE, reading the KYC outbox (the submissions' history) through the common
 * feed reader, so Last-Event-ID resumes without loss or repetition. The health check and commands
 * beside it are in kyc-commands.ts, what both share (path, user id, events) in feeds.ts.
 */

const Flag = z.preprocess(
  (value) => (typeof value === "boolean" ? String(value) : value),
  z.enum(["true", "false"], { error: "includeRiskUpdates must be true or false" }),
);

const StreamQuery = z.object({
  userId: KycUserId.optional(),
  includeRiskUpdates: Flag.optional(),
});
type StreamQuery = z.infer<typeof StreamQuery>;

const RISK_EVENTS = new Set<KycEventType>(["riskAssessmentUpdate"]);

/* ---------- declarations ---------- */

const STREAM_EXAMPLE = [
  "retry: 3000",
  "id: eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4wMDBaIn0.c2ln",
  `event: ${CURSOR_EVENT}`,
  'data: {"at":"2026-01-15T10:00:00.000Z"}',
  "",
  "id: eyJwIjoiMjAyNi0wMS0xNVQxMDowMDowMC4xMDBaIn0.c2ln",
  "event: verificationStarted",
  `data: {"event":{"verificationStarted":{"verificationId":"${EXAMPLE_IDS.kycSubmission}","country":"IN","countryName":"India"}},"type":"verificationStarted","verificationId":"${EXAMPLE_IDS.kycSubmission}","at":"2026-01-15T10:00:00.100Z"}`,
  "",
  "",
].join("\n");

const streamRoute = createRoute({
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  "x-stability": "stable" as const,
  method: "get",
  path: FEED_ROUTE,
  operationId: "streamKycEvents",
  summary: "KYC event stream (server-sent events)",
  description:
    "The user's KYC events as they commit (docs/product/kyc.md#live-updates): each message's `event:` is the type and its `data:` is `{event: {<type>: {...}}, type, verificationId, at}`. The wire is the ledger stream's: `retry:`, a `cursor` event first, `id:` on every event (resume with Last-Event-ID or `?lastEventId=`), heartbeats, a clean end after a while. Browsers authenticate with `?ticket=` (POST /api/v1/auth/stream-ticket or the subscribeToVerification command), other clients with the bearer header. `userId` defaults to the caller; another user's feed needs the admin role (else 403). An applicant's own feed carries no risk signal: verificationStarted, documentUploaded, documentVerified and verificationCompleted only, none with a score; riskAssessmentUpdate and complianceAlert reach administrators only. `includeRiskUpdates=false` leaves riskAssessmentUpdate out of an administrator's feed too.",
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: [
    ...queryParameters(StreamQuery, {
      userId: "Whose KYC events (default: the caller's)",
      includeRiskUpdates: "false leaves riskAssessmentUpdate events out",
    }),
    queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
    lastEventIdParameter(),
  ],
  responses: {
    200: sseReply(
      "The event stream.",
      { ...FEED_CURSOR_EVENTS, ...KYC_FEED_EVENTS, ...FEED_END_EVENTS },
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

export const kycFeedRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...streamRoute, middleware: [requireFeedAuth] as const },
  (c) => {
    const query: StreamQuery = parseWith(StreamQuery, c.req.query());
    const owner = feedOwner(c, query.userId);
    const audience = c.get("auth").role === "admin" ? "reviewer" : "applicant";
    return serveFeed(c, {
      scope: kycFeedScope(owner),
      reader: kycFeedReader(c.get("core"), owner, audience),
      present: (event, delivery) =>
        query.includeRiskUpdates === "false" && RISK_EVENTS.has(event.type)
          ? null
          : { event: event.type, data: withEventIdentity(presentKycEvent(event, delivery.at, audience), delivery) },
    });
  },
);
