import http from "node:http";
import https from "node:https";
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { AppConfig } from "./config";
import { timedRequestHandler, type StoreTimeouts } from "./dynamo";

/**
 * The S3 client and the calls storage.ts makes itself, in a module of their own: storage.ts loads
 * it at the first use of object storage, and its named imports keep the S3 SDK tree-shaken (a
 * dynamic import of the SDK itself would bring all of it).
 */

/** s3rver verifies request signatures against this fixed key pair. */
export const S3_EMULATOR_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export function createS3Client(
  config: Pick<AppConfig, "S3_ENDPOINT" | "AWS_REGION">,
  timeouts: StoreTimeouts,
): S3Client {
  const endpoint = config.S3_ENDPOINT;
  const plainHttp = endpoint?.startsWith("http://") ?? false;
  const agent = plainHttp ? new http.Agent({ keepAlive: true }) : new https.Agent({ keepAlive: true });
  return new S3Client({
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
}

export async function sendHeadBucket(client: S3Client, bucket: string): Promise<void> {
  await client.send(new HeadBucketCommand({ Bucket: bucket }));
}
