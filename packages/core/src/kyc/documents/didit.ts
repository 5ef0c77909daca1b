import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { AppError, badRequest } from "../../shared/errors";
import { DocumentType, KYC_LIMITS, KYC_MESSAGES } from "../model";
import { analyseInspected, inspectImage } from "./image-intake";
import { recordOrForget, type RecordedDocument } from "./record-document";
import { documentObjectKey, putDocumentObject } from "./storage";
import { assertSupportedType, requireOpenSubmission } from "./submission-gate";
import { UPLOAD_LEASE_WAIT_MS, withUploadLease } from "./upload-lease";

/**
 * The Didit-style verification (POST /verify/didit): a document picture and an optional face
 * picture as base64 in JSON. Both get the same intake as an upload (image-intake.ts); the
 * document is recorded like one, the face picture is stored beside it for the reviewer.
 */

/** Base64 of 5 MB (4 characters per 3 bytes), plus room for a data: URL prefix. */
const MAX_BASE64_CHARS = Math.ceil(KYC_LIMITS.maxFileBytes / 3) * 4;
const DATA_URL_PREFIX_MAX = 64;
/**
 * Characters a JSON field may carry before it is even looked at (twice the limit: the route's body
 * limit is the real bound).
 */
const MAX_IMAGE_FIELD_CHARS = 2 * (MAX_BASE64_CHARS + DATA_URL_PREFIX_MAX);

const Base64Image = z.string().min(1, "The image is empty").max(MAX_IMAGE_FIELD_CHARS, KYC_MESSAGES.fileTooLarge);

export const DiditVerifyInput = z.strictObject({
  document_image: Base64Image.describe(
    "The document picture, base64 (a data: URL is accepted): JPEG or PNG, at most 5 MB decoded",
  ),
  document_type: DocumentType,
  country_code: z.string().regex(/^[A-Za-z]{2}$/, "country_code must be a two-letter ISO country code"),
  face_image: Base64Image.optional()
    .nullable()
    .describe("A face picture (selfie) stored for the reviewer; no face match is computed"),
});
export type DiditVerifyInput = z.infer<typeof DiditVerifyInput>;

/** The body limit of the Didit route: two images at the 5 MB limit as base64, plus JSON. */
export const DIDIT_MAX_BODY_BYTES = 2 * (MAX_BASE64_CHARS + DATA_URL_PREFIX_MAX) + 4096;

const DATA_URL = /^data:([a-z0-9.+/-]{1,50});base64,/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Decodes a base64 image field (bounded before decoding); the data: URL's type is its declared type. */
export function decodeBase64Image(value: string, field: string): { bytes: Uint8Array; declaredType: string | null } {
  const prefix = DATA_URL.exec(value.slice(0, DATA_URL_PREFIX_MAX));
  const payload = (prefix ? value.slice(prefix[0].length) : value).replace(/\s+/g, "");
  if (payload.length > MAX_BASE64_CHARS) throw new AppError(413, "file_too_large", KYC_MESSAGES.fileTooLarge);
  if (payload.length === 0 || !BASE64.test(payload))
    throw badRequest(`${field} must be a base64-encoded image (a data: URL is accepted)`, "invalid_base64");
  return { bytes: new Uint8Array(Buffer.from(payload, "base64")), declaredType: prefix?.[1] ?? null };
}

export interface DiditResult extends RecordedDocument {
  faceStored: boolean;
}

/**
 * The document picture gets every check of an upload; a face picture, if sent, must be a
 * readable JPEG/PNG within the same budgets and is stored beside the document for the reviewer.
 * No face match is computed, and none is claimed. Both pictures are inspected (file and header)
 * before the submission's upload lease is claimed, and decoded while it is held.
 */
export async function verifyDidit(ctx: CoreContext, userId: string, input: DiditVerifyInput): Promise<DiditResult> {
  const submission = await requireOpenSubmission(ctx, userId);
  if (input.country_code.toUpperCase() !== submission.country.toUpperCase()) {
    throw badRequest(
      `country_code must be the country of your KYC submission (${submission.country})`,
      "country_mismatch",
    );
  }
  assertSupportedType(submission, input.document_type);
  const document = decodeBase64Image(input.document_image, "document_image");
  const face = input.face_image ? decodeBase64Image(input.face_image, "face_image") : null;
  const documentImage = await inspectImage(document.bytes, null, document.declaredType);
  const faceImage = face ? await inspectImage(face.bytes, null, face.declaredType, " (face_image)") : null;

  return withUploadLease(ctx, submission.id, UPLOAD_LEASE_WAIT_MS.api, async () => {
    const { analysis } = await analyseInspected(documentImage);
    if (faceImage) await analyseInspected(faceImage);
    const objectKey = documentObjectKey(userId, submission.id, input.document_type);
    const faceObjectKey = faceImage
      ? documentObjectKey(userId, submission.id, input.document_type, { face: true })
      : null;
    await putDocumentObject(ctx, objectKey, documentImage.bytes, documentImage.contentType);
    if (faceImage && faceObjectKey) await putDocumentObject(ctx, faceObjectKey, faceImage.bytes, faceImage.contentType);
    const recorded = await recordOrForget(
      ctx,
      submission.id,
      faceObjectKey ? [objectKey, faceObjectKey] : [objectKey],
      {
        documentType: input.document_type,
        objectKey,
        fileName: null,
        faceObjectKey,
        analysis,
        refusal: null,
        via: "didit",
      },
    );
    return { ...recorded, faceStored: faceObjectKey !== null };
  });
}
