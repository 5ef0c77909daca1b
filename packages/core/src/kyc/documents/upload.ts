import type { CoreContext } from "../../shared/context";
import type { DocumentType } from "../model";
import { analyseInspected, inspectImage } from "./image-intake";
import { recordOrForget, type RecordedDocument } from "./record-document";
import { documentObjectKey, putDocumentObject } from "./storage";
import { assertSupportedType, requireOpenSubmission } from "./submission-gate";
import { UPLOAD_LEASE_WAIT_MS, withUploadLease } from "./upload-lease";

/**
 * The multipart upload through the API (POST /upload, and the KYC stream's upload command). The
 * other ways in share its parts: presigned-upload.ts (a presigned POST straight to S3) and
 * didit.ts (base64 images in JSON). Every way runs the same intake (image-intake.ts: file checks,
 * pixel budget from the header, then the decode within its time budget, holding the
 * submission's upload lease) and records the same way (record-document.ts).
 *
 * A refused file (the messages of docs/product/kyc.md#document-step; 422 for a picture over the
 * pixel or time budget) changes nothing; a checked picture is stored and recorded, verified or
 * rejected.
 */

export interface DocumentUploadInput {
  documentType: DocumentType;
  bytes: Uint8Array;
  fileName: string | null;
  declaredType: string | null;
}

export async function acceptDocumentUpload(
  ctx: CoreContext,
  userId: string,
  input: DocumentUploadInput,
): Promise<RecordedDocument> {
  const submission = await requireOpenSubmission(ctx, userId);
  assertSupportedType(submission, input.documentType);
  const image = await inspectImage(input.bytes, input.fileName, input.declaredType);
  return withUploadLease(ctx, submission.id, UPLOAD_LEASE_WAIT_MS.api, async () => {
    const { contentType, analysis } = await analyseInspected(image);
    const objectKey = documentObjectKey(userId, submission.id, input.documentType);
    await putDocumentObject(ctx, objectKey, input.bytes, contentType);
    return recordOrForget(ctx, submission.id, [objectKey], {
      documentType: input.documentType,
      objectKey,
      fileName: input.fileName,
      faceObjectKey: null,
      analysis,
      refusal: null,
      via: "upload",
    });
  });
}
