import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { z } from "zod";
import { kycFeedPartition } from "@fintech/core/kyc/keys";
import { SYSTEM_OWNER } from "@fintech/core/ledger/keys";
import { paymentFeedPartition } from "@fintech/core/payments/keys";
import type { CoreContext } from "@fintech/core/shared/context";
import { isAppError } from "@fintech/core/shared/errors";
import { attemptDelivery, attemptDueDeliveries, type AttemptSummary } from "@fintech/core/webhooks/deliveries";
import { isDeliveryIdOf } from "@fintech/core/webhooks/delivery-keys";
import { dispatchOwner } from "@fintech/core/webhooks/dispatcher";
import { endpointsOf, ownersWithEnabledEndpoints } from "@fintech/core/webhooks/endpoints";
import { isEndpointId } from "@fintech/core/webhooks/keys";
import type { WebhookDelivery } from "@fintech/core/webhooks/model";
import { delaySecondsUntil, MAX_DELAY_SECONDS } from "./payment-queue";

/**
 * Webhook delivery over the table's stream and SQS (stacks/Webhooks.ts). The Lambda entry points
 * (webhook-fanout.ts, webhook-dispatcher.ts, webhook-sweeper.ts) only build a context and call
 * these.
 *
 * A message only says when to look: the endpoints' durable cursors decide what is delivered
 * (core webhooks/dispatcher.ts) and each attempt is claimed on its delivery (deliveries.ts), so a
 * duplicate message costs a few reads and a lost one a delay until the next sweep.
 */

export const WEBHOOK_QUEUE_URL_VARIABLE = "WEBHOOK_QUEUE_URL";
export { MAX_DELAY_SECONDS };
/** SendMessageBatch takes at most 10 entries. */
const SQS_BATCH = 10;
/** A delivery message that arrives this much before its due time is early by design (a hop), not by skew. */
const EARLY_TOLERANCE_MS = 1_000;
/** Due attempts one owner message makes; more are left to the next message or sweep. */
export const ATTEMPTS_PER_OWNER_MESSAGE = 100;
/** Owners whose endpoints the fanout looks up at once. */
const LOOKUPS_AT_ONCE = 8;

const OwnerId = z.string().min(1).max(64);

/** Look at this owner's feeds now: record new deliveries and make the due attempts. */
export const OwnerDispatchMessage = z.object({ ownerId: OwnerId });
/** Attempt this delivery at `dueAt` (a retry due within SQS's 15-minute delay). */
export const DeliveryAttemptMessage = z.object({
  endpointId: z.string().refine(isEndpointId),
  deliveryId: z.string().max(64),
  dueAt: z.iso.datetime(),
});
export const WebhookDispatchMessage = z.union([DeliveryAttemptMessage, OwnerDispatchMessage]);
export type WebhookDispatchMessage = z.infer<typeof WebhookDispatchMessage>;
type DeliveryAttemptMessage = z.infer<typeof DeliveryAttemptMessage>;

/** The one SQS call this module makes; a test gives a recording fake. */
export type SendBatch = (command: SendMessageBatchCommand) => Promise<{ Failed?: { Id?: string; Message?: string }[] }>;

export interface OutgoingMessage {
  message: WebhookDispatchMessage;
  delaySeconds: number;
}

/** Sends messages in batches of ten; resolves with the ones SQS refused (or that could not be sent). */
export async function sendMessages(
  send: SendBatch,
  queueUrl: string,
  messages: OutgoingMessage[],
): Promise<OutgoingMessage[]> {
  const refused: OutgoingMessage[] = [];
  for (let start = 0; start < messages.length; start += SQS_BATCH) {
    const batch = messages.slice(start, start + SQS_BATCH);
    try {
      const reply = await send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((entry, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(entry.message),
            DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(entry.delaySeconds))),
          })),
        }),
      );
      for (const failed of reply.Failed ?? []) {
        const entry = batch[Number(failed.Id)];
        if (entry) refused.push(entry);
      }
    } catch {
      refused.push(...batch);
    }
  }
  return refused;
}

export interface WebhookQueue {
  send: SendBatch;
  url: string;
}

/** The queue of a function the stack gave its URL to. */
export function webhookQueueFromEnv(env: Record<string, string | undefined> = process.env): WebhookQueue {
  const url = env[WEBHOOK_QUEUE_URL_VARIABLE];
  if (!url) throw new Error(`${WEBHOOK_QUEUE_URL_VARIABLE} is not set (stacks/Webhooks.ts sets it)`);
  const client = new SQSClient({});
  return { send: (command) => client.send(command), url };
}

