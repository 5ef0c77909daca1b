import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { STEP_LEASE_MS } from "./model";
import { DUE_SHARDS, dueMarkerKey, duePartition } from "./keys";

/**
 * What the drivers write on a due marker (PAYDUE#<shard> / <dueAt>#<id>, keys.ts) besides its key,
 * so that a step is run once however often it is asked for and a step that keeps failing ends:
 *
 * - lease_owner, lease_until: the worker running the step. Taken with a conditional update (free,
 *   expired, or already this run's), so a second delivery of the step while it runs does nothing.
 *   The step's own transaction deletes the marker on the condition that the lease is still this
 *   run's, so a worker whose lease ran out cannot commit after another took over. A failed step
 *   keeps its lease until its retry is due (lease_until = the retry time): the wait between tries.
 * - step_failures, last_error: how often the step threw, and the last error (the review list's).
 * - next_sweep_at, sweeps: when the sweeper may enqueue the step again. Each sweep that enqueues it
 *   doubles the wait (SWEEP_REPEAT_BASE_MS up to SWEEP_REPEAT_MAX_MS), so a backlog in the queue
 *   costs a few extra messages per step, not one per sweep.
 *
 * A marker is deleted by the step that runs it and the next step's marker starts fresh: none of
 * these outlive their step. The payment's version condition stays the guarantee that a step
 * commits once; the lease keeps duplicates from doing the work and counts the failures.
 */

export const SWEEP_REPEAT_BASE_MS = 2 * 60_000;
export const SWEEP_REPEAT_MAX_MS = 32 * 60_000;

/** The wait before the sweeper may enqueue a step again after enqueueing it `sweeps` times. */
export const sweepRepeatMs = (sweeps: number): number =>
  Math.min(SWEEP_REPEAT_MAX_MS, SWEEP_REPEAT_BASE_MS * 2 ** Math.max(0, Math.min(10, sweeps - 1)));

const LEASE_FREE = "(attribute_not_exists(lease_until) OR lease_until <= :now)";
const SWEEPABLE = `${LEASE_FREE} AND (attribute_not_exists(next_sweep_at) OR next_sweep_at <= :now)`;

const isConditionFailure = (error: unknown) => isAwsError(error, "ConditionalCheckFailedException");

export type LeaseTaken = { held: true; failures: number } | { held: false; reason: "busy" | "gone" };

/** Takes the lease on the marker of the payment's step due at `dueAt` for `owner`, until now + STEP_LEASE_MS. */
export async function takeStepLease(
  ctx: CoreContext,
  paymentId: string,
  dueAt: string,
  owner: string,
): Promise<LeaseTaken> {
  const now = ctx.clock();
  try {
    const reply = await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: dueMarkerKey(paymentId, dueAt),
        UpdateExpression: "SET lease_owner = :owner, lease_until = :until",
        ConditionExpression: `attribute_exists(pk) AND (${LEASE_FREE} OR lease_owner = :owner)`,
        ExpressionAttributeValues: {
          ":owner": owner,
          ":until": new Date(now.getTime() + STEP_LEASE_MS).toISOString(),
          ":now": now.toISOString(),
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return { held: true, failures: Number(reply.Attributes?.step_failures ?? 0) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const marker = await ctx.db.doc.send(
      new GetCommand({ TableName: ctx.db.table, Key: dueMarkerKey(paymentId, dueAt), ConsistentRead: true }),
    );
    return { held: false, reason: marker.Item ? "busy" : "gone" };
  }
}

/** Lets go of a lease this run holds on a step it did not finish (so the next delivery may run it at once). */
export async function releaseStepLease(
  ctx: CoreContext,
  paymentId: string,
  dueAt: string,
  owner: string,
): Promise<void> {
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: dueMarkerKey(paymentId, dueAt),
        UpdateExpression: "REMOVE lease_owner, lease_until",
        ConditionExpression: "lease_owner = :owner",
        ExpressionAttributeValues: { ":owner": owner },
      }),
    );
  } catch (error) {
    // The marker is gone or another run holds it: nothing of ours to let go.
    if (!isConditionFailure(error)) throw error;
  }
}

export interface StepFailure {
  failures: number;
  error: string;
  /** The lease is kept until then: no delivery runs the step before. */
  retryAt: string;
}

/**
 * Records a failure of the step this run holds. The sweeper may enqueue it again a while after
 * its retry is due (the driver's own retry request comes first). False when the run no longer
 * holds the step (its lease ran out and another run took it, or the step was run meanwhile).
 */
