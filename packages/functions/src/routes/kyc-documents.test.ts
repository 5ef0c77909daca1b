import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { blurredDocumentImage, decompressionBombPng, sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { getObjectBytes, parseDocumentObjectKey } from "@fintech/core/kyc/documents/storage";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { findSimilarImages } from "@fintech/core/kyc/documents/similar-images";
import { findUploadTicket } from "@fintech/core/kyc/documents/upload-tickets";
import { KYC_MESSAGES, type KycSubmission } from "@fintech/core/kyc/model";
import { getSubmission, listHistory } from "@fintech/core/kyc/submissions";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let png: Buffer;
let jpeg: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  png = await sampleDocumentImage({ seed: 11 });
  jpeg = await sampleDocumentImage({ seed: 12, format: "jpeg" });
});
afterAll(async () => t.core.dispose());

let users = 0;
/** A signed-up user with a started submission (country IN unless told otherwise). */
async function applicant(country: string | null = "IN") {
  users += 1;
  const session = await t.signUp(`documents-${users}-${Date.now()}@example.com`);
  const submission = country ? await seedSubmission(t.core, { userId: session.user.id, country }) : null;
  return { token: session.token, userId: session.user.id, submission };
}

async function upload(
  token: string,
  file: { bytes: Uint8Array; name?: string; type?: string },
  documentType = "passport",
  path = "/api/v1/kyc/upload",
) {
  const form = new FormData();
  form.append("document_type", documentType);
  form.append("file", new Blob([file.bytes], { type: file.type ?? "" }), file.name ?? "document");
  const response = await t.app.request(path, {
    method: "POST",
    body: form,
    headers: { Authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, any>,
    retryAfter: response.headers.get("Retry-After"),
  };
}

/** The submission as stored, and its history, to prove a refusal changed nothing. */
async function stored(submission: KycSubmission) {
  return { submission: await getSubmission(t.core, submission.id), history: await listHistory(t.core, submission.id) };
}

/** A stored object's bytes and content type (through core: one S3 client version for the whole test). */
async function objectOf(key: string) {
  const object = await getObjectBytes(t.core, key);
  if (!object || "tooLarge" in object) throw new Error(`No readable object ${key}`);
  return object;
}

describe("POST /api/v1/kyc/upload", () => {
  it("verifies a good PNG: stored with its sniffed type, recorded with both stream events, progress up", async () => {
    const { token, submission, userId } = await applicant();
    const reply = await upload(token, { bytes: png, name: "passport.png", type: "image/png" });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      success: true,
      message: "Passport verified successfully!",
      data: { type: "passport", status: "verified", file_name: "passport.png", face_uploaded: false, progress: 25 },
    });
    expect(reply.body.data.checks).toMatchObject({
      format: "png",
      width: 1200,
      height: 800,
      passed: true,
      problems: [],
    });
    expect(reply.body.data).not.toHaveProperty("object_key");

    const after = await stored(submission!);
    const document = after.submission!.documents.passport!;
    expect(document).toMatchObject({ status: "verified", checks: { passed: true } });
    expect(parseDocumentObjectKey(document.object_key)).toMatchObject({
      userId,
      submissionId: submission!.id,
      documentType: "passport",
      face: false,
    });
    const object = await objectOf(document.object_key);
    expect(object.contentType).toBe("image/png");
    expect(Buffer.from(object.bytes).equals(png)).toBe(true);
    const events = after.history.map((entry) => entry.event?.type);
    expect(events).toEqual(expect.arrayContaining(["documentUploaded", "documentVerified"]));
    const verified = after.history.find((entry) => entry.event?.type === "documentVerified")!;
    expect(verified.event!.data).toEqual({ documentType: "passport", status: "VERIFIED", confidence: 1 });
  });

  it("verifies a good JPEG sent with curl's octet-stream type", async () => {
    const { token } = await applicant("FR");
    const reply = await upload(token, { bytes: jpeg, name: "carte.jpeg", type: "application/octet-stream" }, "idCard");
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ type: "idCard", status: "verified", checks: { format: "jpeg" } });
  });

  /**
   * Each refusal answers its message of docs/product/kyc.md#messages and leaves the submission and
   * its history as they were.
   */
  async function expectRefused(
    file: { bytes: Uint8Array; name?: string; type?: string },
    status: number,
    code: string,
    message: string | RegExp,
    documentType = "passport",
    path?: string,
  ) {
    const { token, submission } = await applicant();
    const before = await stored(submission!);
    const reply = await upload(token, file, documentType, path);
    expect(reply.status).toBe(status);
    expect(reply.body.code).toBe(code);
    if (typeof message === "string") expect(reply.body.message).toBe(message);
    else expect(reply.body.message).toMatch(message);
    expect(await stored(submission!)).toEqual(before);
  }

  it("refuses 6 MB with 'File size must be less than 5MB' (past the app's 1 MB limit), with or without a trailing slash", async () => {
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(png.subarray(0, 1024));
    await expectRefused(
      { bytes: big, name: "big.png", type: "image/png" },
      413,
      "file_too_large",
      KYC_MESSAGES.fileTooLarge,
    );
    await expectRefused(
      { bytes: big, name: "big.png", type: "image/png" },
      413,
      "file_too_large",
      KYC_MESSAGES.fileTooLarge,
      "passport",
      "/api/v1/kyc/upload/",
    );
    // Just over 5 MB fits the multipart slack: the file check itself answers.
    const over = new Uint8Array(5 * 1024 * 1024 + 10);
    over.set(png.subarray(0, 1024));
    await expectRefused(
      { bytes: over, name: "over.png", type: "image/png" },
      413,
      "file_too_large",
      KYC_MESSAGES.fileTooLarge,
    );
  });

  it("refuses a text file named .png as the wrong format", async () => {
    await expectRefused(
      { bytes: new TextEncoder().encode("not a picture"), name: "passport.png", type: "image/png" },
      415,
      "wrong_image_format",
      KYC_MESSAGES.wrongImageFormat,
    );
    await expectRefused(
      { bytes: new TextEncoder().encode("not a picture"), name: "notes.txt", type: "text/plain" },
      415,
      "not_an_image",
      KYC_MESSAGES.notAnImage,
    );
  });

  it("refuses a forged content type (PNG bytes declared as JPEG) and a GIF", async () => {
    await expectRefused(
      { bytes: png, name: "passport.jpg", type: "image/jpeg" },
      415,
      "wrong_image_format",
      KYC_MESSAGES.wrongImageFormat,
    );
    const gif = await sharp(png).gif().toBuffer();
    await expectRefused(
      { bytes: gif, name: "passport.png", type: "image/png" },
      415,
      "wrong_image_format",
      KYC_MESSAGES.wrongImageFormat,
    );
  });

  it("refuses the 100 MP PNG bomb from its header: 422 image_too_large naming the size and the limit", async () => {
    const bomb = decompressionBombPng(10_000, 10_000);
    expect(bomb.byteLength).toBeLessThan(100_000);
    await expectRefused(
      { bytes: bomb, name: "bomb.png", type: "image/png" },
      422,
      "image_too_large",
      "Image is 10000 x 10000 pixels (100 megapixels); the limit is 40 megapixels. Upload a smaller photo",
    );
  });

  it("refuses a damaged PNG", async () => {
    await expectRefused(
      { bytes: png.subarray(0, png.length / 2), name: "passport.png", type: "image/png" },
      422,
      "image_unreadable",
      /^File must be an image/,
    );
  });

  it("refuses a document type the submission's country does not accept, and a missing file or type", async () => {
    const { token, submission } = await applicant("GB");
    const before = await stored(submission!);
    const reply = await upload(token, { bytes: png, name: "permit.png", type: "image/png" }, "residencePermit");
    expect(reply).toMatchObject({
      status: 400,
      body: {
        code: "unsupported_document_type",
        message: expect.stringMatching(/Residence Permit is not accepted for United Kingdom/),
      },
    });
    expect((await upload(token, { bytes: png }, "visa")).body).toMatchObject({
      code: "validation_error",
      message: expect.stringMatching(/document_type must be one of/),
    });
    const noFile = new FormData();
    noFile.append("document_type", "passport");
    const missing = await t.app.request("/api/v1/kyc/upload", {
      method: "POST",
      body: noFile,
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(missing.status).toBe(400);
    expect(await stored(submission!)).toEqual(before);
  });

  it("needs a started KYC and a session", async () => {
    const { token } = await applicant(null);
    expect(await upload(token, { bytes: png, name: "p.png", type: "image/png" })).toMatchObject({
      status: 409,
      body: { code: "kyc_not_started", message: expect.stringMatching(/^Start KYC first/) },
    });
    const anonymous = await t.app.request("/api/v1/kyc/upload", { method: "POST", body: new FormData() });
    expect(anonymous.status).toBe(401);
  });

  it("rejects a blurred picture with its problem (422), recorded as the current document so the applicant sees why", async () => {
    const { token, submission } = await applicant();
    const reply = await upload(token, {
      bytes: await blurredDocumentImage({ seed: 13 }),
      name: "blurry.png",
      type: "image/png",
    });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      code: "document_rejected",
      message: expect.stringMatching(/^Document verification failed: Image is blurry/),
    });
    const after = await stored(submission!);
    expect(after.submission!.documents.passport).toMatchObject({ status: "rejected", checks: { passed: false } });
    expect(after.submission!.progress).toBe(0);
    const verdict = after.history.find((entry) => entry.event?.type === "documentVerified")!;
    expect(verdict.event!.data).toMatchObject({ documentType: "passport", status: "REJECTED" });
  });

  it("changes only the uploader's own submission", async () => {
    const other = await applicant();
    const before = await stored(other.submission!);
    const me = await applicant();
    expect(
      (await upload(me.token, { bytes: await sampleDocumentImage({ seed: 14 }), name: "p.png", type: "image/png" }))
        .status,
    ).toBe(201);
    expect(await stored(other.submission!)).toEqual(before);
    const mine = (await getSubmission(t.core, me.submission!.id))!;
    expect(parseDocumentObjectKey(mine.documents.passport!.object_key)?.userId).toBe(me.userId);
  });

  it("finds the same picture uploaded by two users (findSimilarImages), never the user's own", async () => {
    const first = await applicant();
    const second = await applicant("DE");
    const picture = await sampleDocumentImage({ seed: 15 });
    expect((await upload(first.token, { bytes: picture, name: "a.png", type: "image/png" })).status).toBe(201);
    // The second user sends it re-encoded as a JPEG at another size: still the same picture.
    const recoded = await sharp(picture).resize(1000).jpeg({ quality: 70 }).toBuffer();
    const reply = await upload(second.token, { bytes: recoded, name: "b.jpg", type: "image/jpeg" }, "idCard");
    expect(reply.status).toBe(201);
    const phash = reply.body.data.checks.phash as string;
    const matches = await findSimilarImages(t.core, phash, second.userId);
    expect(matches).toEqual([
      {
        userId: first.userId,
        submissionId: first.submission!.id,
        documentType: "passport",
        distance: expect.any(Number),
      },
    ]);
    expect(matches[0]!.distance).toBeLessThanOrEqual(3);
    expect(await findSimilarImages(t.core, phash, first.userId)).toEqual([
      expect.objectContaining({ userId: second.userId, documentType: "idCard" }),
    ]);
    expect(await findSimilarImages(t.core, "not-a-hash", first.userId)).toEqual([]);
  });
});

