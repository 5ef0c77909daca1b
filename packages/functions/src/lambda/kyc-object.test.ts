import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext } from "../../../../infra/local/testing";
import { sampleDocumentImage } from "@fintech/core/kyc/documents/sample-images";
import { documentObjectKey, putDocumentObject } from "@fintech/core/kyc/documents/storage";
import { seedSubmission } from "@fintech/core/kyc/review-fixtures";
import { getSubmission } from "@fintech/core/kyc/submissions";

/**
 * The Lambda entry point as S3 invokes it: its context comes from the environment alone (no
 * JWT secret, no origin proof), and the event's keys arrive URL-encoded.
 */

let core: Awaited<ReturnType<typeof createTestContext>>;
let handler: typeof import("./kyc-object").handler;

beforeAll(async () => {
  core = await createTestContext();
  const { config } = core;
  for (const [name, value] of Object.entries({
    STAGE: "test",
    LOG_LEVEL: "silent",
    TABLE_NAME: config.TABLE_NAME,
    DYNAMODB_ENDPOINT: config.DYNAMODB_ENDPOINT,
    S3_ENDPOINT: config.S3_ENDPOINT,
    KYC_BUCKET: config.KYC_BUCKET,
    SETTLEMENTS_BUCKET: config.SETTLEMENTS_BUCKET,
    AWS_LAMBDA_FUNCTION_NAME: "test-KycObjectCreated",
  })) {
    vi.stubEnv(name, value);
  }
  vi.stubEnv("SESSION_KEYS", undefined);
  ({ handler } = await import("./kyc-object"));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await core.dispose();
});

describe("kyc-object Lambda handler", () => {
  it("starts without a JWT secret or origin proof and records an uploaded picture from an S3 event with a URL-encoded key", async () => {
    const userId = randomUUID();
    const submission = await seedSubmission(core, { userId });
    const key = documentObjectKey(userId, submission.id, "passport");
    await putDocumentObject(core, key, await sampleDocumentImage({ seed: 31 }), "image/png");

    await handler({ Records: [{ eventName: "ObjectCreated:Post", s3: { bucket: { name: core.config.KYC_BUCKET }, object: { key: encodeURIComponent(key) } } }] });
    const after = (await getSubmission(core, submission.id))!;
    expect(after.documents.passport).toMatchObject({ status: "verified", object_key: key });

    // Delivered again (S3 retries): nothing changes.
    await handler({ Records: [{ eventName: "ObjectCreated:Post", s3: { bucket: { name: core.config.KYC_BUCKET }, object: { key } } }] });
    expect((await getSubmission(core, submission.id))!.version).toBe(after.version);
    await expect(handler({})).resolves.toBeUndefined();
  });
});
