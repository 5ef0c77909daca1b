import { randomBytes } from "node:crypto";
import { processKycObjectRecords, type S3ObjectRecord } from "@fintech/core/kyc/documents/object-events";
import { loadConfig } from "@fintech/core/shared/config";
import { createContext } from "@fintech/core/shared/context";

/**
 * S3 ObjectCreated:Post on the KYC bucket (a browser's presigned upload, stacks/Storage.ts):
 * checks the uploaded picture and records it on the applicant's submission, deleting a refused
 * file. S3 invokes asynchronously and retries a failed invocation; processing is idempotent.
 *
 * No request reaches this function through CloudFront and it signs or checks no tokens, so it
 * needs neither the origin proof nor the JWT secret. The shared config still requires a
 * JWT_SECRET (for the API's sake): this function gets a random one that nothing ever verifies.
 */
const core = createContext(loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString("hex") }));

export interface S3NotificationEvent {
  Records?: S3ObjectRecord[];
}

export async function handler(event: S3NotificationEvent): Promise<void> {
  await processKycObjectRecords(core, event.Records ?? []);
}