describe("concurrent uploads to one submission", () => {
  it("50 at once: each is 201 or 409 kyc_submission_busy with Retry-After, never a 503; every 201 is recorded", async () => {
    const { token, submission } = await applicant();
    const picture = await sampleDocumentImage({ seed: 17 });
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => upload(token, { bytes: picture, name: "passport.png", type: "image/png" })),
    );

    expect(
      replies
        .filter((reply) => reply.status !== 201 && reply.status !== 409)
        .map((reply) => [reply.status, reply.body.code]),
    ).toEqual([]);
    const busy = replies.filter((reply) => reply.status === 409);
    for (const reply of busy)
      expect({ code: reply.body.code, retryAfter: reply.retryAfter }).toEqual({
        code: "kyc_submission_busy",
        retryAfter: "1",
      });
    const accepted = replies.filter((reply) => reply.status === 201).length;
    expect(accepted).toBeGreaterThan(0);
    // Each accepted upload is one record; a busy one left nothing behind.
    const history = await listHistory(t.core, submission!.id);
    expect(history.filter((entry) => entry.event?.type === "documentUploaded")).toHaveLength(accepted);
    expect((await getSubmission(t.core, submission!.id))!.documents.passport).toMatchObject({ status: "verified" });
  });
});

describe("POST /api/v1/kyc/verify/didit", () => {
  const didit = (token: string, body: unknown) => t.call("POST", "/api/v1/kyc/verify/didit", { token, body });

  it("verifies the document and stores the face image for the reviewer, claiming no face match", async () => {
    const { token, submission } = await applicant();
    const face = await sharp({ create: { width: 480, height: 640, channels: 3, background: "#c8a082" } })
      .jpeg()
      .toBuffer();
    const reply = await didit(token, {
      document_image: `data:image/png;base64,${png.toString("base64")}`,
      document_type: "passport",
      country_code: "in",
      face_image: face.toString("base64"),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      success: true,
      data: {
        status: "VERIFIED",
        document_type: "passport",
        face_image_stored: true,
        face_match: "not_performed",
        problems: [],
        progress: 25,
      },
    });
    const document = (await getSubmission(t.core, submission!.id))!.documents.passport!;
    expect(parseDocumentObjectKey(document.face_object_key!)).toMatchObject({ face: true, documentType: "passport" });
    const faceObject = await objectOf(document.face_object_key!);
    expect(faceObject.contentType).toBe("image/jpeg");
    expect(Buffer.from(faceObject.bytes).equals(face)).toBe(true);
  });

  it("answers a quality rejection as data.status REJECTED with the problems", async () => {
    const { token } = await applicant();
    const tiny = await sampleDocumentImage({ seed: 16, width: 300, height: 200 });
    const reply = await didit(token, {
      document_image: tiny.toString("base64"),
      document_type: "passport",
      country_code: "IN",
    });
    expect(reply).toMatchObject({
      status: 200,
      body: {
        data: {
          status: "REJECTED",
          face_image_stored: false,
          problems: [expect.stringMatching(/resolution is too low/)],
        },
      },
    });
  });

  it("refuses bad input with clear messages and changes nothing", async () => {
    const { token, submission } = await applicant();
    const before = await stored(submission!);
    const good = png.toString("base64");
    const bomb = decompressionBombPng(10_000, 10_000).toString("base64");
    const cases: [unknown, number, string, string | RegExp][] = [
      [
        { document_image: good, document_type: "passport", country_code: "FR" },
        400,
        "country_mismatch",
        /country of your KYC submission \(IN\)/,
      ],
      [
        { document_image: "%%% not base64 %%%", document_type: "passport", country_code: "IN" },
        400,
        "invalid_base64",
        /document_image must be a base64-encoded image/,
      ],
      [
        { document_image: Buffer.from("plain text").toString("base64"), document_type: "passport", country_code: "IN" },
        415,
        "not_an_image",
        KYC_MESSAGES.notAnImage,
      ],
      [
        { document_image: `data:image/jpeg;base64,${good}`, document_type: "passport", country_code: "IN" },
        415,
        "wrong_image_format",
        KYC_MESSAGES.wrongImageFormat,
      ],
      [
        {
          document_image: good,
          document_type: "passport",
          country_code: "IN",
          face_image: Buffer.from("GIF89a....").toString("base64"),
        },
        415,
        "wrong_image_format",
        `${KYC_MESSAGES.wrongImageFormat} (face_image)`,
      ],
      // The PNG bomb as either picture: refused from its header before anything is decoded.
      [
        { document_image: bomb, document_type: "passport", country_code: "IN" },
        422,
        "image_too_large",
        "Image is 10000 x 10000 pixels (100 megapixels); the limit is 40 megapixels. Upload a smaller photo",
      ],
      [
        { document_image: good, document_type: "passport", country_code: "IN", face_image: bomb },
        422,
        "image_too_large",
        /limit is 40 megapixels\. Upload a smaller photo \(face_image\)$/,
      ],
      [
        { document_image: "A".repeat(7_100_000), document_type: "passport", country_code: "IN" },
        413,
        "file_too_large",
        KYC_MESSAGES.fileTooLarge,
      ],
      [
        { document_image: good, document_type: "passport", country_code: "IN", extra: 1 },
        400,
        "validation_error",
        /Unknown field: extra/,
      ],
    ];
    for (const [body, status, code, message] of cases) {
      const reply = await didit(token, body);
      expect({ status: reply.status, code: reply.body.code }, JSON.stringify(body).slice(0, 80)).toEqual({
        status,
        code,
      });
      if (typeof message === "string") expect(reply.body.message).toBe(message);
      else expect(reply.body.message).toMatch(message);
    }
    // A body beyond the route's own limit (two 5 MB images as base64) is the size message too.
    const huge = await didit(token, {
      document_image: "A".repeat(15_000_000),
      document_type: "passport",
      country_code: "IN",
    });
    expect(huge).toMatchObject({ status: 413, body: { message: KYC_MESSAGES.fileTooLarge } });
    expect(await stored(submission!)).toEqual(before);
  });
});