/* ---------- the fanout: the table's stream -> owner messages ---------- */

type AttributeValue = { S?: string } | undefined;
export interface StreamRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, AttributeValue>; SequenceNumber?: string };
}

const KYC_FEED_PREFIX = kycFeedPartition("");
const PAYMENT_FEED_PREFIX = paymentFeedPartition("");

/**
 * The owner whose user feed an inserted item belongs to, or null for anything else: a customer's
 * balance version (ledger feed), a KYC or payment history item. The system accounts' and the ops
 * feed have no owner with endpoints. The stream filter (stacks/Webhooks.ts) already lets only
 * these through; this is the same rule, applied again to what arrives.
 */
export function ownerOfFeedItem(record: StreamRecord): string | null {
  if (record.eventName !== "INSERT") return null;
  const image = record.dynamodb?.NewImage ?? {};
  const partition = image.gsi2pk?.S;
  if (!partition) return null;
  let owner: string | undefined;
  if (partition.startsWith(KYC_FEED_PREFIX)) owner = partition.slice(KYC_FEED_PREFIX.length);
  else if (partition.startsWith(PAYMENT_FEED_PREFIX)) owner = partition.slice(PAYMENT_FEED_PREFIX.length);
  else if (image.entity?.S === "balance") owner = image.owner_id?.S;
  if (!owner || owner === SYSTEM_OWNER || !OwnerId.safeParse(owner).success) return null;
  return owner;
}

/**
 * One owner message per owner of the batch who has an enabled endpoint, delayed by the feeds'
 * settle window (rounded up to a second) so that the dispatcher's read finds the commit. Records
 * of owners whose message could not be sent (or whose endpoints could not be read) are reported
 * as failures: Lambda retries the batch from the first of them.
 */
export async function fanOutStreamRecords(
  ctx: CoreContext,
  queue: WebhookQueue,
  records: StreamRecord[],
): Promise<{ batchItemFailures: { itemIdentifier: string }[]; enqueued: number }> {
  const recordsByOwner = new Map<string, StreamRecord[]>();
  for (const record of records) {
    const owner = ownerOfFeedItem(record);
    if (owner) recordsByOwner.set(owner, [...(recordsByOwner.get(owner) ?? []), record]);
  }
  const owners = [...recordsByOwner.keys()];
  const failedOwners = new Set<string>();
  const withEndpoints: string[] = [];
  for (let start = 0; start < owners.length; start += LOOKUPS_AT_ONCE) {
    await Promise.all(
      owners.slice(start, start + LOOKUPS_AT_ONCE).map(async (owner) => {
        try {
          const endpoints = await endpointsOf(ctx, owner);
          if (endpoints.some((endpoint) => endpoint.status === "enabled")) withEndpoints.push(owner);
        } catch (error) {
          ctx.logger.warn("webhook fanout could not read an owner's endpoints", { error, ownerId: owner });
          failedOwners.add(owner);
        }
      }),
    );
  }
  const delaySeconds = Math.ceil(ctx.config.FEED_SETTLE_MS / 1000);
  const refused = await sendMessages(
    queue.send,
    queue.url,
    withEndpoints.map((ownerId) => ({ message: { ownerId }, delaySeconds })),
  );
  for (const entry of refused) if ("ownerId" in entry.message) failedOwners.add(entry.message.ownerId);
  const failures = [...failedOwners]
    .flatMap((owner) => recordsByOwner.get(owner) ?? [])
    .map((record) => record.dynamodb?.SequenceNumber)
    .filter((sequence): sequence is string => sequence !== undefined);
  if (failures.length > 0) ctx.logger.warn("webhook fanout will retry records", { owners: failedOwners.size });
  return {
    batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })),
    enqueued: withEndpoints.length - refused.length,
  };
}

/* ---------- the dispatcher: queue messages -> deliveries and attempts ---------- */

export interface QueueRecord {
  messageId: string;
  body: string;
}

/** The delayed messages for the retries due within SQS's 15 minutes; later ones are the sweep's. */
export function retryMessages(retries: AttemptSummary["retries"], now: Date): OutgoingMessage[] {
  return retries
    .filter((retry) => Date.parse(retry.nextAttemptAt) - now.getTime() <= MAX_DELAY_SECONDS * 1000)
    .map((retry) => ({
      message: { endpointId: retry.endpointId, deliveryId: retry.deliveryId, dueAt: retry.nextAttemptAt },
      delaySeconds: delaySecondsUntil(new Date(retry.nextAttemptAt), now),
    }));
}

