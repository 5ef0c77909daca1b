import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { badRequest, conflict, notFound, serviceUnavailable } from "../shared/errors";
import { newId } from "../shared/ids";
import { Actor } from "./journals";
import {
  integrityCurrentKey,
  integrityJobKey,
  integrityJobsIndex,
  integrityLatestResultKey,
  INTEGRITY_JOBS_PARTITION,
} from "./integrity-keys";
import {
  INTEGRITY_JOB_ID,
  INTEGRITY_JOB_STATUSES,
  INTEGRITY_MESSAGES,
  INTEGRITY_PHASES,
  INTEGRITY_SETTLE_MS,
  IntegrityDrift,
  IntegrityResult,
  IntegrityTotals,
  isFinished,
  progressPercent,
  type IntegrityJob,
} from "./integrity-model";

/**
 * The whole-ledger integrity check's job: who started it, how far it got, what it found. The
 * steps that do the work are in integrity-steps.ts; this module starts jobs, reads them and
 * ends them.
 *
 * At most one whole-ledger job runs at a time: starting one claims the INTEGRITY#CURRENT item
 * with a conditional put in the same transaction that writes the job, and the job's last step
 * (or its failure) deletes the claim. A job whose steps stopped coming (a lost message, a worker
 * that died for good) would hold the claim for ever, so a job without progress for
 * INTEGRITY_STALL_MS is marked failed by the next start, which takes its place.
 */

export const INTEGRITY_STALL_MS = 10 * 60_000;
/** A step that failed this many times in a row fails its job, which frees the ledger for a new one. */
export const INTEGRITY_MAX_STEP_FAILURES = 5;

/** The job item as stored: the public view's fields plus where the scan stands and the sums so far. */
export const IntegrityJobItem = z.object({
  pk: z.string(),
  sk: z.string(),
  entity: z.literal("integrity_job"),
  id: z.string(),
  scope: z.literal("ledger"),
  started_by: Actor,
  started_at: z.string(),
  as_of: z.string(),
  status: z.enum(INTEGRITY_JOB_STATUSES),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  /** Steps committed so far: every step's write is conditional on it, so a replayed step writes nothing. */
  step: z.number().int().nonnegative(),
  phase: z.enum(INTEGRITY_PHASES),
  /** Where the next page starts (a scan's or a query's ExclusiveStartKey); null: at the beginning. */
  cursor: z.record(z.string(), z.unknown()).nullable(),
  /** The comparison phase reads the per-account sums one shard after the other. */
  shard: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  items_examined: z.number().int().nonnegative(),
  estimated_items: z.number().int().nonnegative().nullable(),
  journals_checked: z.number().int().nonnegative(),
  accounts_found: z.number().int().nonnegative(),
  accounts_checked: z.number().int().nonnegative(),
  unbalanced_count: z.number().int().nonnegative(),
  unbalanced_samples: z.array(z.string()),
  drift_count: z.number().int().nonnegative(),
  drift_samples: z.array(IntegrityDrift),
  /** The recorded totals of the accounts compared so far, per currency. */
  currencies: z.record(z.string(), IntegrityTotals),
  /** Failed attempts at the current step; back to 0 when a step commits. */
  failures: z.number().int().nonnegative(),
  result: IntegrityResult.nullable(),
});
export type IntegrityJobItem = z.infer<typeof IntegrityJobItem>;

/** The job item as written: with its place on the jobs index, which a parsed item does not keep. */
export const storedJob = (item: IntegrityJobItem) => ({ ...item, ...integrityJobsIndex(item.started_at, item.id) });

export function jobView(item: IntegrityJobItem): IntegrityJob {
  const progress = {
    phase: item.phase,
    pages: item.pages,
    items_examined: item.items_examined,
    estimated_items: item.estimated_items,
    journals_checked: item.journals_checked,
    accounts_found: item.accounts_found,
    accounts_checked: item.accounts_checked,
  };
  return {
    id: item.id,
    scope: item.scope,
    started_by: item.started_by,
    started_at: item.started_at,
    as_of: item.as_of,
    status: item.status,
    progress: { ...progress, percent: progressPercent(progress, item.status) },
    result: item.result,
    finished_at: item.finished_at,
    error: item.error,
    updated_at: item.updated_at,
  };
}

