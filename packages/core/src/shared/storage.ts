import type { S3Client } from "@aws-sdk/client-s3";
import type { AppConfig } from "./config";
import { storeTimeoutsFor, type StoreTimeouts } from "./dynamo";

export interface ObjectStorage {
  /**
   * The S3 client, built at the first call and the same one after. Most requests and most
   * functions never touch a bucket, so the S3 SDK is loaded only then (s3-client.ts; in a
   * code-split bundle, a chunk of its own), not when the context is created.
   */
  client(): Promise<S3Client>;
  kycBucket: string;
  settlementsBucket: string;
  /** Closes the client's sockets, if it was ever built. */
  destroy(): void;
}

export function createObjectStorage(
  config: Pick<AppConfig, "S3_ENDPOINT" | "AWS_REGION" | "KYC_BUCKET" | "SETTLEMENTS_BUCKET">,
  timeouts: StoreTimeouts = storeTimeoutsFor(config.S3_ENDPOINT),
): ObjectStorage {
  let client: Promise<S3Client> | undefined;
  return {
    client() {
      // A load that failed is tried again by the next call.
      client ??= import("./s3-client")
        .then(({ createS3Client }) => createS3Client(config, timeouts))
        .catch((error: unknown) => {
          client = undefined;
          throw error;
        });
      return client;
    },
    kycBucket: config.KYC_BUCKET,
    settlementsBucket: config.SETTLEMENTS_BUCKET,
    destroy() {
      void client?.then(
        (built) => built.destroy(),
        () => undefined,
      );
    },
  };
}

/** A real call against the KYC bucket: proves storage answers and the bucket exists. */
export async function headBucket(storage: ObjectStorage): Promise<void> {
  const [{ sendHeadBucket }, client] = await Promise.all([import("./s3-client"), storage.client()]);
  await sendHeadBucket(client, storage.kycBucket);
}