async function attemptWhenDue(ctx: CoreContext, message: DeliveryAttemptMessage): Promise<OutgoingMessage[]> {
  const now = ctx.clock();
  const dueMs = Date.parse(message.dueAt);
  if (dueMs - now.getTime() > EARLY_TOLERANCE_MS) {
    return [{ message, delaySeconds: delaySecondsUntil(new Date(dueMs), now) }];
  }
  if (!isDeliveryIdOf(message.endpointId, message.deliveryId)) return [];
  // An automatic attempt claims the delivery only when it is due and pending: a duplicate, or a
  // delivery another run already attempted, comes back unchanged; one whose endpoint was deleted
  // since is gone, and so is the retry.
  let delivery: WebhookDelivery;
  try {
    delivery = await attemptDelivery(ctx, message.endpointId, message.deliveryId, "automatic");
  } catch (error) {
    if (isAppError(error) && error.status === 404) return [];
    throw error;
  }
  if (delivery.status !== "pending" || delivery.next_attempt_at === null) return [];
  const after = ctx.clock();
  if (delivery.next_attempt_at === message.dueAt) {
    // Not attempted: another run holds it (and queues its own retry), or it is a moment early.
    return dueMs > after.getTime() ? [{ message, delaySeconds: 1 }] : [];
  }
  return retryMessages(
    [{ endpointId: delivery.endpoint_id, deliveryId: delivery.id, nextAttemptAt: delivery.next_attempt_at }],
    after,
  );
}

async function dispatchOwnerNow(ctx: CoreContext, ownerId: string): Promise<OutgoingMessage[]> {
  await dispatchOwner(ctx, ownerId);
  const summary = await attemptDueDeliveries(ctx, { ownerId, limit: ATTEMPTS_PER_OWNER_MESSAGE });
  return retryMessages(summary.retries, ctx.clock());
}

/**
 * Handles one batch of queue messages. An owner message records the owner's new deliveries and
 * makes its due attempts; a delivery message makes that attempt when due (sent again for the
 * rest of its wait when early). Retries due within 15 minutes go back on the queue delayed. A
 * message that is not ours is dropped (logged); one whose work threw is reported, so SQS delivers
 * it again and, after several failures, moves it to the dead-letter queue.
 */
export async function dispatchMessages(
  ctx: CoreContext,
  queue: WebhookQueue,
  records: QueueRecord[],
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const outcomes = await Promise.all(
    records.map(async (record) => {
      let message: WebhookDispatchMessage;
      try {
        message = WebhookDispatchMessage.parse(JSON.parse(record.body));
      } catch (error) {
        ctx.logger.error("webhook dispatch message dropped: not a dispatch message", {
          error,
          messageId: record.messageId,
        });
        return null;
      }
      try {
        const next =
          "deliveryId" in message ? await attemptWhenDue(ctx, message) : await dispatchOwnerNow(ctx, message.ownerId);
        const refused = await sendMessages(queue.send, queue.url, next);
        if (refused.length > 0) {
          ctx.logger.warn("webhook retries not queued; the sweep will find them", { count: refused.length });
        }
        return null;
      } catch (error) {
        ctx.logger.error("webhook dispatch failed", { error, messageId: record.messageId });
        return record.messageId;
      }
    }),
  );
  return {
    batchItemFailures: outcomes.filter((id): id is string => id !== null).map((itemIdentifier) => ({ itemIdentifier })),
  };
}

/* ---------- the sweeper ---------- */

/**
 * Enqueues every owner with an enabled endpoint: the owners' dispatch records what a lost stream
 * record or message left behind and makes every due attempt, including the retries scheduled
 * beyond SQS's delay. The dispatcher does the work, within its reserved concurrency.
 */
export async function sweepWebhookOwners(ctx: CoreContext, queue: WebhookQueue): Promise<{ enqueued: number }> {
  const owners = await ownersWithEnabledEndpoints(ctx);
  const refused = await sendMessages(
    queue.send,
    queue.url,
    owners.map((ownerId) => ({ message: { ownerId }, delaySeconds: 0 })),
  );
  if (refused.length > 0) ctx.logger.warn("webhook sweep could not enqueue owners", { count: refused.length });
  return { enqueued: owners.length - refused.length };
}
