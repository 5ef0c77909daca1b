import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, rotatedKeyring, TEST_KEYS } from "@fintech/testing/context";
import { loadConfig } from "../shared/config";
import type { CoreContext } from "../shared/context";
import { kycState, nextSteps, remainingSteps } from "./applicant-state";
import { pendingSubmissionFields, startKyc } from "./start";
import { StartKycInput } from "./applicant-inputs";
import { verifyIdentityNumber } from "./identity-number-steps";
import { identityNumberHashes } from "./identity-hash";
import { velocityPartition } from "./keys";
import type { KycSubmission, SubmissionDocument } from "./model";
import { findUserSubmission, listHistory } from "./submissions";

/** The applicant's steps in core: next steps, the keyed hash, origins, concurrent steps. */

let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.dispose());

const startBody = { country: "IN", name: "Ada Lovelace", email: "ada@analytical.example", phone: "+442071234567" };

function submission(fields: Partial<KycSubmission> = {}, country = "IN"): KycSubmission {
  const started = pendingSubmissionFields("u1", { ...startBody, country, amount: 50_000 }, { ip: null });
  return {
    ...started,
    id: "s1",
    submitted_at: "2026-01-15T10:00:00.000Z",
    updated_at: "2026-01-15T10:00:00.000Z",
    version: 1,
    ...fields,
  };
}

const document = (status: SubmissionDocument["status"], problems: string[] = []): SubmissionDocument => ({
  type: "passport",
  status,
  uploaded_at: "2026-01-15T10:01:00.000Z",
  verified_at: status === "verified" ? "2026-01-15T10:01:00.000Z" : null,
  object_key: "k",
  file_name: null,
  checks: {
    format: "png",
    bytes: 1,
    width: 1,
    height: 1,
    sharpness: 1,
    glare: 0,
    phash: "0",
    passed: status === "verified",
    problems,
  },
  face_object_key: null,
  refusal: null,
});
const number = { masked: "XXXX XXXX 2346", hash: "h", verified_at: "2026-01-15T10:02:00.000Z" };

describe("next steps", () => {
  it("says what is left, in the wizard's order, and what a rejected picture needs", () => {
    expect(nextSteps(submission())).toEqual([
      "Upload an identity document (Passport, National ID Card, Driver's License, Residence Permit)",
      "Verify your Aadhaar number",
      "Verify your PAN",
    ]);
    expect(
      nextSteps(
        submission({
          documents: { passport: document("rejected", ["The picture is blurred"]) },
          identity_numbers: { aadhaar: number },
        }),
      ),
    ).toEqual(["Upload your Passport again: The picture is blurred", "Verify your PAN"]);
    expect(nextSteps(submission({ documents: { passport: document("checking") } }))[0]).toBe(
      "Wait for the checks of your Passport",
    );
    expect(
      nextSteps(
        submission({
          documents: { passport: document("verified") },
          identity_numbers: { aadhaar: number, pan: number },
        }),
      ),
    ).toEqual([]);
  });

  it("follows the country: its documents and its required numbers only", () => {
    expect(nextSteps(submission({}, "GB"))).toEqual([
      "Upload an identity document (Passport, National ID Card, Driver's License)",
    ]);
    expect(nextSteps(submission({}, "BR"))).toEqual([
      "Upload an identity document (Passport, National ID Card, Driver's License)",
      "Verify your CPF",
    ]);
    expect(nextSteps(submission({}, "KE"))).toEqual(["Upload an identity document (Passport, National ID Card)"]);
    expect(remainingSteps(submission({}, "BR"))).toEqual(["document", "br_cpf"]);
    expect(remainingSteps(submission({ documents: { passport: document("verified") } }, "US"))).toEqual([]);
    expect(remainingSteps(submission({ status: "under_review" }))).toEqual([]);
  });

  it("follows the status and an open request from a reviewer", () => {
    expect(nextSteps(submission({ status: "under_review" }))).toEqual(["Wait for a reviewer's decision"]);
    expect(nextSteps(submission({ status: "verified" }))).toEqual([]);
    expect(nextSteps(submission({ status: "rejected" }))).toEqual(["Start a new KYC submission"]);
    const infoRequest = {
      message: "Send a sharper passport photo",
      requested_at: "2026-01-16T09:00:00.000Z",
      requested_by: "r1",
    };
    expect(
      nextSteps(
        submission({
          info_request: infoRequest,
          documents: { passport: document("verified") },
          identity_numbers: { aadhaar: number, pan: number },
        }),
      ),
    ).toEqual(["Answer the reviewer's request: Send a sharper passport photo", "Resubmit for review"]);
  });
});

