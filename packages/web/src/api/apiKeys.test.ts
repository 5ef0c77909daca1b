import { describe, expect, it } from "vitest";
import { createApi } from "./api";
import { createHttpClient } from "./client";
import { ApiError } from "./errors";
import { fakeFetch, fakeTokens, json } from "./testing";

function setup(reply: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(reply);
  const config = { baseUrl: "https://api.test", fetch: fake.fetch, credentials: fakeTokens("session-1").source };
  return { api: createApi(createHttpClient(config)), calls: fake.calls };
}

const view = {
  id: "k/1",
  name: "CI",
  prefix: "fpk_abcdefgh",
  created_at: "2026-03-14T12:00:00.000Z",
  last_used_at: null,
  revoked_at: null,
  scopes: ["ledger:read"],
};

describe("API keys client", () => {
  it("lists the keys with the session token", async () => {
    const { api, calls } = setup(() => json(200, { data: [view] }));
    expect(await api.apiKeys.list()).toEqual([view]);
    expect(calls[0]).toMatchObject({ method: "GET", url: "https://api.test/api/v1/api-keys" });
    expect(calls[0]!.headers.get("Authorization")).toBe("Bearer session-1");
  });

  it("creates a key by name and returns the once-only secret", async () => {
    const { api, calls } = setup(() => json(201, { message: "API key created", data: { ...view, key: "fpk_secret" } }));
    expect(await api.apiKeys.create("CI")).toEqual({ ...view, key: "fpk_secret" });
    expect(calls[0]).toMatchObject({ method: "POST", url: "https://api.test/api/v1/api-keys", body: { name: "CI" } });
  });

  it("creates a key with the scopes picked", async () => {
    const { api, calls } = setup(() => json(201, { message: "API key created", data: { ...view, key: "fpk_secret" } }));
    await api.apiKeys.create("Reports", ["ledger:read", "payments:read"]);
    expect(calls[0]).toMatchObject({
      method: "POST",
      url: "https://api.test/api/v1/api-keys",
      body: { name: "Reports", scopes: ["ledger:read", "payments:read"] },
    });
  });

  it("revokes by encoded id", async () => {
    const { api, calls } = setup(() =>
      json(200, { message: "API key revoked", data: { ...view, revoked_at: "2026-03-15T00:00:00.000Z" } }),
    );
    expect((await api.apiKeys.revoke("k/1")).revoked_at).toBe("2026-03-15T00:00:00.000Z");
    expect(calls[0]).toMatchObject({ method: "DELETE", url: "https://api.test/api/v1/api-keys/k%2F1" });
  });

  it("carries the server's message and code on a refusal", async () => {
    const { api } = setup(() =>
      json(409, { message: "You have 20 active API keys; revoke one first", code: "api_key_limit" }),
    );
    const failure = await api.apiKeys.create("one too many").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      kind: "server-message",
      status: 409,
      code: "api_key_limit",
      message: "You have 20 active API keys; revoke one first",
    });
  });
});
