import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { AppError, badRequest, conflict } from "../../shared/errors";
import { countryDocumentTypes, findCountry } from "../countries";
import { documentObjectRecordKey, IMAGE_HASH_BANDS, imageHashBandKey, imageHashBandPartition } from "../keys";
import { DOCUMENT_TYPE_LABELS, DocumentStatus, DocumentType, ImageChecks, KYC_LIMITS, KYC_MESSAGES, type KycSubmission, type SubmissionDocument } from "../model";
import { changeSubmission, findUserSubmission, getSubmission, SYSTEM_ACTOR, type HistoryInput } from "../submissions";
import { afterApplicantStep } from "../workflow";
import { checkDocumentFile, type FileCheckResult } from "./file-checks";
import { analyseImage, hammingDistance, MAX_INPUT_PIXELS, UnreadableImageError, type ImageAnalysis } from "./image-checks";
import {
  deleteDocumentObject,
  documentObjectKey,
  getObjectBytes,
  parseDocumentObjectKey,
  presignDocumentUpload,
  putDocumentObject,
  type UploadTicket,
} from "./storage";

/**
 * Document uploads, whichever way the bytes arrive: a multipart upload to the API, a presigned
 * POST straight to S3 (checked when S3 says ObjectCreated), or a Didit-style JSON verification
 * with base64 images. All three run the same checks (file-checks.ts: size and magic bytes;
 * image-checks.ts: decode, resolution, focus, glare, pHash) and record the outcome the same way:
 * one changeSubmission with documentUploaded + documentVerified history entries, the pHash band
 * items and the object's record marker, then afterApplicantStep (progress, risk, review).
 *
 * Outcomes:
 * - a file that is no JPEG/PNG, too large, or cannot be decoded is REFUSED: on the API paths a
 *   4xx with the spec's message and nothing stored; on the presigned path (the bytes are already
 *   in S3) the refusal is recorded as a rejected document and the object deleted.
 * - a readable picture that fails a quality check (resolution, blur, glare) is REJECTED: stored,
 *   recorded as the type's current document with status "rejected" and the problems (audit trail,
 *   documentVerified REJECTED on the stream), so the applicant sees why and uploads again.
 * - a picture that passes is VERIFIED (status "verified", progress rises).
 */

/** Duplicate pictures: pHashes at most this many bits apart. The 4-band index finds every pair this close. */
export const MAX_DUPLICATE_DISTANCE = 3;
/**
 * Only a pending submission takes documents, as it takes identity numbers: once it is with a
 * reviewer (or decided) what they review must not change under them. A reviewer's Request Info
 * sends it back to pending.
 */
const OPEN_STATUSES: ReadonlySet<KycSubmission["status"]> = new Set(["pending"]);

export const KYC_NOT_STARTED_MESSAGE = "Start KYC first: there is no KYC submission for this account yet";

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

/* ---------- checks shared by every path ---------- */

/** The user's submission, if it may still take documents. */
async function requireOpenSubmission(ctx: CoreContext, userId: string): Promise<KycSubmission> {
  const submission = await findUserSubmission(ctx, userId);
  if (!submission) throw conflict(KYC_NOT_STARTED_MESSAGE, "kyc_not_started");
  assertOpen(submission);
  return submission;
}

function assertOpen(submission: KycSubmission): void {
  if (!OPEN_STATUSES.has(submission.status)) {
    const message =
      submission.status === "under_review"
        ? "Your KYC submission is under review and its documents cannot be changed now"
        : `This KYC submission is already ${submission.status}; its documents can no longer change`;
    throw conflict(message, "kyc_submission_closed");
  }
}

function assertSupportedType(submission: KycSubmission, documentType: DocumentType): void {
  const accepted = countryDocumentTypes(submission.country);
  if (!accepted.includes(documentType)) {
    const country = findCountry(submission.country)?.country ?? submission.country;
    throw badRequest(
      `${DOCUMENT_TYPE_LABELS[documentType]} is not accepted for ${country}; accepted: ${accepted.map((type) => DOCUMENT_TYPE_LABELS[type]).join(", ")}`,
      "unsupported_document_type",
    );
  }
}

const fileRefusal = (result: Extract<FileCheckResult, { passed: false }>, suffix = "") => new AppError(result.status, result.code, `${result.message}${suffix}`);

