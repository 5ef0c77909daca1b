import type { z } from "zod";
import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { announceCommits } from "../events/feed";
import { kycOpsIndex, opsHintPartition } from "../ops/outbox";
import type { CoreContext } from "../shared/context";
import { cancellationCodes, isAwsError, queryAll } from "../shared/dynamo";
import { AppError, conflict, notFound } from "../shared/errors";
import { newId } from "../shared/ids";
import {
  activeSubmissionKey,
  kycFeedPartition,
  historyFeedIndex,
  historyKey,
  HISTORY_PREFIX,
  submissionKey,
  submissionsIndex,
} from "./keys";
import { KycHistoryEntry, KycSubmission, KYC_MESSAGES, type KycStatus } from "./model";

/**
 * The submission store. A submission is one item; every change to it appends one or more
 * history entries in the same transaction, under a version condition. The history is at once
 * the audit trail (who, when, from, to, note) and the outbox the KYC stream reads: nothing is
 * announced or audited that was not committed, and nothing is committed without its entry.
 */

export type HistoryInput = Omit<KycHistoryEntry, "seq" | "at"> & { at?: string };

export const SYSTEM_ACTOR = { id: "system", name: "Automated checks", role: "system" } as const;

const MAX_CHANGE_ATTEMPTS = 8;

/**
 * 409 `kyc_submission_busy`: other changes to the same submission kept winning (or, for uploads,
 * another upload holds documents/upload-lease.ts). Contention on one submission, not an outage,
 * so not a 503: the client retries after Retry-After.
 */
export const submissionBusy = (
  message = "This KYC submission is busy with other changes; try again in a moment",
  retryAfterSeconds = 1,
) =>
  new AppError(409, "kyc_submission_busy", message, {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

function historyItem(submission: KycSubmission, seq: number, entry: HistoryInput, at: string) {
  const stored: KycHistoryEntry = { ...entry, seq, at: entry.at ?? at };
  return {
    ...historyKey(submission.id, seq),
    ...historyFeedIndex(submission.user_id, at, submission.id, seq),
    entity: "kyc_history",
    submission_id: submission.id,
    user_id: submission.user_id,
    committed_at: at,
    entry: stored,
  };
}

/** The submission item, listed for reviewers and in the administrators' ops feed (docs/money-operations.md#ops-console). */
function submissionItem(submission: KycSubmission) {
  return {
    ...submissionKey(submission.id),
    ...submissionsIndex(submission.submitted_at, submission.id),
    ...kycOpsIndex(submission),
    entity: "kyc_submission",
    ...submission,
  };
}

export function parseSubmission(item: Record<string, unknown>): KycSubmission {
  return KycSubmission.parse(item);
}

export async function getSubmission(ctx: CoreContext, submissionId: string): Promise<KycSubmission | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: submissionKey(submissionId), ConsistentRead: true }),
  );
  return reply.Item ? parseSubmission(reply.Item) : null;
}

export async function requireSubmission(ctx: CoreContext, submissionId: string): Promise<KycSubmission> {
  const submission = await getSubmission(ctx, submissionId);
  if (!submission) throw notFound("KYC submission not found", "kyc_submission_not_found");
  return submission;
}

/** The user's current submission, or null if they never started (or their last one was rejected and replaced). */
export async function findUserSubmission(ctx: CoreContext, userId: string): Promise<KycSubmission | null> {
  const pointer = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: activeSubmissionKey(userId), ConsistentRead: true }),
  );
  const submissionId = pointer.Item?.submission_id;
  return typeof submissionId === "string" ? getSubmission(ctx, submissionId) : null;
}

/** A submission as a start describes it (defaults, e.g. origin.device, filled in by the schema). */
export type NewSubmission = Omit<z.input<typeof KycSubmission>, "id" | "version" | "submitted_at" | "updated_at">;

/**
 * Creates the user's submission. One active submission per user: the pointer item is claimed
 * conditionally, so two concurrent starts give one submission and one 409. A user whose current
 * submission was rejected may start again (the pointer moves to the new one).
 */
export async function createSubmission(
  ctx: CoreContext,
  fields: NewSubmission,
  entry: HistoryInput,
  /** Written in the same transaction (e.g. velocity items), given the new submission. */
  extraItems: (submission: KycSubmission) => Record<string, unknown>[] = () => [],
): Promise<KycSubmission> {
  const now = ctx.clock().toISOString();
  const submission = KycSubmission.parse({ ...fields, id: newId(), version: 1, submitted_at: now, updated_at: now });
  const previous = await findUserSubmission(ctx, fields.user_id);
  if (previous && previous.status !== "rejected") throw conflict(KYC_MESSAGES.alreadyStarted, "kyc_already_started");
  const pointerCondition = previous
    ? { ConditionExpression: "submission_id = :previous", ExpressionAttributeValues: { ":previous": previous.id } }
    : { ConditionExpression: "attribute_not_exists(pk)" };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...activeSubmissionKey(fields.user_id), submission_id: submission.id, updated_at: now },
              ...pointerCondition,
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: submissionItem(submission),
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: historyItem(submission, 1, entry, now),
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          ...extraItems(submission).map((Item) => ({ Put: { TableName: ctx.db.table, Item } })),
          // A reviewer reopening the rejected submission meanwhile keeps it the user's one.
          ...(previous
            ? [
                {
                  ConditionCheck: {
                    TableName: ctx.db.table,
                    Key: submissionKey(previous.id),
                    ConditionExpression: "#status = :rejected",
                    ExpressionAttributeNames: { "#status": "status" },
                    ExpressionAttributeValues: { ":rejected": "rejected" },
                  },
                },
              ]
            : []),
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.some((code) => code === "ConditionalCheckFailed"))
      throw conflict(KYC_MESSAGES.alreadyStarted, "kyc_already_started");
    throw error;
  }
  announceHistory(ctx, submission.user_id, now);
  return submission;
}

