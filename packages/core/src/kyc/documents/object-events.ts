import type { CoreContext } from "../../shared/context";
import { processUploadedObject, type ProcessedObject } from "./presigned-upload";

/**
 * S3 event notifications for the KYC bucket, as the cloud (S3 -> Lambda) and the embedded S3
 * emulator (s3rver's "event") both deliver them: the same records, the same handler.
 */
export interface S3ObjectRecord {
  eventName: string;
  /** When S3 stored the object (ISO 8601); the ticket's expiry is judged against it. */
  eventTime?: string;
  s3: { bucket: { name: string }; object: { key: string } };
}

/** The record's event time, or the processing time when the record has none (or an unreadable one). */
export function createdAtOf(record: S3ObjectRecord, now: Date): Date {
  const at = record.eventTime ? Date.parse(record.eventTime) : Number.NaN;
  return Number.isFinite(at) ? new Date(at) : now;
}

/** S3 URL-encodes keys in notifications (a space arrives as "+"). */
export function objectKeyOf(record: S3ObjectRecord): string {
  try {
    return decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
  } catch {
    return record.s3.object.key;
  }
}

/**
 * Runs processUploadedObject for every ObjectCreated:Post record: a browser's presigned upload.
 * Other events are not ours; in particular ObjectCreated:Put is the API storing a picture it
 * already checked, which has no ticket and must not be judged as an upload. Every
 * record is tried; if any failed, the first error is thrown afterwards so the delivery is retried
 * (processing is idempotent: records already done change nothing the second time).
 */
export async function processKycObjectRecords(
  ctx: CoreContext,
  records: readonly S3ObjectRecord[],
): Promise<ProcessedObject[]> {
  const results: ProcessedObject[] = [];
  const failures: unknown[] = [];
  for (const record of records) {
    if (record.eventName !== "ObjectCreated:Post") continue;
    try {
      results.push(
        await processUploadedObject(ctx, record.s3.bucket.name, objectKeyOf(record), createdAtOf(record, ctx.clock())),
      );
    } catch (error) {
      ctx.logger.error("kyc object processing failed", { error, key: record.s3.object.key });
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return results;
}
