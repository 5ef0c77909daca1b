import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { documentObjectRecordKey } from "../keys";
import {
  DOCUMENT_TYPE_LABELS,
  DocumentStatus,
  DocumentType,
  ImageChecks,
  type KycSubmission,
  type SubmissionDocument,
} from "../model";
import { changeSubmission, SYSTEM_ACTOR, type HistoryInput } from "../submissions";
import { afterApplicantStep } from "../workflow";
import type { ImageAnalysis } from "./image-checks";
import { imageHashBandItems } from "./similar-images";
import { deleteDocumentObject } from "./storage";
import { assertOpen } from "./submission-gate";

/**
 * How a checked document is recorded, whichever way its bytes arrived: one changeSubmission with
 * documentUploaded + documentVerified history entries, the pHash band items and the object's
 * record marker, then afterApplicantStep (progress, risk, review) in the same commit.
 *
 * - a readable picture that fails a quality check (resolution, blur, glare) is REJECTED: stored,
 *   recorded as the type's current document with status "rejected" and the problems (audit trail,
 *   documentVerified REJECTED on the stream), so the applicant sees why and uploads again.
 * - a picture that passes is VERIFIED (status "verified", progress rises).
 * - a presigned upload refused before the image checks is recorded REJECTED with its refusal.
 */

export type RecordedStatus = "VERIFIED" | "REJECTED";

/** A document as the applicant sees it: never the object keys (only reviewers get presigned links). */
export const ApplicantDocument = z.object({
  type: DocumentType,
  status: DocumentStatus,
  uploaded_at: z.string(),
  verified_at: z.string().nullable(),
  file_name: z.string().nullable(),
  checks: ImageChecks.nullable(),
  /** Why the file was refused when it never reached the image checks (presigned uploads). */
  refusal: z.string().nullable(),
  face_uploaded: z.boolean(),
});
export type ApplicantDocument = z.infer<typeof ApplicantDocument>;

export function applicantDocument(document: SubmissionDocument & { refusal?: string | null }): ApplicantDocument {
  return {
    type: document.type,
    status: document.status,
    uploaded_at: document.uploaded_at,
    verified_at: document.verified_at,
    file_name: document.file_name,
    checks: document.checks,
    refusal: document.refusal ?? null,
    face_uploaded: document.face_object_key !== null,
  };
}

export async function alreadyRecorded(ctx: CoreContext, objectKey: string): Promise<boolean> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: documentObjectRecordKey(objectKey), ConsistentRead: true }),
  );
  return reply.Item !== undefined;
}

export interface DocumentOutcome {
  documentType: DocumentType;
  objectKey: string;
  fileName: string | null;
  faceObjectKey: string | null;
  /** The image checks, or null when the file was refused before them (presigned path). */
  analysis: ImageAnalysis | null;
  /**
   * Why the file was refused before the image checks (presigned path), in the words of
   * docs/product/kyc.md#document-step.
   */
  refusal: string | null;
  via: "upload" | "presigned_upload" | "didit";
}

export interface RecordedDocument {
  submission: KycSubmission;
  document: ApplicantDocument;
  status: RecordedStatus;
  confidence: number;
  problems: string[];
}

/**
 * Commits one checked document: the type's current document becomes this one (verified or
 * rejected), two history entries announce it, and afterApplicantStep follows in the same commit.
 * Null if this object was recorded before (a redelivered event).
 */
export async function recordDocument(
  ctx: CoreContext,
  submissionId: string,
  outcome: DocumentOutcome,
): Promise<RecordedDocument | null> {
  const checks = outcome.analysis?.checks ?? null;
  const passed = checks?.passed ?? false;
  const status: RecordedStatus = passed ? "VERIFIED" : "REJECTED";
  const problems = outcome.refusal ? [outcome.refusal] : (checks?.problems ?? []);
  const confidence = outcome.analysis?.confidence ?? 0;
  let duplicate = false;
  const submission = await changeSubmission(ctx, submissionId, async (current) => {
    if (await alreadyRecorded(ctx, outcome.objectKey)) {
      duplicate = true;
      return null;
    }
    assertOpen(current);
    const now = ctx.clock().toISOString();
    const document: SubmissionDocument = {
      type: outcome.documentType,
      status: passed ? "verified" : "rejected",
      uploaded_at: now,
      verified_at: passed ? now : null,
      object_key: outcome.objectKey,
      file_name: outcome.fileName,
      checks,
      face_object_key: outcome.faceObjectKey,
      refusal: outcome.refusal,
    };
    const applicant = { id: current.user_id, name: current.name, role: "applicant" as const };
    const label = DOCUMENT_TYPE_LABELS[outcome.documentType];
    const entries: HistoryInput[] = [
      {
        actor: applicant,
        action: "document_uploaded",
        from: null,
        to: null,
        note: `${label} uploaded (${outcome.via.replace("_", " ")}${outcome.faceObjectKey ? ", with a face image" : ""})`,
        event: { type: "documentUploaded", data: { documentType: outcome.documentType } },
      },
      {
        actor: SYSTEM_ACTOR,
        action: passed ? "document_verified" : "document_rejected",
        from: null,
        to: null,
        note: passed
          ? `${label} passed the image checks (confidence ${confidence})`
          : `${label} rejected: ${problems.join("; ")}`,
        event: {
          type: "documentVerified",
          data: { documentType: outcome.documentType, status, confidence, ...(passed ? {} : { problems }) },
        },
      },
    ];
    const extraItems = [
      {
        ...documentObjectRecordKey(outcome.objectKey),
        entity: "kyc_object_record",
        submission_id: current.id,
        user_id: current.user_id,
        status,
        recorded_at: now,
      },
      ...(checks ? imageHashBandItems(checks.phash, current, outcome.documentType, outcome.objectKey, now) : []),
    ];
    const draft: KycSubmission = { ...current, documents: { ...current.documents, [outcome.documentType]: document } };
    return afterApplicantStep(ctx, draft, entries, extraItems);
  });
  if (duplicate) return null;
  const stored = submission.documents[outcome.documentType]!;
  return {
    submission,
    document: applicantDocument({ ...stored, refusal: outcome.refusal }),
    status,
    confidence,
    problems,
  };
}

/** "Document verification failed: <the problems>", the 422 an applicant gets for a rejected picture. */
export function rejectionMessage(problems: string[]): string {
  return `Document verification failed: ${problems.join("; ")}`;
}

/** Records, or deletes the objects just stored if the record could not be committed (nothing half-done stays). */
export async function recordOrForget(
  ctx: CoreContext,
  submissionId: string,
  objectKeys: string[],
  outcome: DocumentOutcome,
): Promise<RecordedDocument> {
  try {
    const recorded = await recordDocument(ctx, submissionId, outcome);
    // Fresh random keys are never recorded before; a null here would be a bug.
    if (!recorded) throw new Error(`Object ${outcome.objectKey} was already recorded`);
    return recorded;
  } catch (error) {
    await Promise.all(objectKeys.map((key) => deleteDocumentObject(ctx, key).catch(() => undefined)));
    throw error;
  }
}
