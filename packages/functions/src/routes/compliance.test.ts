import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseIdOf } from "@fintech/core/compliance/keys";
import { taxOf } from "@fintech/core/compliance/reports";
import { getPayment } from "@fintech/core/payments/store";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { COMPLIANCE_PERIOD, plantComplianceDataset, type PlantedDataset } from "@fintech/testing/compliance";
import { dataItems } from "@fintech/testing/context";
import { liftLimitsForTests } from "@fintech/testing/limits";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * The compliance reports through the whole app over a planted dataset (@fintech/testing/compliance):
 * structuring found and a normal customer not, CTR aggregated within a day and never across days,
 * rapid in-and-out and the other rules, a case's status surviving a re-run, tax equal to the fee
 * revenue × rate, the CSV and PDF exports read back from the S3 emulator; and who may call what.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let nowMs = Date.parse("2026-11-01T00:00:00.000Z");
let adminToken: string;
let userToken: string;
let planted: PlantedDataset;

const BASE = "/api/v1/compliance";
const period = `from=${COMPLIANCE_PERIOD.from}&to=${COMPLIANCE_PERIOD.to}`;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(nowMs) });
  await liftLimitsForTests(t.core);
  planted = await plantComplianceDataset(
    t.core,
    {
      set(iso) {
        nowMs = Date.parse(iso);
      },
    },
    "routes",
  );
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "compliance-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "compliance-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  userToken = (await t.signUp("compliance-user@example.com")).token;
}, 120_000);
afterAll(async () => {
  await t.core.dispose();
});

const get = (path: string, token = adminToken) => t.call("GET", `${BASE}${path}`, { token });

describe("CTR", () => {
  it("aggregates one customer's deposits of a day per currency, and never across days", async () => {
    const reply = await get(`/reports/ctr?${period}`);
    expect(reply.status).toBe(200);
    const rows = reply.body.data.rows as {
      customer: { id: string };
      day: string;
      total: string;
      count: number;
      journal_ids: string[];
    }[];
    expect(rows.map((row) => [row.customer.id, row.day, row.total, row.count])).toEqual([
      [planted.sam.caller.userId, "2026-11-10", "18500.00", 2],
      [planted.cora.caller.userId, "2026-11-12", "11000.00", 2],
    ]);
    expect(rows[1]!.journal_ids).toEqual(planted.cora.journalIds.slice(0, 2));
    expect(reply.body.data.rows[0].customer.email).toBe(planted.sam.caller.user.email);
    // cora's 4,000 + 7,000 straddle midnight: no row for either day.
    expect(rows.some((row) => row.day === "2026-11-13" || row.day === "2026-11-14")).toBe(false);
  });

  it("a period that misses the deposits has no rows", async () => {
    const reply = await get("/reports/ctr?from=2026-10-01&to=2026-10-31");
    expect([reply.status, reply.body.data.rows]).toEqual([200, []]);
  });
});

