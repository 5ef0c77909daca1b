import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listHistory } from "@fintech/core/kyc/submissions";
import { seedSubmission, type SeedOptions } from "@fintech/testing/kyc/review-fixtures";
import { BulkRiskSummary, SubmissionDetail } from "@fintech/core/kyc/review-model";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * Reviewer guardrails (docs/trust-and-safety.md#reviewer-guardrails): a reason is required to
 * reject or to ask for information (400 kyc_reason_required, nothing written); approving a
 * High-risk submission or one the live rules recommend rejecting is refused without
 * acknowledge_risk (409 kyc_risk_acknowledgement_required) and audited with it; bulk actions show
 * the risk they touch and apply the same guard per submission; decisions keep the reviewer and the
 * reason.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let admin: { token: string; user: { id: string } };

/** On this file's own table: a name on the sanctions list scores 100 (High) with a "reject" verdict. */
const SANCTIONED = "Ivan Petrov";

beforeAll(async () => {
  t = await createTestApp();
  await seedAdminFromEnv(t.core, {
    ADMIN_EMAIL: "guard-admin@example.com",
    ADMIN_PASSWORD: "admin password 1",
    ADMIN_FIRST_NAME: "Rita",
    ADMIN_LAST_NAME: "Reviewer",
  });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "guard-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  admin = login.body.data;
});
afterAll(async () => t.core.dispose());

/** Each from its own e-mail domain, so the velocity rules stay quiet and the scores are the ones under test. */
const seed = (options: Partial<SeedOptions> = {}) =>
  seedSubmission(t.core, {
    userId: randomUUID(),
    complete: true,
    email: `applicant@${randomUUID().slice(0, 8)}.example.com`,
    ...options,
  });
const asAdmin = (method: string, path: string, body?: unknown) =>
  t.call(method, path, { token: admin.token, ...(body === undefined ? {} : { body }) });
const detailOf = async (id: string) =>
  SubmissionDetail.parse((await asAdmin("GET", `/api/v1/kyc/submissions/${id}`)).body.data);
const uploadWatchlist = async (csv: string) =>
  expect((await asAdmin("POST", "/api/v1/kyc/rules/watchlist", { csv, name: "Guardrail test list" })).status).toBe(201);

describe("a reason on Reject and Request Info", () => {
  it("refuses a reject without a reason (absent or blank) with 400 kyc_reason_required, writing nothing", async () => {
    const submission = await seed({ name: "Asha Rao" });
    const before = (await listHistory(t.core, submission.id)).length;
    for (const body of [
      { status: "rejected" },
      { status: "rejected", notes: "" },
      { status: "rejected", notes: "   \n " },
    ]) {
      const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, body);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        code: "kyc_reason_required",
        message: "notes must say why the submission is rejected",
      });
    }
    // The reason is bounded like every note.
    const long = await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, {
      status: "rejected",
      notes: "x".repeat(2001),
    });
    expect([long.status, long.body.code]).toEqual([400, "validation_error"]);
    expect((await listHistory(t.core, submission.id)).length).toBe(before);
    expect((await detailOf(submission.id)).status).toBe("under_review");
  });

  it("records a reject with its reason and the reviewer in the audit trail", async () => {
    const submission = await seed({ name: "Bina Shah" });
    const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, {
      status: "rejected",
      notes: "  The passport photo belongs to someone else  ",
    });
    expect(reply.status).toBe(200);
    const detail = SubmissionDetail.parse(reply.body.data);
    expect(detail).toMatchObject({ status: "rejected", notes: "The passport photo belongs to someone else" });
    expect(detail.audit.at(-1)).toEqual({
      actor: "Rita Reviewer",
      actor_id: admin.user.id,
      actor_role: "reviewer",
      at: expect.any(String),
      action: "rejected",
      from: "under_review",
      to: "rejected",
      note: "The passport photo belongs to someone else",
    });
  });

  it("refuses Request Info without a message, by either route, with 400 kyc_reason_required", async () => {
    const submission = await seed({ name: "Chitra Nair" });
    const before = (await listHistory(t.core, submission.id)).length;
    for (const body of [{}, { message: "" }, { message: "  " }, { message: null }]) {
      const reply = await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, body);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        code: "kyc_reason_required",
        message: "message must say what the applicant should provide",
      });
    }
    const viaPut = await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, { status: "pending", notes: " " });
    expect(viaPut.body).toEqual({
      code: "kyc_reason_required",
      message: "notes must tell the applicant what to provide",
    });
    // A malformed message is a malformed body, not a missing reason.
    expect(
      (await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, { message: 5 })).body.code,
    ).toBe("validation_error");
    expect((await listHistory(t.core, submission.id)).length).toBe(before);

    const sent = await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, {
      message: "Please upload the back of your ID card",
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.audit.at(-1)).toMatchObject({
      actor: "Rita Reviewer",
      actor_role: "reviewer",
      action: "info_requested",
      note: "Please upload the back of your ID card",
    });
  });
});

