import { processKycObjectRecords, type S3ObjectRecord } from "@fintech/core/kyc/documents/object-events";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";

/**
 * S3 ObjectCreated:Post on the KYC bucket (a browser's presigned upload, stacks/Storage.ts):
 * checks the uploaded picture and records it on the applicant's submission, deleting a refused
 * file. S3 invokes asynchronously and retries a failed invocation; processing is idempotent.
 *
 * No request reaches this function through CloudFront and it signs, checks or hashes nothing
 * with a key, so it needs neither the origin proof nor any key secret (none is bound to it).
 */
const core = createContext(loadConfig(process.env));

export interface S3NotificationEvent {
  Records?: S3ObjectRecord[];
}

export async function handler(event: S3NotificationEvent): Promise<void> {
  await processKycObjectRecords(core, event.Records ?? []);
}
