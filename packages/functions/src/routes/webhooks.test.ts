import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { EVENT_TYPES, MAX_ENDPOINTS_PER_USER } from "@fintech/core/webhooks/model";

/**
 * Webhook endpoints through the whole app: the catalogue, registration with its secret shown
 * once, reads that never show it, changes, rotation and deletion; another user's ids answered as
 * unknown ones; bad bodies and unsafe URLs refused with a 400 that writes nothing; API-key scopes;
 * the per-user limit; and an Idempotency-Key replay. Names resolve through a resolver the test
 * controls (hooks.example.com is public, internal.example.com private).
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let owner: { token: string; user: { id: string } };
let stranger: { token: string; user: { id: string } };
let users = 0;

const BASE = "/api/v1/webhooks";
const PUBLIC_ADDRESSES: Record<string, string> = {
  "hooks.example.com": "93.184.216.34",
  "other.example.com": "93.184.216.35",
  "internal.example.com": "10.0.0.5",
};
const valid = {
  url: "https://hooks.example.com/fintech",
  description: "Order service",
  event_types: ["payment.paymentCompleted", "ledger.balanceUpdate"],
};

beforeAll(async () => {
  t = await createTestApp();
  t.core.resolveHost = async (hostname) => {
    const address = PUBLIC_ADDRESSES[hostname];
    if (!address) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return [{ address, family: 4 }];
  };
  owner = await t.signUp("hooks-owner@example.com");
  stranger = await t.signUp("hooks-stranger@example.com");
});
afterAll(async () => t.core.dispose());

const create = (token: string, body: unknown = valid, headers: Record<string, string> = {}) =>
  t.call("POST", `${BASE}/endpoints`, { token, body, headers });

async function snapshot(): Promise<string[]> {
  return (await dataItems(t.core)).map((item) => JSON.stringify(item, Object.keys(item).sort())).sort();
}

describe("the event-type catalogue", () => {
  it("lists every type with its feed and a description", async () => {
    const reply = await t.call("GET", `${BASE}/event-types`, { token: owner.token });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((entry: { type: string }) => entry.type)).toEqual(EVENT_TYPES);
    expect(reply.body.data[0]).toEqual({
      type: "ledger.balanceUpdate",
      feed: "ledger",
      description: expect.stringMatching(/\w/),
    });
  });

  it("needs a signed-in caller", async () => {
    expect((await t.call("GET", `${BASE}/event-types`)).status).toBe(401);
    expect((await t.call("GET", `${BASE}/endpoints`, { token: "forged.token.value" })).status).toBe(401);
  });
});

describe("an endpoint's life", () => {
  it("is created with its secret shown once, read without it, changed, rotated and deleted", async () => {
    const user = await t.signUp(`hooks-life-${++users}@example.com`);
    const created = await create(user.token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { endpoint, secret } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^we_[a-z2-7]{26}$/),
      url: valid.url,
      description: valid.description,
      event_types: valid.event_types,
      status: "enabled",
      disabled_reason: null,
      failing_since: null,
      secret_hint: secret.slice(-4),
      previous_secret_expires_at: null,
    });

    const listed = await t.call("GET", `${BASE}/endpoints`, { token: user.token });
    expect(listed.body.data).toEqual([endpoint]);
    const fetched = await t.call("GET", `${BASE}/endpoints/${endpoint.id}`, { token: user.token });
    expect(fetched.body.data).toEqual(endpoint);
    // Neither read, nor the table, carries the secret itself.
    expect(JSON.stringify([listed.body, fetched.body])).not.toContain(secret.slice(6));
    expect(JSON.stringify(await dataItems(t.core))).not.toContain(secret.slice(6));

    const changed = await t.call("PATCH", `${BASE}/endpoints/${endpoint.id}`, {
      token: user.token,
      body: { enabled: false, description: "Paused" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      status: "disabled",
      disabled_reason: "manual",
      description: "Paused",
      url: valid.url,
      event_types: valid.event_types,
    });
    const moved = await t.call("PATCH", `${BASE}/endpoints/${endpoint.id}`, {
      token: user.token,
      body: { url: "https://other.example.com/in", enabled: true, event_types: ["kyc.verificationCompleted"] },
    });
    expect(moved.body.data).toMatchObject({
      url: "https://other.example.com/in",
      status: "enabled",
      disabled_reason: null,
      event_types: ["kyc.verificationCompleted"],
      description: "Paused",
    });

    const rotated = await t.call("POST", `${BASE}/endpoints/${endpoint.id}/rotate-secret`, { token: user.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(secret);
    expect(rotated.body.data.endpoint).toMatchObject({
      secret_hint: rotated.body.data.secret.slice(-4),
      previous_secret_expires_at: expect.any(String),
    });

    const deleted = await t.call("DELETE", `${BASE}/endpoints/${endpoint.id}`, { token: user.token });
    expect(deleted.status).toBe(204);
    expect((await t.call("GET", `${BASE}/endpoints/${endpoint.id}`, { token: user.token })).status).toBe(404);
    expect((await t.call("GET", `${BASE}/endpoints`, { token: user.token })).body.data).toEqual([]);
  });

  it("answers another user's endpoint exactly as an unknown one, and changes nothing", async () => {
    const created = await create(owner.token);
    const id = created.body.data.endpoint.id as string;
    const before = await snapshot();
    const unknown = "we_aaaaaaaaaaaaaaaaaaaaaaaaaa";
    for (const target of [id, unknown, "not-an-id", `we_${"a".repeat(2100)}`, "%00", "WE_AAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const path = `${BASE}/endpoints/${encodeURIComponent(target)}`;
      for (const [method, suffix, body] of [
        ["GET", "", undefined],
        ["PATCH", "", { enabled: false }],
        ["DELETE", "", undefined],
        ["POST", "/rotate-secret", undefined],
      ] as const) {
        const reply = await t.call(method, `${path}${suffix}`, { token: stranger.token, body });
        expect(reply.status, `${method} ${target.slice(0, 40)}${suffix}`).toBe(404);
        expect(reply.body).toEqual({ message: "Webhook endpoint not found", code: "webhook_endpoint_not_found" });
      }
    }
    expect((await t.call("GET", `${BASE}/endpoints`, { token: stranger.token })).body.data).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe("refusals", () => {
  it.each([
    ["no body", "", "invalid_json", /valid JSON/],
    ["no URL", { event_types: ["payment.paymentCompleted"] }, "validation_error", /A URL is required/],
    ["no event types", { url: valid.url, event_types: [] }, "validation_error", /at least one event type/],
    ["an unknown event type", { ...valid, event_types: ["payment.nope"] }, "validation_error", /Unknown event type/],
    ["a URL too long", { ...valid, url: `https://hooks.example.com/${"a".repeat(3000)}` }, "validation_error", /2048/],
    ["a description too long", { ...valid, description: "d".repeat(201) }, "validation_error", /200/],
    ["enabled as text", { ...valid, enabled: "yes" }, "validation_error", /boolean/],
    ["event types as text", { ...valid, event_types: "payment.paymentCompleted" }, "validation_error", /array/],
    ["http without the local flag", { ...valid, url: "http://hooks.example.com/" }, "webhook_url_insecure", /https/],
    ["credentials", { ...valid, url: "https://user:pass@hooks.example.com/" }, "webhook_url_invalid", /password/],
    ["not a URL", { ...valid, url: "hooks" }, "webhook_url_invalid", /absolute URL/],
    ["127.0.0.1", { ...valid, url: "https://127.0.0.1/" }, "webhook_url_forbidden", /loopback/],
    ["localhost", { ...valid, url: "https://localhost:8443/" }, "webhook_url_forbidden", /loopback/],
    ["[::1]", { ...valid, url: "https://[::1]/" }, "webhook_url_forbidden", /loopback/],
    [
      "the metadata address",
      { ...valid, url: "https://169.254.169.254/latest" },
      "webhook_url_forbidden",
      /link-local/,
    ],
    ["10.0.0.1", { ...valid, url: "https://10.0.0.1/" }, "webhook_url_forbidden", /private address/],
    [
      "a name resolving to 10.0.0.5",
      { ...valid, url: "https://internal.example.com/" },
      "webhook_url_forbidden",
      /private address/,
    ],
    [
      "a metadata name",
      { ...valid, url: "https://metadata.google.internal/" },
      "webhook_url_forbidden",
      /internal name/,
    ],
    [
      "a name that does not resolve",
      { ...valid, url: "https://nowhere.example.com/" },
      "webhook_url_unresolvable",
      /does not resolve/,
    ],
  ])("refuses %s with a 400 that writes nothing", async (_label, body, code, message) => {
    const before = await snapshot();
    const reply = await create(owner.token, body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.code).toBe(code);
    expect(reply.body.message).toMatch(message);
    expect(JSON.stringify(reply.body)).not.toContain("10.0.0.5");
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an unsafe URL on a change too, and keeps the endpoint as it was", async () => {
    const { endpoint } = (await create(owner.token)).body.data;
    const reply = await t.call("PATCH", `${BASE}/endpoints/${endpoint.id}`, {
      token: owner.token,
      body: { url: "https://internal.example.com/" },
    });
    expect(reply).toMatchObject({ status: 400, body: { code: "webhook_url_forbidden" } });
    expect((await t.call("GET", `${BASE}/endpoints/${endpoint.id}`, { token: owner.token })).body.data.url).toBe(
      valid.url,
    );
  });

  it("keeps every field on an empty change, and refuses a change that is not an object", async () => {
    const { endpoint } = (await create(owner.token)).body.data;
    const path = `${BASE}/endpoints/${endpoint.id}`;
    const same = await t.call("PATCH", path, { token: owner.token, body: {} });
    expect(same.status).toBe(200);
    expect({ ...same.body.data, updated_at: endpoint.updated_at }).toEqual(endpoint);
    for (const body of ["null", "[]", '"text"', "{"]) {
      const reply = await t.call("PATCH", path, { token: owner.token, body });
      expect(reply.status, body).toBe(400);
    }
    const wrong = await t.call("PATCH", path, { token: owner.token, body: { event_types: [], enabled: 1 } });
    expect(wrong).toMatchObject({ status: 400, body: { code: "validation_error" } });
  });

  it("holds at most MAX_ENDPOINTS_PER_USER endpoints per user", async () => {
    const user = await t.signUp(`hooks-limit-${++users}@example.com`);
    for (let i = 0; i < MAX_ENDPOINTS_PER_USER; i++) expect((await create(user.token)).status).toBe(201);
    const before = await snapshot();
    const refused = await create(user.token);
    expect(refused).toMatchObject({ status: 409, body: { code: "webhook_endpoint_limit" } });
    expect(await snapshot()).toEqual(before);
  });
});

describe("Idempotency-Key", () => {
  it("replays a creation with the same key and body, and refuses the key with another body", async () => {
    const user = await t.signUp(`hooks-idem-${++users}@example.com`);
    const headers = { "Idempotency-Key": "create-hook-1" };
    const first = await create(user.token, valid, headers);
    expect(first.status).toBe(201);
    const again = await create(user.token, valid, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect((await t.call("GET", `${BASE}/endpoints`, { token: user.token })).body.data).toHaveLength(1);

    const other = await create(user.token, { ...valid, description: "Another" }, headers);
    expect(other).toMatchObject({ status: 422, body: { code: "idempotency_key_reused" } });
    // The same key from another user is that user's own key.
    expect((await create(stranger.token, valid, headers)).status).toBe(201);
    expect((await create(user.token, valid, { "Idempotency-Key": "bad key\u0001" })).status).toBe(400);
  });
});

describe("API keys", () => {
  async function keyWith(token: string, scopes: string[]) {
    const reply = await t.call("POST", "/api/v1/api-keys", { token, body: { name: "hooks", scopes } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.data.key as string;
  }

  it("reads with webhooks:read, and needs webhooks:write to register, change, rotate or delete", async () => {
    const user = await t.signUp(`hooks-keys-${++users}@example.com`);
    const { endpoint } = (await create(user.token)).body.data;
    const reader = await keyWith(user.token, ["webhooks:read"]);
    expect((await t.call("GET", `${BASE}/endpoints`, { token: reader })).body.data).toHaveLength(1);
    expect((await t.call("GET", `${BASE}/event-types`, { token: reader })).status).toBe(200);
    const before = await snapshot();
    for (const [method, path] of [
      ["POST", `${BASE}/endpoints`],
      ["PATCH", `${BASE}/endpoints/${endpoint.id}`],
      ["DELETE", `${BASE}/endpoints/${endpoint.id}`],
      ["POST", `${BASE}/endpoints/${endpoint.id}/rotate-secret`],
    ]) {
      const reply = await t.call(method!, path!, { token: reader, body: method === "DELETE" ? undefined : valid });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body).toMatchObject({ code: "insufficient_scope", scope: "webhooks:write" });
    }
    expect(await snapshot()).toEqual(before);

    const ledgerOnly = await keyWith(user.token, ["ledger:read"]);
    expect(await t.call("GET", `${BASE}/endpoints`, { token: ledgerOnly })).toMatchObject({
      status: 403,
      body: { code: "insufficient_scope", scope: "webhooks:read" },
    });

    const writer = await keyWith(user.token, ["webhooks:read", "webhooks:write"]);
    const created = await create(writer, { ...valid, description: "By key" });
    expect(created.status).toBe(201);
    expect(created.body.data.endpoint.description).toBe("By key");
  });
});