function unreadableRefusal(error: UnreadableImageError, suffix = ""): AppError {
  return error.reason === "too_many_pixels"
    ? new AppError(422, "image_too_large", `Image has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels; upload a smaller photo${suffix}`)
    : new AppError(422, "image_unreadable", `${KYC_MESSAGES.notAnImage}: it could not be read as a picture (damaged or incomplete)${suffix}`);
}

export interface CheckedImage {
  contentType: "image/jpeg" | "image/png";
  analysis: ImageAnalysis;
}

/** File checks then image checks; a refusal is thrown as the AppError the API answers with. */
export async function checkImageBytes(bytes: Uint8Array, fileName: string | null, declaredType: string | null, suffix = ""): Promise<CheckedImage> {
  const file = await checkDocumentFile({ bytes, fileName, declaredType });
  if (!file.passed) throw fileRefusal(file, suffix);
  try {
    return { contentType: file.contentType, analysis: await analyseImage(bytes, file.format) };
  } catch (error) {
    if (error instanceof UnreadableImageError) throw unreadableRefusal(error, suffix);
    throw error;
  }
}

/* ---------- recording ---------- */

/** The 4 index items of one picture's pHash (one per 16-bit band), written with its record. */
export function imageHashBandItems(phash: string, submission: Pick<KycSubmission, "id" | "user_id">, documentType: DocumentType, objectKey: string, at: string): Record<string, unknown>[] {
  return Array.from({ length: IMAGE_HASH_BANDS }, (_, band) => ({
    ...imageHashBandKey(band, phash.slice(band * 4, band * 4 + 4), submission.user_id, submission.id, documentType),
    entity: "kyc_image_hash",
    phash,
    user_id: submission.user_id,
    submission_id: submission.id,
    document_type: documentType,
    object_key: objectKey,
    recorded_at: at,
  }));
}

async function alreadyRecorded(ctx: CoreContext, objectKey: string): Promise<boolean> {
  const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: documentObjectRecordKey(objectKey), ConsistentRead: true }));
  return reply.Item !== undefined;
}

interface DocumentOutcome {
  documentType: DocumentType;
  objectKey: string;
  fileName: string | null;
  faceObjectKey: string | null;
  /** The image checks, or null when the file was refused before them (presigned path). */
  analysis: ImageAnalysis | null;
  /** Why the file was refused before the image checks (presigned path), in the spec's words. */
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
async function recordDocument(ctx: CoreContext, submissionId: string, outcome: DocumentOutcome): Promise<RecordedDocument | null> {
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
        note: passed ? `${label} passed the image checks (confidence ${confidence})` : `${label} rejected: ${problems.join("; ")}`,
        event: { type: "documentVerified", data: { documentType: outcome.documentType, status, confidence, ...(passed ? {} : { problems }) } },
      },
    ];
    const extraItems = [
      { ...documentObjectRecordKey(outcome.objectKey), entity: "kyc_object_record", submission_id: current.id, user_id: current.user_id, status, recorded_at: now },
      ...(checks ? imageHashBandItems(checks.phash, current, outcome.documentType, outcome.objectKey, now) : []),
    ];
    const draft: KycSubmission = { ...current, documents: { ...current.documents, [outcome.documentType]: document } };
    return afterApplicantStep(ctx, draft, entries, extraItems);
  });
  if (duplicate) return null;
  const stored = submission.documents[outcome.documentType]!;
  return { submission, document: applicantDocument({ ...stored, refusal: outcome.refusal }), status, confidence, problems };
}

/** "Document verification failed: <the problems>", the 422 an applicant gets for a rejected picture. */
export function rejectionMessage(problems: string[]): string {
  return `Document verification failed: ${problems.join("; ")}`;
}

/* ---------- 1. multipart upload through the API ---------- */

export interface DocumentUploadInput {
  documentType: DocumentType;
  bytes: Uint8Array;
  fileName: string | null;
  declaredType: string | null;
}

/**
 * Checks the file before answering. A refused file (spec messages) changes nothing; a checked
 * picture is stored and recorded, verified or rejected (see the module comment).
 */
export async function acceptDocumentUpload(ctx: CoreContext, userId: string, input: DocumentUploadInput): Promise<RecordedDocument> {
  const submission = await requireOpenSubmission(ctx, userId);
  assertSupportedType(submission, input.documentType);
  const { contentType, analysis } = await checkImageBytes(input.bytes, input.fileName, input.declaredType);
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
}

