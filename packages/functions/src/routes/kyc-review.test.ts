import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeSubmission, listHistory } from "@fintech/core/kyc/submissions";
import { dashboardStats, decide, exportSubmissions } from "@fintech/core/kyc/review";
import type { KycSubmission } from "@fintech/core/kyc/model";
import { BulkUpdateReply, DashboardStats, ReviewPage, SubmissionDetail } from "@fintech/core/kyc/review-model";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { seedSubmission, TINY_PNG, type SeedOptions } from "@fintech/testing/kyc/review-fixtures";

/**
 * The reviewer back office (docs/kyc.md#reviewer-back-office): admin-only routes, the filtered and
 * paged list with signed cursors, stats with trends against the previous period (controlled clock),
 * decisions and their audit trail, transition rules, bulk updates, Request Info and the applicant's
 * resubmission, the CSV export and its injection guard, and presigned document links served by the
 * S3 emulator.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A frozen clock the tests move: submissions are dated in the past, requests are made "now". */
function controlledClock() {
  const base = Date.now();
  let offset = 0;
  return {
    clock: () => new Date(base + offset),
    /** Runs `work` with the clock at base + at (ms, usually negative), then puts it back. */
    async at<T>(at: number, work: () => Promise<T>): Promise<T> {
      offset = at;
      try {
        return await work();
      } finally {
        offset = 0;
      }
    },
  };
}

async function signInAdmin(t: TestApp, email: string) {
  await seedAdminFromEnv(t.core, {
    ADMIN_EMAIL: email,
    ADMIN_PASSWORD: "admin password 1",
    ADMIN_FIRST_NAME: "Rita",
    ADMIN_LAST_NAME: "Reviewer",
  });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email, password: "admin password 1" },
    ip: nextTestAddress(),
  });
  expect(login.status).toBe(200);
  return login.body.data as { token: string; user: { id: string } };
}

let t: TestApp;
let time: ReturnType<typeof controlledClock>;
let admin: { token: string; user: { id: string } };
let user: { token: string; user: { id: string } };

beforeAll(async () => {
  time = controlledClock();
  t = await createTestApp({}, { clock: time.clock });
  admin = await signInAdmin(t, "review-admin@example.com");
  user = await t.signUp("review-user@example.com");
});
afterAll(async () => t.core.dispose());

const seed = (options: Partial<SeedOptions> & { ago?: number } = {}) =>
  time.at(-(options.ago ?? 0), () => seedSubmission(t.core, { userId: randomUUID(), complete: true, ...options }));
const asAdmin = (method: string, path: string, body?: unknown) =>
  t.call(method, path, { token: admin.token, ...(body === undefined ? {} : { body }) });