describe("SAR candidates", () => {
  it("finds structuring, rapid in-and-out, high KYC risk with volume and the screening hit; the normal customer has none", async () => {
    const reply = await get(`/reports/sar?${period}`);
    expect(reply.status).toBe(200);
    const candidates = reply.body.data.candidates as {
      rule: string;
      customer: { id: string };
      journal_ids: string[];
      payment_ids: string[];
      sentence: string;
      case: { status: string };
    }[];
    const found = candidates.map((candidate) => [candidate.rule, candidate.customer.id]);
    expect(found).toEqual([
      ["structuring", planted.sam.caller.userId],
      ["rapid_movement", planted.rick.caller.userId],
      ["high_risk_volume", planted.hana.caller.userId],
      ["screening_hit", planted.sid.caller.userId],
    ]);
    expect(found.some(([, customer]) => customer === planted.nora.caller.userId)).toBe(false);
    expect(found.some(([, customer]) => customer === planted.cora.caller.userId)).toBe(false);
    const [structuring, rapid, risky, hit] = candidates;
    expect(structuring!.journal_ids).toEqual(planted.sam.journalIds);
    expect(structuring!.sentence).toMatch(/^3 deposits between 8500\.00 USD and 9500\.00 USD/);
    expect(rapid!.journal_ids).toEqual(planted.rick.journalIds);
    expect(rapid!.payment_ids).toEqual(planted.rick.paymentIds);
    expect(risky!.journal_ids).toEqual(planted.hana.journalIds);
    expect(hit!.payment_ids).toEqual(planted.sid.paymentIds);
    expect(hit!.sentence).toMatch(/KIM, Jong Un/);
    expect(candidates.every((candidate) => candidate.case.status === "open")).toBe(true);
  });

  it("a case's status survives a re-run, every change is audited, and no case is duplicated", async () => {
    const first = (await get(`/reports/sar?${period}`)).body.data.candidates;
    const structuring = first[0];
    const id = caseIdOf("structuring", planted.sam.caller.userId, structuring.window);
    expect(structuring.case.id).toBe(id);

    const dismissed = await t.call("PATCH", `${BASE}/cases/${id}`, {
      token: adminToken,
      body: { status: "dismissed", reason: "Salary paid in three parts", version: 1 },
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data).toMatchObject({
      status: "dismissed",
      reason: "Salary paid in three parts",
      version: 2,
    });
    expect(dismissed.body.data.audit.map((entry: { status: string; by: string }) => [entry.status, entry.by])).toEqual([
      ["open", "system"],
      ["dismissed", "compliance-admin@example.com"],
    ]);

    const again = (await get(`/reports/sar?${period}`)).body.data.candidates;
    expect(again.map((candidate: { case: { id: string } }) => candidate.case.id)).toEqual(
      first.map((candidate: { case: { id: string } }) => candidate.case.id),
    );
    expect(again[0].case).toMatchObject({ id, status: "dismissed", reason: "Salary paid in three parts", version: 2 });
    const caseItems = (await dataItems(t.core)).filter(
      (item) => String(item.pk).startsWith("CMPCASE#") && item.sk === "CASE",
    );
    expect(caseItems).toHaveLength(first.length);

    // A stale version is a 409 and changes nothing; reopening and filing work in turn.
    const stale = await t.call("PATCH", `${BASE}/cases/${id}`, {
      token: adminToken,
      body: { status: "filed", version: 1 },
    });
    expect([stale.status, stale.body.code]).toEqual([409, "case_changed"]);
    const same = await t.call("PATCH", `${BASE}/cases/${id}`, {
      token: adminToken,
      body: { status: "dismissed", reason: "again" },
    });
    expect([same.status, same.body.code]).toEqual([422, "case_unchanged"]);
    const reopened = await t.call("PATCH", `${BASE}/cases/${id}`, {
      token: adminToken,
      body: { status: "open", version: 2 },
    });
    expect(reopened.body.data).toMatchObject({ status: "open", reason: null, version: 3 });
    const filed = await t.call("PATCH", `${BASE}/cases/${id}`, { token: adminToken, body: { status: "filed" } });
    expect(filed.body.data.audit.map((entry: { status: string }) => entry.status)).toEqual([
      "open",
      "dismissed",
      "open",
      "filed",
    ]);
  });

  it("two changes racing on one version: one wins, the other is a 409", async () => {
    const candidates = (await get(`/reports/sar?${period}`)).body.data.candidates;
    const target = candidates[1].case;
    const replies = await Promise.all(
      ["filed", "dismissed"].map((status) =>
        t.call("PATCH", `${BASE}/cases/${target.id}`, {
          token: adminToken,
          body: { status, reason: "race", version: target.version },
        }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
  });
});

describe("tax", () => {
  it("is the fee revenue of the period × the rate, per currency (FX revenue zero without its account)", async () => {
    const payment = (await getPayment(t.core, planted.rick.paymentIds[0]!))!;
    expect(payment.status).toBe("completed");
    for (const rate of [undefined, "0.075", "1", "0"]) {
      const reply = await get(`/reports/tax?${period}${rate === undefined ? "" : `&rate=${rate}`}`);
      expect(reply.status).toBe(200);
      const usd = reply.body.data.rows.find((row: { currency: string }) => row.currency === "USD");
      expect(usd.fee_revenue_minor).toBe(payment.feeMinor);
      expect(usd.fx_revenue_minor).toBe(0);
      const millionths = Math.round(Number(rate ?? "0.18") * 1_000_000);
      expect(usd.tax_due_minor).toBe(taxOf(payment.feeMinor, millionths));
      expect(usd.tax_due_minor).toBe(Math.round((payment.feeMinor * millionths) / 1_000_000));
    }
    const outside = await get("/reports/tax?from=2026-10-01&to=2026-10-31");
    expect(outside.body.data.rows.every((row: { taxable_minor: number }) => row.taxable_minor === 0)).toBe(true);
  });
});

describe("exports", () => {
  const fetchExport = async (url: string) => {
    const response = await fetch(url);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  it("a PDF of the SAR candidates, stored under reports/compliance/, parses as a PDF with pages", async () => {
    const reply = await t.call("POST", `${BASE}/exports`, {
      token: adminToken,
      body: { report: "sar", ...COMPLIANCE_PERIOD, format: "pdf" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.filename).toBe(`compliance-sar-${COMPLIANCE_PERIOD.from}-to-${COMPLIANCE_PERIOD.to}.pdf`);
    expect(Date.parse(reply.body.data.expiresAt) - nowMs).toBe(300_000);
    expect(new URL(reply.body.data.downloadUrl).pathname).toMatch(/\/reports\/compliance\/\d{4}-\d{2}-\d{2}\//);
    const { status, bytes } = await fetchExport(reply.body.data.downloadUrl);
    expect(status).toBe(200);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = bytes.toString("latin1");
    expect(text).toMatch(/\/Type \/Pages/);
    expect(Number(/\/Count (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
  });

  it("a CSV of the CTR has the header and one line per row", async () => {
    const reply = await t.call("POST", `${BASE}/exports`, {
      token: adminToken,
      body: { report: "ctr", ...COMPLIANCE_PERIOD, format: "csv" },
    });
    expect(reply.status).toBe(201);
    const { status, bytes } = await fetchExport(reply.body.data.downloadUrl);
    expect(status).toBe(200);
    const lines = bytes.toString("utf8").trim().split("\n");
    expect(lines[0]).toBe("day,customer_id,customer_name,customer_email,currency,total,count,journal_ids");
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 2))).toEqual([
      ["2026-11-10", planted.sam.caller.userId],
      ["2026-11-12", planted.cora.caller.userId],
    ]);
  });
});

describe("refusals", () => {
  it("a user is 403 admin_required on every route, and no token is 401", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", `/reports/ctr?${period}`],
      ["GET", `/reports/sar?${period}`],
      ["GET", `/reports/tax?${period}`],
      ["PATCH", `/cases/${"a".repeat(32)}`, { status: "filed" }],
      ["POST", "/exports", { report: "ctr", ...COMPLIANCE_PERIOD, format: "csv" }],
    ];
    for (const [method, path, body] of calls) {
      const refused = await t.call(method, `${BASE}${path}`, { token: userToken, body });
      expect([refused.status, refused.body.code]).toEqual([403, "admin_required"]);
      expect((await t.call(method, `${BASE}${path}`, { body })).status).toBe(401);
      expect((await t.call(method, `${BASE}${path}`, { body, token: "forged.token.here" })).status).toBe(401);
    }
  });

  it.each([
    ["no period", "/reports/ctr"],
    ["a bad date", "/reports/ctr?from=2026-02-30&to=2026-03-01"],
    ["from after to", "/reports/sar?from=2026-03-02&to=2026-03-01"],
    ["over 366 days", "/reports/sar?from=2025-01-01&to=2026-01-02"],
    ["a repeated parameter", `/reports/ctr?${period}&from=2026-11-01`],
    ["an unknown parameter", `/reports/ctr?${period}&limit=5`],
    ["a rate over 1", `/reports/tax?${period}&rate=1.5`],
    ["a negative rate", `/reports/tax?${period}&rate=-0.1`],
    ["a rate with 7 decimals", `/reports/tax?${period}&rate=0.1234567`],
    ["a huge date", `/reports/ctr?from=${"9".repeat(5000)}&to=2026-01-01`],
  ])("%s is a 400 validation_error", async (_name, path) => {
    const reply = await get(path);
    expect([reply.status, reply.body.code]).toEqual([400, "validation_error"]);
  });

  it("bad case changes and exports are 400s or 404s, and change nothing", async () => {
    const before = await dataItems(t.core);
    const cases: [string, unknown, number][] = [
      [`/cases/${"a".repeat(32)}`, { status: "filed" }, 404],
      ["/cases/not-a-case", { status: "filed" }, 404],
      [`/cases/${"b".repeat(5000)}`, { status: "filed" }, 404],
      [`/cases/${"a".repeat(32)}`, { status: "dismissed" }, 400],
      [`/cases/${"a".repeat(32)}`, { status: "closed" }, 400],
      [`/cases/${"a".repeat(32)}`, { status: "filed", reason: "x".repeat(501) }, 400],
      [`/cases/${"a".repeat(32)}`, { status: "filed", version: "1" }, 400],
      [`/cases/${"a".repeat(32)}`, "{not json", 400],
      [`/cases/${"a".repeat(32)}`, [], 400],
    ];
    for (const [path, body, status] of cases)
      expect((await t.call("PATCH", `${BASE}${path}`, { token: adminToken, body })).status, path).toBe(status);
    const exports: unknown[] = [
      { report: "ctr", ...COMPLIANCE_PERIOD, format: "xlsx" },
      { report: "all", ...COMPLIANCE_PERIOD, format: "csv" },
      { report: "ctr", from: "2026-11-01", format: "csv" },
      { report: "tax", ...COMPLIANCE_PERIOD, format: "csv", rate: 2 },
      { report: "ctr", ...COMPLIANCE_PERIOD, format: "csv", extra: true },
      ["ctr"],
    ];
    for (const body of exports) {
      const reply = await t.call("POST", `${BASE}/exports`, { token: adminToken, body });
      expect([reply.status, reply.body.code], JSON.stringify(body)).toEqual([400, "validation_error"]);
    }
    const notJson = await t.call("POST", `${BASE}/exports`, { token: adminToken, body: "not json" });
    expect([notJson.status, notJson.body.code]).toEqual([400, "invalid_json"]);
    expect(await dataItems(t.core)).toEqual(before);
  });
});