describe("POST /api/v1/kyc/uploads/presign", () => {
  it("signs a POST held to the user's key prefix, 5 MB, the content type and encryption, for 5 minutes", async () => {
    const { token, userId, submission } = await applicant();
    const reply = await t.call("POST", "/api/v1/kyc/uploads/presign", {
      token,
      body: { document_type: "passport", content_type: "image/jpeg" },
    });
    expect(reply.status).toBe(201);
    const { url, fields, key, expires_at } = reply.body.data;
    expect(url).toContain(t.core.storage.kycBucket);
    expect(parseDocumentObjectKey(key)).toMatchObject({
      userId,
      submissionId: submission!.id,
      documentType: "passport",
    });
    expect(fields).toMatchObject({ key, "Content-Type": "image/jpeg", "x-amz-server-side-encryption": "AES256" });
    const policy = JSON.parse(Buffer.from(fields.Policy, "base64").toString("utf8"));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ["starts-with", "$key", `${userId}/`],
        ["content-length-range", 1, 5 * 1024 * 1024],
        ["eq", "$Content-Type", "image/jpeg"],
        { "x-amz-server-side-encryption": "AES256" },
        { key },
      ]),
    );
    const lifetime = Date.parse(policy.expiration) - Date.now();
    expect(lifetime).toBeGreaterThan(200_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);
    expect(Date.parse(expires_at)).toBeGreaterThan(Date.now());
    // The ticket the ObjectCreated handler will attach the object through.
    expect(await findUploadTicket(t.core, key)).toEqual({
      object_key: key,
      user_id: userId,
      submission_id: submission!.id,
      document_type: "passport",
      content_type: "image/jpeg",
      issued_at: expect.any(String),
      valid_until: expires_at,
    });
  });

  it("signs only JPEG and PNG, for a started KYC and a type the country accepts", async () => {
    const { token } = await applicant("AU");
    expect(
      await t.call("POST", "/api/v1/kyc/uploads/presign", {
        token,
        body: { document_type: "passport", content_type: "image/gif" },
      }),
    ).toMatchObject({ status: 415, body: { message: KYC_MESSAGES.wrongImageFormat } });
    expect(
      await t.call("POST", "/api/v1/kyc/uploads/presign", {
        token,
        body: { document_type: "residencePermit", content_type: "image/png" },
      }),
    ).toMatchObject({ status: 400, body: { code: "unsupported_document_type" } });
    const fresh = await applicant(null);
    expect(
      await t.call("POST", "/api/v1/kyc/uploads/presign", {
        token: fresh.token,
        body: { document_type: "passport", content_type: "image/png" },
      }),
    ).toMatchObject({ status: 409, body: { code: "kyc_not_started" } });
  });
});