describe("who may use the back office", () => {
  const id = randomUUID();
  const adminRoutes: [string, string, unknown?][] = [
    ["GET", "/api/v1/kyc/dashboard"],
    ["GET", "/api/v1/kyc/dashboard/stats"],
    ["GET", "/api/v1/kyc/dashboard/export"],
    ["GET", `/api/v1/kyc/submissions/${id}`],
    ["PUT", `/api/v1/kyc/submissions/${id}`, { status: "verified" }],
    ["POST", "/api/v1/kyc/submissions/bulk-update", { ids: [id], status: "verified" }],
    ["POST", `/api/v1/kyc/submissions/${id}/request-info`, { message: "More please" }],
    ["POST", `/api/v1/kyc/submissions/${id}/dismiss-alert`, { reason: "Checked" }],
    ["POST", "/api/v1/kyc/submissions/bulk-risk", { ids: [id] }],
  ];

  it.each(adminRoutes)("%s %s: 401 without a token, 403 for a user", async (method, path, body) => {
    const anonymous = await t.call(method, path, body === undefined ? {} : { body });
    expect(anonymous.status).toBe(401);
    const asUser = await t.call(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
    expect(asUser.status).toBe(403);
    expect(asUser.body.code).toBe("admin_required");
  });

  it("POST /resubmit needs a signed-in user and acts on their own submission only", async () => {
    expect((await t.call("POST", "/api/v1/kyc/resubmit", { body: {} })).status).toBe(401);
    // The admin has no submission of their own: another user's info request is not theirs to answer.
    const someone = await seed();
    await asAdmin("POST", `/api/v1/kyc/submissions/${someone.id}/request-info`, { message: "Need more" });
    const reply = await t.call("POST", "/api/v1/kyc/resubmit", { token: user.token, body: {} });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe("kyc_submission_not_found");
  });
});

describe("the dashboard list", () => {
  let list: KycSubmission[];
  const tag = `list${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    // Oldest first: each a minute apart, so "newest first" has one answer.
    list = [];
    const specs: (Partial<SeedOptions> & { ago: number })[] = [
      { ago: 10 * DAY, name: `Old ${tag}`, country: "DE", location: "Germany" },
      { ago: 50 * 60_000, name: `Meera ${tag}`, email: `meera.${tag}@Example.org` },
      { ago: 40 * 60_000, name: `Carlos ${tag}`, country: "BR", location: "Brazil" },
      { ago: 30 * 60_000, name: `Dana ${tag}`, complete: false },
      { ago: 20 * 60_000, name: `Eli ${tag}`, country: "BR", location: "Brazil" },
    ];
    for (const spec of specs) list.push(await seed(spec));
  });

  const ids = (reply: { body: Record<string, any> }) => (reply.body.data as { id: string }[]).map((row) => row.id);
  const mine = (reply: { body: Record<string, any> }) =>
    ids(reply).filter((id) => list.some((submission) => submission.id === id));

  it("lists newest first with the documented fields and a total", async () => {
    const reply = await asAdmin("GET", `/api/v1/kyc/dashboard?search=${tag}`);
    expect(reply.status).toBe(200);
    expect(ids(reply)).toEqual([...list].reverse().map((submission) => submission.id));
    expect(reply.body.total).toBe(5);
    expect(reply.body.has_more).toBe(false);
    // The reply is what the OpenAPI document and the dashboard's types say.
    expect(ReviewPage.safeParse(reply.body).error).toBeUndefined();
    const row = reply.body.data[0];
    expect(Object.keys(row)).toEqual(
      expect.arrayContaining([
        "id",
        "user_id",
        "name",
        "email",
        "phone",
        "location",
        "country",
        "status",
        "risk_score",
        "risk_level",
        "amount",
        "priority",
        "submitted_at",
        "verified_at",
        "notes",
        "documents",
      ]),
    );
    expect(row.documents).toEqual([{ type: "passport", status: "verified", uploaded_at: expect.any(String) }]);
    expect(row.status).toBe("under_review");
  });

  it("filters by status, country, priority, period and a case-insensitive search", async () => {
    const query = async (params: string) => {
      const reply = await asAdmin("GET", `/api/v1/kyc/dashboard?search=${tag}&${params}`);
      expect(reply.status, params).toBe(200);
      return reply;
    };
    expect(mine(await query("status=pending"))).toEqual([list[3]!.id]);
    expect(mine(await query("country=br"))).toEqual([list[4]!.id, list[2]!.id]);
    // The risk engine sets the priority; filter by the one it gave the newest Brazilian submission.
    const priority = list[4]!.priority;
    const expected = [...list]
      .reverse()
      .filter((submission) => submission.country === "BR" && submission.priority === priority);
    expect(mine(await query(`priority=${priority}&country=BR`))).toEqual(expected.map((submission) => submission.id));
    const otherPriority = (["high", "medium", "low"] as const).find(
      (level) => !list.some((submission) => submission.priority === level),
    );
    if (otherPriority) expect(mine(await query(`priority=${otherPriority}`))).toEqual([]);
    const recent = await query("period=7d");
    expect(mine(recent)).not.toContain(list[0]!.id);
    expect(recent.body.total).toBe(4);
    expect(mine(await query("period=90d"))).toContain(list[0]!.id);
    // Search: name, e-mail (any case), submission id, user id.
    expect(
      ids(
        await asAdmin(
          "GET",
          `/api/v1/kyc/dashboard?search=${encodeURIComponent(`MEERA.${tag.toUpperCase()}@example.ORG`)}`,
        ),
      ),
    ).toEqual([list[1]!.id]);
    expect(ids(await asAdmin("GET", `/api/v1/kyc/dashboard?search=${list[2]!.id.toUpperCase()}`))).toEqual([
      list[2]!.id,
    ]);
    expect(ids(await asAdmin("GET", `/api/v1/kyc/dashboard?search=${list[3]!.user_id}`))).toEqual([list[3]!.id]);
    // Empty values are "no filter", as an empty select box sends them.
    expect((await query("status=&country=&priority=&period=")).body.total).toBe(5);
  });

  it("pages with a cursor bound to the filters, and refuses tampered ones", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const reply = await asAdmin(
        "GET",
        `/api/v1/kyc/dashboard?search=${tag}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.total).toBe(5);
      expect(reply.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...ids(reply));
      cursor = reply.body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...list].reverse().map((submission) => submission.id));

    const first = await asAdmin("GET", `/api/v1/kyc/dashboard?search=${tag}&limit=2`);
    const good: string = first.body.next_cursor;
    const [payload, signature] = good.split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), gsi1sk: "9999" }),
    ).toString("base64url");
    const tampered = [
      `${forgedPayload}.${signature}`,
      `${payload}.${signature!.slice(0, -2)}AA`,
      "garbage",
      "x".repeat(5000),
    ];
    for (const bad of tampered) {
      const reply = await asAdmin(
        "GET",
        `/api/v1/kyc/dashboard?search=${tag}&limit=2&cursor=${encodeURIComponent(bad)}`,
      );
      expect(reply.status, bad.slice(0, 40)).toBe(400);
      expect(reply.body.code).toBe("invalid_cursor");
    }
    // The same cursor with other filters is another query's cursor.
    const otherFilters = await asAdmin(
      "GET",
      `/api/v1/kyc/dashboard?search=${tag}&limit=2&status=pending&cursor=${encodeURIComponent(good)}`,
    );
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body.code).toBe("invalid_cursor");
  });

  it.each([
    ["limit=0", "limit must be at least 1"],
    ["limit=101", "limit must be at most 100"],
    ["limit=abc", "limit must be a number"],
    ["limit=2.5", "limit must be a whole number"],
    ["status=approved", "status must be one of"],
    ["priority=urgent", "priority must be one of"],
    ["period=1y", "period must be one of"],
    ["country=IND", "country must be a two-letter"],
    [`search=${"a".repeat(101)}`, "search must be at most 100 characters"],
    ["sort=name", "Unknown field: sort"],
  ])("answers %s with a 400 naming the problem", async (params, message) => {
    const reply = await asAdmin("GET", `/api/v1/kyc/dashboard?${params}`);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(message);
  });
});

