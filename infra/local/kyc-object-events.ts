import type S3rver from "s3rver";
import type { S3EventRecord } from "s3rver";
import { processKycObjectRecords } from "@fintech/core/kyc/documents/object-events";
import type { CoreContext } from "@fintech/core/shared/context";

/**
 * The embedded stack's stand-in for the cloud's S3 notification (stacks/Storage.ts): the S3
 * emulator's ObjectCreated:Post events on the KYC bucket go to the same processKycObjectRecords
 * the Lambda runs. Deliveries are queued one after another (as a reserved-concurrency-1 consumer
 * would take them), and `idle()` resolves once everything delivered so far has been handled, so
 * tests and shutdown can wait for the checks to finish instead of sleeping.
 */
export interface KycObjectEventDelivery {
  /** Resolves when every event received so far has been processed. */
  idle(): Promise<void>;
  /** Stops listening, then waits for what is queued. */
  stop(): Promise<void>;
}

/** The same filter as the cloud's notification: presigned POSTs into the KYC bucket. */
export const isKycUploadRecord = (record: S3EventRecord, kycBucket: string) =>
  record.eventName === "ObjectCreated:Post" && record.s3.bucket.name === kycBucket;

export function deliverKycObjectEvents(server: S3rver, core: CoreContext): KycObjectEventDelivery {
  let queue: Promise<void> = Promise.resolve();
  const listener = (event: { Records: S3EventRecord[] }) => {
    const records = event.Records.filter((record) => isKycUploadRecord(record, core.storage.kycBucket));
    if (records.length === 0) return;
    queue = queue.then(() =>
      processKycObjectRecords(core, records).then(
        () => undefined,
        // Logged by processKycObjectRecords; the cloud would retry the invocation, here the next upload goes on.
        () => undefined,
      ),
    );
  };
  server.on("event", listener);
  const idle = async () => {
    // An event handled while waiting may not add more, but a caller's upload may have: wait until
    // the queue stands still.
    let seen: Promise<void>;
    do {
      seen = queue;
      await seen;
    } while (seen !== queue);
  };
  return {
    idle,
    async stop() {
      server.off("event", listener);
      await idle();
    },
  };
}
