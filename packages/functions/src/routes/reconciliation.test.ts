import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSettlementFile } from "@fintech/core/reconciliation/generator";
import { settlementFileKey } from "@fintech/core/reconciliation/model";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { putSettlementObject, seedExpectations, syntheticExpectations } from "@fintech/testing/reconciliation";
import { seedAdminFromEnv } from "../../../../infra/local/seed";

/**
 * The reconciliation API through the whole app: administrators only (401 without a token, 403 for
 * a user), bounded inputs (400 for junk queries, cursors and bodies, 404 for unknown ids), and a
 * file reconciled by the nightly route, listed, its breaks resolved and reopened with replayed
 * Idempotency-Keys, positions, and a presigned upload.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let adminToken: string;
let userToken: string;

const RECON = "/api/v1/reconciliation";
const DAY = "2032-02-11";
const sha256Of = (text: string) => createHash("sha256").update(text).digest("base64");
const UPLOADED = "rail,reference\n";
const SHA = sha256Of(UPLOADED);

beforeAll(async () => {
  t = await createTestApp();
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "recon-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "recon-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
  userToken = (await t.signUp("recon-user@example.com")).token;
  await t.call("GET", "/api/v1/rails", { token: adminToken });
  const expectations = [...syntheticExpectations("sepa", DAY, 40, "ROUTE")].map((item) => ({
    ...item,
    currency: "EUR" as const,
  }));
  await seedExpectations(t.core, expectations);
  const file = generateSettlementFile(expectations, {
    railId: "sepa",
    date: DAY,
    settlementSeconds: 86_400,
    breaks: 5,
  });
  await putSettlementObject(t.core, settlementFileKey("sepa", DAY), `${[...file.rows()].join("\n")}\n`);
}, 60_000);
afterAll(async () => {
  await t.core.dispose();
});

describe("who may call", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", `${RECON}/files`],
    ["GET", `${RECON}/files/sepa_${DAY}_${"0".repeat(32)}`],
    ["GET", `${RECON}/breaks`],
    ["POST", `${RECON}/breaks/sepa_${DAY}_nofile/resolve`, { action: "write_off", note: "x" }],
    ["POST", `${RECON}/breaks/sepa_${DAY}_nofile/reopen`, { note: "x" }],
    ["POST", `${RECON}/uploads`, { railId: "ach", date: DAY, filename: "a.csv", size: 10, sha256: SHA }],
    ["GET", `${RECON}/positions?date=${DAY}`],
    ["POST", `${RECON}/nightly`, { date: DAY }],
  ];
  it.each(routes)(
    "%s %s: 401 without a token or with a forged one, 403 for a user; nothing changes",
    async (method, path, body) => {
      const before = await dataItems(t.core);
      expect((await t.call(method, path, { body })).status).toBe(401);
      expect((await t.call(method, path, { body, token: "forged.token.value" })).status).toBe(401);
      const refused = await t.call(method, path, { body, token: userToken });
      expect([refused.status, refused.body.code]).toEqual([403, "admin_required"]);
      expect(await dataItems(t.core)).toEqual(before);
    },
  );
});

describe("bounded inputs", () => {
  it.each([
    `${RECON}/files?limit=0`,
    `${RECON}/files?limit=abc`,
    `${RECON}/files?rail=${"a".repeat(300)}`,
    `${RECON}/files?status=bogus`,
    `${RECON}/files?cursor=${"x".repeat(50)}`,
    `${RECON}/files?rail=ach&rail=sepa`,
    `${RECON}/files?unknown=1`,
    `${RECON}/breaks?class=nope`,
    `${RECON}/breaks?fileId=..%2F..`,
    `${RECON}/breaks?cursor=${"y".repeat(3000)}`,
    `${RECON}/positions`,
    `${RECON}/positions?date=2031-02-30`,
  ])("GET %s is a 400", async (path) => {
    const reply = await t.call("GET", path, { token: adminToken });
    expect(reply.status).toBe(400);
    expect(typeof reply.body.code).toBe("string");
  });

  it.each([
    `${RECON}/files/nope`,
    `${RECON}/files/sepa_${DAY}_${"0".repeat(32)}`,
    `${RECON}/files/${"a".repeat(5000)}`,
  ])("GET %s is a 404", async (path) => {
    expect((await t.call("GET", path, { token: adminToken })).status).toBe(404);
  });

  it.each([
    [`${RECON}/breaks/junk/resolve`, { action: "write_off", note: "x" }, 404],
    [`${RECON}/breaks/sepa_${DAY}_nofile/resolve`, { action: "write_off", note: "x" }, 404],
    [`${RECON}/breaks/sepa_${DAY}_nofile/resolve`, { action: "explode", note: "x" }, 400],
    [`${RECON}/breaks/sepa_${DAY}_nofile/resolve`, { action: "write_off", note: "n".repeat(501) }, 400],
    [`${RECON}/breaks/sepa_${DAY}_nofile/resolve`, { action: "match", reference: "x".repeat(65), note: "n" }, 400],
    [`${RECON}/breaks/sepa_${DAY}_nofile/resolve`, "not json", 400],
    [`${RECON}/breaks/sepa_${DAY}_nofile/reopen`, { note: 7 }, 400],
    [`${RECON}/uploads`, { railId: "ach", date: DAY, filename: "a.exe", size: 10, sha256: SHA }, 400],
    [`${RECON}/uploads`, { railId: "ach", date: DAY, filename: "a.csv", size: 10 ** 12, sha256: SHA }, 400],
    [`${RECON}/uploads`, { railId: "ACH!", date: DAY, filename: "a.csv", size: 10, sha256: SHA }, 400],
    [`${RECON}/uploads`, { railId: "nosuchrail", date: DAY, filename: "a.csv", size: 10, sha256: SHA }, 404],
    [`${RECON}/nightly`, { date: "yesterday" }, 400],
  ] as const)("POST %s %j is a %i and changes nothing", async (path, body, status) => {
    const before = await dataItems(t.core);
    const reply = await t.call("POST", path, { token: adminToken, body });
    expect(reply.status).toBe(status);
    expect(await dataItems(t.core)).toEqual(before);
  });
});

describe("a file through the API", () => {
  it("the nightly route reconciles it; files, breaks, resolution with replays, and positions", async () => {
    const nightly = await t.call("POST", `${RECON}/nightly`, { token: adminToken, body: { date: DAY } });
    expect(nightly.status).toBe(200);
    expect(nightly.body.reconciled).toHaveLength(1);
    const fileId = nightly.body.reconciled[0] as string;

    const files = await t.call("GET", `${RECON}/files?rail=sepa&limit=5`, { token: adminToken });
    expect(files.status).toBe(200);
    expect(files.body.files[0]).toMatchObject({ id: fileId, railId: "sepa", source: "nightly" });
    expect((await t.call("GET", `${RECON}/files?rail=ach`, { token: adminToken })).body.files).toEqual([]);
    const one = await t.call("GET", `${RECON}/files/${fileId}`, { token: adminToken });
    const labels: Record<string, string> = { success: "Auto-Reconciled", warning: "Warning", error: "Requires Review" };
    expect(one.body.statusLabel).toBe(labels[one.body.status as string]);
    expect(one.body.status).not.toBe("success");
    const csv = await fetch(one.body.downloadUrl as string);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\n")[0]).toBe(
      "line,reference,class,file_amount,ledger_amount,difference,payment_id",
    );

    const page1 = await t.call("GET", `${RECON}/breaks?fileId=${fileId}&limit=2`, { token: adminToken });
    expect(page1.body.breaks).toHaveLength(2);
    const page2 = await t.call("GET", `${RECON}/breaks?fileId=${fileId}&limit=10&cursor=${page1.body.nextCursor}`, {
      token: adminToken,
    });
    expect(page2.body.breaks).toHaveLength(3);
    // A cursor from another filter set is refused.
    const stolen = await t.call("GET", `${RECON}/breaks?limit=2&cursor=${page1.body.nextCursor}`, {
      token: adminToken,
    });
    expect([stolen.status, stolen.body.code]).toEqual([400, "invalid_cursor"]);

    const fee = [...page1.body.breaks, ...page2.body.breaks].find((item) => item.class === "fee_mismatch");
    const path = `${RECON}/breaks/${fee.id}/resolve`;
    const body = { action: "write_off", note: "Rounding at the rail" };
    const headers = { "Idempotency-Key": "resolve-fee-1" };
    const first = await t.call("POST", path, { token: adminToken, body, headers });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "resolved", resolution: { by: "recon-admin@example.com" } });
    const items = await dataItems(t.core);
    const replay = await t.call("POST", path, { token: adminToken, body, headers });
    expect(replay.body).toEqual(first.body);
    expect(await dataItems(t.core)).toEqual(items);
    const reused = await t.call("POST", path, { token: adminToken, body: { ...body, note: "other" }, headers });
    expect([reused.status, reused.body.code]).toEqual([422, "idempotency_key_reused"]);
    const again = await t.call("POST", path, { token: adminToken, body });
    expect([again.status, again.body.code]).toEqual([409, "already_resolved"]);

    const reopened = await t.call("POST", `${RECON}/breaks/${fee.id}/reopen`, {
      token: adminToken,
      body: { note: "Not rounding after all" },
    });
    expect(reopened.body).toMatchObject({ status: "open", version: 3 });

    const positions = await t.call("GET", `${RECON}/positions?date=${DAY}`, { token: adminToken });
    expect(positions.status).toBe(200);
    expect(positions.body.positions).toContainEqual(
      expect.objectContaining({ railId: "sepa", currency: "EUR", netsToZero: false }),
    );
  }, 60_000);

  it("an upload grant is a presigned POST for a CSV under the incoming prefix", async () => {
    const reply = await t.call("POST", `${RECON}/uploads`, {
      token: adminToken,
      body: { railId: "ach", date: DAY, filename: "ach.csv", size: 1_000, sha256: sha256Of(UPLOADED) },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.key).toMatch(new RegExp(`^incoming/ach/${DAY}\\.upload-[a-z0-9]+-[A-Za-z0-9]+\\.csv$`));
    expect(reply.body.fields["Content-Type"]).toBe("text/csv");
    expect(reply.body.maxBytes).toBe(1_000);
    const form = new FormData();
    for (const [name, value] of Object.entries(reply.body.fields as Record<string, string>)) form.append(name, value);
    form.append("file", new Blob([UPLOADED], { type: "text/csv" }), "ach.csv");
    const posted = await fetch(reply.body.url as string, { method: "POST", body: form });
    expect(posted.status).toBeLessThan(300);
    // The bucket enforces the signed policy: CSV only, at most the declared size, this key only,
    // with the declared checksum (what Object Lock requires of every put).
    const policy = JSON.parse(Buffer.from(reply.body.fields.Policy as string, "base64").toString("utf8")) as {
      conditions: unknown[];
    };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ["content-length-range", 1, 1_000],
        ["eq", "$Content-Type", "text/csv"],
        ["eq", "$key", reply.body.key],
        ["eq", "$x-amz-checksum-sha256", SHA],
      ]),
    );
  });
});
