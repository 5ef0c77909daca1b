import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startDynamoDbLocal } from "../../../infra/local/dynamodb-local";
import { startS3Emulator } from "../../../infra/local/s3-emulator";
import { TEST_BUCKETS } from "./context";

declare module "vitest" {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    s3Endpoint: string;
  }
}

/** Vitest global setup: one in-memory DynamoDB Local and one S3 emulator for the whole run. */
export default async function setup(project: TestProject) {
  const directory = mkdtempSync(path.join(os.tmpdir(), "fintech-test-s3-"));
  const dynamo = await startDynamoDbLocal();
  const s3 = await startS3Emulator({ directory, corsOrigins: ["*"], bucketNames: TEST_BUCKETS });
  project.provide("dynamodbEndpoint", dynamo.endpoint);
  project.provide("s3Endpoint", s3.endpoint);
  return async () => {
    await s3.stop();
    await dynamo.stop();
    rmSync(directory, { recursive: true, force: true });
  };
}
