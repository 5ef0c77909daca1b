import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { identityNumberClaimKey } from "@fintech/core/kyc/keys";
import { seedSubmission } from "@fintech/testing/kyc/review-fixtures";
import { SubmissionDetail } from "@fintech/core/kyc/review-model";
import { LINK_LIMITS, rescoreLinkedSubmissions } from "@fintech/core/kyc/risk/links";
import { changeSubmission, getSubmission, listHistory } from "@fintech/core/kyc/submissions";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * Linked submissions are re-scored (docs/trust-and-safety.md#linked-submissions-are-re-scored):
 * when a later applicant verifies an Aadhaar number or uploads a picture an earlier applicant
 * already has, both are flagged; the earlier one's assessment is recomputed and stored with a
 * `rescored` audit entry naming the cause; an approved one keeps its status and gets a review
 * alert; the reviewer's detail shows the link from both sides. Re-scoring is idempotent and bounded
 * (LINK_LIMITS).
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedAdminFromEnv(t.core, {
    ADMIN_EMAIL: "links-admin@example.com",
    ADMIN_PASSWORD: "admin password 1",
    ADMIN_FIRST_NAME: "Rita",
    ADMIN_LAST_NAME: "Reviewer",
  });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "links-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
});
afterAll(async () => t.core.dispose());

const asAdmin = (method: string, path: string, body?: unknown) =>
  t.call(method, path, { token: adminToken, ...(body === undefined ? {} : { body }) });
const detailOf = async (id: string) =>
  SubmissionDetail.parse((await asAdmin("GET", `/api/v1/kyc/submissions/${id}`)).body.data);

/** The same Aadhaar number for everyone in this file (Verhoeff-valid). */
const SHARED_AADHAAR = "2341 2341 2346";

interface Applicant {
  token: string;
  name: string;
  as: (method: string, path: string, body?: unknown) => ReturnType<TestApp["call"]>;
}

/** A registered user who started KYC for India under their own name, from their own e-mail domain. */
async function applicant(first: string, last: string): Promise<Applicant & { submissionId: string }> {
  const name = `${first} ${last}`;
  const session = await t.signUp(`${first.toLowerCase()}@${randomUUID().slice(0, 8)}.example.com`, {
    first_name: first,
    last_name: last,
  });
  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { token: session.token, ...(body === undefined ? {} : { body }) });
  const start = await t.call("POST", "/api/v1/kyc/start", {
    token: session.token,
    body: { country: "IN", name, email: session.user.email, phone: "+919876543210" },
    ip: nextTestAddress(),
  });
  expect(start.status).toBe(201);
  const status = await as("GET", "/api/v1/kyc/status");
  return { token: session.token, name, as, submissionId: status.body.data.submission_id };
}

async function upload(who: Applicant, png: Buffer) {
  const form = new FormData();
  form.append("document_type", "passport");
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "passport.png");
  const reply = await t.app.request("/api/v1/kyc/upload", {
    method: "POST",
    body: form,
    headers: { Authorization: `Bearer ${who.token}` },
  });
  expect(reply.status).toBe(201);
}