/** Records, or deletes the objects just stored if the record could not be committed (nothing half-done stays). */
async function recordOrForget(ctx: CoreContext, submissionId: string, objectKeys: string[], outcome: DocumentOutcome): Promise<RecordedDocument> {
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

/* ---------- 2. presigned POST straight to S3 ---------- */

const ACCEPTED_UPLOAD_TYPES: Record<string, "image/jpeg" | "image/png"> = { "image/jpeg": "image/jpeg", "image/jpg": "image/jpeg", "image/png": "image/png" };

export const UploadTicketInput = z.strictObject({
  document_type: DocumentType,
  content_type: z.string().max(100),
});
export type UploadTicketInput = z.infer<typeof UploadTicketInput>;

/** A presigned POST for one picture of `documentType`; only JPEG and PNG content types are signed. */
export async function createUploadTicket(ctx: CoreContext, userId: string, documentType: DocumentType, contentType: string): Promise<UploadTicket> {
  const submission = await requireOpenSubmission(ctx, userId);
  assertSupportedType(submission, documentType);
  const accepted = ACCEPTED_UPLOAD_TYPES[contentType.split(";")[0]!.trim().toLowerCase()];
  if (!accepted) throw new AppError(415, "wrong_image_format", KYC_MESSAGES.wrongImageFormat);
  return presignDocumentUpload(ctx, userId, documentObjectKey(userId, submission.id, documentType), accepted);
}

export type ProcessedObject =
  | { outcome: "verified" | "rejected" | "refused"; submissionId: string; documentType: DocumentType }
  | { outcome: "ignored"; reason: string }
  | { outcome: "already_processed" };

/**
 * S3 ObjectCreated for the KYC bucket (cloud: the kyc-object Lambda; locally: the embedded
 * stack's event delivery). Checks the uploaded bytes like an API upload; a refused file is
 * recorded as a rejected document with the spec's message, then deleted. Keys that are not a
 * presigned document upload are ignored (and logged); a second delivery of the same event
 * changes nothing.
 */
export async function processUploadedObject(ctx: CoreContext, bucket: string, key: string): Promise<ProcessedObject> {
  const log = ctx.logger.child({ bucket, key });
  if (bucket !== ctx.storage.kycBucket) return ignored(log, "not the KYC bucket");
  const parts = parseDocumentObjectKey(key);
  if (!parts || parts.face) return ignored(log, "not a document upload key");
  if (await alreadyRecorded(ctx, key)) return { outcome: "already_processed" };
  const submission = await getSubmission(ctx, parts.submissionId);
  if (!submission || submission.user_id !== parts.userId || !OPEN_STATUSES.has(submission.status)) {
    await deleteDocumentObject(ctx, key);
    return ignored(log, "no open submission of this user; object deleted");
  }
  const object = await getObjectBytes(ctx, key);
  if (object === null) return ignored(log, "object no longer exists");
  const base = { documentType: parts.documentType, objectKey: key, fileName: null, faceObjectKey: null, via: "presigned_upload" as const };
  let outcome: DocumentOutcome;
  if ("tooLarge" in object) {
    outcome = { ...base, analysis: null, refusal: KYC_MESSAGES.fileTooLarge };
  } else {
    try {
      const { analysis } = await checkImageBytes(object.bytes, null, object.contentType);
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
  return { outcome: outcome.refusal ? "refused" : recorded.status === "VERIFIED" ? "verified" : "rejected", submissionId: submission.id, documentType: parts.documentType };
}

function ignored(log: CoreContext["logger"], reason: string): ProcessedObject {
  log.warn("kyc object ignored", { reason });
  return { outcome: "ignored", reason };
}

/* ---------- 3. Didit-style verification with base64 images ---------- */

/** Base64 of 5 MB (4 characters per 3 bytes), plus room for a data: URL prefix. */
const MAX_BASE64_CHARS = Math.ceil(KYC_LIMITS.maxFileBytes / 3) * 4;
const DATA_URL_PREFIX_MAX = 64;
/** Characters a JSON field may carry before it is even looked at (twice the limit: the route's body limit is the real bound). */
const MAX_IMAGE_FIELD_CHARS = 2 * (MAX_BASE64_CHARS + DATA_URL_PREFIX_MAX);

const Base64Image = z.string().min(1, "The image is empty").max(MAX_IMAGE_FIELD_CHARS, KYC_MESSAGES.fileTooLarge);

export const DiditVerifyInput = z.strictObject({
  document_image: Base64Image.describe("The document picture, base64 (a data: URL is accepted): JPEG or PNG, at most 5 MB decoded"),
  document_type: DocumentType,
  country_code: z.string().regex(/^[A-Za-z]{2}$/, "country_code must be a two-letter ISO country code"),
  face_image: Base64Image.optional().nullable().describe("A face picture (selfie) stored for the reviewer; no face match is computed"),
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
  if (payload.length === 0 || !BASE64.test(payload)) throw badRequest(`${field} must be a base64-encoded image (a data: URL is accepted)`, "invalid_base64");
  return { bytes: new Uint8Array(Buffer.from(payload, "base64")), declaredType: prefix?.[1] ?? null };
}

export interface DiditResult extends RecordedDocument {
  faceStored: boolean;
}

/**
 * The Didit-style verification: the document picture gets every check of an upload; a face
 * picture, if sent, must be a readable JPEG/PNG and is stored beside the document for the
 * reviewer. No face match is computed, and none is claimed.
 */
export async function verifyDidit(ctx: CoreContext, userId: string, input: DiditVerifyInput): Promise<DiditResult> {
  const submission = await requireOpenSubmission(ctx, userId);
  if (input.country_code.toUpperCase() !== submission.country.toUpperCase()) {
    throw badRequest(`country_code must be the country of your KYC submission (${submission.country})`, "country_mismatch");
  }
  assertSupportedType(submission, input.document_type);
  const document = decodeBase64Image(input.document_image, "document_image");
  const face = input.face_image ? decodeBase64Image(input.face_image, "face_image") : null;
  const documentImage = await checkImageBytes(document.bytes, null, document.declaredType);
  const faceImage = face ? await checkImageBytes(face.bytes, null, face.declaredType, " (face_image)") : null;

  const objectKey = documentObjectKey(userId, submission.id, input.document_type);
  const faceObjectKey = face ? documentObjectKey(userId, submission.id, input.document_type, { face: true }) : null;
  await putDocumentObject(ctx, objectKey, document.bytes, documentImage.contentType);
  if (face && faceImage && faceObjectKey) await putDocumentObject(ctx, faceObjectKey, face.bytes, faceImage.contentType);
  const recorded = await recordOrForget(ctx, submission.id, faceObjectKey ? [objectKey, faceObjectKey] : [objectKey], {
    documentType: input.document_type,
    objectKey,
    fileName: null,
    faceObjectKey,
    analysis: documentImage.analysis,
    refusal: null,
    via: "didit",
  });
  return { ...recorded, faceStored: faceObjectKey !== null };
}

/* ---------- duplicates ---------- */

export interface SimilarImage {
  userId: string;
  submissionId: string;
  documentType: DocumentType;
  distance: number;
}

const PHASH = /^[0-9a-f]{16}$/;
const BandItem = z.object({ phash: z.string().regex(PHASH), user_id: z.string(), submission_id: z.string(), document_type: DocumentType });

/**
 * Pictures of other users within MAX_DUPLICATE_DISTANCE bits of `phash`: 4 Queries, one per
 * 16-bit band (any hash that close shares at least one band exactly), each candidate checked on
 * its full hash. One row per (user, submission, document type), with its closest distance.
 */
export async function findSimilarImages(ctx: CoreContext, phash: string, excludeUserId: string): Promise<SimilarImage[]> {
  if (!PHASH.test(phash)) return [];
  const closest = new Map<string, SimilarImage>();
  await Promise.all(
    Array.from({ length: IMAGE_HASH_BANDS }, async (_, band) => {
      let cursor: Record<string, unknown> | undefined;
      do {
        const reply = await ctx.db.doc.send(
          new QueryCommand({
            TableName: ctx.db.table,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": imageHashBandPartition(band, phash.slice(band * 4, band * 4 + 4)) },
            ExclusiveStartKey: cursor,
          }),
        );
        for (const raw of reply.Items ?? []) {
          const item = BandItem.safeParse(raw);
          if (!item.success || item.data.user_id === excludeUserId) continue;
          const distance = hammingDistance(phash, item.data.phash);
          if (distance > MAX_DUPLICATE_DISTANCE) continue;
          const id = `${item.data.user_id}#${item.data.submission_id}#${item.data.document_type}`;
          const known = closest.get(id);
          if (!known || distance < known.distance) {
            closest.set(id, { userId: item.data.user_id, submissionId: item.data.submission_id, documentType: item.data.document_type, distance });
          }
        }
        cursor = reply.LastEvaluatedKey;
      } while (cursor);
    }),
  );
  return [...closest.values()].sort((a, b) => a.distance - b.distance);
}