export async function loadJobItem(ctx: CoreContext, jobId: string): Promise<IntegrityJobItem | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: integrityJobKey(jobId), ConsistentRead: true }),
  );
  return reply.Item ? IntegrityJobItem.parse(reply.Item) : null;
}

const CurrentClaim = z.object({ job_id: z.string() });

async function currentClaim(ctx: CoreContext): Promise<string | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: integrityCurrentKey(), ConsistentRead: true }),
  );
  return reply.Item ? CurrentClaim.parse(reply.Item).job_id : null;
}

/** The id of the job holding the ledger now, if it is still to finish (what a restarted local worker resumes). */
export async function unfinishedIntegrityJobId(ctx: CoreContext): Promise<string | null> {
  const jobId = await currentClaim(ctx);
  if (!jobId) return null;
  const item = await loadJobItem(ctx, jobId);
  return item && !isFinished(item.status) ? item.id : null;
}

/** DynamoDB's item count of the table (refreshed about every six hours in the cloud): the progress bar's yardstick. */
async function estimatedItems(ctx: CoreContext): Promise<number | null> {
  try {
    const reply = await ctx.db.raw.send(new DescribeTableCommand({ TableName: ctx.db.table }));
    return reply.Table?.ItemCount ?? null;
  } catch (error) {
    ctx.logger.warn("integrity check: no item count for the progress estimate", { error });
    return null;
  }
}

/** The claim's delete as one item of a job's last transaction: only this job's claim goes. */
export function releaseClaim(ctx: CoreContext, jobId: string) {
  return {
    Delete: {
      TableName: ctx.db.table,
      Key: integrityCurrentKey(),
      ConditionExpression: "attribute_not_exists(pk) OR job_id = :job",
      ExpressionAttributeValues: { ":job": jobId },
    },
  };
}

/**
 * Starts a whole-ledger check: writes the job (queued) and claims the ledger in one transaction,
 * then asks the context's queue to run it. 409 while another job runs; a job that cannot be
 * queued is failed at once (503), so it never holds the ledger.
 */
export async function startIntegrityJob(ctx: CoreContext, actor: Actor): Promise<IntegrityJob> {
  const now = ctx.clock();
  const startedAt = now.toISOString();
  const heldBy = await currentClaim(ctx);
  const held = heldBy ? await loadJobItem(ctx, heldBy) : null;
  const stalled = held !== null && !isFinished(held.status) ? held : null;
  if (stalled && now.getTime() - Date.parse(stalled.updated_at) < INTEGRITY_STALL_MS) {
    throw conflict(INTEGRITY_MESSAGES.running, "integrity_check_running");
  }
  const id = newId();
  const item: IntegrityJobItem = {
    ...integrityJobKey(id),
    entity: "integrity_job",
    id,
    scope: "ledger",
    started_by: actor,
    started_at: startedAt,
    as_of: new Date(now.getTime() - INTEGRITY_SETTLE_MS).toISOString(),
    status: "queued",
    updated_at: startedAt,
    finished_at: null,
    error: null,
    step: 0,
    phase: "journals",
    cursor: null,
    shard: 0,
    pages: 0,
    items_examined: 0,
    estimated_items: await estimatedItems(ctx),
    journals_checked: 0,
    accounts_found: 0,
    accounts_checked: 0,
    unbalanced_count: 0,
    unbalanced_samples: [],
    drift_count: 0,
    drift_samples: [],
    currencies: {},
    failures: 0,
    result: null,
  };
  const claim = { ...integrityCurrentKey(), entity: "integrity_claim", job_id: id, since: startedAt };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: ctx.db.table, Item: storedJob(item), ConditionExpression: "attribute_not_exists(pk)" } },
          heldBy
            ? {
                Put: {
                  TableName: ctx.db.table,
                  Item: claim,
                  ConditionExpression: "job_id = :held",
                  ExpressionAttributeValues: { ":held": heldBy },
                },
              }
            : { Put: { TableName: ctx.db.table, Item: claim, ConditionExpression: "attribute_not_exists(pk)" } },
          ...(stalled
            ? [
                {
                  Update: {
                    TableName: ctx.db.table,
                    Key: integrityJobKey(stalled.id),
                    UpdateExpression: "SET #status = :failed, #error = :stalled, finished_at = :now, updated_at = :now",
                    ConditionExpression: "updated_at = :seen",
                    ExpressionAttributeNames: { "#status": "status", "#error": "error" },
                    ExpressionAttributeValues: {
                      ":failed": "failed",
                      ":stalled": INTEGRITY_MESSAGES.stalled,
                      ":now": startedAt,
                      ":seen": stalled.updated_at,
                    },
                  },
                },
              ]
            : []),
        ],
      }),
    );
  } catch (error) {
    // Another start (or the stalled job's own step) got there first.
    if (cancellationCodes(error)) throw conflict(INTEGRITY_MESSAGES.running, "integrity_check_running");
    throw error;
  }
  if (ctx.integrityJobs) {
    try {
      await ctx.integrityJobs.enqueue(id);
    } catch (error) {
      ctx.logger.error("integrity check not queued; failing it", { error, jobId: id });
      await failIntegrityJob(ctx, id, INTEGRITY_MESSAGES.notQueued).catch(() => undefined);
      throw serviceUnavailable(INTEGRITY_MESSAGES.notQueued);
    }
  }
  return jobView(item);
}

