import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { uploadTicketKey } from "../keys";
import { DocumentType } from "../model";
import type { DocumentObjectKey } from "./storage";

/**
 * Presign tickets: a presigned POST is issued for one object key, and the ticket records who it
 * was issued to (user, submission, document slot) and until when. The S3 ObjectCreated handler
 * attaches an object only through its ticket: the object key it receives is a claim made by
 * whoever wrote the object, and the presigned policy that holds a browser to its key is S3's
 * guard (absent on an emulator, and on any object written another way), not ours.
 */

/**
 * How long a ticket stays in the table after it expired (the table's TTL sweeps it): longer than
 * S3's redeliveries and the failed-event queue's retention, so a replayed event still finds the
 * ticket its upload was made with.
 */
export const UPLOAD_TICKET_RETENTION_DAYS = 30;
/**
 * An upload S3 accepted just at its policy's expiry may carry an event time this much later (clocks
 * of two machines).
 */
export const TICKET_CLOCK_SKEW_MS = 5_000;

export const UploadTicketRecord = z.object({
  object_key: z.string(),
  user_id: z.string(),
  submission_id: z.string(),
  document_type: DocumentType,
  content_type: z.enum(["image/jpeg", "image/png"]),
  issued_at: z.string(),
  valid_until: z.string(),
});
export type UploadTicketRecord = z.infer<typeof UploadTicketRecord>;

/** Stores a new ticket; object keys are fresh random ids, so an existing ticket is never replaced. */
export async function recordUploadTicket(ctx: CoreContext, ticket: UploadTicketRecord): Promise<void> {
  await ctx.db.doc.send(
    new PutCommand({
      TableName: ctx.db.table,
      Item: {
        ...uploadTicketKey(ticket.object_key),
        entity: "kyc_upload_ticket",
        ...ticket,
        expires_at: Math.ceil(Date.parse(ticket.valid_until) / 1000) + UPLOAD_TICKET_RETENTION_DAYS * 86_400,
      },
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

/** The ticket issued for this object key, or null when there is none (or it is unreadable). */
export async function findUploadTicket(ctx: CoreContext, objectKey: string): Promise<UploadTicketRecord | null> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: uploadTicketKey(objectKey), ConsistentRead: true }),
  );
  const parsed = UploadTicketRecord.safeParse(reply.Item);
  return parsed.success ? parsed.data : null;
}

export type TicketRefusal = "no_ticket" | "ticket_mismatch" | "ticket_expired";

/**
 * Why an object may not be attached through its ticket, or null when it may: there must be a
 * ticket for the key, issued to the user, submission and document slot the key names, and the
 * object must have been created before the ticket expired.
 */
export function ticketRefusal(
  ticket: UploadTicketRecord | null,
  key: DocumentObjectKey,
  createdAt: Date,
): TicketRefusal | null {
  if (!ticket) return "no_ticket";
  if (
    ticket.user_id !== key.userId ||
    ticket.submission_id !== key.submissionId ||
    ticket.document_type !== key.documentType ||
    key.face
  )
    return "ticket_mismatch";
  if (createdAt.getTime() > Date.parse(ticket.valid_until) + TICKET_CLOCK_SKEW_MS) return "ticket_expired";
  return null;
}
