import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verhoeffCheckDigit } from "@fintech/core/kyc/identity-numbers";
import { SEED_RULE_SET } from "@fintech/core/kyc/risk/seed-rules";
import { getSubmission } from "@fintech/core/kyc/submissions";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * The rules API: administrators only; drafts validated by schema and by the engine; dry runs
 * that write nothing; a publish on one app instance used by another instance's next assessment
 * (two apps over one table, each with its own client and caches); watchlist uploads.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let second: TestApp;
let adminToken: string;
let user: { token: string; user: { id: string } };

const RULES = "/api/v1/kyc/rules";

beforeAll(async () => {
  t = await createTestApp();
  second = await createTestApp({ TABLE_NAME: t.core.db.table });
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "rules-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "rules-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  user = await t.signUp("rules-user@example.com", { first_name: "Asha", last_name: "Rao" });
});
afterAll(async () => {
  second.core.db.raw.destroy();
  await t.core.dispose();
});

const tableItems = () => dataItems(t.core);

async function startKyc(token: string, name: string, app: TestApp = t) {
  const reply = await app.call("POST", "/api/v1/kyc/start", {
    token,
    body: { country: "IN", name, email: "asha@rao-family.example", phone: "+919876543210" },
    ip: nextTestAddress(),
  });
  expect(reply.status).toBe(201);
  return reply.body.data.submission_id ?? reply.body.data.id;
}