describe("stats against a controlled clock", () => {
  let s: TestApp;
  let sTime: ReturnType<typeof controlledClock>;
  let sAdmin: { token: string };

  beforeAll(async () => {
    sTime = controlledClock();
    s = await createTestApp({}, { clock: sTime.clock });
    sAdmin = await signInAdmin(s, "stats-admin@example.com");
    const reviewer = { id: "reviewer-1", name: "Rita Reviewer" };
    const make = (ago: number, complete = true) =>
      sTime.at(-ago, () => seedSubmission(s.core, { userId: randomUUID(), complete }));
    const decideAt = (ago: number, id: string, status: "verified" | "rejected") =>
      sTime.at(-ago, () =>
        decide(s.core, reviewer, id, { status, ...(status === "rejected" ? { notes: "Documents do not match" } : {}) }),
      );
    // Current 7 days: 4 submitted; 2 verified after 2 h and 4 h, 1 rejected after 6 h, 1 under review.
    const a = await make(2 * DAY);
    await decideAt(2 * DAY - 2 * HOUR, a.id, "verified");
    const b = await make(3 * DAY);
    await decideAt(3 * DAY - 4 * HOUR, b.id, "verified");
    const c = await make(4 * DAY);
    await decideAt(4 * DAY - 6 * HOUR, c.id, "rejected");
    await make(5 * DAY);
    // Previous 7 days: 2 submitted; 1 verified after 10 h (decided within the current period does
    // not matter), 1 still pending.
    const d = await make(8 * DAY);
    await decideAt(8 * DAY - 10 * HOUR, d.id, "verified");
    await make(9 * DAY, false);
    // 40 days ago: counts for the monthly growth only.
    await make(40 * DAY);
  });
  afterAll(async () => s.core.dispose());

  it("counts the period's submissions and compares each figure with the previous period", async () => {
    const reply = await s.call("GET", "/api/v1/kyc/dashboard/stats?period=7d", { token: sAdmin.token });
    expect(reply.status).toBe(200);
    const stats = reply.body.data;
    expect(DashboardStats.safeParse(stats).error).toBeUndefined();
    expect(stats).toMatchObject({
      period: "7d",
      total_submissions: 4,
      verified: 2,
      rejected: 1,
      pending: 1,
      under_review: 1,
      awaiting_applicant: 0,
      average_processing_time: 4,
      success_rate: 66.7,
      complete: true,
    });
    expect(stats.previous).toMatchObject({
      total_submissions: 2,
      verified: 1,
      rejected: 0,
      pending: 1,
      awaiting_applicant: 1,
      average_processing_time: 10,
      success_rate: 100,
    });
    expect(stats.trends).toEqual({
      total_submissions: 100,
      verified: 100,
      pending: 0,
      rejected: null,
      average_processing_time: -60,
      success_rate: -33.3,
    });
    // Last 30 days: 6 submissions; the 30 before: 1.
    expect(stats.monthly_growth).toBe(500);
    // Over the bound, the reply says its figures are not complete.
    expect((await dashboardStats(s.core, { period: "7d" }, 3)).complete).toBe(false);
    expect((await dashboardStats(s.core, { period: "7d" }, 7)).complete).toBe(true);
  });

  it("defaults to 7 days, takes the other periods and refuses unknown ones", async () => {
    const byDefault = await s.call("GET", "/api/v1/kyc/dashboard/stats", { token: sAdmin.token });
    expect(byDefault.body.data.period).toBe("7d");
    const day = await s.call("GET", "/api/v1/kyc/dashboard/stats?period=24h", { token: sAdmin.token });
    expect(day.body.data).toMatchObject({ total_submissions: 0, success_rate: null, average_processing_time: null });
    const quarter = await s.call("GET", "/api/v1/kyc/dashboard/stats?period=90d", { token: sAdmin.token });
    expect(quarter.body.data.total_submissions).toBe(7);
    const bad = await s.call("GET", "/api/v1/kyc/dashboard/stats?period=2w", { token: sAdmin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("period must be one of 24h, 7d, 30d, 90d");
  });
});

describe("decisions", () => {
  it("approves with an audit entry (who, when, from, to, note) and announces the final decision", async () => {
    const submission = await seed();
    const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, {
      status: "verified",
      notes: "Documents match",
    });
    expect(reply.status).toBe(200);
    const detail = reply.body.data;
    expect(SubmissionDetail.safeParse(detail).error).toBeUndefined();
    expect(detail).toMatchObject({
      status: "verified",
      notes: "Documents match",
      verified_at: expect.any(String),
      decided_at: expect.any(String),
    });
    expect(detail.audit.at(-1)).toEqual({
      actor: "Rita Reviewer",
      actor_id: admin.user.id,
      actor_role: "reviewer",
      at: detail.decided_at,
      action: "approved",
      from: "under_review",
      to: "verified",
      note: "Documents match",
    });
    expect(detail.audit[0]).toMatchObject({ action: "started", from: null, to: "pending", actor_role: "applicant" });
    const history = await listHistory(t.core, submission.id);
    expect(history.at(-1)?.event).toEqual({
      type: "verificationCompleted",
      data: { status: "VERIFIED", finalRiskScore: detail.risk_score },
    });
  });

  it("rejects, reopens with a reason, and keeps every step in the trail", async () => {
    const submission = await seed();
    const path = `/api/v1/kyc/submissions/${submission.id}`;
    const rejected = await asAdmin("PUT", path, { status: "rejected", notes: "Blurred passport" });
    expect(rejected.body.data).toMatchObject({ status: "rejected", verified_at: null, decided_at: expect.any(String) });
    expect((await listHistory(t.core, submission.id)).at(-1)?.event?.data).toMatchObject({ status: "REJECTED" });

    const noReason = await asAdmin("PUT", path, { status: "under_review" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe("kyc_note_required");
    const reopened = await asAdmin("PUT", path, { status: "under_review", notes: "Rejected by mistake" });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ status: "under_review", decided_at: null });
    const trail = reopened.body.data.audit.filter((row: { actor_role: string }) => row.actor_role === "reviewer");
    expect(
      trail.map((row: { from: string; to: string; action: string; note: string | null }) => [
        row.action,
        row.from,
        row.to,
        row.note,
      ]),
    ).toEqual([
      ["rejected", "under_review", "rejected", "Blurred passport"],
      ["reopened", "rejected", "under_review", "Rejected by mistake"],
    ]);
    // The same status with new notes records the note; with the same notes it changes nothing.
    const noted = await asAdmin("PUT", path, { status: "under_review", notes: "Checking the address" });
    expect(noted.body.data.audit.at(-1)).toMatchObject({
      action: "notes_updated",
      from: "under_review",
      to: "under_review",
      note: "Checking the address",
    });
    const again = await asAdmin("PUT", path, { status: "under_review", notes: "Checking the address" });
    expect(again.body.data.audit).toHaveLength(noted.body.data.audit.length);
  });

  it("sends a submission back with PUT status pending (a message required) and takes it back to review", async () => {
    const submission = await seed();
    const path = `/api/v1/kyc/submissions/${submission.id}`;
    await asAdmin("PUT", path, { status: "under_review", notes: "Internal: address looks odd" });
    const silent = await asAdmin("PUT", path, { status: "pending" });
    expect(silent.status).toBe(400);
    expect(silent.body).toEqual({
      code: "kyc_reason_required",
      message: "notes must tell the applicant what to provide",
    });
    const back = await asAdmin("PUT", path, { status: "pending", notes: "Please confirm your address" });
    expect(back.body.data).toMatchObject({
      status: "pending",
      notes: "Internal: address looks odd",
      info_request: { message: "Please confirm your address", requested_by: "Rita Reviewer" },
    });
    // Every step is done, so a reviewer may withdraw the request and take it back to review.
    const withdrawn = await asAdmin("PUT", path, { status: "under_review" });
    expect(withdrawn.body.data).toMatchObject({ status: "under_review", info_request: null });
    expect(withdrawn.body.data.audit.at(-1)).toMatchObject({
      action: "moved_to_review",
      from: "pending",
      to: "under_review",
      actor_role: "reviewer",
    });
  });

  it("refuses transitions the rules do not allow, and changes nothing", async () => {
    const verified = await seed();
    await asAdmin("PUT", `/api/v1/kyc/submissions/${verified.id}`, { status: "verified" });
    const flip = await asAdmin("PUT", `/api/v1/kyc/submissions/${verified.id}`, {
      status: "rejected",
      notes: "Second thoughts",
    });
    expect(flip.status).toBe(409);
    expect(flip.body).toEqual({
      code: "kyc_invalid_transition",
      message: "A verified submission cannot become rejected directly: reopen it (under_review) first",
    });
    const incomplete = await seed({ complete: false });
    const approve = await asAdmin("PUT", `/api/v1/kyc/submissions/${incomplete.id}`, { status: "verified" });
    expect(approve.status).toBe(409);
    expect(approve.body.message).toContain("An incomplete submission cannot be approved");
    const toReview = await asAdmin("PUT", `/api/v1/kyc/submissions/${incomplete.id}`, { status: "under_review" });
    expect(toReview.status).toBe(409);
    const versions = await Promise.all(
      [verified.id, incomplete.id].map(async (id) => (await listHistory(t.core, id)).length),
    );
    const detail = await asAdmin("GET", `/api/v1/kyc/submissions/${incomplete.id}`);
    expect(detail.body.data.status).toBe("pending");
    expect(detail.body.data.audit).toHaveLength(versions[1]!);
    // Rejecting an incomplete submission is allowed.
    expect(
      (
        await asAdmin("PUT", `/api/v1/kyc/submissions/${incomplete.id}`, {
          status: "rejected",
          notes: "Forged passport",
        })
      ).status,
    ).toBe(200);
  });

  it("lets one of two reviewers deciding at once win; the other is refused and nothing is written twice", async () => {
    const submission = await seed();
    const path = `/api/v1/kyc/submissions/${submission.id}`;
    const replies = await Promise.all([
      asAdmin("PUT", path, { status: "verified" }),
      asAdmin("PUT", path, { status: "rejected", notes: "Forged" }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const winner = replies.find((reply) => reply.status === 200)!.body.data.status;
    const decisions = (await listHistory(t.core, submission.id)).filter(
      (entry) => entry.event?.type === "verificationCompleted" && entry.actor.role === "reviewer",
    );
    expect(decisions).toHaveLength(1);
    expect(decisions[0]!.to).toBe(winner);
  });

  it("refuses a reopen of a rejected submission the applicant has replaced", async () => {
    const userId = randomUUID();
    const first = await seed({ userId });
    await asAdmin("PUT", `/api/v1/kyc/submissions/${first.id}`, { status: "rejected", notes: "Expired passport" });
    await seed({ userId });
    const reopen = await asAdmin("PUT", `/api/v1/kyc/submissions/${first.id}`, {
      status: "under_review",
      notes: "Second look",
    });
    expect(reopen.status).toBe(409);
    expect(reopen.body.code).toBe("kyc_submission_superseded");
  });

  it.each([
    [{ status: "approved" }, 400, "status must be one of"],
    [{ status: "verified", notes: "x".repeat(2001) }, 400, "notes must be at most 2000 characters"],
    [{ status: "verified", extra: true }, 400, "Unknown field: extra"],
    [{ notes: "no status" }, 400, "status must be one of"],
    ["[1,", 400, "Request body must be valid JSON"],
  ])("answers a bad body %j with %i", async (body, status, message) => {
    const submission = await seed();
    const reply = await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, body);
    expect(reply.status).toBe(status);
    expect(reply.body.message).toContain(message);
    expect((await asAdmin("GET", `/api/v1/kyc/submissions/${submission.id}`)).body.data.status).toBe("under_review");
  });

  it("answers unknown and malformed ids with 404", async () => {
    for (const id of [randomUUID(), "not-a-real-id", "a".repeat(65), "%F0%9F%92%A5", "..%2F..%2Fetc"]) {
      expect((await asAdmin("GET", `/api/v1/kyc/submissions/${id}`)).status, id).toBe(404);
      const put = await asAdmin("PUT", `/api/v1/kyc/submissions/${id}`, { status: "verified" });
      expect(put.status, id).toBe(404);
      expect(put.body.code).toBe("kyc_submission_not_found");
      expect(
        (await asAdmin("POST", `/api/v1/kyc/submissions/${id}/request-info`, { message: "More" })).status,
        id,
      ).toBe(404);
    }
  });
});

describe("bulk updates", () => {
  it("decides each id on its own and says what happened to each", async () => {
    const reviewable = await seed();
    const alreadyVerified = await seed();
    await asAdmin("PUT", `/api/v1/kyc/submissions/${alreadyVerified.id}`, { status: "verified" });
    const incomplete = await seed({ complete: false });
    const unknown = randomUUID();
    const ids = [reviewable.id, alreadyVerified.id, incomplete.id, unknown, "garbage id"];
    const reply = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-update", {
      ids,
      status: "verified",
      notes: "Batch",
    });
    expect(reply.status).toBe(200);
    expect(
      reply.body.results.map((result: { id: string; outcome: string; ok: boolean }) => [
        result.id,
        result.outcome,
        result.ok,
      ]),
    ).toEqual([
      [reviewable.id, "updated", true],
      [alreadyVerified.id, "updated", true],
      [incomplete.id, "refused", false],
      [unknown, "not_found", false],
      ["garbage id", "not_found", false],
    ]);
    expect(reply.body.results[2]).toMatchObject({
      code: "kyc_invalid_transition",
      message: expect.stringContaining("cannot be approved"),
    });
    expect(reply.body.summary).toEqual({ updated: 2, unchanged: 0, not_found: 2, refused: 1 });
    expect(BulkUpdateReply.safeParse(reply.body).error).toBeUndefined();
    expect((await asAdmin("GET", `/api/v1/kyc/submissions/${reviewable.id}`)).body.data).toMatchObject({
      status: "verified",
      notes: "Batch",
    });
    expect((await asAdmin("GET", `/api/v1/kyc/submissions/${incomplete.id}`)).body.data.status).toBe("pending");
    // Again without notes: nothing to change.
    const again = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-update", {
      ids: [reviewable.id],
      status: "verified",
    });
    expect(again.body.results[0]).toMatchObject({ outcome: "unchanged", ok: true, status: "verified" });
  });

  it.each([
    [{ ids: [], status: "verified" }, "ids must name at least one submission"],
    [
      { ids: Array.from({ length: 101 }, () => randomUUID()), status: "verified" },
      "ids may name at most 100 submissions",
    ],
    [{ ids: ["a", "a"], status: "verified" }, "ids must not repeat a submission"],
    [{ ids: ["x".repeat(65)], status: "verified" }, "ids must be at most 64 characters"],
    [{ ids: "abc", status: "verified" }, "ids must be a list"],
    [{ ids: ["a"], status: "done" }, "status must be one of"],
  ])("refuses %j as a whole", async (body, message) => {
    const reply = await asAdmin("POST", "/api/v1/kyc/submissions/bulk-update", body);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(message);
  });
});