describe("a later applicant reuses the first one's Aadhaar number and picture", () => {
  let first: Applicant & { submissionId: string };
  let second: Applicant & { submissionId: string };
  let third: Applicant & { submissionId: string };
  let picture: Buffer;

  beforeAll(async () => {
    picture = await sampleDocumentImage({ seed: 9001 });
    first = await applicant("Asha", "Rao");
    await upload(first, picture);
    expect(
      (await first.as("POST", "/api/v1/kyc/verify/aadhaar", { document_number: SHARED_AADHAAR, country: "IN" })).status,
    ).toBe(200);
    expect(
      (await first.as("POST", "/api/v1/kyc/verify/pan", { document_number: "ABCPR1234F", country: "IN" })).status,
    ).toBe(200);
    const approved = await asAdmin("PUT", `/api/v1/kyc/submissions/${first.submissionId}`, {
      status: "verified",
      notes: "All documents match",
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: "verified", risk_level: "Low" });
  });

  it("flags and re-scores the approved first holder when a later user verifies the same number", async () => {
    const before = await getSubmission(t.core, first.submissionId);
    expect(before!.risk!.flags).toEqual([]);

    second = await applicant("Ravi", "Kumar");
    expect(
      (await second.as("POST", "/api/v1/kyc/verify/aadhaar", { document_number: SHARED_AADHAAR, country: "IN" }))
        .status,
    ).toBe(200);

    const later = await getSubmission(t.core, second.submissionId);
    expect(later!.risk!.flags.map((flag) => flag.code)).toContain("DUPLICATE_IDENTITY_NUMBER");

    const earlier = await getSubmission(t.core, first.submissionId);
    // Still verified: the first holder may be the victim. The alert puts it back in front of a reviewer.
    expect(earlier).toMatchObject({
      status: "verified",
      priority: "high",
      review_alert: { cause_submission_id: second.submissionId },
    });
    expect(earlier!.risk).toMatchObject({
      risk_score: 50,
      level: "Medium",
      flags: [{ code: "DUPLICATE_IDENTITY_NUMBER" }],
    });

    const history = await listHistory(t.core, first.submissionId);
    const rescored = history.filter((entry) => entry.action === "rescored");
    expect(rescored).toHaveLength(1);
    expect(rescored[0]).toMatchObject({ actor: { role: "system" }, event: null });
    expect(rescored[0]!.note).toBe(
      `Re-scored because submission ${second.submissionId} (Ravi Kumar) shares the same Aadhaar number: risk 0 (Low) -> 50 (Medium), rule set v1`,
    );
    const alert = history.find((entry) => entry.action === "review_alert_raised");
    expect(alert).toMatchObject({ event: null });
    expect(alert!.note).toContain(`now linked to submission ${second.submissionId} (Ravi Kumar)`);
  });

  it("shows the link both ways in the reviewer's detail, with each side's status", async () => {
    const earlier = await detailOf(first.submissionId);
    expect(earlier.alert_open).toBe(true);
    expect(earlier.review_alert).toMatchObject({ cause_submission_id: second.submissionId });
    expect(earlier.linked).toEqual({
      submissions: [
        {
          id: second.submissionId,
          user_id: expect.any(String),
          name: "Ravi Kumar",
          status: "pending",
          risk_score: 50,
          risk_level: "Medium",
          submitted_at: expect.any(String),
          relation: "later",
          alert_open: false,
          shared: [{ kind: "identity_number", type: "aadhaar" }],
        },
      ],
      more: false,
    });
    const later = await detailOf(second.submissionId);
    expect(later.linked.submissions).toEqual([
      expect.objectContaining({
        id: first.submissionId,
        name: "Asha Rao",
        status: "verified",
        relation: "earlier",
        alert_open: true,
        shared: [{ kind: "identity_number", type: "aadhaar" }],
      }),
    ]);
    const listed = await asAdmin("GET", `/api/v1/kyc/dashboard?search=${first.submissionId}`);
    expect(listed.body.data[0]).toMatchObject({
      id: first.submissionId,
      status: "verified",
      alert_open: true,
      priority: "high",
    });
  });

  it("is idempotent: the same link found again writes nothing", async () => {
    const count = async () => (await listHistory(t.core, first.submissionId)).length;
    const before = await count();
    await rescoreLinkedSubmissions(t.core, (await getSubmission(t.core, second.submissionId))!);
    // The number verified again is already recorded: no step, no re-score.
    expect(
      (await second.as("POST", "/api/v1/kyc/verify/aadhaar", { document_number: SHARED_AADHAAR, country: "IN" }))
        .status,
    ).toBe(200);
    expect(await count()).toBe(before);
  });

  it("re-scores again for a reused picture, naming the new cause; the alert stays until dealt with", async () => {
    third = await applicant("Meena", "Iyer");
    await upload(third, picture);
    const later = await getSubmission(t.core, third.submissionId);
    expect(later!.risk!.flags.map((flag) => flag.code)).toContain("DUPLICATE_IMAGE");

    const earlier = await getSubmission(t.core, first.submissionId);
    expect(earlier!.risk).toMatchObject({ risk_score: 90, level: "High" });
    expect(earlier!.risk!.flags.map((flag) => flag.code).sort()).toEqual([
      "DUPLICATE_IDENTITY_NUMBER",
      "DUPLICATE_IMAGE",
    ]);
    // The first cause stays the alert's; the new one is in the audit.
    expect(earlier!.review_alert).toMatchObject({ cause_submission_id: second.submissionId });
    const last = (await listHistory(t.core, first.submissionId)).filter((entry) => entry.action === "rescored").at(-1)!;
    expect(last.note).toBe(
      `Re-scored because submission ${third.submissionId} (Meena Iyer) shares the same Passport picture: risk 50 (Medium) -> 90 (High), rule set v1`,
    );

    const detail = await detailOf(first.submissionId);
    expect(
      detail.linked.submissions.map((linked) => [
        linked.name,
        linked.relation,
        linked.shared.map((share) => share.kind),
      ]),
    ).toEqual([
      ["Ravi Kumar", "later", ["identity_number"]],
      ["Meena Iyer", "later", ["document_image"]],
    ]);
    // Reopening or approving it again now needs the acknowledgement the guard asks for.
    expect(detail.risk_check).toMatchObject({ level: "High", acknowledgement_required: true });
  });

  it("a reviewer dismisses the alert with a reason, kept in the audit trail", async () => {
    const reply = await asAdmin("POST", `/api/v1/kyc/submissions/${first.submissionId}/dismiss-alert`, {
      reason: "Asha Rao holds the original card; the later applicants are blocked",
    });
    expect(reply.status).toBe(200);
    const detail = SubmissionDetail.parse(reply.body.data);
    expect(detail).toMatchObject({ status: "verified", review_alert: null, alert_open: false });
    expect(detail.audit.at(-1)).toMatchObject({
      actor: "Rita Reviewer",
      actor_role: "reviewer",
      action: "alert_dismissed",
      note: "Asha Rao holds the original card; the later applicants are blocked",
    });
    const again = await asAdmin("POST", `/api/v1/kyc/submissions/${first.submissionId}/dismiss-alert`, {
      reason: "Twice",
    });
    expect(again.body.code).toBe("kyc_no_review_alert");
  });
});

