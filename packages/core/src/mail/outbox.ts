import { QueryCommand, UpdateCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { newId } from "../shared/ids";
import { mailKey, mailQueueIndex, MAIL_QUEUE_PARTITION } from "./keys";
import { MailMessage, OutboxMail } from "./model";
import type { MailSender } from "./sender";

type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/**
 * The mail outbox: a message is queued by the transaction that makes the change it announces
 * (so nothing is mailed about a change that did not commit, and no committed change goes
 * unannounced), and sent later by deliverQueuedMail, at least once.
 */

/** A transaction item that queues `message`; put it in the transaction of the change it is about. */
export function queueMail(ctx: CoreContext, message: MailMessage): TransactItem {
  const mail = MailMessage.parse(message);
  const id = newId();
  const queuedAt = ctx.clock().toISOString();
  const item: OutboxMail = {
    ...mail,
    id,
    status: "queued",
    queued_at: queuedAt,
    attempts: 0,
    sent_at: null,
    provider_id: null,
  };
  return {
    Put: {
      TableName: ctx.db.table,
      Item: { ...mailKey(id), ...mailQueueIndex(queuedAt, id), entity: "mail", ...item },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

/** Queued messages, oldest first (at most `limit`). */
export async function queuedMail(ctx: CoreContext, limit = 100): Promise<OutboxMail[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :queue",
      ExpressionAttributeValues: { ":queue": MAIL_QUEUE_PARTITION },
      Limit: limit,
    }),
  );
  return (reply.Items ?? []).map((item) => OutboxMail.parse(item));
}

/** A message is given up on (status failed, out of the queue) after this many failed sends. */
export const MAX_SEND_ATTEMPTS = 5;
/** How long a delivery run holds a message it is sending. */
const CLAIM_MS = 60_000;

export interface DeliveryResult {
  sent: number;
  failed: number;
}

/**
 * Sends what is queued through `sender`, oldest first. Each message is claimed first (a
 * conditional write), so runs in two processes never send it at the same time; once the sender
 * accepts it, it leaves the queue and its text is dropped. A send that throws is retried by a
 * later run, up to MAX_SEND_ATTEMPTS.
 */
export async function deliverQueuedMail(
  ctx: CoreContext,
  sender: MailSender,
  options: { limit?: number } = {},
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0 };
  for (const mail of await queuedMail(ctx, options.limit ?? 100)) {
    const nowMs = ctx.clock().getTime();
    if (mail.claimed_until !== undefined && mail.claimed_until > nowMs) continue;
    if (!(await claim(ctx, mail, nowMs))) continue;
    try {
      if (mail.text === undefined) throw new Error("queued mail without text");
      const { providerId } = await sender.send({
        id: mail.id,
        from: ctx.config.MAIL_FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        kind: mail.kind,
      });
      await ctx.db.doc.send(
        new UpdateCommand({
          TableName: ctx.db.table,
          Key: mailKey(mail.id),
          UpdateExpression:
            "SET #status = :sent, sent_at = :at, provider_id = :provider, attempts = attempts + :one REMOVE gsi1pk, gsi1sk, #text, claimed_until",
          ExpressionAttributeNames: { "#status": "status", "#text": "text" },
          ExpressionAttributeValues: {
            ":sent": "sent",
            ":at": ctx.clock().toISOString(),
            ":provider": providerId,
            ":one": 1,
          },
        }),
      );
      ctx.logger.info("mail sent", { mail_id: mail.id, kind: mail.kind, sender: sender.name });
      result.sent += 1;
    } catch (error) {
      const attempts = mail.attempts + 1;
      const givenUp = attempts >= MAX_SEND_ATTEMPTS;
      ctx.logger.warn("mail send failed", {
        mail_id: mail.id,
        kind: mail.kind,
        sender: sender.name,
        attempts,
        given_up: givenUp,
        error,
      });
      await ctx.db.doc.send(
        new UpdateCommand({
          TableName: ctx.db.table,
          Key: mailKey(mail.id),
          UpdateExpression: givenUp
            ? "SET #status = :failed, attempts = :attempts REMOVE gsi1pk, gsi1sk, #text, claimed_until"
            : "SET attempts = :attempts REMOVE claimed_until",
          ExpressionAttributeNames: givenUp ? { "#status": "status", "#text": "text" } : undefined,
          ExpressionAttributeValues: givenUp
            ? { ":failed": "failed", ":attempts": attempts }
            : { ":attempts": attempts },
        }),
      );
      if (givenUp) result.failed += 1;
    }
  }
  return result;
}

async function claim(ctx: CoreContext, mail: OutboxMail, nowMs: number): Promise<boolean> {
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: mailKey(mail.id),
        UpdateExpression: "SET claimed_until = :until",
        ConditionExpression: "#status = :queued AND (attribute_not_exists(claimed_until) OR claimed_until < :now)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":until": nowMs + CLAIM_MS, ":queued": "queued", ":now": nowMs },
      }),
    );
    return true;
  } catch (error) {
    if (isAwsError(error, "ConditionalCheckFailedException")) return false;
    throw error;
  }
}
