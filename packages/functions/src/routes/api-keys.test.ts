import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { seedAdminFromEnv } from "../../../../infra/local/seed";
import { ACCOUNT_CHANGE_LIMITS } from "@fintech/core/auth/account-limits";
import { API_KEY_SCOPES } from "@fintech/core/auth/model";

/** API keys: shown once, stored as a hash, act for their owner only, never as admin, revocable. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let owner: { token: string; user: { id: string } };
let stranger: { token: string; user: { id: string } };
let adminToken: string;
let clockOffsetMs = 0;

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(Date.now() + clockOffsetMs) });
  owner = await t.signUp("key-owner@example.com");
  stranger = await t.signUp("key-stranger@example.com");
  await seedAdminFromEnv(t.core, { ADMIN_EMAIL: "key-admin@example.com", ADMIN_PASSWORD: "admin password 1" });
  const login = await t.call("POST", "/api/v1/auth/login", {
    body: { email: "key-admin@example.com", password: "admin password 1" },
    ip: nextTestAddress(),
  });
  adminToken = login.body.data.token;
});
afterAll(async () => t.core.dispose());

async function createKey(name: string, token = owner.token) {
  const reply = await t.call("POST", "/api/v1/api-keys", { token, body: { name } });
  expect(reply.status).toBe(201);
  return reply.body.data as {
    id: string;
    name: string;
    prefix: string;
    key: string;
    last_used_at: string | null;
    revoked_at: string | null;
  };
}

async function tableText(): Promise<string> {
  const items = await t.core.db.doc.send(new ScanCommand({ TableName: t.core.db.table }));
  return JSON.stringify(items.Items ?? []);
}

describe("API keys", () => {
  it("shows a key once, lists it by name and prefix only, and never stores it", async () => {
    const created = await createKey("CI deploys");
    expect(created.key).toMatch(/^fpk_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    expect(created).toMatchObject({ name: "CI deploys", last_used_at: null, revoked_at: null });

    const listed = await t.call("GET", "/api/v1/api-keys", { token: owner.token });
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((key: { id: string }) => key.id === created.id);
    expect(mine).toEqual({
      id: created.id,
      name: "CI deploys",
      prefix: created.prefix,
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
      scopes: [...API_KEY_SCOPES],
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.key);
    expect(await tableText()).not.toContain(created.key.slice(12));
    expect((await t.call("GET", "/api/v1/api-keys", { token: stranger.token })).body.data).toEqual([]);
  });

  it("authenticates like its owner's token, for the owner's resources only, and records its last use", async () => {
    const { key, id } = await createKey("Reporting");
    const account = await t.call("POST", "/api/v1/ledger/accounts", {
      token: key,
      body: { name: "Via key", currency: "USD" },
    });
    expect(account.status).toBe(201);
    const mine = await t.call("GET", "/api/v1/ledger/accounts", { token: owner.token });
    expect(mine.body.data.map((item: { id: string }) => item.id)).toContain(account.body.data.id);

    const theirs = await t.call("POST", "/api/v1/ledger/accounts", {
      token: stranger.token,
      body: { name: "Not yours", currency: "USD" },
    });
    expect((await t.call("GET", `/api/v1/accounts/${theirs.body.data.id}`, { token: key })).status).toBe(404);

    const used = (await t.call("GET", "/api/v1/api-keys", { token: owner.token })).body.data.find(
      (item: { id: string }) => item.id === id,
    );
    expect(used.last_used_at).not.toBeNull();
    // Within the minute: no write per request.
    await t.call("GET", "/api/v1/ledger/accounts", { token: key });
    const again = (await t.call("GET", "/api/v1/api-keys", { token: owner.token })).body.data.find(
      (item: { id: string }) => item.id === id,
    );
    expect(again.last_used_at).toBe(used.last_used_at);
    clockOffsetMs += 61_000;
    await t.call("GET", "/api/v1/ledger/accounts", { token: key });
    const later = (await t.call("GET", "/api/v1/api-keys", { token: owner.token })).body.data.find(
      (item: { id: string }) => item.id === id,
    );
    expect(Date.parse(later.last_used_at)).toBeGreaterThan(Date.parse(used.last_used_at));
  });

  it("never reaches an admin route, even when its owner is an admin", async () => {
    const { key } = await createKey("Admin's script", adminToken);
    expect((await t.call("GET", "/api/v1/ledger/integrity/ledger", { token: adminToken })).status).toBe(200);
    const refused = await t.call("GET", "/api/v1/ledger/integrity/ledger", { token: key });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("admin_required");
  });

  it("cannot manage keys itself: a session can", async () => {
    const { key } = await createKey("Limited");
    const refused = await t.call("POST", "/api/v1/api-keys", { token: key, body: { name: "Escalate" } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("session_required");
    expect((await t.call("GET", "/api/v1/api-keys", { token: key })).status).toBe(403);
  });

  it("stops working once revoked; only its owner can revoke it", async () => {
    const { key, id } = await createKey("Temporary");
    expect((await t.call("GET", "/api/v1/ledger/accounts", { token: key })).status).toBe(200);
    expect((await t.call("DELETE", `/api/v1/api-keys/${id}`, { token: stranger.token })).status).toBe(404);
    const revoked = await t.call("DELETE", `/api/v1/api-keys/${id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    const refused = await t.call("GET", "/api/v1/ledger/accounts", { token: key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("invalid_api_key");
    // Revoking again changes nothing.
    expect((await t.call("DELETE", `/api/v1/api-keys/${id}`, { token: owner.token })).body.data.revoked_at).toBe(
      revoked.body.data.revoked_at,
    );
  });

  it("refuses bad names, forged keys, unknown ids and more than 20 active keys", async () => {
    for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: 42 }]) {
      expect((await t.call("POST", "/api/v1/api-keys", { token: owner.token, body })).status).toBe(400);
    }
    for (const forged of ["fpk_short", `fpk_${"A".repeat(43)}`, `fpk_${"x".repeat(3000)}`]) {
      const reply = await t.call("GET", "/api/v1/ledger/accounts", { token: forged });
      expect(reply.status).toBe(401);
      expect(reply.body.code).toBe("invalid_api_key");
    }
    expect((await t.call("DELETE", `/api/v1/api-keys/${"x".repeat(3000)}`, { token: owner.token })).status).toBe(404);
    expect(
      (await t.call("DELETE", "/api/v1/api-keys/00000000-0000-4000-8000-000000000000", { token: owner.token })).status,
    ).toBe(404);

    const busy = await t.signUp("many-keys@example.com");
    for (let index = 0; index < 20; index++) {
      // Past the hourly creation limit, the clock moves on an hour instead of the test waiting.
      if (index > 0 && index % ACCOUNT_CHANGE_LIMITS.apiKeyCreation.limit === 0)
        clockOffsetMs += ACCOUNT_CHANGE_LIMITS.apiKeyCreation.windowSeconds * 1000;
      await createKey(`key ${index}`, busy.token);
    }
    clockOffsetMs += ACCOUNT_CHANGE_LIMITS.apiKeyCreation.windowSeconds * 1000;
    const refused = await t.call("POST", "/api/v1/api-keys", { token: busy.token, body: { name: "one too many" } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("api_key_limit");
  });
});