describe("Request Info and resubmission", () => {
  it("sends the submission back to the applicant, who resubmits it to review", async () => {
    const applicant = await t.signUp(`applicant-${randomUUID().slice(0, 8)}@example.com`);
    const submission = await seed({ userId: applicant.user.id, name: "Vikram Shah" });
    const empty = await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, { message: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      code: "kyc_reason_required",
      message: "message must say what the applicant should provide",
    });

    // Resubmitting before anything was asked is refused.
    const early = await t.call("POST", "/api/v1/kyc/resubmit", { token: applicant.token, body: {} });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("kyc_no_info_request");

    const asked = await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, {
      message: "Please upload a sharper passport photo",
    });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({
      status: "pending",
      info_requested: true,
      info_request: {
        message: "Please upload a sharper passport photo",
        requested_at: expect.any(String),
        requested_by: "Rita Reviewer",
      },
    });
    expect(asked.body.data.audit.at(-1)).toMatchObject({
      action: "info_requested",
      actor_role: "reviewer",
      from: "under_review",
      to: "pending",
      note: "Please upload a sharper passport photo",
    });

    // A retried request (reply lost) finds it open already and adds nothing.
    const retried = await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, {
      message: "Please upload a sharper passport photo",
    });
    expect(retried.body.data.audit).toHaveLength(asked.body.data.audit.length);

    const answered = await t.call("POST", "/api/v1/kyc/resubmit", {
      token: applicant.token,
      body: { note: "Uploaded a new photo" },
    });
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ id: submission.id, status: "under_review" });
    const detail = (await asAdmin("GET", `/api/v1/kyc/submissions/${submission.id}`)).body.data;
    expect(detail.info_request).toBeNull();
    const resubmitted = detail.audit.findIndex((row: { action: string }) => row.action === "resubmitted");
    expect(detail.audit[resubmitted]).toMatchObject({
      actor: "Vikram Shah",
      actor_id: applicant.user.id,
      actor_role: "applicant",
      note: "Uploaded a new photo",
    });
    expect(detail.audit.slice(resubmitted).at(-1)).toMatchObject({
      action: "submitted_for_review",
      from: "pending",
      to: "under_review",
    });

    // Once answered, there is nothing open to answer.
    expect((await t.call("POST", "/api/v1/kyc/resubmit", { token: applicant.token, body: {} })).body.code).toBe(
      "kyc_no_info_request",
    );
    const tooLong = await t.call("POST", "/api/v1/kyc/resubmit", {
      token: applicant.token,
      body: { note: "x".repeat(2001) },
    });
    expect(tooLong.status).toBe(400);
  });

  it("names the missing steps when an incomplete submission is resubmitted", async () => {
    const applicant = await t.signUp(`incomplete-${randomUUID().slice(0, 8)}@example.com`);
    const submission = await seed({ userId: applicant.user.id, complete: false });
    expect(
      (
        await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, {
          message: "Finish the PAN step",
        })
      ).status,
    ).toBe(200);
    const reply = await t.call("POST", "/api/v1/kyc/resubmit", { token: applicant.token, body: {} });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({
      code: "kyc_incomplete",
      message:
        "Complete the missing steps before resubmitting: Aadhaar verification, PAN verification, a verified identity document",
    });
  });

  it("does not send a decided submission back without reopening it", async () => {
    const submission = await seed();
    await asAdmin("PUT", `/api/v1/kyc/submissions/${submission.id}`, { status: "verified" });
    const reply = await asAdmin("POST", `/api/v1/kyc/submissions/${submission.id}/request-info`, {
      message: "One more thing",
    });
    expect(reply.status).toBe(409);
    expect(reply.body.code).toBe("kyc_invalid_transition");
  });
});

