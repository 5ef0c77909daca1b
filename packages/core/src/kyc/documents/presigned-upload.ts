import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { AppError } from "../../shared/errors";
import { DocumentType, KYC_MESSAGES } from "../model";
import { getSubmission } from "../submissions";
import { analyseInspected, inspectImage } from "./image-intake";
import { alreadyRecorded, recordDocument, type DocumentOutcome, type RecordedDocument } from "./record-document";
import {
  deleteDocumentObject,
  documentObjectKey,
  getObjectBytes,
  parseDocumentObjectKey,
  presignDocumentUpload,
  UPLOAD_TICKET_SECONDS,
  type UploadTicket,
} from "./storage";
import { assertSupportedType, OPEN_STATUSES, requireOpenSubmission } from "./submission-gate";
import { UPLOAD_LEASE_WAIT_MS, withUploadLease } from "./upload-lease";
import { findUploadTicket, recordUploadTicket, ticketRefusal, type TicketRefusal } from "./upload-tickets";

/**
 * Document pictures sent by the browser straight to S3 with a presigned POST: the ticket is
 * issued (and recorded, upload-tickets.ts) by POST /uploads/presign, and the picture is checked
 * when S3 says ObjectCreated (cloud: the kyc-object Lambda; locally: the embedded stack's event
 * delivery), like an API upload. A refused file is recorded as a rejected document with its
 * message from docs/product/kyc.md#document-step, then deleted.
 */

const ACCEPTED_UPLOAD_TYPES: Record<string, "image/jpeg" | "image/png"> = {
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/png": "image/png",
};

export const UploadTicketInput = z.strictObject({
  document_type: DocumentType,
  content_type: z.string().max(100),
});
export type UploadTicketInput = z.infer<typeof UploadTicketInput>;

/** A presigned POST for one picture of `documentType`, and its ticket; only JPEG and PNG content types are signed. */
export async function createUploadTicket(
  ctx: CoreContext,
  userId: string,
  documentType: DocumentType,
  contentType: string,
): Promise<UploadTicket> {
  const submission = await requireOpenSubmission(ctx, userId);
  assertSupportedType(submission, documentType);
  const accepted = ACCEPTED_UPLOAD_TYPES[contentType.split(";")[0]!.trim().toLowerCase()];
  if (!accepted) throw new AppError(415, "wrong_image_format", KYC_MESSAGES.wrongImageFormat);
  const objectKey = documentObjectKey(userId, submission.id, documentType);
  const issuedAt = ctx.clock();
  await recordUploadTicket(ctx, {
    object_key: objectKey,
    user_id: userId,
    submission_id: submission.id,
    document_type: documentType,
    content_type: accepted,
    issued_at: issuedAt.toISOString(),
    valid_until: new Date(issuedAt.getTime() + UPLOAD_TICKET_SECONDS * 1000).toISOString(),
  });
  return presignDocumentUpload(ctx, userId, objectKey, accepted, issuedAt);
}

export type ProcessedObject =
  | { outcome: "verified" | "rejected" | "refused"; submissionId: string; documentType: DocumentType }
  | { outcome: "ignored"; reason: string }
  | { outcome: "already_processed" };

const TICKET_REFUSALS: Record<TicketRefusal, string> = {
  no_ticket: "no upload ticket for this object key; object deleted",
  ticket_mismatch: "object does not match its upload ticket; object deleted",
  ticket_expired: "upload ticket expired before the object was created; object deleted",
};

/**
 * Checks and records one ObjectCreated object. Attached only through its ticket (an object under
 * another user's prefix, or with no ticket, or made after its ticket expired, is deleted and
 * logged); keys that are not document keys are ignored; a second delivery of the same event
 * changes nothing. `createdAt` is the event's time (when S3 stored the object).
 */
export async function processUploadedObject(
  ctx: CoreContext,
  bucket: string,
  key: string,
  createdAt: Date = ctx.clock(),
): Promise<ProcessedObject> {
  const log = ctx.logger.child({ bucket, key });
  if (bucket !== ctx.storage.kycBucket) return ignored(log, "not the KYC bucket");
  const parts = parseDocumentObjectKey(key);
  if (!parts) return ignored(log, "not a document upload key");
  if (await alreadyRecorded(ctx, key)) return { outcome: "already_processed" };
  const refusal = ticketRefusal(await findUploadTicket(ctx, key), parts, createdAt);
  if (refusal) {
    await deleteDocumentObject(ctx, key);
    return ignored(log, TICKET_REFUSALS[refusal]);
  }
  const submission = await getSubmission(ctx, parts.submissionId);
  if (!submission || submission.user_id !== parts.userId || !OPEN_STATUSES.has(submission.status)) {
    await deleteDocumentObject(ctx, key);
    return ignored(log, "no open submission of this user; object deleted");
  }
  return withUploadLease(ctx, submission.id, UPLOAD_LEASE_WAIT_MS.objectEvent, async () => {
    const object = await getObjectBytes(ctx, key);
    if (object === null) return ignored(log, "object no longer exists");
    const base = {
      documentType: parts.documentType,
      objectKey: key,
      fileName: null,
      faceObjectKey: null,
      via: "presigned_upload" as const,
    };
    let outcome: DocumentOutcome;
    if ("tooLarge" in object) {
      outcome = { ...base, analysis: null, refusal: KYC_MESSAGES.fileTooLarge };
    } else {
      try {
        const { analysis } = await analyseInspected(await inspectImage(object.bytes, null, object.contentType));
        outcome = { ...base, analysis, refusal: null };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcome = { ...base, analysis: null, refusal: error.message };
      }
    }
    // Recorded first, deleted after: if the delete fails, the redelivered event finds the record.
    let recorded: RecordedDocument | null;
    try {
      recorded = await recordDocument(ctx, submission.id, outcome);
    } catch (error) {
      // Decided by a reviewer while this picture was being checked: it no longer belongs anywhere.
      if (!(error instanceof AppError && error.code === "kyc_submission_closed")) throw error;
      await deleteDocumentObject(ctx, key);
      return ignored(log, "submission decided meanwhile; object deleted");
    }
    if (outcome.refusal) await deleteDocumentObject(ctx, key);
    if (!recorded) return { outcome: "already_processed" };
    log.info("kyc object processed", { status: recorded.status, problems: recorded.problems });
    return {
      outcome: outcome.refusal ? "refused" : recorded.status === "VERIFIED" ? "verified" : "rejected",
      submissionId: submission.id,
      documentType: parts.documentType,
    };
  });
}

function ignored(log: CoreContext["logger"], reason: string): ProcessedObject {
  log.warn("kyc object ignored", { reason });
  return { outcome: "ignored", reason };
}