describe("approving risk needs an acknowledgement", () => {
  let sanctioned: string;
  let laterListed: string;

  beforeAll(async () => {
    // Assessed before the list names them: stored Low, while the live rules now say reject.
    laterListed = (await seed({ name: "Olga Sokolova" })).id;
    await uploadWatchlist(`name,list\n${SANCTIONED},sanctions\nOlga Sokolova,sanctions\n`);
    sanctioned = (await seed({ name: SANCTIONED })).id;
  });

  it("shows the reviewer what approving would accept", async () => {
    const detail = await detailOf(sanctioned);
    expect(detail.risk).toMatchObject({ risk_score: 100, level: "High", verdict: "reject" });
    expect(detail.risk_check).toMatchObject({
      risk_score: 100,
      level: "High",
      reject_recommended: true,
      acknowledgement_required: true,
      live: { verdict: "reject" },
    });
    expect(detail.risk_check.warnings).toEqual([
      "High risk: score 100 under the live rules (v1)",
      "The risk rules recommend rejecting it under the live rules (v1)",
    ]);
  });

  it("refuses a High-risk, rule-says-reject approval without acknowledge_risk (409), writing nothing", async () => {
    const before = (await listHistory(t.core, sanctioned)).length;
    for (const body of [{ status: "verified" }, { status: "verified", acknowledge_risk: false }]) {
      const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${sanctioned}`, body);
      expect(reply.status).toBe(409);
      expect(reply.body.code).toBe("kyc_risk_acknowledgement_required");
      expect(reply.body.message).toBe(
        "Approving this submission needs acknowledge_risk: true. High risk: score 100 under the live rules (v1). The risk rules recommend rejecting it under the live rules (v1).",
      );
    }
    expect(
      (await asAdmin("PUT", `/api/v1/kyc/submissions/${sanctioned}`, { status: "verified", acknowledge_risk: "yes" }))
        .body.code,
    ).toBe("validation_error");
    expect((await listHistory(t.core, sanctioned)).length).toBe(before);
  });

  it("checks against the live rules: a submission stored as Low that the rules now reject is refused too", async () => {
    const detail = await detailOf(laterListed);
    expect(detail.risk).toMatchObject({ level: "Low", verdict: "approve" });
    expect(detail.risk_check).toMatchObject({
      reject_recommended: true,
      acknowledgement_required: true,
      live: { risk_score: 100, verdict: "reject" },
    });
    const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${laterListed}`, { status: "verified" });
    expect([reply.status, reply.body.code]).toEqual([409, "kyc_risk_acknowledgement_required"]);
  });

  it("approves with the acknowledgement, audited with the warnings and the reviewer, and stores the live assessment", async () => {
    const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${laterListed}`, {
      status: "verified",
      acknowledge_risk: true,
      notes: "Namesake: date of birth differs from the listed person",
    });
    expect(reply.status).toBe(200);
    const detail = SubmissionDetail.parse(reply.body.data);
    expect(detail).toMatchObject({ status: "verified", risk_score: 100, risk: { verdict: "reject", level: "High" } });
    const tail = detail.audit
      .slice(-3)
      .map(({ actor, actor_role, action, note }) => ({ actor, actor_role, action, note }));
    expect(tail).toEqual([
      {
        actor: "Automated checks",
        actor_role: "system",
        action: "rescored",
        note: "Re-scored at approval under the live rules (v1): risk 0 (Low) -> 100 (High)",
      },
      {
        actor: "Rita Reviewer",
        actor_role: "reviewer",
        action: "risk_acknowledged",
        note: "High risk: score 100 under the live rules (v1). The risk rules recommend rejecting it under the live rules (v1).",
      },
      {
        actor: "Rita Reviewer",
        actor_role: "reviewer",
        action: "approved",
        note: "Namesake: date of birth differs from the listed person",
      },
    ]);
  });

  it("approves a Low-risk submission without any acknowledgement", async () => {
    const plain = await seed({ name: "Dev Kapoor" });
    const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${plain.id}`, { status: "verified" });
    expect(reply.status).toBe(200);
    expect(reply.body.data.audit.map((entry: { action: string }) => entry.action)).not.toContain("risk_acknowledged");
  });
});

