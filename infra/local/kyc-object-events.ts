import type S3rver from "s3rver";
import type { S3EventRecord } from "s3rver";
import { processKycObjectRecords } from "@fintech/core/kyc/documents/object-events";
import type { CoreContext } from "@fintech/core/shared/context";
import { deliverObjectEvents, type ObjectEventDelivery } from "./object-event-delivery";

/**
 * The embedded stack's stand-in for the cloud's S3 notification (stacks/Storage.ts): the S3
 * emulator's ObjectCreated:Post events on the KYC bucket go to the same processKycObjectRecords
 * the Lambda runs, queued and waited on as object-event-delivery.ts describes.
 */
export type KycObjectEventDelivery = ObjectEventDelivery;

/** The same filter as the cloud's notification: presigned POSTs into the KYC bucket. */
export const isKycUploadRecord = (record: S3EventRecord, kycBucket: string) =>
  record.eventName === "ObjectCreated:Post" && record.s3.bucket.name === kycBucket;

export function deliverKycObjectEvents(server: S3rver, core: CoreContext): KycObjectEventDelivery {
  return deliverObjectEvents(
    server,
    (record) => isKycUploadRecord(record, core.storage.kycBucket),
    (records) => processKycObjectRecords(core, records),
  );
}
