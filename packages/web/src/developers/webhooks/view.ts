import { z } from "zod";
import {
  CreateWebhookEndpointInput,
  EVENT_FEEDS,
  EventType,
  FAILING_DISABLE_AFTER_MS,
  MAX_DESCRIPTION_LENGTH,
  PREVIOUS_SECRET_VALID_MS,
  RETRY_SCHEDULE_MS,
  type EventFeed,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "@fintech/core/webhooks/model";
import { ApiError } from "../../api/errors";
import type { EventTypeInfo, ReplaySinceReply, WebhookEndpointChanges } from "../../api/webhooks";
import { formatDateTime } from "../../ledger/format";

/** What the webhooks screen shows of endpoints and deliveries; pure, so the screen and its tests agree. */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How long after a rotation the old secret still signs, in words ("24 hours"). */
export const PREVIOUS_SECRET_WINDOW = `${PREVIOUS_SECRET_VALID_MS / HOUR_MS} hours`;
const FAILING_DAYS = FAILING_DISABLE_AFTER_MS / DAY_MS;

/** How long a failing delivery keeps being retried, from the published schedule: "about 28 hours". */
export function retryWindowLabel(schedule: readonly number[] = RETRY_SCHEDULE_MS): string {
  const total = schedule.reduce((sum, wait) => sum + wait, 0);
  return `about ${Math.round(total / HOUR_MS)} hours`;
}

export const FEED_LABELS: Record<EventFeed, string> = { ledger: "Ledger", kyc: "KYC", payment: "Payments" };

/** "Enabled", or why the endpoint is disabled. */
export function endpointStatusLabel(endpoint: Pick<WebhookEndpoint, "status" | "disabled_reason">): string {
  if (endpoint.status === "enabled") return "Enabled";
  switch (endpoint.disabled_reason) {
    case "gone":
      return "Disabled: the endpoint answered 410 Gone";
    case "failing":
      return `Disabled after ${FAILING_DAYS} days of failed deliveries`;
    default:
      return "Disabled by you";
  }
}

/** Disabled by the server, not by its owner: these are what the notice at the top of the screen names. */
export const automaticallyDisabled = (endpoints: readonly WebhookEndpoint[]): WebhookEndpoint[] =>
  endpoints.filter((endpoint) => endpoint.status === "disabled" && endpoint.disabled_reason !== "manual");

/** The visible end of the current secret, marked as cut short: "…abcd". */
export const secretHintLabel = (hint: string): string => `…${hint}`;

/** "Failing since Mar 14, 2026, 12:00 PM": shown while every attempt fails and the endpoint is still on. */
export function failingWarning(endpoint: Pick<WebhookEndpoint, "status" | "failing_since">): string | null {
  if (endpoint.status !== "enabled" || !endpoint.failing_since) return null;
  return `Every delivery has failed since ${formatDateTime(endpoint.failing_since)}; after ${FAILING_DAYS} days of failures the endpoint is disabled.`;
}

export const subscribedLabel = (count: number): string => `${count} event type${count === 1 ? "" : "s"}`;

/** "Succeeded", "Retrying - next at <time>", "Failed" (or "Pending" while the first attempt is under way). */
export function deliveryStatusLabel(
  delivery: Pick<WebhookDelivery, "status" | "next_attempt_at" | "attempts">,
): string {
  if (delivery.status === "succeeded") return "Succeeded";
  if (delivery.status === "failed") return "Failed";
  if (delivery.attempts.length === 0 || !delivery.next_attempt_at) return "Pending";
  return `Retrying - next at ${formatDateTime(delivery.next_attempt_at)}`;
}

const FAILURE_REASONS: Record<NonNullable<WebhookDelivery["failure_reason"]>, string> = {
  retries_exhausted: "every scheduled attempt failed",
  endpoint_disabled: "the endpoint is disabled",
  manual_attempt_failed: "the attempt failed",
};

/** Why a failed delivery stopped, in words, or null when it did not fail (or the server did not say). */
export const deliveryFailureReason = (delivery: Pick<WebhookDelivery, "status" | "failure_reason">): string | null =>
  delivery.status === "failed" && delivery.failure_reason ? FAILURE_REASONS[delivery.failure_reason] : null;

/** The toast after "Replay since": how many were scheduled, and whether an older part remains. */
export function replaySinceMessage(reply: ReplaySinceReply): string {
  const count = reply.scheduled === 1 ? "1 delivery" : `${reply.scheduled} deliveries`;
  const more =
    reply.has_more && reply.next_since
      ? `; more remain from ${formatDateTime(reply.next_since)}: replay again from there`
      : "";
  return `${count} scheduled again${more}`;
}

export type DeliveryTone = "success" | "warning" | "danger";
export const deliveryTone = (delivery: Pick<WebhookDelivery, "status">): DeliveryTone =>
  delivery.status === "succeeded" ? "success" : delivery.status === "failed" ? "danger" : "warning";

/** While any delivery on screen waits for an attempt, the log is asked again. */
export const hasPendingDelivery = (deliveries: readonly Pick<WebhookDelivery, "status">[]): boolean =>
  deliveries.some((delivery) => delivery.status === "pending");

/** An attempt's outcome in a few words: "200", "No answer: timed out after 15 s". */
export function attemptOutcome(attempt: WebhookDelivery["attempts"][number]): string {
  if (attempt.status_code !== null) return String(attempt.status_code);
  return `No answer${attempt.error ? `: ${attempt.error}` : ""}`;
}

export const TRIGGER_LABELS: Record<WebhookDelivery["attempts"][number]["trigger"], string> = {
  automatic: "Automatic",
  replay: "Replay",
  test: "Test send",
};

export interface FeedGroup {
  feed: EventFeed;
  label: string;
  types: EventTypeInfo[];
}

/** The catalogue grouped by feed, in the feeds' own order; types of a feed this screen does not know are left out. */
export function groupEventTypes(catalogue: readonly EventTypeInfo[]): FeedGroup[] {
  return EVENT_FEEDS.map((feed) => ({
    feed,
    label: FEED_LABELS[feed],
    types: catalogue.filter((info) => info.feed === feed),
  })).filter((group) => group.types.length > 0);
}

/** "select all of this feed": ticks every type of the group, or clears them all when all are ticked. */
export function toggleFeed(selected: readonly string[], group: FeedGroup): string[] {
  const types = group.types.map((info) => info.type as string);
  const allTicked = types.every((type) => selected.includes(type));
  if (allTicked) return selected.filter((type) => !types.includes(type));
  return [...selected, ...types.filter((type) => !selected.includes(type))];
}

export type FeedTickState = "all" | "some" | "none";
export function feedTickState(selected: readonly string[], group: FeedGroup): FeedTickState {
  const ticked = group.types.filter((info) => selected.includes(info.type)).length;
  return ticked === 0 ? "none" : ticked === group.types.length ? "all" : "some";
}

/** The add and edit form: the server's own rules, so both say the same words. */
export const endpointFormSchema = z.object({
  url: CreateWebhookEndpointInput.shape.url,
  description: z.string().trim().max(MAX_DESCRIPTION_LENGTH, `At most ${MAX_DESCRIPTION_LENGTH} characters`),
  event_types: z.array(EventType, { error: "Choose at least one event type" }).min(1, "Choose at least one event type"),
  enabled: z.boolean(),
});
export type EndpointFormInput = z.input<typeof endpointFormSchema>;
export type EndpointFormValues = z.output<typeof endpointFormSchema>;

export const emptyEndpointForm = (): EndpointFormInput => ({
  url: "",
  description: "",
  event_types: [],
  enabled: true,
});

export const endpointFormOf = (endpoint: WebhookEndpoint): EndpointFormInput => ({
  url: endpoint.url,
  description: endpoint.description,
  event_types: [...endpoint.event_types],
  enabled: endpoint.status === "enabled",
});

/** The PATCH body: only what changed, so an edit never rewrites what it did not touch. */
export function endpointChanges(endpoint: WebhookEndpoint, values: EndpointFormValues): WebhookEndpointChanges {
  const changes: WebhookEndpointChanges = {};
  if (values.url !== endpoint.url) changes.url = values.url;
  if (values.description !== endpoint.description) changes.description = values.description;
  const before = [...endpoint.event_types].sort();
  const after = [...values.event_types].sort();
  if (before.join() !== after.join()) changes.event_types = values.event_types;
  if (values.enabled !== (endpoint.status === "enabled")) changes.enabled = values.enabled;
  return changes;
}

/** A refusal the URL field answers for (invalid, not https, a forbidden address, no such name); others go under the form. */
export function urlFieldError(error: unknown): string | null {
  return error instanceof ApiError && error.code?.startsWith("webhook_url_") ? error.message : null;
}

/** The receiver code the secret panel shows: verify with the Standard Webhooks library, as docs/webhooks.md does. */
export const VERIFY_SNIPPET = `import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.WEBHOOK_SECRET!); // whsec_...
// rawBody: the request body exactly as received, before any JSON parsing.
const event = wh.verify(rawBody, {
  "webhook-id": req.headers["webhook-id"],
  "webhook-timestamp": req.headers["webhook-timestamp"],
  "webhook-signature": req.headers["webhook-signature"],
});`;

/** The screen's own path; an endpoint opens as ?endpoint=<id> on it. */
export const WEBHOOKS_PATH = "/developers/webhooks";

export const endpointLink = (id: string): string => `${WEBHOOKS_PATH}?endpoint=${encodeURIComponent(id)}`;

/** The specification the deliveries follow: how any receiver, in any language, verifies one. */
export const STANDARD_WEBHOOKS_URL = "https://www.standardwebhooks.com/";
