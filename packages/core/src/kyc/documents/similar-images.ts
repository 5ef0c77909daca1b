import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../../shared/context";
import { IMAGE_HASH_BANDS, imageHashBandKey, imageHashBandPartition } from "../keys";
import { DocumentType, type KycSubmission } from "../model";
import { hammingDistance } from "./image-checks";

/**
 * The near-duplicate index of document pictures: every recorded picture writes one item per
 * 16-bit band of its pHash (imageHashBandItems, in the record's transaction), and
 * findSimilarImages finds other users' pictures within MAX_DUPLICATE_DISTANCE bits with one
 * Query per band, never a scan.
 */

/** Duplicate pictures: pHashes at most this many bits apart. The 4-band index finds every pair this close. */
export const MAX_DUPLICATE_DISTANCE = 3;

/** The 4 index items of one picture's pHash (one per 16-bit band), written with its record. */
export function imageHashBandItems(
  phash: string,
  submission: Pick<KycSubmission, "id" | "user_id">,
  documentType: DocumentType,
  objectKey: string,
  at: string,
): Record<string, unknown>[] {
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

export interface SimilarImage {
  userId: string;
  submissionId: string;
  documentType: DocumentType;
  distance: number;
}

const PHASH = /^[0-9a-f]{16}$/;
const BandItem = z.object({
  phash: z.string().regex(PHASH),
  user_id: z.string(),
  submission_id: z.string(),
  document_type: DocumentType,
});

/**
 * Pictures of other users within MAX_DUPLICATE_DISTANCE bits of `phash`: 4 Queries, one per
 * 16-bit band (any hash that close shares at least one band exactly), each candidate checked on
 * its full hash. One row per (user, submission, document type), with its closest distance.
 */
export async function findSimilarImages(
  ctx: CoreContext,
  phash: string,
  excludeUserId: string,
): Promise<SimilarImage[]> {
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
            closest.set(id, {
              userId: item.data.user_id,
              submissionId: item.data.submission_id,
              documentType: item.data.document_type,
              distance,
            });
          }
        }
        cursor = reply.LastEvaluatedKey;
      } while (cursor);
    }),
  );
  return [...closest.values()].sort((a, b) => a.distance - b.distance);
}
