import http from "node:http";
import https from "node:https";
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { AppConfig } from "./config";
import { storeTimeoutsFor, timedRequestHandler, type StoreTimeouts } from "./dynamo";

/** s3rver verifies request signatures against this fixed key pair. */
export const S3_EMULATOR_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface ObjectStorage {
  client: S3Client;
  kycBucket: string;
  settlementsBucket: string;
}

export function createObjectStorage(
  config: Pick<AppConfig, "S3_ENDPOINT" | "AWS_REGION" | "KYC_BUCKET" | "SETTLEMENTS_BUCKET">,
  timeouts: StoreTimeouts = storeTimeoutsFor(config.S3_ENDPOINT),
): ObjectStorage {
  const endpoint = config.S3_ENDPOINT;
  const plainHttp = endpoint?.startsWith("http://") ?? false;
  const agent = plainHttp ? new http.Agent({ keepAlive: true }) : new https.Agent({ keepAlive: true });
  const client = new S3Client({
    region: config.AWS_REGION,
    // Same bounded wait as the table: a stalled bucket endpoint answers 503, it never hangs.
    requestHandler: timedRequestHandler(agent, plainHttp, timeouts),
    maxAttempts: timeouts.maxAttempts,
    ...(endpoint
      ? {
          endpoint,
          credentials: S3_EMULATOR_CREDENTIALS,
          forcePathStyle: true,
          // The emulator rejects the SDK's default CRC32 checksums.
          requestChecksumCalculation: "WHEN_REQUIRED" as const,
          responseChecksumValidation: "WHEN_REQUIRED" as const,
        }
      : {}),
  });
  return { client, kycBucket: config.KYC_BUCKET, settlementsBucket: config.SETTLEMENTS_BUCKET };
}

/** A real call against the KYC bucket: proves storage answers and the bucket exists. */
export async function headBucket(storage: ObjectStorage): Promise<void> {
  await storage.client.send(new HeadBucketCommand({ Bucket: storage.kycBucket }));
}
