import { z } from "zod";

/**
 * Webhooks and the events list (docs/webhooks.md): the shapes the API, the dispatcher, the web
 * app and the SDK share. Safe to import from the browser: zod and constants only.
 *
 * An event is one event of one of the user's feeds (ledger, KYC, payments) with its stable id
 * (events/event-id.ts); its type is `<feed>.<event name>`, as the live stream names it. The same
 * object is an item of `GET /api/v1/events` and the body of a webhook delivery.
 */

/** Every event type a user's feeds announce, by feed: the catalogue an endpoint subscribes from. */
export const EVENT_TYPES_BY_FEED = {
  ledger: [
    "balanceUpdate",
    "transactionCreated",
    "transactionStatusUpdate",
    "lowBalanceAlert",
    "reconciliationResult",
    "accountLocked",
    "accountUnlocked",
  ],
  kyc: [
    "verificationStarted",
    "documentUploaded",
    "documentVerified",
    "riskAssessmentUpdate",
    "verificationCompleted",
    "complianceAlert",
  ],
  payment: ["paymentInitiated", "paymentStatusUpdate", "paymentCompleted", "paymentError"],
} as const;

export type EventFeed = keyof typeof EVENT_TYPES_BY_FEED;
export const EVENT_FEEDS = Object.keys(EVENT_TYPES_BY_FEED) as EventFeed[];

export const EVENT_TYPES = EVENT_FEEDS.flatMap((feed) =>
  EVENT_TYPES_BY_FEED[feed].map((name) => `${feed}.${name}` as const),
);
export type EventType = (typeof EVENT_TYPES)[number];
export const EventType = z.enum(EVENT_TYPES as [EventType, ...EventType[]], {
  error: "Unknown event type; GET /api/v1/webhooks/event-types lists them",
});

/** The type of the event "Send test event" delivers; no feed announces it, nothing subscribes to it. */
export const TEST_EVENT_TYPE = "webhook.test";

/** The feed an event type belongs to. */
export const feedOfEventType = (type: EventType): EventFeed => type.slice(0, type.indexOf(".")) as EventFeed;