describe("the bound on re-scoring", () => {
  it(`re-scores at most ${LINK_LIMITS.rescorePerStep} linked submissions per step, the earliest claims first, and repeats nothing`, async () => {
    const hash = `bound-${randomUUID()}`;
    const holders = LINK_LIMITS.rescorePerStep + 2;
    const linked: string[] = [];
    for (let index = 0; index < holders; index += 1) {
      const userId = randomUUID();
      const submission = await seedSubmission(t.core, {
        userId,
        name: `Holder ${index}`,
        email: `holder${index}@${randomUUID().slice(0, 8)}.example.com`,
      });
      linked.push(submission.id);
      await t.core.db.doc.send(
        new PutCommand({
          TableName: t.core.db.table,
          Item: {
            ...identityNumberClaimKey("aadhaar", hash, userId),
            entity: "kyc_number_claim",
            type: "aadhaar",
            user_id: userId,
            submission_id: submission.id,
            claimed_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
          },
        }),
      );
    }
    const triggerUser = randomUUID();
    const started = await seedSubmission(t.core, {
      userId: triggerUser,
      name: "Trigger",
      email: `trigger@${randomUUID().slice(0, 8)}.example.com`,
    });
    const trigger = await changeSubmission(t.core, started.id, (current) => ({
      next: {
        ...current,
        identity_numbers: { aadhaar: { masked: "XXXX XXXX 0000", hash, verified_at: new Date().toISOString() } },
      },
      entries: [
        {
          actor: { id: triggerUser, name: "Trigger", role: "applicant" },
          action: "identity_number_verified",
          from: null,
          to: null,
          note: null,
          event: null,
        },
      ],
    }));

    const rescoredOnes = async () => {
      const histories = await Promise.all(linked.map((id) => listHistory(t.core, id)));
      return histories.map((history) => history.filter((entry) => entry.action === "rescored").length);
    };
    await rescoreLinkedSubmissions(t.core, trigger);
    const first = await rescoredOnes();
    expect(first).toEqual([...Array(LINK_LIMITS.rescorePerStep).fill(1), 0, 0]);
    await rescoreLinkedSubmissions(t.core, trigger);
    expect(await rescoredOnes()).toEqual(first);
  });
});
