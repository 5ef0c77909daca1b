import { GetCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { findUserById } from "../auth/users";
import { findUserSubmission } from "../kyc/submissions";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { conflict, notFound } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { manualLevelChangeKey, manualLevelKey, MANUAL_LEVEL_CHANGE_PREFIX } from "./keys";
import { LIMIT_MESSAGES, LimitsEditor, ManualLevelInput, VerificationLevel, type LevelSource } from "./model";

/**
 * A user's verification level: `verified` once their KYC submission is approved, `unverified`
 * before (none, pending, under review, rejected). An administrator may set a level for one user
 * (a business verified outside the wizard, or a verified user held back while a case is open);
 * that decision is kept with who, when and why, and wins over the KYC state until removed.
 */

export interface UserLevel {
  level: VerificationLevel;
  source: LevelSource;
}

const ManualLevel = z.object({
  level: VerificationLevel,
  reason: z.string(),
  at: z.string(),
  by: LimitsEditor,
  seq: z.number().int().positive(),
});
export type ManualLevel = z.infer<typeof ManualLevel>;

export const ManualLevelChange = z.object({
  seq: z.number().int().positive(),
  user_id: z.string(),
  level: VerificationLevel.nullable(),
  previous: VerificationLevel.nullable(),
  reason: z.string(),
  at: z.string(),
  by: LimitsEditor,
});
export type ManualLevelChange = z.infer<typeof ManualLevelChange>;

async function manualLevelOf(
  ctx: CoreContext,
  userId: string,
): Promise<(ManualLevel & { stored: true }) | { stored: false; seq: number } | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: manualLevelKey(userId), ConsistentRead: true }),
  );
  if (!reply.Item) return null;
  // A removed override leaves its item without a level, keeping the sequence of its changes.
  if (reply.Item.level === null || reply.Item.level === undefined)
    return { stored: false, seq: Number(reply.Item.seq ?? 0) };
  return { ...ManualLevel.parse(reply.Item), stored: true };
}

/** The caller's level now (both reads every time: the KYC state and an administrator's decision). */
export async function userLevel(ctx: CoreContext, userId: string): Promise<UserLevel> {
  const [manual, submission] = await Promise.all([manualLevelOf(ctx, userId), findUserSubmission(ctx, userId)]);
  if (manual?.stored) return { level: manual.level, source: "manual" };
  return { level: submission?.status === "verified" ? "verified" : "unverified", source: "kyc" };
}

/**
 * PUT /api/v1/ledger/limits/users/{userId}/level: sets (or with `level: null` removes) an
 * administrator's level for a user, with a reason, audited in one transaction.
 */
export async function setManualLevel(
  ctx: CoreContext,
  userId: string,
  body: unknown,
  editor: LimitsEditor,
): Promise<UserLevel> {
  const input = parseWith(ManualLevelInput, body);
  if (!(await findUserById(ctx.db, userId))) throw notFound(LIMIT_MESSAGES.userNotFound, "user_not_found");
  await holdLevel(ctx, userId, input, editor);
  return userLevel(ctx, userId);
}

/** Records an administrator's level for `userId` (null: removed) and its change item, under the sequence read. */
export async function holdLevel(
  ctx: CoreContext,
  userId: string,
  input: ManualLevelInput,
  editor: LimitsEditor,
): Promise<void> {
  const current = await manualLevelOf(ctx, userId);
  const seq = (current?.seq ?? 0) + 1;
  const at = ctx.clock().toISOString();
  const previous = current?.stored ? current.level : null;
  const change: ManualLevelChange = {
    seq,
    user_id: userId,
    level: input.level,
    previous,
    reason: input.reason,
    at,
    by: editor,
  };
  const guard = current
    ? { ConditionExpression: "seq = :seen", ExpressionAttributeValues: { ":seen": current.seq } }
    : { ConditionExpression: "attribute_not_exists(pk)" };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: ctx.db.table,
              Item: {
                ...manualLevelKey(userId),
                entity: "manual_level",
                user_id: userId,
                level: input.level,
                reason: input.reason,
                at,
                by: editor,
                seq,
              },
              ...guard,
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: { ...manualLevelChangeKey(userId, seq), entity: "manual_level_change", ...change },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.some((code) => code === "ConditionalCheckFailed" || code === "TransactionConflict")) {
      throw conflict(
        "This user's level was changed by someone else at the same time; reload and try again",
        "level_changed",
      );
    }
    throw error;
  }
  ctx.logger.info("verification level set", { user_id: userId, level: input.level, by: editor.id });
}

/** The administrators' level decisions for a user, newest first (at most 20). */
export async function manualLevelHistory(ctx: CoreContext, userId: string): Promise<ManualLevelChange[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": manualLevelKey(userId).pk, ":prefix": MANUAL_LEVEL_CHANGE_PREFIX },
      ScanIndexForward: false,
      Limit: 20,
      ConsistentRead: true,
    }),
  );
  return (reply.Items ?? []).map((item) => ManualLevelChange.parse(item));
}
