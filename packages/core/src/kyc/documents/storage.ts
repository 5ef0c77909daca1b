import { GetObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { CoreContext } from "../../shared/context";

/** How long a reviewer's link to a document image works. */
export const DOCUMENT_LINK_SECONDS = 300;

/** A short-lived presigned GET for one private KYC object (reviewers only; checked by the caller). */
export async function presignDocumentDownload(ctx: CoreContext, objectKey: string): Promise<{ url: string; expires_at: string }> {
  const url = await getSignedUrl(ctx.storage.client, new GetObjectCommand({ Bucket: ctx.storage.kycBucket, Key: objectKey }), { expiresIn: DOCUMENT_LINK_SECONDS });
  return { url, expires_at: new Date(ctx.clock().getTime() + DOCUMENT_LINK_SECONDS * 1000).toISOString() };
}