/** A raw-body POST (the test app's JSON helper always sends application/json). */
async function postRaw(path: string, body: string, contentType: string, token = adminToken) {
  const response = await t.app.request(path, {
    method: "POST",
    headers: { "Content-Type": contentType, Authorization: `Bearer ${token}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const stricter = {
  ...SEED_RULE_SET,
  name: "Everything is medium",
  rules: [
    {
      id: "flat",
      name: "Flat score",
      conditions: { all: [{ fact: "amount", operator: "greaterThanInclusive", value: 0 }] },
      event: { type: "risk", params: { points: 40, reason: "Flat {amount}" } },
    },
  ],
};

describe("who may use the rules API", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", RULES],
    ["GET", `${RULES}/versions/1`],
    ["PUT", `${RULES}/draft`, stricter],
    ["POST", `${RULES}/test`, { submission_id: "x" }],
    ["POST", `${RULES}/publish`],
    ["POST", `${RULES}/watchlist`, { csv: "name\nA\n" }],
    ["GET", `${RULES}/watchlist`],
  ];
  it.each(routes)("%s %s: 401 without a token, 403 for a user, and nothing changes", async (method, path, body) => {
    const before = await tableItems();
    expect((await t.call(method, path, { body })).status).toBe(401);
    const refused = await t.call(method, path, { token: user.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("admin_required");
    expect(await tableItems()).toEqual(before);
  });
});

describe("rule sets", () => {
  it("shows the seed as version 1 before anyone published", async () => {
    const reply = await t.call("GET", RULES, { token: adminToken });
    expect(reply.status).toBe(200);
    expect(reply.body.data.published).toMatchObject({
      version: 1,
      name: SEED_RULE_SET.name,
      published_by: "system (seed rules)",
    });
    expect(reply.body.data.draft).toBeNull();
    expect(reply.body.data.versions).toEqual([
      {
        version: 1,
        name: SEED_RULE_SET.name,
        rules: SEED_RULE_SET.rules.length,
        published_at: expect.any(String),
        published_by: "system (seed rules)",
      },
    ]);
    expect((await t.call("GET", `${RULES}/versions/1`, { token: adminToken })).body.data.rules).toHaveLength(
      SEED_RULE_SET.rules.length,
    );
  });

  it("answers a bad or unknown version with 400 or 404", async () => {
    expect((await t.call("GET", `${RULES}/versions/abc`, { token: adminToken })).body.code).toBe("invalid_version");
    expect((await t.call("GET", `${RULES}/versions/0`, { token: adminToken })).status).toBe(400);
    const missing = await t.call("GET", `${RULES}/versions/99`, { token: adminToken });
    expect([missing.status, missing.body.code]).toEqual([404, "rule_set_version_not_found"]);
  });

  it("refuses an invalid draft with a clear 400 and saves nothing", async () => {
    const before = await tableItems();
    const cases: [unknown, RegExp][] = [
      [
        {
          ...stricter,
          rules: [{ ...stricter.rules[0], conditions: { all: [{ fact: "amount", operator: "roughly", value: 1 }] } }],
        },
        /^Rule 1 \("flat"\): conditions\.all\[0\]\.operator: Unknown operator "roughly"/,
      ],
      [
        {
          ...stricter,
          rules: [{ ...stricter.rules[0], conditions: { all: [{ fact: "salary", operator: "equal", value: 1 }] } }],
        },
        /Unknown fact "salary"/,
      ],
      [{ ...stricter, rules: [] }, /at least one rule/],
      [[], /must be a JSON object/],
    ];
    for (const [body, message] of cases) {
      const reply = await t.call("PUT", `${RULES}/draft`, { token: adminToken, body });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe("invalid_rule_set");
      expect(reply.body.message).toMatch(message);
    }
    expect((await t.call("PUT", `${RULES}/draft`, { token: adminToken, body: "{not json" })).body.code).toBe(
      "invalid_json",
    );
    expect(
      (await t.call("PUT", `${RULES}/draft?expected_revision=x`, { token: adminToken, body: stricter })).status,
    ).toBe(400);
    expect(await tableItems()).toEqual(before);
  });

  it("dry-runs a rule set against a submission and writes nothing", async () => {
    const submissionId = await startKyc(user.token, "Asha Rao");
    const before = await tableItems();
    const reply = await t.call("POST", `${RULES}/test`, {
      token: adminToken,
      body: { submission_id: submissionId, rules: stricter },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.rule_set).toEqual({ source: "body", version: null, name: stricter.name });
    expect(reply.body.data.assessment).toMatchObject({
      risk_score: 40,
      level: "Medium",
      verdict: "approve",
      reasons: [{ rule: "flat", points: 40, reason: "Flat 50000" }],
    });
    expect(reply.body.data.facts).toMatchObject({ country: "IN", name_mismatch: false, watchlist_hit: false });
    expect(reply.body.data.current).toMatchObject({ risk_score: 0, rule_set_version: 1 });
    const published = await t.call("POST", `${RULES}/test`, {
      token: adminToken,
      body: { submission_id: submissionId, version: 1 },
    });
    expect(published.body.data.assessment).toMatchObject({ risk_score: 0, rule_set_version: 1 });
    expect(await tableItems()).toEqual(before);

    expect(
      (await t.call("POST", `${RULES}/test`, { token: adminToken, body: { submission_id: "no-such-id" } })).status,
    ).toBe(404);
    expect(
      (await t.call("POST", `${RULES}/test`, { token: adminToken, body: { submission_id: "x".repeat(101) } })).status,
    ).toBe(400);
    expect(
      (
        await t.call("POST", `${RULES}/test`, {
          token: adminToken,
          body: { submission_id: submissionId, rules: { name: "x" } },
        })
      ).body.code,
    ).toBe("invalid_rule_set");
    expect(
      (
        await t.call("POST", `${RULES}/test`, {
          token: adminToken,
          body: { submission_id: submissionId, rules: stricter, version: 1 },
        })
      ).body.message,
    ).toBe("Give rules or version, not both");
  });

  it("a publish takes effect on another instance's next assessment, without a restart", async () => {
    const applicant = await t.signUp("rules-applicant@example.com", { first_name: "Meera", last_name: "Nair" });
    // Started on the second instance: it has evaluated (and cached) version 1.
    const submissionId = await startKyc(applicant.token, "Meera Nair", second);
    expect((await getSubmission(second.core, submissionId))!.risk!.rule_set_version).toBe(1);

    const saved = await t.call("PUT", `${RULES}/draft?expected_revision=0`, { token: adminToken, body: stricter });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      revision: 1,
      based_on_version: 1,
      updated_by: "rules-admin@example.com",
      name: stricter.name,
    });
    expect(
      (await t.call("PUT", `${RULES}/draft?expected_revision=0`, { token: adminToken, body: stricter })).status,
    ).toBe(409);
    expect(
      (await t.call("POST", `${RULES}/publish`, { token: adminToken, body: { draft_revision: 7 } })).body.code,
    ).toBe("rule_set_draft_changed");

    const published = await t.call("POST", `${RULES}/publish`, { token: adminToken });
    expect(published.status).toBe(201);
    expect(published.body.data).toMatchObject({ version: 2, published_by: "rules-admin@example.com" });

    // The next applicant step, served by the other instance, is scored by version 2.
    const payload = "23456789013".slice(0, 11);
    const step = await second.call("POST", "/api/v1/kyc/verify/aadhaar", {
      token: applicant.token,
      body: { document_number: payload + verhoeffCheckDigit(payload) },
    });
    expect(step.status).toBe(200);
    expect((await getSubmission(t.core, submissionId))!.risk).toMatchObject({
      rule_set_version: 2,
      risk_score: 40,
      level: "Medium",
    });

    const overview = await second.call("GET", RULES, { token: adminToken });
    expect(overview.body.data.published.version).toBe(2);
    expect(overview.body.data.draft).toBeNull();
    expect(overview.body.data.versions.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    expect((await t.call("POST", `${RULES}/publish`, { token: adminToken })).body.code).toBe("rule_set_no_draft");
  });
});

describe("watchlist", () => {
  it("is empty before an upload", async () => {
    const reply = await t.call("GET", `${RULES}/watchlist`, { token: adminToken });
    expect(reply.body.data).toEqual({
      version: null,
      name: null,
      entries: 0,
      lists: {},
      uploaded_at: null,
      uploaded_by: null,
      sample: [],
    });
  });

  it("takes CSV as text/csv or JSON and makes it current", async () => {
    const csv =
      "name,aliases,country,list,type,notes\nIvan Petrov,Ivan Petroff,RU,sanctions,individual,x\nJane Roe,,GB,pep,individual,\n";
    const reply = await postRaw(`${RULES}/watchlist?name=January`, csv, "text/csv; charset=utf-8");
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      version: 1,
      name: "January",
      entries: 2,
      lists: { sanctions: 1, pep: 1 },
      uploaded_by: "rules-admin@example.com",
      ignored_columns: ["notes"],
    });
    const json = await t.call("POST", `${RULES}/watchlist`, {
      token: adminToken,
      body: { csv: "name\nJohn Doe\n", name: "Second" },
    });
    expect(json.body.data).toMatchObject({ version: 2, name: "Second", entries: 1 });
    const summary = await second.call("GET", `${RULES}/watchlist`, { token: adminToken });
    expect(summary.body.data).toMatchObject({
      version: 2,
      entries: 1,
      sample: [{ name: "John Doe", aliases: [], country: "", list: "sanctions", type: "" }],
    });
  });

  it("refuses bad CSV with its line, other media types and oversize bodies, changing nothing", async () => {
    const before = await tableItems();
    const bad = await postRaw(`${RULES}/watchlist`, "name,country\nA,IN\nB,IN,extra\n", "text/csv");
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_watchlist"]);
    expect(bad.body.message).toMatch(/^Watchlist CSV line 3: /);
    expect((await t.call("POST", `${RULES}/watchlist`, { token: adminToken, body: { csv: 5 } })).status).toBe(400);
    expect((await postRaw(`${RULES}/watchlist`, "name\nA\n", "application/xml")).status).toBe(415);
    const huge = await postRaw(`${RULES}/watchlist`, `name\n${"A".repeat(5 * 1024 * 1024)}\n`, "text/csv");
    expect(huge.status).toBe(413);
    expect(await tableItems()).toEqual(before);
  });
});
