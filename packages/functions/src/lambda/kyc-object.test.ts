import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { createUploadTicket } from "@fintech/core/kyc/documents/presigned-upload";
import {
  documentObjectKey,
  getObjectBytes,
  putDocumentObject,
  UPLOAD_TICKET_SECONDS,
} from "@fintech/core/kyc/documents/storage";
import { TICKET_CLOCK_SKEW_MS } from "@fintech/core/kyc/documents/upload-tickets";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { getSubmission, listHistory } from "@fintech/core/kyc/submissions";

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
    const { key } = await createUploadTicket(core, userId, "passport", "image/png");
    await putDocumentObject(core, key, await sampleDocumentImage({ seed: 31 }), "image/png");

    await handler({
      Records: [
        {
          eventName: "ObjectCreated:Post",
          s3: { bucket: { name: core.config.KYC_BUCKET }, object: { key: encodeURIComponent(key) } },
        },
      ],
    });
    const after = (await getSubmission(core, submission.id))!;
    expect(after.documents.passport).toMatchObject({ status: "verified", object_key: key });

    // Delivered again (S3 retries): nothing changes.
    await handler({
      Records: [{ eventName: "ObjectCreated:Post", s3: { bucket: { name: core.config.KYC_BUCKET }, object: { key } } }],
    });
    expect((await getSubmission(core, submission.id))!.version).toBe(after.version);
    await expect(handler({})).resolves.toBeUndefined();
  });

  /** A user with a started submission, and what the submission and its history are now. */
  async function applicant() {
    const userId = randomUUID();
    const submission = await seedSubmission(core, { userId });
    return {
      userId,
      submission,
      snapshot: async () => ({
        submission: await getSubmission(core, submission.id),
        history: await listHistory(core, submission.id),
      }),
    };
  }
  const postEvent = (key: string, eventTime?: string) => ({
    Records: [
      {
        eventName: "ObjectCreated:Post",
        ...(eventTime ? { eventTime } : {}),
        s3: { bucket: { name: core.config.KYC_BUCKET }, object: { key } },
      },
    ],
  });

  it("does not attach an object under another user's prefix: no ticket was issued for its key, so it is deleted", async () => {
    const victim = await applicant();
    const before = await victim.snapshot();
    const attacker = await applicant();
    // The attacker holds a ticket of their own, and writes under the victim's prefix and submission.
    await createUploadTicket(core, attacker.userId, "passport", "image/png");
    const planted = documentObjectKey(victim.userId, victim.submission.id, "passport");
    await putDocumentObject(core, planted, await sampleDocumentImage({ seed: 32 }), "image/png");

    await handler(postEvent(planted));
    expect(await victim.snapshot()).toEqual(before);
    expect(await getObjectBytes(core, planted)).toBeNull();
  });

  it("does not attach an object without a ticket, even under the uploader's own prefix", async () => {
    const me = await applicant();
    const before = await me.snapshot();
    const key = documentObjectKey(me.userId, me.submission.id, "passport");
    await putDocumentObject(core, key, await sampleDocumentImage({ seed: 33 }), "image/png");

    await handler(postEvent(key));
    expect(await me.snapshot()).toEqual(before);
    expect(await getObjectBytes(core, key)).toBeNull();
  });

  it("does not attach an object created after its ticket expired; one created in time is attached", async () => {
    const me = await applicant();
    const before = await me.snapshot();
    const late = await createUploadTicket(core, me.userId, "passport", "image/png");
    await putDocumentObject(core, late.key, await sampleDocumentImage({ seed: 34 }), "image/png");
    const afterExpiry = new Date(Date.parse(late.expires_at) + TICKET_CLOCK_SKEW_MS + 1).toISOString();

    await handler(postEvent(late.key, afterExpiry));
    expect(await me.snapshot()).toEqual(before);
    expect(await getObjectBytes(core, late.key)).toBeNull();

    const onTime = await createUploadTicket(core, me.userId, "passport", "image/png");
    await putDocumentObject(core, onTime.key, await sampleDocumentImage({ seed: 35 }), "image/png");
    const withinTicket = new Date(Date.parse(onTime.expires_at) - (UPLOAD_TICKET_SECONDS * 1000) / 2).toISOString();
    await handler(postEvent(onTime.key, withinTicket));
    expect((await getSubmission(core, me.submission.id))!.documents.passport).toMatchObject({
      status: "verified",
      object_key: onTime.key,
    });
  });
});