describe("the keyed hash", () => {
  const hashOf = (context: CoreContext, type: "aadhaar" | "pan", number: string) =>
    identityNumberHashes(context, type, number)[0]!.hash;

  it("is stable for a number, differs by type and by key, and is not the number", () => {
    const hash = hashOf(ctx, "aadhaar", "234123412346");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(ctx, "aadhaar", "234123412346")).toBe(hash);
    expect(hashOf(ctx, "pan", "234123412346")).not.toBe(hash);
    const otherKey = {
      ...ctx,
      config: loadConfig({ IDENTITY_HASH_KEYS: "1:another-identity-hash-key-that-is-long-enough" }),
    };
    expect(hashOf(otherKey, "aadhaar", "234123412346")).not.toBe(hash);
  });

  it("is made under every retained key version, the newest first", () => {
    const rotated = {
      ...ctx,
      config: loadConfig({ IDENTITY_HASH_KEYS: rotatedKeyring("t2", TEST_KEYS.IDENTITY_HASH_KEYS) }),
    };
    const hashes = identityNumberHashes(rotated, "aadhaar", "234123412346");
    expect(hashes.map((entry) => entry.version)).toEqual(["t2", "t1"]);
    expect(hashes[1]!.hash).toBe(hashOf(ctx, "aadhaar", "234123412346"));
    expect(hashes[0]!.hash).not.toBe(hashes[1]!.hash);
  });
});

describe("steps against the store", () => {
  it("writes velocity items only for the origins it knows (no IP, an unusable device id)", async () => {
    const started = await startKyc(ctx, "no-origin", startBody, { ip: null, device: "x y" });
    expect(started.origin).toEqual({ ip: null, email_domain: "analytical.example", device: null });
    const byDomain = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": velocityPartition("email_domain", "analytical.example") },
      }),
    );
    expect(byDomain.Items?.map((item) => item.submission_id)).toEqual([started.id]);
    const byDevice = await ctx.db.doc.send(
      new QueryCommand({
        TableName: ctx.db.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": velocityPartition("device", "x y") },
      }),
    );
    expect(byDevice.Items).toEqual([]);
  });

  it("records Aadhaar and PAN verified at the same moment, with a gap-free history", async () => {
    const started = await startKyc(ctx, "racing-steps", startBody, { ip: "198.51.100.7" });
    const [aadhaar, pan] = await Promise.all([
      verifyIdentityNumber(ctx, "racing-steps", "aadhaar", { document_number: "234123412346" }),
      verifyIdentityNumber(ctx, "racing-steps", "pan", { document_number: "ABCPE1234F" }),
    ]);
    expect([aadhaar.progress, pan.progress].sort()).toEqual([25, 50]);
    const state = await kycState(ctx, "racing-steps");
    expect(state.progress).toBe(50);
    expect(Object.keys(state.identity_numbers).sort()).toEqual(["aadhaar", "pan"]);
    const history = await listHistory(ctx, started.id);
    expect(history.map((entry) => entry.seq)).toEqual(history.map((_, index) => index + 1));
    expect((await findUserSubmission(ctx, "racing-steps"))?.version).toBe(history.length);
  });
});

describe("field errors", () => {
  const problem = (body: unknown) => StartKycInput.safeParse(body).error?.issues[0]?.message;
  const valid = { country: "IN", name: "Asha Rao", email: "asha@example.com", phone: "+919876543210" };

  it("say a missing field is required and a field of another type must be text", () => {
    expect(problem({ ...valid, country: undefined })).toBe("country is required");
    expect(problem({ ...valid, country: ["IN"] })).toBe("country must be text");
    expect(problem({ ...valid, name: 42 })).toBe("name must be text");
    expect(problem({ ...valid, phone: null })).toBe("phone is required");
    expect(problem(valid)).toBeUndefined();
  });
});
