import { randomUUID } from "node:crypto";
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { AppError } from "../shared/errors";
import { streamLeaseKey, streamLeasePartition } from "./keys";

/**
 * How many streams one user holds open, counted across every process and Lambda instance: each
 * open stream holds one of the user's slots (an item under STREAMLEASE#<user>), claimed with a
 * conditional write that succeeds only on a free or expired slot, renewed while the stream runs
 * and deleted when it ends. A stream whose process died without releasing frees its slot when the
 * lease expires, so the expiry must outlast a couple of missed renewals and no more.
 */
export const STREAM_LEASE_RENEW_MS = 30_000;
export const STREAM_LEASE_TTL_MS = 90_000;

/** Claims lost to another claim of the same user in the same moment, tried again with a fresh read. */
const CLAIM_ATTEMPTS = 4;
const SLOT_PREFIX = "SLOT#";

export interface StreamLease {
  userId: string;
  slot: number;
  leaseId: string;
}

interface HeldSlot {
  slot: number;
  expiresMs: number;
}

export function tooManyStreams(limit: number, retryAfterSeconds: number): AppError {
  return new AppError(
    429,
    "too_many_streams",
    `Too many open streams: a user may hold at most ${limit} at once. Close one (another tab, window or client) or retry after the Retry-After delay.`,
    { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
}

/** The user's slots as stored (expired ones included), strongly consistent. */
async function readSlots(ctx: CoreContext, userId: string): Promise<HeldSlot[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": streamLeasePartition(userId) },
      ConsistentRead: true,
    }),
  );
  const slots: HeldSlot[] = [];
  for (const item of reply.Items ?? []) {
    const sk = typeof item.sk === "string" ? item.sk : "";
    const slot = Number(sk.slice(SLOT_PREFIX.length));
    const expiresMs = Number(item.lease_expires_ms);
    if (sk.startsWith(SLOT_PREFIX) && Number.isInteger(slot) && Number.isFinite(expiresMs))
      slots.push({ slot, expiresMs });
  }
  return slots;
}

const leaseItem = (lease: StreamLease, expiresMs: number) => ({
  lease_id: lease.leaseId,
  lease_expires_ms: expiresMs,
  // The table's TTL attribute (epoch seconds): a lease nobody released is swept eventually.
  expires_at: Math.ceil(expiresMs / 1000),
});

/**
 * A slot for a new stream of `userId`, or a 429 (code too_many_streams) whose Retry-After is when
 * the earliest held slot expires at the latest (sooner if that stream ends first).
 */
export async function claimStreamLease(ctx: CoreContext, userId: string, limit: number): Promise<StreamLease> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const now = ctx.clock().getTime();
    const held = (await readSlots(ctx, userId)).filter((slot) => slot.slot < limit && slot.expiresMs > now);
    const taken = new Set(held.map((slot) => slot.slot));
    const free = Array.from({ length: limit }, (_, slot) => slot).filter((slot) => !taken.has(slot));
    if (free.length === 0) throw tooManyStreams(limit, (Math.min(...held.map((slot) => slot.expiresMs)) - now) / 1000);
    // A random free slot: claims of one user racing each other mostly pick different ones.
    const lease: StreamLease = { userId, slot: free[Math.floor(Math.random() * free.length)]!, leaseId: randomUUID() };
    try {
      await ctx.db.doc.send(
        new PutCommand({
          TableName: ctx.db.table,
          Item: {
            ...streamLeaseKey(userId, lease.slot),
            entity: "stream_lease",
            ...leaseItem(lease, now + STREAM_LEASE_TTL_MS),
          },
          ConditionExpression: "attribute_not_exists(pk) OR lease_expires_ms <= :now",
          ExpressionAttributeValues: { ":now": now },
        }),
      );
      return lease;
    } catch (error) {
      if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
    }
  }
  throw tooManyStreams(limit, 1);
}

/** Extends a held lease; false when it was lost (it expired and another stream took the slot). */
export async function renewStreamLease(ctx: CoreContext, lease: StreamLease): Promise<boolean> {
  const { lease_expires_ms, expires_at } = leaseItem(lease, ctx.clock().getTime() + STREAM_LEASE_TTL_MS);
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: streamLeaseKey(lease.userId, lease.slot),
        UpdateExpression: "SET lease_expires_ms = :expires, expires_at = :ttl",
        ConditionExpression: "lease_id = :lease",
        ExpressionAttributeValues: { ":expires": lease_expires_ms, ":ttl": expires_at, ":lease": lease.leaseId },
      }),
    );
    return true;
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException")) return false;
    throw error;
  }
}

/** Frees the slot, unless another stream already holds it (then it is no longer ours to free). */
export async function releaseStreamLease(ctx: CoreContext, lease: StreamLease): Promise<void> {
  try {
    await ctx.db.doc.send(
      new DeleteCommand({
        TableName: ctx.db.table,
        Key: streamLeaseKey(lease.userId, lease.slot),
        ConditionExpression: "lease_id = :lease",
        ExpressionAttributeValues: { ":lease": lease.leaseId },
      }),
    );
  } catch (error) {
    if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
  }
}

/** How many streams of the user hold an unexpired lease now. */
export async function openStreamCount(ctx: CoreContext, userId: string): Promise<number> {
  const now = ctx.clock().getTime();
  return (await readSlots(ctx, userId)).filter((slot) => slot.expiresMs > now).length;
}
