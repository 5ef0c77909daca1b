import type { CoreContext } from "../../shared/context";
import { processUploadedObject, type ProcessedObject } from "./upload";

/**
 * S3 event notifications for the KYC bucket, as the cloud (S3 -> Lambda) and the embedded S3
 * emulator (s3rver's "event") both deliver them: the same records, the same handler.
 */
export interface S3ObjectRecord {
  eventName: string;
  s3: { bucket: { name: string }; object: { key: string } };
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
 * Runs processUploadedObject for every ObjectCreated record (other events are not ours). Every
 * record is tried; if any failed, the first error is thrown afterwards so the delivery is retried
 * (processing is idempotent: records already done change nothing the second time).
 */
export async function processKycObjectRecords(ctx: CoreContext, records: readonly S3ObjectRecord[]): Promise<ProcessedObject[]> {
  const results: ProcessedObject[] = [];
  const failures: unknown[] = [];
  for (const record of records) {
    if (!record.eventName.startsWith("ObjectCreated:")) continue;
    try {
      results.push(await processUploadedObject(ctx, record.s3.bucket.name, objectKeyOf(record)));
    } catch (error) {
      ctx.logger.error("kyc object processing failed", { error, key: record.s3.object.key });
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return results;
}
