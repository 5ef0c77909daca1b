import { QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { notFound, unprocessable } from "../shared/errors";
import { newId } from "../shared/ids";
import { parseWith } from "../shared/validation";
import { isLedgerId } from "../ledger/model";
import { RECIPIENT_PREFIX, recipientCounterKey, recipientKey, recipientsPartition } from "./keys";
import { CreateRecipientInput, Recipient, RECIPIENT_MESSAGES, RECIPIENTS_MAX, RenameRecipientInput } from "./model";

/**
 * A user's saved recipients: add, list, rename, delete. Each user's list is theirs alone (every
 * read and write is keyed by the caller's id, so another user's recipient id is the same 404 as
 * an unknown one) and bounded: a counter item, changed in the same transaction as the recipient,
 * refuses the (RECIPIENTS_MAX + 1)-th, however many adds race.
 */

const ENTITY = "payment_recipient";

const notFoundError = () => notFound(RECIPIENT_MESSAGES.notFound, "recipient_not_found");

function parseRecipient(item: Record<string, unknown>): Recipient {
  return Recipient.parse({
    recipientId: item.recipient_id,
    label: item.label,
    kind: item.kind,
    email: item.email ?? null,
    beneficiary: item.beneficiary ?? null,
    createdAt: item.created_at,
    updatedAt: item.updated_at,
  });
}

/** The caller's recipients, by label (a bounded partition: at most RECIPIENTS_MAX items and the counter). */
export async function listRecipients(ctx: CoreContext, userId: string): Promise<Recipient[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": recipientsPartition(userId), ":prefix": RECIPIENT_PREFIX },
      ConsistentRead: true,
    }),
  );
  return (reply.Items ?? [])
    .map(parseRecipient)
    .sort((a, b) => a.label.localeCompare(b.label, "en") || a.createdAt.localeCompare(b.createdAt));
}

export async function addRecipient(ctx: CoreContext, userId: string, body: unknown): Promise<Recipient> {
  const input = parseWith(CreateRecipientInput, body);
  const at = ctx.clock().toISOString();
  const recipient: Recipient = {
    recipientId: newId(),
    label: input.label,
    kind: input.email !== undefined ? "user" : "external",
    email: input.email?.toLowerCase() ?? null,
    beneficiary: input.beneficiary ?? null,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: ctx.db.table,
              Key: recipientCounterKey(userId),
              UpdateExpression: "SET saved = if_not_exists(saved, :zero) + :one, entity = :entity",
              ConditionExpression: "attribute_not_exists(saved) OR saved < :max",
              ExpressionAttributeValues: {
                ":zero": 0,
                ":one": 1,
                ":max": RECIPIENTS_MAX,
                ":entity": "payment_recipient_count",
              },
            },
          },
          {
            Put: {
              TableName: ctx.db.table,
              Item: {
                ...recipientKey(userId, recipient.recipientId),
                entity: ENTITY,
                user_id: userId,
                recipient_id: recipient.recipientId,
                label: recipient.label,
                kind: recipient.kind,
                email: recipient.email,
                beneficiary: recipient.beneficiary,
                created_at: at,
                updated_at: at,
              },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === "ConditionalCheckFailed")
      throw unprocessable(RECIPIENT_MESSAGES.tooMany, "too_many_recipients");
    throw error;
  }
  return recipient;
}

/** Recipient ids are UUIDs: anything else is unknown (and never reaches a key). */
const requireRecipientId = (recipientId: string) => {
  if (!isLedgerId(recipientId)) throw notFoundError();
};

export async function renameRecipient(
  ctx: CoreContext,
  userId: string,
  recipientId: string,
  body: unknown,
): Promise<Recipient> {
  const input = parseWith(RenameRecipientInput, body);
  requireRecipientId(recipientId);
  try {
    const reply = await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: recipientKey(userId, recipientId),
        UpdateExpression: "SET label = :label, updated_at = :at",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":label": input.label, ":at": ctx.clock().toISOString() },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseRecipient(reply.Attributes ?? {});
  } catch (error) {
    if (error instanceof Error && error.name === "ConditionalCheckFailedException") throw notFoundError();
    throw error;
  }
}

export async function deleteRecipient(ctx: CoreContext, userId: string, recipientId: string): Promise<void> {
  requireRecipientId(recipientId);
  try {
    await ctx.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: ctx.db.table,
              Key: recipientKey(userId, recipientId),
              ConditionExpression: "attribute_exists(pk)",
            },
          },
          {
            Update: {
              TableName: ctx.db.table,
              Key: recipientCounterKey(userId),
              UpdateExpression: "SET saved = saved - :one",
              ConditionExpression: "saved > :zero",
              ExpressionAttributeValues: { ":one": 1, ":zero": 0 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === "ConditionalCheckFailed") throw notFoundError();
    throw error;
  }
}