describe("bulk actions", () => {
  it("summarise the risk they touch, then apply the guard to each submission", async () => {
    const low = await seed({ name: "Farah Khan" });
    const risky = await seed({ name: SANCTIONED });
    const missing = randomUUID();

    const summary = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-risk", { ids: [low.id, risky.id, missing] });
    expect(summary.status).toBe(200);
    const data = BulkRiskSummary.parse(summary.body.data);
    expect(data).toMatchObject({
      requested: 3,
      found: 2,
      by_level: { Low: 1, Medium: 0, High: 1 },
      unassessed: 0,
      highest_score: 100,
      reject_recommended: 1,
      acknowledgement_required: true,
    });
    expect(data.submissions.map((item) => [item.id, item.acknowledgement_required])).toEqual([
      [low.id, false],
      [risky.id, true],
    ]);

    const rejectWithoutReason = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-update", {
      ids: [low.id, risky.id],
      status: "rejected",
    });
    expect(rejectWithoutReason.body).toEqual({
      code: "kyc_reason_required",
      message: "notes must say why the submission is rejected",
    });

    const unacknowledged = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-update", {
      ids: [low.id, risky.id],
      status: "verified",
    });
    expect(unacknowledged.status).toBe(200);
    expect(unacknowledged.body.results).toEqual([
      { id: low.id, ok: true, outcome: "updated", status: "verified", code: null, message: null },
      {
        id: risky.id,
        ok: false,
        outcome: "refused",
        status: null,
        code: "kyc_risk_acknowledgement_required",
        message: expect.stringContaining("High risk: score 100"),
      },
    ]);

    const acknowledged = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-update", {
      ids: [risky.id],
      status: "verified",
      acknowledge_risk: true,
      notes: "Batch: cleared by compliance",
    });
    expect(acknowledged.body.results[0]).toMatchObject({ outcome: "updated", status: "verified" });
    const audit = (await detailOf(risky.id)).audit.slice(-2);
    expect(audit.map((entry) => [entry.actor, entry.action, entry.note])).toEqual([
      ["Rita Reviewer", "risk_acknowledged", expect.stringContaining("High risk: score 100")],
      ["Rita Reviewer", "approved", "Batch: cleared by compliance"],
    ]);
  });

  it("refuse malformed summaries with 400 and never answer 500", async () => {
    for (const body of [
      {},
      { ids: [] },
      { ids: "x" },
      { ids: ["a", "a"] },
      { ids: Array.from({ length: 101 }, () => randomUUID()) },
      { ids: ["x".repeat(65)] },
      { ids: [randomUUID()], extra: 1 },
    ]) {
      const reply = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-risk", body);
      expect(reply.status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const odd = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-risk", {
      ids: ["../../etc", "%00", "KYC#SUBMISSIONS"],
    });
    expect(odd.status).toBe(200);
    expect(odd.body.data).toMatchObject({ requested: 3, found: 0, highest_score: null });
  });
});

describe("review alerts", () => {
  it("dismissing needs an open alert and a reason", async () => {
    const submission = await seed({ name: "Gita Rao" });
    const path = `/api/v1/kyc/submissions/${submission.id}/dismiss-alert`;
    expect((await asAdmin("POST", path, {})).body).toEqual({
      code: "kyc_reason_required",
      message: "reason must say why the alert needs no further action",
    });
    const none = await asAdmin("POST", path, { reason: "Checked" });
    expect([none.status, none.body.code]).toEqual([409, "kyc_no_review_alert"]);
    expect(
      (await asAdmin("POST", `/api/v1/kyc/submissions/${randomUUID()}/dismiss-alert`, { reason: "Checked" })).status,
    ).toBe(404);
  });
});
