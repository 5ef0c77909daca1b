import { randomBytes, randomUUID } from "node:crypto";
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { badRequest, conflict, isAppError, notFound } from "../shared/errors";
import { queryPage, type Page } from "../shared/pagination";
import { consumeRateLimit, type RateLimitRule } from "../shared/rate-limit";
import {
  DELIVERY_SORT_PREFIX,
  DUE_SHARDS,
  deliveryIdOf,
  deliveryKey,
  deliveryPartition,
  deliverySortFrom,
  dueIndex,
  duePartition,
  isDeliveryIdOf,
} from "./delivery-keys";
import { getEndpoint, recordAttemptOutcome, signingSecrets, type StoredEndpoint } from "./endpoints";
import {
  type ATTEMPT_TRIGGERS,
  DELIVERY_TIMEOUT_MS,
  type DeliveryAttempt,
  type DeliveryListQuery,
  EVENTS_RETENTION_MS,
  type PlatformEvent,
  REPLAY_SINCE_MAX_AGE_MS,
  REPLAY_SINCE_MAX_DELIVERIES,
  type ReplaySinceReply,
  TEST_EVENT_TYPE,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "./model";
import { nextRetryDelayMs } from "./retry";
import { sendWebhook } from "./sender";
import { signedHeaders } from "./signing";

/**
 * Webhook deliveries (docs/webhooks.md#delivery): one item per event and endpoint, recorded by the
 * dispatcher before it moves the endpoint's cursor, attempted by whoever claims it, and kept for
 * the delivery log.
 *
 * - Recording is a conditional put on a key derived from the endpoint and the event id, so a
 *   dispatcher that dies after recording and before moving its cursor records the same delivery
 *   again as a no-op: nothing is lost and nothing is stored twice.
 * - The body is stored once, at recording: every attempt sends the same bytes, with the event id
 *   as `webhook-id`, so a receiver drops a duplicate by that id.
 * - An attempt is made under a claim (claim_owner, claim_until: a conditional update, like the
 *   payments' step leases): two dispatchers, or a dispatcher and a replay, never attempt one
 *   delivery at once, and a claim left by a dead process runs out after CLAIM_MS.
 * - While a delivery waits for an automatic attempt it is in the due index (gsi3, sharded); the
 *   update that records an attempt puts it back with the next time or takes it out.
 */

/** A claim outlives the longest attempt (the send's time limit) with room for the store writes. */
export const CLAIM_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** The delivery log keeps the manual attempts (replays, test sends) of a delivery up to this many. */
export const MAX_MANUAL_ATTEMPTS_KEPT = 20;
/** Deliveries stay in the log (and can be replayed) as long as events stay listable. */
const DELIVERY_RETENTION_MS = EVENTS_RETENTION_MS;

/** Replays and test sends make requests to the owner's servers at once: a few per minute. */
export const MANUAL_SEND_LIMIT: RateLimitRule = { scope: "webhook-manual-send", limit: 30, windowSeconds: 60 };
export const REPLAY_SINCE_LIMIT: RateLimitRule = { scope: "webhook-replay-since", limit: 10, windowSeconds: 3_600 };

export const DELIVERY_MESSAGES = {
  notFound: "Delivery not found",
  endpointDisabled: "This endpoint is disabled: enable it to replay deliveries or send test events",
  inProgress: "This delivery is being attempted right now; try again in a few seconds",
  sinceTooOld: "since must be within the last 30 days",
} as const;

type Trigger = (typeof ATTEMPT_TRIGGERS)[number];
type Item = Record<string, unknown>;

const iso = (ms: number) => new Date(ms).toISOString();
const isConditionFailure = (error: unknown) => isAwsError(error, "ConditionalCheckFailedException");

export const deliveryNotFound = () => notFound(DELIVERY_MESSAGES.notFound, "webhook_delivery_not_found");
const endpointDisabled = () => conflict(DELIVERY_MESSAGES.endpointDisabled, "webhook_endpoint_disabled");

/** The delivery log's view of an item. */
export function toWebhookDelivery(item: Item): WebhookDelivery {
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: String(item.id),
    endpoint_id: String(item.endpoint_id),
    event_id: String(item.event_id),
    event_type: String(item.event_type),
    status: item.status as WebhookDelivery["status"],
    attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
    next_attempt_at: item.status === "pending" ? text(item.next_attempt_at) : null,
    failure_reason:
      item.status === "failed" ? ((item.failure_reason as WebhookDelivery["failure_reason"]) ?? null) : null,
    created_at: String(item.created_at),
  };
}