/**
 * Ends a job as failed and frees the ledger; `atStep` makes it conditional on the job not having
 * moved on since. False when the job had already finished (or moved on).
 */
export async function failIntegrityJob(
  ctx: CoreContext,
  jobId: string,
  message: string,
  atStep?: number,
): Promise<boolean> {
  const now = ctx.clock().toISOString();
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: ctx.db.table,
              Key: integrityJobKey(jobId),
              UpdateExpression: "SET #status = :failed, #error = :message, finished_at = :now, updated_at = :now",
              ConditionExpression: `#status IN (:queued, :running)${atStep === undefined ? "" : " AND step = :step"}`,
              ExpressionAttributeNames: { "#status": "status", "#error": "error" },
              ExpressionAttributeValues: {
                ":failed": "failed",
                ":message": message,
                ":now": now,
                ":queued": "queued",
                ":running": "running",
                ...(atStep === undefined ? {} : { ":step": atStep }),
              },
            },
          },
          releaseClaim(ctx, jobId),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (cancellationCodes(error)) return false;
    throw error;
  }
}

function checkedJobId(jobId: string): string {
  if (!INTEGRITY_JOB_ID.test(jobId)) throw badRequest(INTEGRITY_MESSAGES.invalidId, "invalid_job_id");
  return jobId.toLowerCase();
}

/** One job, as its starter and every administrator see it: 400 for a malformed id, 404 for an unknown one. */
export async function getIntegrityJob(ctx: CoreContext, jobId: string): Promise<IntegrityJob> {
  const item = await loadJobItem(ctx, checkedJobId(jobId));
  if (!item) throw notFound(INTEGRITY_MESSAGES.notFound, "integrity_job_not_found");
  return jobView(item);
}

/** The most recently started job, whatever its status; null before the first. */
export async function latestIntegrityJob(ctx: CoreContext): Promise<IntegrityJob | null> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :jobs",
      ExpressionAttributeValues: { ":jobs": INTEGRITY_JOBS_PARTITION },
      ProjectionExpression: "id",
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const newest = reply.Items?.[0] as { id?: unknown } | undefined;
  // The index only names it: the job itself is read strongly consistent, for current progress.
  const item = typeof newest?.id === "string" ? await loadJobItem(ctx, newest.id) : null;
  return item ? jobView(item) : null;
}

const LatestResult = z.object({ job_id: z.string() });

/** The newest job that finished with a result, and how long ago it finished; null before the first. */
export async function latestIntegrityResult(
  ctx: CoreContext,
): Promise<{ job: IntegrityJob; result: IntegrityResult; age_seconds: number } | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: integrityLatestResultKey(), ConsistentRead: true }),
  );
  if (!reply.Item) return null;
  const item = await loadJobItem(ctx, LatestResult.parse(reply.Item).job_id);
  if (!item?.result) return null;
  const ageMs = ctx.clock().getTime() - Date.parse(item.result.checked_at);
  return { job: jobView(item), result: item.result, age_seconds: Math.max(0, Math.floor(ageMs / 1000)) };
}
