import { randomUUID } from "node:crypto";
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from "@aws-sdk/client-s3";
import { createPresignedPost } from "@aws-sdk/s3-presigned-post";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { CoreContext } from "../../shared/context";
import { DOCUMENT_TYPES, KYC_LIMITS, type DocumentType } from "../model";

/** How long a reviewer's link to a document image works. */
export const DOCUMENT_LINK_SECONDS = 300;
/**
 * How long a browser may take to start its presigned upload
 * (docs/kyc.md#documents-three-ways-in-one-set-of-checks).
 */
export const UPLOAD_TICKET_SECONDS = 300;
/** Every KYC object is encrypted at rest with S3-managed keys (the bucket's default, asked for explicitly too). */
export const DOCUMENT_ENCRYPTION = "AES256" as const;

/**
 * Object keys: `<userId>/<submissionId>/<documentType>/<uuid>` for document pictures and
 * `<userId>/<submissionId>/<documentType>/face/<uuid>` for the face picture sent with a Didit-style
 * verification. The user's id first, so a presigned POST can be held to the user's own prefix.
 */
export type DocumentObjectKey = {
  userId: string;
  submissionId: string;
  documentType: DocumentType;
  objectId: string;
  face: boolean;
};

export function documentObjectKey(
  userId: string,
  submissionId: string,
  documentType: DocumentType,
  options: { face?: boolean } = {},
): string {
  return [userId, submissionId, documentType, ...(options.face ? ["face"] : []), randomUUID()].join("/");
}

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const KEY_PATTERN = new RegExp(`^(${ID})/(${ID})/(${DOCUMENT_TYPES.join("|")})/(face/)?(${ID})$`);

/** The parts of a KYC object key, or null for anything that is not one (never trusted further). */
export function parseDocumentObjectKey(key: string): DocumentObjectKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, userId, submissionId, documentType, face, objectId] = match;
  return {
    userId: userId!,
    submissionId: submissionId!,
    documentType: documentType as DocumentType,
    objectId: objectId!,
    face: face !== undefined,
  };
}

/** A short-lived presigned GET for one private KYC object (reviewers only; checked by the caller). */
export async function presignDocumentDownload(
  ctx: CoreContext,
  objectKey: string,
): Promise<{ url: string; expires_at: string }> {
  const url = await getSignedUrl(
    await ctx.storage.client(),
    new GetObjectCommand({ Bucket: ctx.storage.kycBucket, Key: objectKey }),
    { expiresIn: DOCUMENT_LINK_SECONDS },
  );
  return { url, expires_at: new Date(ctx.clock().getTime() + DOCUMENT_LINK_SECONDS * 1000).toISOString() };
}

/** Stores checked bytes privately and encrypted, typed by what the bytes are (never by what the client said). */
export async function putDocumentObject(
  ctx: CoreContext,
  key: string,
  bytes: Uint8Array,
  sniffedType: "image/jpeg" | "image/png",
): Promise<void> {
  await (await ctx.storage.client()).send(
    new PutObjectCommand({
      Bucket: ctx.storage.kycBucket,
      Key: key,
      Body: bytes,
      ContentType: sniffedType,
      ServerSideEncryption: DOCUMENT_ENCRYPTION,
    }),
  );
}

export async function deleteDocumentObject(ctx: CoreContext, key: string): Promise<void> {
  await (await ctx.storage.client()).send(new DeleteObjectCommand({ Bucket: ctx.storage.kycBucket, Key: key }));
}

/**
 * The object's bytes, at most `maxBytes` of them (a presigned POST's size condition is the
 * cloud's guard; this is ours): null if the object is gone (e.g. an event delivered again after
 * the object was refused and deleted), `{ tooLarge: true }` if it is bigger.
 */
export async function getObjectBytes(
  ctx: CoreContext,
  key: string,
  maxBytes: number = KYC_LIMITS.maxFileBytes,
): Promise<{ bytes: Uint8Array; contentType: string | null } | { tooLarge: true } | null> {
  try {
    const reply = await (await ctx.storage.client()).send(
      new GetObjectCommand({ Bucket: ctx.storage.kycBucket, Key: key }),
    );
    if ((reply.ContentLength ?? 0) > maxBytes) {
      await reply.Body?.transformToWebStream().cancel();
      return { tooLarge: true };
    }
    const bytes = (await reply.Body?.transformToByteArray()) ?? new Uint8Array(0);
    return bytes.byteLength > maxBytes ? { tooLarge: true } : { bytes, contentType: reply.ContentType ?? null };
  } catch (error) {
    if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
    throw error;
  }
}

export interface UploadTicket {
  /** POST the form here: every field below, then the file as the last field named `file`. */
  url: string;
  fields: Record<string, string>;
  key: string;
  expires_at: string;
}

/**
 * A presigned POST for one document picture. The signed policy holds the browser to: this exact
 * key (under the user's own prefix), 1 byte to 5 MB, the JPEG or PNG content type it asked for,
 * and S3-managed encryption; it expires after five minutes. The bytes are still checked after
 * the upload (S3 ObjectCreated -> processUploadedObject), and attached only through the ticket
 * recorded with it (upload-tickets.ts): a policy only binds what the client says, not what it
 * sends, and an emulator does not enforce it at all.
 */
export async function presignDocumentUpload(
  ctx: CoreContext,
  userId: string,
  key: string,
  contentType: "image/jpeg" | "image/png",
  issuedAt: Date = ctx.clock(),
): Promise<UploadTicket> {
  const { url, fields } = await createPresignedPost(await ctx.storage.client(), {
    Bucket: ctx.storage.kycBucket,
    Key: key,
    Conditions: [
      ["starts-with", "$key", `${userId}/`],
      ["content-length-range", 1, KYC_LIMITS.maxFileBytes],
      ["eq", "$Content-Type", contentType],
    ],
    // Pre-filled fields become exact-match conditions of the policy too.
    Fields: { "Content-Type": contentType, "x-amz-server-side-encryption": DOCUMENT_ENCRYPTION },
    Expires: UPLOAD_TICKET_SECONDS,
  });
  return { url, fields, key, expires_at: new Date(issuedAt.getTime() + UPLOAD_TICKET_SECONDS * 1000).toISOString() };
}