/* ---------- recording ---------- */

function deliveryItem(endpoint: Pick<StoredEndpoint, "id" | "owner_id">, event: PlatformEvent, now: Date): Item {
  const id = deliveryIdOf(endpoint.id, event.id);
  return {
    ...deliveryKey(endpoint.id, id),
    entity: "webhook_delivery",
    id,
    endpoint_id: endpoint.id,
    owner_id: endpoint.owner_id,
    event_id: event.id,
    event_type: event.type,
    body: JSON.stringify(event),
    attempts: [],
    automatic_attempts: 0,
    created_at: now.toISOString(),
    expires_at: Math.floor((now.getTime() + DELIVERY_RETENTION_MS) / 1000),
  };
}

/**
 * Records the delivery of `event` to `endpoint`, due at once. False when it was recorded before
 * (by this or another dispatcher): the store holds one delivery per endpoint and event.
 */
export async function recordDelivery(
  ctx: CoreContext,
  endpoint: Pick<StoredEndpoint, "id" | "owner_id">,
  event: PlatformEvent,
): Promise<boolean> {
  const now = ctx.clock();
  const item = deliveryItem(endpoint, event, now);
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: {
          ...item,
          status: "pending",
          next_attempt_at: now.toISOString(),
          ...dueIndex(String(item.id), now.toISOString()),
        },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/* ---------- claims ---------- */

const CLAIM_FREE = "(attribute_not_exists(claim_until) OR claim_until <= :now)";

/**
 * Claims a delivery for one attempt. `due`: only while it waits for an automatic attempt that is
 * due; `manual`: whatever its state (a replay). Null when it is gone, claimed by another run or
 * (for `due`) no longer due.
 */
async function claimDelivery(
  ctx: CoreContext,
  endpointId: string,
  deliveryId: string,
  mode: "due" | "manual",
  token: string,
): Promise<Item | null> {
  const now = ctx.clock();
  const due = mode === "due" ? " AND #status = :pending AND next_attempt_at <= :now" : "";
  try {
    const reply = await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: deliveryKey(endpointId, deliveryId),
        UpdateExpression: "SET claim_owner = :token, claim_until = :until",
        ConditionExpression: `attribute_exists(pk) AND ${CLAIM_FREE}${due}`,
        ExpressionAttributeNames: mode === "due" ? { "#status": "status" } : undefined,
        ExpressionAttributeValues: {
          ":token": token,
          ":until": iso(now.getTime() + CLAIM_MS),
          ":now": now.toISOString(),
          ...(mode === "due" ? { ":pending": "pending" } : {}),
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return reply.Attributes ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** The delivery's state after an attempt, written under the claim (and the claim let go). */
interface Outcome {
  status: WebhookDelivery["status"];
  nextAttemptAt: string | null;
  failureReason: WebhookDelivery["failure_reason"];
  attempts: DeliveryAttempt[];
  automaticAttempts: number;
}

async function finishAttempt(ctx: CoreContext, item: Item, token: string, outcome: Outcome): Promise<Item | null> {
  const deliveryId = String(item.id);
  const due = outcome.status === "pending" && outcome.nextAttemptAt !== null;
  const set = [
    "#status = :status",
    "attempts = :attempts",
    "automatic_attempts = :automatic",
    "next_attempt_at = :next",
    "failure_reason = :reason",
    ...(due ? ["gsi3pk = :duePk", "gsi3sk = :dueSk"] : []),
  ];
  const remove = ["claim_owner", "claim_until", "replay_requested", ...(due ? [] : ["gsi3pk", "gsi3sk"])];
  const index = due ? dueIndex(deliveryId, outcome.nextAttemptAt!) : null;
  try {
    const reply = await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: deliveryKey(String(item.endpoint_id), deliveryId),
        UpdateExpression: `SET ${set.join(", ")} REMOVE ${remove.join(", ")}`,
        ConditionExpression: "claim_owner = :token",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":token": token,
          ":status": outcome.status,
          ":attempts": outcome.attempts,
          ":automatic": outcome.automaticAttempts,
          ":next": outcome.nextAttemptAt,
          ":reason": outcome.failureReason,
          ...(index ? { ":duePk": index.gsi3pk, ":dueSk": index.gsi3sk } : {}),
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return reply.Attributes ?? null;
  } catch (error) {
    // The claim ran out and another run took the delivery over: its record stands.
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** The automatic attempts (at most MAX_AUTOMATIC_ATTEMPTS) and the latest manual ones. */
export function keptAttempts(attempts: DeliveryAttempt[]): DeliveryAttempt[] {
  const manual = attempts.filter((attempt) => attempt.trigger !== "automatic");
  const droppedManual = new Set(manual.slice(0, Math.max(0, manual.length - MAX_MANUAL_ATTEMPTS_KEPT)));
  return attempts.filter((attempt) => !droppedManual.has(attempt));
}

/* ---------- attempts ---------- */

export interface AttemptOptions {
  /** The jitter's random source, in [0, 1) (tests fix it). */
  random?: () => number;
}

/** The endpoint a delivery goes to, or null when it was deleted. */
async function endpointOf(ctx: CoreContext, item: Item): Promise<WebhookEndpoint | null> {
  try {
    return await getEndpoint(ctx, String(item.owner_id), String(item.endpoint_id));
  } catch (error) {
    if (isAppError(error) && error.status === 404) return null;
    throw error;
  }
}

/**
 * Makes one attempt of a claimed delivery and records it. An automatic attempt of a delivery whose
 * endpoint is disabled (or deleted) sends nothing: the delivery fails as `endpoint_disabled`.
 */
async function attemptClaimed(
  ctx: CoreContext,
  item: Item,
  token: string,
  trigger: Trigger,
  options: AttemptOptions,
): Promise<Item | null> {
  const endpoint = await endpointOf(ctx, item);
  const attempts = (item.attempts as DeliveryAttempt[] | undefined) ?? [];
  const automaticAttempts = Number(item.automatic_attempts ?? 0);
  if (endpoint?.status !== "enabled") {
    return finishAttempt(ctx, item, token, {
      status: "failed",
      nextAttemptAt: null,
      failureReason: "endpoint_disabled",
      attempts,
      automaticAttempts,
    });
  }
  const body = String(item.body);
  const at = ctx.clock();
  const secrets = await signingSecrets(ctx, endpoint.id);
  const headers = signedHeaders(secrets, String(item.event_id), at, body);
  const result = await sendWebhook(ctx, { url: endpoint.url, headers, body });
  const attempt: DeliveryAttempt = {
    at: at.toISOString(),
    trigger,
    status_code: result.status_code,
    latency_ms: Math.max(0, Math.round(result.latency_ms)),
    error: result.error,
    response_excerpt: result.response_excerpt,
  };
  const ok = result.status_code !== null && result.status_code >= 200 && result.status_code < 300;
  const gone = result.status_code === 410;
  const automatic = trigger === "automatic";
  const made = automaticAttempts + (automatic ? 1 : 0);
  const base = { attempts: keptAttempts([...attempts, attempt]), automaticAttempts: made };
  let outcome: Outcome;
  if (ok) outcome = { ...base, status: "succeeded", nextAttemptAt: null, failureReason: null };
  else if (gone) outcome = { ...base, status: "failed", nextAttemptAt: null, failureReason: "endpoint_disabled" };
  else if (automatic) {
    const wait = nextRetryDelayMs(made, options.random);
    outcome =
      wait === null
        ? { ...base, status: "failed", nextAttemptAt: null, failureReason: "retries_exhausted" }
        : { ...base, status: "pending", nextAttemptAt: iso(at.getTime() + wait), failureReason: null };
  } else if (item.status === "pending" && item.replay_requested !== true && typeof item.next_attempt_at === "string") {
    // A manual attempt of a delivery still on its schedule leaves the schedule as it was.
    outcome = { ...base, status: "pending", nextAttemptAt: item.next_attempt_at, failureReason: null };
  } else outcome = { ...base, status: "failed", nextAttemptAt: null, failureReason: "manual_attempt_failed" };

  const written = await finishAttempt(ctx, item, token, outcome);
  // Every answer tells whether the endpoint works: a success clears its failing time, a failure
  // starts it, a 410 disables it, and so does failing for FAILING_DISABLE_AFTER_MS.
  const { disabled } = await recordAttemptOutcome(ctx, endpoint.id, { ok, gone, at });
  if (disabled) await stopPendingDeliveries(ctx, endpoint.id);
  return written;
}

/**
 * One attempt of a delivery now, by `trigger`: `automatic` only when it is due; `replay` and `test`
 * whatever its state. 409 webhook_delivery_in_progress while another run attempts it. The caller
 * checks the owner (replayDelivery, sendTestEvent).
 */
export async function attemptDelivery(
  ctx: CoreContext,
  endpointId: string,
  deliveryId: string,
  trigger: Trigger,
  options: AttemptOptions = {},
): Promise<WebhookDelivery> {
  if (!isDeliveryIdOf(endpointId, deliveryId)) throw deliveryNotFound();
  const token = randomUUID();
  const claimed = await claimDelivery(ctx, endpointId, deliveryId, trigger === "automatic" ? "due" : "manual", token);
  if (!claimed) {
    const current = await readDelivery(ctx, endpointId, deliveryId);
    if (!current) throw deliveryNotFound();
    if (trigger === "automatic") return toWebhookDelivery(current);
    throw conflict(DELIVERY_MESSAGES.inProgress, "webhook_delivery_in_progress");
  }
  const written = await attemptClaimed(ctx, claimed, token, trigger, options);
  const latest = written ?? (await readDelivery(ctx, endpointId, deliveryId));
  if (!latest) throw deliveryNotFound();
  return toWebhookDelivery(latest);
}

export interface AttemptSummary {
  /** Deliveries this run claimed and attempted (or failed for a disabled endpoint). */
  attempted: number;
  succeeded: number;
  failed: number;
  /** Scheduled for another automatic attempt. */
  retrying: number;
  /** The deliveries scheduled for another attempt and when (the cloud's dispatcher queues those due soon). */
  retries: { endpointId: string; deliveryId: string; nextAttemptAt: string }[];
}

/** Deliveries read from each due shard per run. */
const DUE_PAGE = 100;
/** Attempts in flight at once: each mostly waits on a receiver and the table. */
const ATTEMPT_CONCURRENCY = 32;

/** Pages read per due shard when looking for one owner's deliveries among everyone's. */
const DUE_PAGES_PER_SHARD = 10;

/** Due deliveries, oldest due first, at most `limit` (optionally one owner's). */
async function dueDeliveries(ctx: CoreContext, now: Date, limit: number, ownerId?: string): Promise<Item[]> {
  const perShard = await Promise.all(
    Array.from({ length: DUE_SHARDS }, async (_, shard) => {
      const found: Item[] = [];
      let start: Record<string, unknown> | undefined;
      for (let page = 0; page < DUE_PAGES_PER_SHARD && found.length < limit; page += 1) {
        const reply = await ctx.db.doc.send(
          new QueryCommand({
            TableName: ctx.db.table,
            IndexName: "gsi3",
            KeyConditionExpression: "gsi3pk = :pk AND gsi3sk <= :until",
            ...(ownerId ? { FilterExpression: "owner_id = :owner" } : {}),
            ExpressionAttributeValues: {
              ":pk": duePartition(shard),
              ":until": `${now.toISOString()}#\uffff`,
              ...(ownerId ? { ":owner": ownerId } : {}),
            },
            Limit: DUE_PAGE,
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(reply.Items ?? []));
        start = reply.LastEvaluatedKey;
        if (!start) break;
      }
      return found;
    }),
  );
  return perShard
    .flat()
    .sort((a, b) => (String(a.gsi3sk) < String(b.gsi3sk) ? -1 : 1))
    .slice(0, limit);
}

/**
 * Claims and attempts the deliveries that are due, at most `limit` (default 100), a few at a
 * time. Safe to run in several processes at once: each delivery is claimed by one.
 */
export async function attemptDueDeliveries(
  ctx: CoreContext,
  options: { limit?: number; ownerId?: string } & AttemptOptions = {},
): Promise<AttemptSummary> {
  const limit = Math.max(1, Math.min(1_000, Math.floor(options.limit ?? 100)));
  const due = await dueDeliveries(ctx, ctx.clock(), limit, options.ownerId);
  const summary: AttemptSummary = { attempted: 0, succeeded: 0, failed: 0, retrying: 0, retries: [] };
  await forEachLimited(due, ATTEMPT_CONCURRENCY, async (candidate) => {
    const token = randomUUID();
    const claimed = await claimDelivery(ctx, String(candidate.endpoint_id), String(candidate.id), "due", token);
    if (!claimed) return;
    const trigger: Trigger = claimed.replay_requested === true ? "replay" : "automatic";
    const written = await attemptClaimed(ctx, claimed, token, trigger, options);
    if (!written) return;
    summary.attempted += 1;
    if (written.status === "succeeded") summary.succeeded += 1;
    else if (written.status === "failed") summary.failed += 1;
    else {
      summary.retrying += 1;
      if (typeof written.next_attempt_at === "string") {
        summary.retries.push({
          endpointId: String(written.endpoint_id),
          deliveryId: String(written.id),
          nextAttemptAt: written.next_attempt_at,
        });
      }
    }
  });
  return summary;
}

/** Runs `work` over `items`, at most `concurrency` at a time. */
export async function forEachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Pages of the endpoint's pending deliveries read when it is disabled (the rest fail when due). */
const STOP_PAGES = 20;

/**
 * Fails every pending delivery of a disabled endpoint (`endpoint_disabled`) and takes it out of
 * the due index. A delivery being attempted right now is left to its attempt; its next due time
 * finds the endpoint disabled and fails it then.
 */
export async function stopPendingDeliveries(ctx: CoreContext, endpointId: string): Promise<number> {
  let stopped = 0;
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < STOP_PAGES; page += 1) {
    const reply = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk",
        FilterExpression: "#status = :pending",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":pk": deliveryPartition(endpointId), ":pending": "pending" },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    const now = ctx.clock().toISOString();
    await forEachLimited(reply.Items ?? [], ATTEMPT_CONCURRENCY, async (item) => {
      try {
        await ctx.db.doc.send(
          new UpdateCommand({
            TableName: ctx.db.table,
            Key: deliveryKey(endpointId, String(item.id)),
            UpdateExpression:
              "SET #status = :failed, failure_reason = :reason, next_attempt_at = :none REMOVE gsi3pk, gsi3sk, replay_requested",
            ConditionExpression: `#status = :pending AND ${CLAIM_FREE}`,
            ExpressionAttributeNames: { "#status": "status" },
            ExpressionAttributeValues: {
              ":failed": "failed",
              ":pending": "pending",
              ":reason": "endpoint_disabled",
              ":none": null,
              ":now": now,
            },
          }),
        );
        stopped += 1;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    });
    start = reply.LastEvaluatedKey;
    if (!start) break;
  }
  return stopped;
}

/* ---------- the delivery log ---------- */

async function readDelivery(ctx: CoreContext, endpointId: string, deliveryId: string): Promise<Item | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: deliveryKey(endpointId, deliveryId), ConsistentRead: true }),
  );
  return reply.Item ?? null;
}

/** The endpoint's deliveries, newest event first, optionally in one state; 404 for a foreign endpoint. */
export async function listDeliveries(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
  query: DeliveryListQuery,
): Promise<Page<WebhookDelivery>> {
  await getEndpoint(ctx, ownerId, endpointId);
  const partition = deliveryPartition(endpointId);
  return queryPage(
    ctx.db,
    {
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ...(query.status
        ? { FilterExpression: "#status = :status", ExpressionAttributeNames: { "#status": "status" } }
        : {}),
      ExpressionAttributeValues: {
        ":pk": partition,
        ":prefix": DELIVERY_SORT_PREFIX,
        ...(query.status ? { ":status": query.status } : {}),
      },
      ConsistentRead: true,
    },
    ["pk", "sk"],
    { name: "pk", value: partition },
    {
      secret: ctx.config.CURSOR_KEYS,
      scope: { route: "webhook-deliveries", owner: ownerId, endpoint: endpointId, status: query.status ?? null },
    },
    { limit: query.limit, offset: 0, cursor: query.cursor },
    (item) => toWebhookDelivery(item),
  );
}

/** One delivery of the owner's endpoint; 404 webhook_endpoint_not_found / webhook_delivery_not_found. */
export async function getDelivery(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  await getEndpoint(ctx, ownerId, endpointId);
  if (!isDeliveryIdOf(endpointId, deliveryId)) throw deliveryNotFound();
  const item = await readDelivery(ctx, endpointId, deliveryId);
  if (!item) throw deliveryNotFound();
  return toWebhookDelivery(item);
}

/* ---------- replay and test events ---------- */

async function enabledEndpoint(ctx: CoreContext, ownerId: string, endpointId: string): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(ctx, ownerId, endpointId);
  if (endpoint.status !== "enabled") throw endpointDisabled();
  return endpoint;
}

/** Attempts one delivery again now (trigger `replay`), whatever its state; same body, same webhook-id. */
export async function replayDelivery(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
  deliveryId: string,
  options: AttemptOptions = {},
): Promise<WebhookDelivery> {
  await enabledEndpoint(ctx, ownerId, endpointId);
  if (!isDeliveryIdOf(endpointId, deliveryId) || !(await readDelivery(ctx, endpointId, deliveryId)))
    throw deliveryNotFound();
  await consumeRateLimit(ctx.db, MANUAL_SEND_LIMIT, ownerId, ctx.clock());
  return attemptDelivery(ctx, endpointId, deliveryId, "replay", options);
}

/**
 * Schedules another attempt, now, of every delivery of the endpoint whose event happened at or
 * after `since` (at most 30 days back), oldest first, at most REPLAY_SINCE_MAX_DELIVERIES per
 * call (`has_more` and `next_since` say where to go on). A succeeded or failed delivery gets one
 * attempt (trigger `replay`); a pending one is brought forward on its schedule.
 */
export async function replaySince(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
  since: string,
): Promise<ReplaySinceReply> {
  await enabledEndpoint(ctx, ownerId, endpointId);
  const now = ctx.clock();
  const sinceMs = Date.parse(since);
  if (!Number.isFinite(sinceMs)) throw badRequest("since must be an ISO 8601 date-time");
  if (sinceMs < now.getTime() - REPLAY_SINCE_MAX_AGE_MS)
    throw badRequest(DELIVERY_MESSAGES.sinceTooOld, "replay_since_too_old");
  await consumeRateLimit(ctx.db, REPLAY_SINCE_LIMIT, ownerId, now);
  if (sinceMs > now.getTime()) return { scheduled: 0, has_more: false, next_since: null };

  const found: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
        ExpressionAttributeValues: {
          ":pk": deliveryPartition(endpointId),
          ":from": deliverySortFrom(sinceMs),
          ":to": `${DELIVERY_SORT_PREFIX}\uffff`,
        },
        Limit: REPLAY_SINCE_MAX_DELIVERIES + 1 - found.length,
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    found.push(...(reply.Items ?? []));
    start = reply.LastEvaluatedKey;
  } while (start && found.length <= REPLAY_SINCE_MAX_DELIVERIES);

  const batch = found.slice(0, REPLAY_SINCE_MAX_DELIVERIES);
  const following = found[REPLAY_SINCE_MAX_DELIVERIES];
  let scheduled = 0;
  await forEachLimited(batch, ATTEMPT_CONCURRENCY, async (item) => {
    if (await scheduleReplay(ctx, item, now)) scheduled += 1;
  });
  const nextSince = following ? (JSON.parse(String(following.body)) as PlatformEvent).created_at : null;
  return { scheduled, has_more: following !== undefined, next_since: nextSince };
}

/** Puts one delivery in the due index for now; false when it changed meanwhile (it is being attempted). */
async function scheduleReplay(ctx: CoreContext, item: Item, now: Date): Promise<boolean> {
  const deliveryId = String(item.id);
  const index = dueIndex(deliveryId, now.toISOString());
  const pending = item.status === "pending";
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: deliveryKey(String(item.endpoint_id), deliveryId),
        UpdateExpression: `SET #status = :pending, next_attempt_at = :now, failure_reason = :none, gsi3pk = :duePk, gsi3sk = :dueSk${pending ? "" : ", replay_requested = :yes"}`,
        ConditionExpression: `#status = :was AND ${CLAIM_FREE}`,
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":pending": "pending",
          ":was": item.status,
          ":now": now.toISOString(),
          ":none": null,
          ":duePk": index.gsi3pk,
          ":dueSk": index.gsi3sk,
          ...(pending ? {} : { ":yes": true }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A fresh event id for a test event: the event-id format with a random middle (no feed announces it). */
export function testEventId(now: Date): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  const middle = Array.from(randomBytes(16), (byte) => alphabet[byte & 31]).join("");
  return `evt_${now.getTime().toString(36).padStart(9, "0")}${middle}00`;
}

/**
 * Sends a `webhook.test` event to the endpoint now and returns its delivery with the attempt. A
 * test delivery is not retried on its own (it is in the log; replay sends it again).
 */
export async function sendTestEvent(
  ctx: CoreContext,
  ownerId: string,
  endpointId: string,
  options: AttemptOptions = {},
): Promise<WebhookDelivery> {
  const endpoint = await enabledEndpoint(ctx, ownerId, endpointId);
  const now = ctx.clock();
  await consumeRateLimit(ctx.db, MANUAL_SEND_LIMIT, ownerId, now);
  const event: PlatformEvent = {
    id: testEventId(now),
    type: TEST_EVENT_TYPE,
    created_at: now.toISOString(),
    data: {
      test: true,
      message: "A test event sent from the webhooks page: your endpoint received and verified it.",
      endpoint_id: endpoint.id,
    },
  };
  const token = randomUUID();
  // Recorded already claimed and outside the due index: only this request attempts it.
  const item = {
    ...deliveryItem({ id: endpoint.id, owner_id: ownerId }, event, now),
    status: "pending",
    next_attempt_at: null,
    claim_owner: token,
    claim_until: iso(now.getTime() + CLAIM_MS),
  };
  await ctx.db.doc.send(
    new PutCommand({ TableName: ctx.db.table, Item: item, ConditionExpression: "attribute_not_exists(pk)" }),
  );
  const written = await attemptClaimed(ctx, item, token, "test", options);
  return toWebhookDelivery(written ?? item);
}
