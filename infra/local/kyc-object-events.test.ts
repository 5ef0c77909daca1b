import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { getObjectBytes } from "@fintech/core/kyc/documents/storage";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { createUploadTicket } from "@fintech/core/kyc/documents/presigned-upload";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { getSubmission, listHistory } from "@fintech/core/kyc/submissions";
import { processKycObjectRecords } from "@fintech/core/kyc/documents/object-events";
import { deliverKycObjectEvents, isKycUploadRecord, type KycObjectEventDelivery } from "./kyc-object-events";
import { startS3Emulator, type S3Emulator } from "./s3-emulator";
import { createTestContext, TEST_BUCKETS } from "@fintech/testing/context";

/**
 * A browser-style upload through the S3 emulator: a presigned POST sent with fetch + FormData,
 * whose ObjectCreated event the embedded stack's delivery hands to the same handler the cloud's
 * S3 notification invokes. This file runs its own emulator so the events reach this process.
 */

let directory: string;
let emulator: S3Emulator;
let core: Awaited<ReturnType<typeof createTestContext>>;
let delivery: KycObjectEventDelivery;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "fintech-kyc-events-"));
  emulator = await startS3Emulator({ directory, corsOrigins: ["*"], bucketNames: TEST_BUCKETS });
  core = await createTestContext({ S3_ENDPOINT: emulator.endpoint });
  delivery = deliverKycObjectEvents(emulator.server, core);
});
afterAll(async () => {
  await delivery?.stop();
  await core?.dispose();
  await emulator?.stop();
  rmSync(directory, { recursive: true, force: true });
});

/** What a browser does with a ticket: every field, then the file last (`fields` overrides some, as a forger would). */
async function postToS3(
  ticket: Awaited<ReturnType<typeof createUploadTicket>>,
  bytes: Uint8Array,
  type: string,
  fields: Record<string, string> = {},
): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...ticket.fields, ...fields })) form.append(name, value);
  form.append("file", new Blob([bytes], { type }), "document");
  const response = await fetch(ticket.url, { method: "POST", body: form });
  await response.arrayBuffer();
  return response.status;
}

async function started(country = "IN") {
  const userId = randomUUID();
  return { userId, submission: await seedSubmission(core, { userId, country }) };
}

describe("presigned upload -> S3 ObjectCreated -> document checks (embedded stack)", () => {
  it("a good PNG ends verified on the submission, with both stream events", async () => {
    const { userId, submission } = await started();
    const ticket = await createUploadTicket(core, userId, "passport", "image/png");
    expect(await postToS3(ticket, await sampleDocumentImage({ seed: 21 }), "image/png")).toBeLessThan(300);
    await delivery.idle();

    const after = (await getSubmission(core, submission.id))!;
    expect(after.documents.passport).toMatchObject({
      status: "verified",
      object_key: ticket.key,
      checks: { passed: true, format: "png" },
    });
    expect(after.progress).toBe(25);
    const verdict = (await listHistory(core, submission.id)).find((entry) => entry.event?.type === "documentVerified");
    expect(verdict?.event?.data).toMatchObject({ documentType: "passport", status: "VERIFIED" });
    expect(await getObjectBytes(core, ticket.key)).not.toBeNull();
  });

  it("a text file sent as image/png is deleted and recorded as rejected with the documented message; a redelivery changes nothing", async () => {
    const { userId, submission } = await started();
    const ticket = await createUploadTicket(core, userId, "idCard", "image/png");
    expect(await postToS3(ticket, new TextEncoder().encode("definitely not a picture"), "image/png")).toBeLessThan(300);
    await delivery.idle();

    const after = (await getSubmission(core, submission.id))!;
    expect(after.documents.idCard).toMatchObject({
      status: "rejected",
      checks: null,
      object_key: ticket.key,
      refusal: KYC_MESSAGES.wrongImageFormat,
    });
    expect(after.progress).toBe(0);
    const history = await listHistory(core, submission.id);
    const verdict = history.find((entry) => entry.event?.type === "documentVerified");
    expect(verdict?.event?.data).toMatchObject({
      documentType: "idCard",
      status: "REJECTED",
      problems: [KYC_MESSAGES.wrongImageFormat],
    });
    expect(await getObjectBytes(core, ticket.key)).toBeNull();

    // S3 delivers at least once: the same event again finds the record and does nothing.
    emulator.server.emit("event", {
      Records: [
        { eventName: "ObjectCreated:Post", s3: { bucket: { name: TEST_BUCKETS.kyc }, object: { key: ticket.key } } },
      ],
    });
    await delivery.idle();
    expect(await listHistory(core, submission.id)).toEqual(history);
    expect((await getSubmission(core, submission.id))!.version).toBe(after.version);
  });

  it("ignores objects that are not presigned document uploads, and the API's own puts", async () => {
    const { userId, submission } = await started();
    const before = await listHistory(core, submission.id);
    const record = (eventName: string, key: string) => ({
      eventName,
      s3: { bucket: { name: TEST_BUCKETS.kyc }, object: { key } },
    });
    // The API stores pictures it already checked with PutObject: those events are not delivered.
    expect(
      isKycUploadRecord(
        record("ObjectCreated:Put", `${userId}/${submission.id}/passport/${randomUUID()}`),
        TEST_BUCKETS.kyc,
      ),
    ).toBe(false);
    expect(
      isKycUploadRecord(
        {
          ...record("ObjectCreated:Post", "x"),
          s3: { bucket: { name: TEST_BUCKETS.settlements }, object: { key: "x" } },
        },
        TEST_BUCKETS.kyc,
      ),
    ).toBe(false);
    expect(
      await processKycObjectRecords(core, [
        record("ObjectCreated:Post", `${userId}/notes.txt`),
        record("ObjectRemoved:Delete", `${userId}/${submission.id}/passport/${randomUUID()}`),
      ]),
    ).toEqual([{ outcome: "ignored", reason: "not a document upload key" }]);
    // A well-formed key no ticket was issued for: the object is dropped, nothing recorded.
    expect(
      await processKycObjectRecords(core, [
        record("ObjectCreated:Post", `${randomUUID()}/${submission.id}/passport/${randomUUID()}`),
      ]),
    ).toEqual([{ outcome: "ignored", reason: "no upload ticket for this object key; object deleted" }]);
    expect(await listHistory(core, submission.id)).toEqual(before);
  });

  it("an object POSTed under another user's prefix (the emulator enforces no policy) is not attached, and deleted", async () => {
    const victim = await started();
    const before = {
      submission: await getSubmission(core, victim.submission.id),
      history: await listHistory(core, victim.submission.id),
    };
    const attacker = await started();
    const ticket = await createUploadTicket(core, attacker.userId, "passport", "image/png");
    const planted = `${victim.userId}/${victim.submission.id}/passport/${randomUUID()}`;
    expect(await postToS3(ticket, await sampleDocumentImage({ seed: 22 }), "image/png", { key: planted })).toBeLessThan(
      300,
    );
    await delivery.idle();

    expect({
      submission: await getSubmission(core, victim.submission.id),
      history: await listHistory(core, victim.submission.id),
    }).toEqual(before);
    expect(await getObjectBytes(core, planted)).toBeNull();
    // The attacker's own ticket was not used: their submission is unchanged too.
    expect((await getSubmission(core, attacker.submission.id))!.documents.passport).toBeUndefined();
  });
});
