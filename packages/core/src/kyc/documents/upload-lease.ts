import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../../shared/context";
import { isAwsError } from "../../shared/dynamo";
import { uploadLeaseKey } from "../keys";
import { submissionBusy } from "../submissions";

/**
 * One upload per submission is decoded and recorded at a time. Every upload ends in a change of
 * the one submission item (version-checked, recomputing the risk assessment on a lost race) after
 * a decode that costs CPU: uploads racing each other all decode, then all but one lose the commit,
 * re-score and lose again, until the retries run out seconds later. With the lease, one upload
 * works while the others wait briefly for it, then answer 409 `kyc_submission_busy` with
 * Retry-After, having decoded nothing.
 *
 * The lease is an item claimed with a conditional put (free, or its holder's time is up) and
 * deleted by its holder when done. It only spares work: the submission's version condition still
 * guards every commit, so a holder that outlives its lease cannot corrupt anything.
 */

/**
 * How long a claim holds if its holder never releases it (a crashed process): two pictures at their
 * time budget and the record, with room.
 */
export const UPLOAD_LEASE_MS = 30_000;

/**
 * How long a caller waits for a busy submission before giving up. The API answers a person (or a
 * client that can retry): a short queue absorbs two uploads sent together, and a flood answers
 * 409 within this. The S3 ObjectCreated handler has no one waiting and a 60-second limit, and a
 * give-up there costs an S3 redelivery, so it waits longer.
 */
export const UPLOAD_LEASE_WAIT_MS = { api: 1_500, objectEvent: 20_000 } as const;

/** Between two claim attempts: doubling from the first, jittered so waiters do not retry in step. */
const FIRST_RETRY_MS = 25;
const MAX_RETRY_MS = 250;

export const SUBMISSION_BUSY_MESSAGE =
  "Another document of this KYC submission is still being checked; send this one again in a moment";

interface Lease {
  submissionId: string;
  holder: string;
}

/** One claim attempt: true if the lease is now ours. */
async function claim(ctx: CoreContext, lease: Lease): Promise<boolean> {
  const now = ctx.clock().getTime();
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: {
          ...uploadLeaseKey(lease.submissionId),
          entity: "kyc_upload_lease",
          holder: lease.holder,
          lease_until_ms: now + UPLOAD_LEASE_MS,
          // The table's TTL attribute (epoch seconds): a lease nobody released is swept eventually.
          expires_at: Math.ceil((now + UPLOAD_LEASE_MS) / 1000),
        },
        ConditionExpression: "attribute_not_exists(pk) OR lease_until_ms <= :now",
        ExpressionAttributeValues: { ":now": now },
      }),
    );
    return true;
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException")) return false;
    throw error;
  }
}

/** Frees the lease, unless it expired and another upload took it (then it is no longer ours). */
async function release(ctx: CoreContext, lease: Lease): Promise<void> {
  try {
    await ctx.db.doc.send(
      new DeleteCommand({
        TableName: ctx.db.table,
        Key: uploadLeaseKey(lease.submissionId),
        ConditionExpression: "holder = :holder",
        ExpressionAttributeValues: { ":holder": lease.holder },
      }),
    );
  } catch (error) {
    if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
  }
}

/**
 * Runs `work` holding the submission's upload lease. Waits up to `waitMs` (real time: how long a
 * caller is kept, not domain time) for a busy submission, then throws 409 kyc_submission_busy.
 */
export async function withUploadLease<T>(
  ctx: CoreContext,
  submissionId: string,
  waitMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const lease: Lease = { submissionId, holder: randomUUID() };
  const giveUpAt = performance.now() + waitMs;
  let pause = FIRST_RETRY_MS;
  while (!(await claim(ctx, lease))) {
    const left = giveUpAt - performance.now();
    if (left <= 0) throw submissionBusy(SUBMISSION_BUSY_MESSAGE);
    await sleep(Math.min(left, pause / 2 + Math.random() * pause));
    pause = Math.min(MAX_RETRY_MS, pause * 2);
  }
  try {
    return await work();
  } finally {
    await release(ctx, lease).catch((error: unknown) =>
      ctx.logger.warn("kyc upload lease not released; it expires by itself", { error, submission_id: submissionId }),
    );
  }
}