describe("Export Report", () => {
  it("downloads the filtered list as CSV with formula cells escaped", async () => {
    const tag = `exp${randomUUID().slice(0, 8)}`;
    const formula = await seed({
      ago: 2 * 60_000,
      name: `=HYPERLINK("http://evil.example","${tag}")`,
      email: `+${tag}@example.com`,
    });
    const plain = await seed({ ago: 60_000, name: `Plain ${tag}`, location: "@home", country: "FR" });
    await asAdmin("PUT", `/api/v1/kyc/submissions/${plain.id}`, { status: "verified", notes: "-1+2" });
    const reply = await t.app.request(`/api/v1/kyc/dashboard/export?search=${tag}`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("text/csv");
    expect(reply.headers.get("content-disposition")).toMatch(
      /^attachment; filename="kyc-submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parse(await reply.text(), { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.id)).toEqual([plain.id, formula.id]);
    expect(rows[1]).toMatchObject({
      name: `'=HYPERLINK("http://evil.example","${tag}")`,
      email: `'+${tag}@example.com`,
      status: "under_review",
      documents: "passport:verified",
    });
    expect(rows[0]).toMatchObject({
      location: "'@home",
      notes: "'-1+2",
      status: "verified",
      country: "FR",
      amount: "50000",
    });

    const filtered = await t.app.request(`/api/v1/kyc/dashboard/export?search=${tag}&status=verified`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    const filteredRows = parse(await filtered.text(), { columns: true }) as Record<string, string>[];
    expect(filteredRows.map((row) => row.id)).toEqual([plain.id]);

    const none = await t.app.request(`/api/v1/kyc/dashboard/export?search=nobody-${tag}`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    });
    expect((await none.text()).trim().split("\n")).toHaveLength(1);
    // More matches than the export takes: a 422 asking for narrower filters, never a cut file.
    await expect(exportSubmissions(t.core, { search: tag }, 1)).rejects.toMatchObject({
      status: 422,
      code: "export_too_large",
    });
    const bad = await asAdmin("GET", "/api/v1/kyc/dashboard/export?status=unknown");
    expect(bad.status).toBe(400);
  });
});

describe("the submission detail", () => {
  it("links each document image and face image through presigned URLs the S3 emulator serves", async () => {
    const face = Uint8Array.from([...TINY_PNG, 0]);
    const submission = await seed({ face });
    const reply = await asAdmin("GET", `/api/v1/kyc/submissions/${submission.id}`);
    expect(reply.status).toBe(200);
    const detail = reply.body.data;
    expect(SubmissionDetail.safeParse(detail).error).toBeUndefined();
    expect(detail.identity_numbers).toEqual({
      aadhaar: { masked: "XXXX XXXX 1234", verified_at: expect.any(String) },
      pan: { masked: "AAAAAXXXXA", verified_at: expect.any(String) },
    });
    expect(JSON.stringify(detail)).not.toContain("hash");
    expect(detail.risk).toMatchObject({
      risk_score: expect.any(Number),
      level: expect.any(String),
      flags: expect.any(Array),
      reasons: expect.any(Array),
    });
    const [document] = detail.documents;
    expect(document).toMatchObject({ type: "passport", status: "verified", file_name: "passport.png" });
    const image = await fetch(document.url);
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(TINY_PNG);
    const faceImage = await fetch(document.face_url);
    expect(new Uint8Array(await faceImage.arrayBuffer())).toEqual(face);
    // Short-lived and signed (the emulator does not check presigned signatures; S3 does).
    const link = new URL(document.url);
    expect(link.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(link.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(document.url_expires_at)).toBeGreaterThan(Date.now());
  });

  it("keeps the audit trail of changes made straight through the store too", async () => {
    const submission = await seed();
    await changeSubmission(t.core, submission.id, (current) => ({
      next: { ...current, notes: "System note" },
      entries: [
        {
          actor: { id: "system", name: "Automated checks", role: "system" },
          action: "annotated",
          from: null,
          to: null,
          note: "System note",
          event: null,
        },
      ],
    }));
    const detail = (await asAdmin("GET", `/api/v1/kyc/submissions/${submission.id}`)).body.data;
    expect(detail.audit.at(-1)).toMatchObject({
      actor: "Automated checks",
      actor_role: "system",
      action: "annotated",
      note: "System note",
    });
    expect(detail.notes).toBe("System note");
  });
});

describe("hostile input from an admin", () => {
  const LONG = "x".repeat(3000);
  const bodies: unknown[] = [
    null,
    [],
    "just a string",
    42,
    { status: LONG, notes: LONG },
    { status: ["verified"], notes: { $ne: null } },
    { status: "verified", notes: 1e308 },
    { ids: [LONG], status: "verified" },
    { ids: [{ $ne: null }], status: "verified" },
    { ids: Array.from({ length: 5000 }, (_, index) => `id-${index}`), status: "verified" },
    { message: LONG, note: LONG },
    { message: ["a"], note: 5 },
    JSON.parse('{"__proto__": {"status": "verified"}, "constructor": {"prototype": {"status": "verified"}}}'),
    "[".repeat(5000) + "]".repeat(5000),
    "{not json",
  ];
  const queries = [
    `limit=1e400`,
    `limit=-1`,
    `limit=${LONG}`,
    `status=verified&status=rejected`,
    `search=%00%01%02`,
    `search=${encodeURIComponent("ü".repeat(100))}`,
    `country=%F0%9F%92%A5%F0%9F%92%A5`,
    `cursor=${encodeURIComponent("ü.ü")}`,
    `cursor=${"a".repeat(1000)}.${"b".repeat(43)}`,
    `period=${LONG}`,
  ];

  it("never answers 500 and never writes from a refused body", async () => {
    const submission = await seed();
    const before = (await listHistory(t.core, submission.id)).length;
    for (const body of bodies) {
      for (const [method, path] of [
        ["PUT", `/api/v1/kyc/submissions/${submission.id}`],
        ["POST", "/api/v1/kyc/submissions/bulk-update"],
        ["POST", `/api/v1/kyc/submissions/${submission.id}/request-info`],
        ["POST", `/api/v1/kyc/submissions/${submission.id}/dismiss-alert`],
        ["POST", "/api/v1/kyc/submissions/bulk-risk"],
      ] as const) {
        const reply = await asAdmin(method, path, typeof body === "string" ? body : JSON.stringify(body));
        expect(reply.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)}`).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
      }
    }
    expect((await listHistory(t.core, submission.id)).length).toBe(before);
  });

  it("answers hostile query strings with 400 or a page, never 500", async () => {
    for (const query of queries) {
      for (const path of ["/api/v1/kyc/dashboard", "/api/v1/kyc/dashboard/stats", "/api/v1/kyc/dashboard/export"]) {
        const reply = await asAdmin("GET", `${path}?${query}`);
        expect(reply.status, `${path}?${query.slice(0, 60)}`).toBeLessThan(500);
      }
    }
  });
});

describe("the whole journey through the applicant's and the reviewer's routes", () => {
  it("start, Aadhaar, PAN, upload -> review; Request Info -> resubmit; approve -> the applicant sees verified", async () => {
    const applicant = await t.signUp(`journey-${randomUUID().slice(0, 8)}@example.com`);
    const as = (method: string, path: string, body?: unknown) =>
      t.call(method, path, { token: applicant.token, ...(body === undefined ? {} : { body }) });
    const start = await t.call("POST", "/api/v1/kyc/start", {
      token: applicant.token,
      body: { country: "IN", name: "Journey Person", email: "journey@example.com", phone: "+919876543210" },
      ip: nextTestAddress(),
    });
    expect(start.status).toBe(201);
    expect(
      (await as("POST", "/api/v1/kyc/verify/aadhaar", { document_number: "2341 2341 2346", country: "IN" })).status,
    ).toBe(200);
    expect((await as("POST", "/api/v1/kyc/verify/pan", { document_number: "ABCPE1234F", country: "IN" })).status).toBe(
      200,
    );
    const png = await sampleDocumentImage({ seed: 4242 });
    const form = new FormData();
    form.append("document_type", "passport");
    form.append("file", new Blob([png], { type: "image/png" }), "passport.png");
    const uploaded = await t.app.request("/api/v1/kyc/upload", {
      method: "POST",
      body: form,
      headers: { Authorization: `Bearer ${applicant.token}` },
    });
    expect(uploaded.status).toBe(201);
    expect((await as("GET", "/api/v1/kyc/status")).body.data.status).toBe("under_review");
    // With a reviewer now: what they review no longer changes under them.
    const again = new FormData();
    again.append("document_type", "idCard");
    again.append("file", new Blob([png], { type: "image/png" }), "id.png");
    const late = await t.app.request("/api/v1/kyc/upload", {
      method: "POST",
      body: again,
      headers: { Authorization: `Bearer ${applicant.token}` },
    });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toContain("under review");
    expect((await as("POST", "/api/v1/kyc/verify/pan", { document_number: "ABCPE1235F", country: "IN" })).status).toBe(
      409,
    );

    const listed = await asAdmin("GET", "/api/v1/kyc/dashboard?search=journey@example.com&status=under_review");
    expect(listed.body.data).toHaveLength(1);
    const id: string = listed.body.data[0].id;
    const detail = (await asAdmin("GET", `/api/v1/kyc/submissions/${id}`)).body.data;
    const image = await fetch(detail.documents[0].url);
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

    await asAdmin("POST", `/api/v1/kyc/submissions/${id}/request-info`, {
      message: "Please confirm your phone number",
    });
    expect((await as("GET", "/api/v1/kyc/status")).body.data.info_request).toMatchObject({
      message: "Please confirm your phone number",
    });
    expect((await as("POST", "/api/v1/kyc/resubmit", { note: "Phone confirmed" })).body.data.status).toBe(
      "under_review",
    );

    const approved = await asAdmin("PUT", `/api/v1/kyc/submissions/${id}`, { status: "verified", notes: "All good" });
    expect(approved.status).toBe(200);
    const status = (await as("GET", "/api/v1/kyc/status")).body.data;
    expect(status.status).toBe("verified");
    const events = (await listHistory(t.core, id)).map((entry) => entry.event?.type).filter(Boolean);
    expect(events.at(-1)).toBe("verificationCompleted");
    expect(events).toEqual(expect.arrayContaining(["verificationStarted", "documentUploaded", "documentVerified"]));
  });
});
