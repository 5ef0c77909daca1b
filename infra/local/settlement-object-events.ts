import type S3rver from "s3rver";
import type { S3EventRecord } from "s3rver";
import { processSettlementObjectRecords } from "@fintech/core/reconciliation/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { settlementsBucket } from "../resources/buckets";
import { deliverObjectEvents, type ObjectEventDelivery } from "./object-event-delivery";

/**
 * The embedded stack's stand-in for the cloud's S3 notification on the settlements bucket
 * (stacks/Storage.ts): the S3 emulator's ObjectCreated events under the incoming prefix, ending in
 * .csv, go to the same processSettlementObjectRecords the cloud's Lambda runs, queued and waited on
 * as object-event-delivery.ts describes.
 */
export type SettlementObjectEventDelivery = ObjectEventDelivery;

/** The same filter as the cloud's notification: objects created under incoming/ ending in .csv. */
export const isSettlementDropRecord = (record: S3EventRecord, bucket: string) => {
  const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, " "));
  return (
    record.eventName.startsWith("ObjectCreated:") &&
    record.s3.bucket.name === bucket &&
    key.startsWith(settlementsBucket.incomingPrefix) &&
    key.endsWith(settlementsBucket.incomingSuffix)
  );
};

export function deliverSettlementObjectEvents(server: S3rver, core: CoreContext): SettlementObjectEventDelivery {
  // A file that failed here is picked up by the nightly run.
  return deliverObjectEvents(
    server,
    (record) => isSettlementDropRecord(record, core.storage.settlementsBucket),
    (records) => processSettlementObjectRecords(core, records),
  );
}