/** Wakes this process's readers of the user's KYC stream at once (other processes poll). */
function announceHistory(ctx: CoreContext, userId: string, committedAt: string): void {
  announceCommits(ctx, [
    { gsi2pk: kycFeedPartition(userId), committed_at: committedAt },
    { gsi2pk: opsHintPartition("kyc"), committed_at: committedAt },
  ]);
}

export interface SubmissionChange {
  next: KycSubmission;
  entries: HistoryInput[];
  /** Further items written in the same transaction (e.g. an identity-number claim). */
  extraItems?: Record<string, unknown>[];
  /** Conditions on other items that must hold when the change commits (a failed one is a lost race: recomputed). */
  conditions?: {
    key: Record<string, string>;
    expression: string;
    values: Record<string, unknown>;
    names?: Record<string, string>;
  }[];
  /**
   * Work on other submissions that follows this commit (e.g. re-scoring linked ones). Run once,
   * after the commit, awaited; its failure is logged and does not undo or fail the change.
   */
  afterCommit?: (committed: KycSubmission) => Promise<void>;
}

/**
 * Reads the submission, lets `change` compute the next state and its history entries (or throw
 * an AppError, which changes nothing), and commits both only if nobody changed the submission in
 * between; on a lost race it reads again and recomputes. `change` returning null means "nothing
 * to do" and the current state is returned.
 */
export async function changeSubmission(
  ctx: CoreContext,
  submissionId: string,
  change: (current: KycSubmission) => SubmissionChange | null | Promise<SubmissionChange | null>,
): Promise<KycSubmission> {
  for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt += 1) {
    const current = await requireSubmission(ctx, submissionId);
    const planned = await change(current);
    if (!planned || planned.entries.length === 0) return current;
    const now = ctx.clock().toISOString();
    const next: KycSubmission = {
      ...planned.next,
      id: current.id,
      user_id: current.user_id,
      submitted_at: current.submitted_at,
      version: current.version + planned.entries.length,
      updated_at: now,
    };
    try {
      await ctx.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: ctx.db.table,
                Item: submissionItem(next),
                ConditionExpression: "version = :expected",
                ExpressionAttributeValues: { ":expected": current.version },
              },
            },
            ...planned.entries.map((entry, index) => ({
              Put: {
                TableName: ctx.db.table,
                Item: historyItem(next, current.version + 1 + index, entry, now),
                ConditionExpression: "attribute_not_exists(pk)",
              },
            })),
            ...(planned.extraItems ?? []).map((Item) => ({ Put: { TableName: ctx.db.table, Item } })),
            ...(planned.conditions ?? []).map((condition) => ({
              ConditionCheck: {
                TableName: ctx.db.table,
                Key: condition.key,
                ConditionExpression: condition.expression,
                ExpressionAttributeValues: condition.values,
                ...(condition.names ? { ExpressionAttributeNames: condition.names } : {}),
              },
            })),
          ],
        }),
      );
      announceHistory(ctx, next.user_id, now);
      if (planned.afterCommit) {
        await planned
          .afterCommit(next)
          .catch((error: unknown) =>
            ctx.logger.error("work after a KYC change failed", { error, submission_id: next.id }),
          );
      }
      return next;
    } catch (error) {
      const codes = cancellationCodes(error);
      const lostRace = codes?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict");
      if (!lostRace && !isAwsError(error, "TransactionConflictException")) throw error;
    }
  }
  throw submissionBusy();
}

/** The submission's history, oldest first (the audit trail and the stream's source). */
export async function listHistory(ctx: CoreContext, submissionId: string): Promise<KycHistoryEntry[]> {
  const items = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": submissionKey(submissionId).pk, ":prefix": HISTORY_PREFIX },
    ConsistentRead: true,
  });
  return items.map((item) => KycHistoryEntry.parse(item.entry));
}

/** History entries with from <= seq <= to, oldest first, strongly consistent (for the feed's gap fill). */
export async function historyRange(
  ctx: CoreContext,
  submissionId: string,
  from: number,
  to: number,
): Promise<Record<string, unknown>[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: {
        ":pk": submissionKey(submissionId).pk,
        ":from": historyKey(submissionId, from).sk,
        ":to": historyKey(submissionId, to).sk,
      },
      ConsistentRead: true,
    }),
  );
  return reply.Items ?? [];
}

/** A status change entry, for reviewers' decisions and the automatic move to review. */
export function statusEntry(
  actor: HistoryInput["actor"],
  action: string,
  from: KycStatus,
  to: KycStatus,
  note: string | null,
  event: HistoryInput["event"] = null,
): HistoryInput {
  return { actor, action, from, to, note, event };
}
