import { createRoute } from "@hono/zod-openapi";
import { EVENT_FEEDS, EventsPage, EVENTS_RETENTION_MS } from "@fintech/core/webhooks/model";
import { EVENTS_PAGE_MAX, EVENTS_PAGE_DEFAULT, MAX_TYPE_FILTER_ENTRIES } from "@fintech/core/webhooks/events";
import { authenticated, errors, jsonReply, queryParameter, TAGS } from "../http/openapi";
import { EXAMPLE_IDS } from "../http/example-ids";

/** The OpenAPI declaration of the events list (events.ts). */

const RETENTION_DAYS = EVENTS_RETENTION_MS / (24 * 3_600_000);
const EXAMPLE_EVENT_ID = "evt_0mkfa3b6smp5nd8ufuomhal2u00";

const pageExample = {
  data: [
    {
      id: EXAMPLE_EVENT_ID,
      type: "ledger.balanceUpdate",
      created_at: "2026-01-15T10:00:00.100Z",
      data: {
        type: "balanceUpdate",
        accountId: EXAMPLE_IDS.account,
        accountName: "Everyday",
        balance: "1250.00",
        available: "1150.00",
        changeAmount: "100.00",
        changeType: "CREDIT",
        operation: "post",
        currency: "USD",
        transactionId: EXAMPLE_IDS.journal,
        at: "2026-01-15T10:00:00.100Z",
        id: EXAMPLE_EVENT_ID,
        created_at: "2026-01-15T10:00:00.100Z",
      },
    },
  ],
  has_more: false,
  next_after: EXAMPLE_EVENT_ID,
};

export const listEventsRoute = createRoute({
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  "x-stability": "beta" as const,
  method: "get",
  path: "/",
  operationId: "listEvents",
  summary: "The caller's recent events, by stable id",
  description: `The caller's own ledger, KYC and payment events of the last ${RETENTION_DAYS} days, oldest first: each with its stable \`id\` (the one its SSE data and its webhook's \`webhook-id\` carry), its \`type\` (\`<feed>.<event>\`), \`created_at\` and \`data\` exactly as the feed's stream sends it. Page with \`after\` = the last id received (\`next_after\`); \`has_more\` says whether more are waiting now. A client that missed a webhook catches up here. Events of the last moments (the feeds' settle window) show once settled, so a page never changes once listed. Administrators list their own events, as anyone else.`,
  "x-complexity": "medium",
  security: authenticated,
  parameters: [
    {
      ...queryParameter(
        "type",
        `Only these event types: event types (\`payment.paymentCompleted\`) or \`<feed>.*\` with a feed of ${EVENT_FEEDS.join(", ")}; repeat the parameter or separate with commas (at most ${MAX_TYPE_FILTER_ENTRIES}). None: every type. An unknown one is a 400 \`invalid_event_type\`.`,
        { type: "array", items: { type: "string", maxLength: 64 } },
        ["payment.*", "ledger.balanceUpdate"],
      ),
      style: "form" as const,
      explode: true,
    },
    queryParameter(
      "after",
      `An event id: list the events after it (\`next_after\` of the previous page). One older than ${RETENTION_DAYS} days starts at the window's start; a malformed one is a 400 \`invalid_after\`.`,
      { type: "string", pattern: "^evt_[0-9a-z]{9}[0-9a-v]{16}[0-9a-z]{2}$" },
    ),
    queryParameter("limit", `Page size, 1 to ${EVENTS_PAGE_MAX} (default ${EVENTS_PAGE_DEFAULT})`, {
      type: "integer",
      minimum: 1,
      maximum: EVENTS_PAGE_MAX,
      default: EVENTS_PAGE_DEFAULT,
    }),
  ],
  responses: {
    200: jsonReply("A page of events, oldest first", "EventsPage", EventsPage, pageExample),
    ...errors({ 400: ["invalid_event_type", "invalid_after", "validation_error"], 401: true, 503: true }),
  },
});