/** An event as the events list returns it and a webhook delivers it. */
export const PlatformEvent = z.object({
  id: z.string(),
  type: z.string(),
  created_at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type PlatformEvent = z.infer<typeof PlatformEvent>;

/** The published retry schedule: the wait before each attempt after the first (docs/webhooks.md#retries). */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;
/** Every attempt a delivery gets on its own: the first and one per entry of the schedule. */
export const MAX_AUTOMATIC_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** An attempt succeeds with a 2xx answer within this. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** An endpoint that has failed every attempt for this long is disabled and its owner told. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
/** After a secret rotation, deliveries are signed with the old secret too for this long. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3_600_000;
/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1_024;
/** How far back the events list reaches. */
export const EVENTS_RETENTION_MS = 30 * 24 * 3_600_000;

export const MAX_ENDPOINTS_PER_USER = 16;
export const MAX_URL_LENGTH = 2_048;
export const MAX_DESCRIPTION_LENGTH = 200;

export const ENDPOINT_STATUSES = ["enabled", "disabled"] as const;
/** Why an endpoint is disabled: by its owner, by a 410 Gone answer, or after failing for 5 days. */
export const DISABLED_REASONS = ["manual", "gone", "failing"] as const;

export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(EventType),
  status: z.enum(ENDPOINT_STATUSES),
  disabled_reason: z.enum(DISABLED_REASONS).nullable(),
  disabled_at: z.string().nullable(),
  /** Since when every attempt has failed (null while the last attempt succeeded). */
  failing_since: z.string().nullable(),
  /** The last characters of the current secret, so a user can tell which one a receiver holds. */
  secret_hint: z.string(),
  /** Until when deliveries are also signed with the secret before the last rotation. */
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreateWebhookEndpointInput = z.object({
  url: z
    .string({ error: "A URL is required" })
    .trim()
    .min(1, "A URL is required")
    .max(MAX_URL_LENGTH, `The URL must be at most ${MAX_URL_LENGTH} characters`),
  description: z
    .string({ error: "The description must be text" })
    .trim()
    .max(MAX_DESCRIPTION_LENGTH, `The description must be at most ${MAX_DESCRIPTION_LENGTH} characters`)
    .default(""),
  event_types: z.array(EventType).min(1, "Choose at least one event type").max(EVENT_TYPES.length),
  enabled: z.boolean().default(true),
});
export type CreateWebhookEndpointInput = z.infer<typeof CreateWebhookEndpointInput>;

/** A change: only the fields given change (no defaults here, so a missing field keeps its value). */
export const UpdateWebhookEndpointInput = z.object({
  url: CreateWebhookEndpointInput.shape.url.optional(),
  description: CreateWebhookEndpointInput.shape.description.unwrap().optional(),
  event_types: CreateWebhookEndpointInput.shape.event_types.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookEndpointInput = z.infer<typeof UpdateWebhookEndpointInput>;

/** The reply to a creation or a rotation: the only time the signing secret is shown. */
export const WebhookSecretReveal = z.object({
  endpoint: WebhookEndpoint,
  /** `whsec_` + base64, as the Standard Webhooks libraries take it. */
  secret: z.string(),
});
export type WebhookSecretReveal = z.infer<typeof WebhookSecretReveal>;

export const ATTEMPT_TRIGGERS = ["automatic", "replay", "test"] as const;

export const DeliveryAttempt = z.object({
  at: z.string(),
  trigger: z.enum(ATTEMPT_TRIGGERS),
  /** The receiver's status code; null when no answer came (refused, timed out, blocked). */
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  /** Why an attempt without an answer failed, in words (e.g. "timed out after 15 s"). */
  error: z.string().nullable(),
  /** The first RESPONSE_EXCERPT_BYTES of the answer's body, as text. */
  response_excerpt: z.string(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
/**
 * Why a delivery is failed: its automatic attempts ran out, its endpoint was disabled (by its
 * owner, a 410, or after failing for days) before it got through, or a replay or test send failed.
 */
export const DELIVERY_FAILURE_REASONS = ["retries_exhausted", "endpoint_disabled", "manual_attempt_failed"] as const;

export const WebhookDelivery = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  /** The event's id: the `webhook-id` header of every attempt, so a receiver can drop duplicates. */
  event_id: z.string(),
  event_type: z.string(),
  /** pending: another attempt is scheduled; failed: the schedule ran out or the endpoint is disabled. */
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(DeliveryAttempt),
  next_attempt_at: z.string().nullable(),
  /** Set when status is failed. */
  failure_reason: z.enum(DELIVERY_FAILURE_REASONS).nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ReplaySinceInput = z.object({
  /** Every delivery of this endpoint created at or after this instant is attempted again. */
  since: z.iso.datetime({ offset: true, error: "since must be an ISO 8601 date-time" }),
});
export type ReplaySinceInput = z.infer<typeof ReplaySinceInput>;

/** How far back a replay since a time reaches, and how many deliveries one call re-schedules. */
export const REPLAY_SINCE_MAX_AGE_MS = 30 * 24 * 3_600_000;
export const REPLAY_SINCE_MAX_DELIVERIES = 500;

export const ReplaySinceReply = z.object({
  /** Deliveries scheduled for another attempt now. */
  scheduled: z.number().int(),
  /** More deliveries matched than one call re-schedules: call again with `next_since`. */
  has_more: z.boolean(),
  next_since: z.string().nullable(),
});
export type ReplaySinceReply = z.infer<typeof ReplaySinceReply>;

export const DeliveryListQuery = z.object({
  status: z.enum(DELIVERY_STATUSES, { error: "status must be pending, succeeded or failed" }).optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(100, "limit must be at most 100")
    .default(25),
  /** The `next_cursor` of the previous page (opaque, signed). */
  cursor: z.string().optional(),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;

/** A page of `GET /api/v1/events`, oldest first; `next_after` is the `after` of the next page. */
export const EventsPage = z.object({
  data: z.array(PlatformEvent),
  has_more: z.boolean(),
  next_after: z.string().nullable(),
});
export type EventsPage = z.infer<typeof EventsPage>;

/**
 * The feeds a `type` filter of the events list touches. Each entry is an event type or
 * `<feed>.*`; no entry means every feed. An entry naming no feed touches none (the route refuses
 * it with a 400), so the scope check and the route agree on what is asked.
 */
export function feedsOfTypeFilter(entries: readonly string[]): EventFeed[] {
  if (entries.length === 0) return [...EVENT_FEEDS];
  const touched = new Set<EventFeed>();
  for (const entry of entries) {
    const feed = entry.slice(0, Math.max(entry.indexOf("."), 0));
    if ((EVENT_FEEDS as string[]).includes(feed)) touched.add(feed as EventFeed);
  }
  return EVENT_FEEDS.filter((feed) => touched.has(feed));
}