export async function recordStepFailure(
  ctx: CoreContext,
  paymentId: string,
  dueAt: string,
  owner: string,
  failure: StepFailure,
): Promise<boolean> {
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: dueMarkerKey(paymentId, dueAt),
        UpdateExpression:
          "SET step_failures = :failures, last_error = :error, lease_until = :retryAt, next_sweep_at = :sweepAt",
        ConditionExpression: "lease_owner = :owner",
        ExpressionAttributeValues: {
          ":owner": owner,
          ":failures": failure.failures,
          ":error": failure.error,
          ":retryAt": failure.retryAt,
          ":sweepAt": new Date(Date.parse(failure.retryAt) + SWEEP_REPEAT_BASE_MS).toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A step the sweeper enqueued: which payment, and the step's due time (the message names it). */
export interface SweptStep {
  paymentId: string;
  dueAt: string;
}

interface SweepCandidate extends SweptStep {
  nextSweepAt: string | null;
  sweeps: number;
}

/** Queries per shard and sweep: a backlog of steps already enqueued is read past, within this bound. */
const SWEEP_PAGES_PER_SHARD = 10;
const SWEEP_PAGE_SIZE = 200;
/** Claims written at once (each is one small conditional update). */
const CLAIM_CONCURRENCY = 16;

async function sweepCandidates(
  ctx: CoreContext,
  shard: number,
  dueBefore: Date,
  now: Date,
  limit: number,
): Promise<SweepCandidate[]> {
  const found: SweepCandidate[] = [];
  let start: Record<string, unknown> | undefined;
  for (let page = 0; page < SWEEP_PAGES_PER_SHARD && found.length < limit; page += 1) {
    const reply = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk AND sk <= :until",
        FilterExpression: SWEEPABLE,
        ExpressionAttributeValues: {
          ":pk": duePartition(shard),
          ":until": `${dueBefore.toISOString()}#\uffff`,
          ":now": now.toISOString(),
        },
        Limit: SWEEP_PAGE_SIZE,
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of reply.Items ?? []) {
      found.push({
        paymentId: String(item.payment_id),
        dueAt: String(item.due_at),
        nextSweepAt: typeof item.next_sweep_at === "string" ? item.next_sweep_at : null,
        sweeps: Number(item.sweeps ?? 0),
      });
    }
    start = reply.LastEvaluatedKey;
    if (!start) break;
  }
  return found.slice(0, limit);
}

/** Marks a step as enqueued by this sweep; false when another sweep or a worker got to it first. */
async function claimForSweep(ctx: CoreContext, candidate: SweepCandidate, now: Date): Promise<boolean> {
  const sweeps = candidate.sweeps + 1;
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: dueMarkerKey(candidate.paymentId, candidate.dueAt),
        UpdateExpression: "SET next_sweep_at = :next, sweeps = :sweeps, enqueued_at = :now",
        ConditionExpression: `attribute_exists(pk) AND ${SWEEPABLE} AND ${candidate.nextSweepAt === null ? "attribute_not_exists(next_sweep_at)" : "next_sweep_at = :seen"}`,
        ExpressionAttributeValues: {
          ":next": new Date(now.getTime() + sweepRepeatMs(sweeps)).toISOString(),
          ":sweeps": sweeps,
          ":now": now.toISOString(),
          ...(candidate.nextSweepAt === null ? {} : { ":seen": candidate.nextSweepAt }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * The sweep: steps due at or before `dueBefore` that no worker holds and no sweep enqueued
 * recently, oldest due first, at most `limit`, each claimed (recorded as enqueued now, on a
 * condition, so two sweeps at once claim a step once). The caller enqueues what this returns.
 */
export async function claimOverdueSteps(
  ctx: CoreContext,
  options: { dueBefore: Date; limit: number },
): Promise<SweptStep[]> {
  const now = ctx.clock();
  const limit = Math.max(1, Math.min(1000, Math.floor(options.limit)));
  const perShard = await Promise.all(
    Array.from({ length: DUE_SHARDS }, (_, shard) => sweepCandidates(ctx, shard, options.dueBefore, now, limit)),
  );
  // Oldest due first; a payment has one marker, so no id repeats.
  const candidates = perShard
    .flat()
    .sort((a, b) => (a.dueAt < b.dueAt ? -1 : a.dueAt > b.dueAt ? 1 : 0))
    .slice(0, limit);
  const claimed: SweptStep[] = [];
  for (let start = 0; start < candidates.length; start += CLAIM_CONCURRENCY) {
    const batch = candidates.slice(start, start + CLAIM_CONCURRENCY);
    const results = await Promise.all(batch.map((candidate) => claimForSweep(ctx, candidate, now)));
    batch.forEach((candidate, index) => {
      if (results[index]) claimed.push({ paymentId: candidate.paymentId, dueAt: candidate.dueAt });
    });
  }
  return claimed;
}

/** What a due marker says about its step (tests and the review list read it). */
export interface MarkerState {
  leaseOwner: string | null;
  leaseUntil: string | null;
  stepFailures: number;
  lastError: string | null;
  nextSweepAt: string | null;
  sweeps: number;
}

export async function readMarker(ctx: CoreContext, paymentId: string, dueAt: string): Promise<MarkerState | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: dueMarkerKey(paymentId, dueAt), ConsistentRead: true }),
  );
  const item = reply.Item;
  if (!item) return null;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    leaseOwner: text(item.lease_owner),
    leaseUntil: text(item.lease_until),
    stepFailures: Number(item.step_failures ?? 0),
    lastError: text(item.last_error),
    nextSweepAt: text(item.next_sweep_at),
    sweeps: Number(item.sweeps ?? 0),
  };
}
