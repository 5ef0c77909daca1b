import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_CHANGE_LIMITS } from "@fintech/core/auth/account-limits";
import { authenticateApiKey } from "@fintech/core/auth/api-keys";
import { API_KEY_SCOPES, type ApiKeyScope } from "@fintech/core/auth/model";
import { createTestApp } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";
import { openApiDocument } from "../openapi-document";

/**
 * API-key scopes, decided in one place (http/scopes.ts) for every route: a key reaches only
 * what its scopes allow, streams and commands included; no key reaches the account (email,
 * password, sessions, profile changes, keys) whatever its scopes; keys made before scopes keep
 * what they had; key creation is rate limited per user.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Json = Record<string, any>;
let t: TestApp;
let owner: { token: string; user: { id: string } };
let clockOffsetMs = 0;
let users = 0;

beforeAll(async () => {
  t = await createTestApp({ FEED_MAX_SECONDS: "1" }, { clock: () => new Date(Date.now() + clockOffsetMs) });
  owner = await t.signUp("scoped-owner@example.com");
});
afterAll(async () => t.core.dispose());

async function keyWith(
  scopes: readonly ApiKeyScope[] | undefined,
  session = owner,
): Promise<{ id: string; key: string; scopes: string[] }> {
  const reply = await t.call("POST", "/api/v1/api-keys", {
    token: session.token,
    body: { name: `key ${scopes?.join(" ").slice(0, 90) ?? "default"}`, ...(scopes ? { scopes } : {}) },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.data as { id: string; key: string; scopes: string[] };
}

const expectMissingScope = (reply: { status: number; body: Json }, scope: string) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(403);
  expect(reply.body).toMatchObject({
    code: "insufficient_scope",
    scope,
    message: `This API key lacks the scope ${scope}`,
  });
};

describe("a scoped API key", () => {
  it("with ledger:read lists accounts, but a transfer is 403 insufficient_scope naming ledger:write, and writes nothing", async () => {
    const session = await t.signUp(`scoped-${++users}@example.com`);
    const from = await t.call("POST", "/api/v1/ledger/accounts", {
      token: session.token,
      body: { name: "Everyday", currency: "USD" },
    });
    const to = await t.call("POST", "/api/v1/ledger/accounts", {
      token: session.token,
      body: { name: "Savings", currency: "USD" },
    });
    const { key, scopes } = await keyWith(["ledger:read"], session);
    expect(scopes).toEqual(["ledger:read"]);

    const listed = await t.call("GET", "/api/v1/ledger/accounts", { token: key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((account: { id: string }) => account.id)).toEqual(
      expect.arrayContaining([from.body.data.id, to.body.data.id]),
    );
    expect((await t.call("GET", "/api/v1/accounts", { token: key })).status).toBe(200);
    expect((await t.call("GET", `/api/v1/ledger/accounts/${from.body.data.id}/balance`, { token: key })).status).toBe(
      200,
    );

    const before = await dataItems(t.core);
    const transfer = await t.call("POST", "/api/v1/ledger/transactions/transfer", {
      token: key,
      body: { from_account_id: from.body.data.id, to_account_id: to.body.data.id, amount: "1.00" },
    });
    expectMissingScope(transfer, "ledger:write");
    expectMissingScope(
      await t.call("POST", "/api/v1/ledger/accounts", { token: key, body: { name: "More", currency: "USD" } }),
      "ledger:write",
    );
    expectMissingScope(await t.call("GET", "/v1/payments", { token: key }), "payments:read");
    expectMissingScope(
      await t.call("POST", "/v1/payments", { token: key, body: { amount: "1.00" } }),
      "payments:write",
    );
    expectMissingScope(await t.call("GET", "/api/v1/kyc/status", { token: key }), "kyc:read");
    expectMissingScope(await t.call("GET", "/api/v1/rails", { token: key }), "rails:read");
    expectMissingScope(await t.call("GET", "/api/v1/users/profile", { token: key }), "profile:read");
    expect(await dataItems(t.core, (item) => item.entity !== "api_key")).toEqual(
      before.filter((item) => item.entity !== "api_key"),
    );
  });

  it("reaches what its scopes name: payments:read lists payments, rails:read gets a quote (a POST that only reads)", async () => {
    const { key } = await keyWith(["payments:read", "rails:read", "profile:read"]);
    expect((await t.call("GET", "/v1/payments", { token: key })).status).toBe(200);
    expect((await t.call("GET", "/api/v1/rails", { token: key })).status).toBe(200);
    expect((await t.call("POST", "/api/v1/rails/quote", { token: key, body: {} })).status).not.toBe(403);
    const profile = await t.call("GET", "/api/v1/users/profile", { token: key });
    expect(profile.status).toBe(200);
    expect(profile.body.data.id).toBe(owner.user.id);
    expectMissingScope(await t.call("GET", "/api/v1/ledger/accounts", { token: key }), "ledger:read");
  });

  it("runs the commands that read with a read scope; a writing command needs the write scope", async () => {
    const { key } = await keyWith(["ledger:read"]);
    const account = await t.call("POST", "/api/v1/ledger/accounts", {
      token: owner.token,
      body: { name: "Commands", currency: "USD" },
    });
    const balance = await t.call("POST", "/api/grpc/ledger/command", {
      token: key,
      body: { command: { getBalance: { accountId: account.body.data.id } } },
    });
    expect(balance.status).toBe(200);
    const write = await t.call("POST", "/api/grpc/ledger/command", {
      token: key,
      body: { command: { createTransaction: { type: "deposit", account_id: account.body.data.id, amount: "5.00" } } },
    });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({
      message: "Ledger command failed",
      code: "insufficient_scope",
      scope: "ledger:write",
      reason: "This API key lacks the scope ledger:write",
    });
    const kyc = await t.call("POST", "/api/grpc/kyc/command", {
      token: key,
      body: { command: { subscribeToVerification: {} } },
    });
    expectMissingScope(kyc, "kyc:read");
  });

  it("opens only the streams its read scopes allow, with the bearer header or with a stream ticket", async () => {
    const { key } = await keyWith(["ledger:read"]);
    const open = async (path: string, headers: Record<string, string>) => {
      const response = await t.app.request(path, { headers });
      if (response.status === 200) {
        // An open stream: only its status matters here.
        await response.body?.cancel();
        return { status: 200, body: {} };
      }
      return { status: response.status, body: (await response.json()) as Json };
    };
    const bearer = { Authorization: `Bearer ${key}` };
    expect((await open("/api/grpc/ledger/stream", bearer)).status).toBe(200);
    expectMissingScope(await open("/api/grpc/kyc/stream", bearer), "kyc:read");
    expectMissingScope(await open("/api/grpc/payment/stream", bearer), "payments:read");
    expectMissingScope(await open("/v1/payments/stream", bearer), "payments:read");
    expect((await open("/api/grpc/live/stream?scopes=ledger", bearer)).status).toBe(200);
    expectMissingScope(await open("/api/grpc/live/stream?scopes=ledger,payment", bearer), "payments:read");
    expectMissingScope(await open("/api/grpc/live/stream?scopes=kyc", bearer), "kyc:read");

    // A ticket from the key acts with the key's scopes, read again when the stream opens.
    const issued = await t.call("POST", "/api/v1/auth/stream-ticket", { token: key });
    expect(issued.status).toBe(201);
    const ticket = encodeURIComponent(issued.body.ticket as string);
    expect((await open(`/api/grpc/ledger/stream?ticket=${ticket}`, {})).status).toBe(200);
    expectMissingScope(await open(`/api/grpc/kyc/stream?ticket=${ticket}`, {}), "kyc:read");
    expectMissingScope(await open(`/api/grpc/live/stream?scopes=ledger,kyc&ticket=${ticket}`, {}), "kyc:read");
  });

  it("never changes the sign-in email, the profile, the password, the sessions or keys, whatever its scopes (403 session_required)", async () => {
    const { key, id } = await keyWith([...API_KEY_SCOPES]);
    const sessions = await t.call("GET", "/api/v1/auth/sessions", { token: owner.token });
    expect(sessions.status).toBe(200);
    const sessionId = (sessions.body.data as { id: string }[])[0]!.id;
    // Its first use records last_used_at; after that, within the minute, a use writes nothing.
    expect((await t.call("GET", "/api/v1/users/profile", { token: key })).status).toBe(200);
    const before = await dataItems(t.core);
    const refusals = [
      await t.call("PUT", "/api/v1/users/profile", {
        token: key,
        body: { email: "stolen@example.com", current_password: "long enough pw" },
      }),
      await t.call("PUT", "/api/v1/users/profile", { token: key, body: { first_name: "Mallory" } }),
      await t.call("PUT", "/api/v1/users/profile", { token: key, body: { password: "a new password" } }),
      await t.call("POST", "/api/v1/auth/password", {
        token: key,
        body: { current_password: "long enough pw", new_password: "a new password" },
      }),
      await t.call("POST", "/api/v1/users/email-verification/resend", { token: key }),
      await t.call("GET", "/api/v1/auth/sessions", { token: key }),
      await t.call("DELETE", `/api/v1/auth/sessions/${encodeURIComponent(sessionId)}`, { token: key }),
      await t.call("POST", "/api/v1/auth/sessions/end-others", { token: key }),
      await t.call("POST", "/api/v1/api-keys", { token: key, body: { name: "escalate", scopes: ["ledger:write"] } }),
      await t.call("GET", "/api/v1/api-keys", { token: key }),
      await t.call("DELETE", `/api/v1/api-keys/${id}`, { token: key }),
      await t.call("POST", "/api/v1/auth/logout", { token: key }),
    ];
    for (const reply of refusals) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(403);
      expect(reply.body.code).toBe("session_required");
    }
    // Nothing written, so nothing queued either: no confirmation, notice or verification mail went anywhere.
    expect(await dataItems(t.core)).toEqual(before);
    const profile = await t.call("GET", "/api/v1/users/profile", { token: owner.token });
    expect(profile.body.data.email).toBe("scoped-owner@example.com");
    // The owner's session, which the key tried to end, still works.
    expect(profile.status).toBe(200);
  });

  it("refuses unknown, empty and oversized scope lists at creation, and lists each key's scopes", async () => {
    for (const scopes of [["ledger:admin"], [], "ledger:read", [42], Array(40).fill("ledger:read")]) {
      const reply = await t.call("POST", "/api/v1/api-keys", {
        token: owner.token,
        body: { name: "bad scopes", scopes },
      });
      expect(reply.status, JSON.stringify(scopes)).toBe(400);
      expect(reply.body.code).toBe("validation_error");
    }
    // Each once, in the catalogue's order, whatever order and repeats were sent.
    clockOffsetMs += ACCOUNT_CHANGE_LIMITS.apiKeyCreation.windowSeconds * 1000;
    const created = await keyWith(["payments:write", "ledger:read", "payments:write"]);
    expect(created.scopes).toEqual(["ledger:read", "payments:write"]);
    const listed = await t.call("GET", "/api/v1/api-keys", { token: owner.token });
    expect(listed.body.data.find((key: { id: string }) => key.id === created.id).scopes).toEqual([
      "ledger:read",
      "payments:write",
    ]);
  });

  it("made before scopes existed, keeps every scope it could use (read as the default), but still no account change", async () => {
    const session = await t.signUp(`legacy-${++users}@example.com`);
    const { key, id } = await keyWith(undefined, session);
    // The item as it was stored before scopes: the same key, with no scopes attribute.
    const { scopes: _scopes, ...legacy } = (
      await dataItems(t.core, (item) => item.entity === "api_key" && item.id === id)
    )[0]!;
    await t.core.db.doc.send(new PutCommand({ TableName: t.core.db.table, Item: legacy }));
    expect((await authenticateApiKey(t.core, key)).scopes).toEqual([...API_KEY_SCOPES]);

    const account = await t.call("POST", "/api/v1/ledger/accounts", {
      token: key,
      body: { name: "Legacy", currency: "USD" },
    });
    expect(account.status).toBe(201);
    expect((await t.call("GET", "/v1/payments", { token: key })).status).toBe(200);
    expect((await t.call("GET", "/api/v1/api-keys", { token: session.token })).body.data[0].scopes).toEqual([
      ...API_KEY_SCOPES,
    ]);
    const email = await t.call("PUT", "/api/v1/users/profile", {
      token: key,
      body: { email: "legacy-new@example.com", current_password: "long enough pw" },
    });
    expect(email.status).toBe(403);
    expect(email.body.code).toBe("session_required");
  });
});

describe("API-key creation is rate limited per user", () => {
  it("answers 429 with Retry-After past the hourly limit, counting refused attempts, and allows more in the next window", async () => {
    const session = await t.signUp(`key-burst-${++users}@example.com`);
    const other = await t.signUp(`key-calm-${++users}@example.com`);
    // Aligned to the start of a window, so the whole burst falls in one.
    const windowMs = ACCOUNT_CHANGE_LIMITS.apiKeyCreation.windowSeconds * 1000;
    clockOffsetMs += windowMs - ((Date.now() + clockOffsetMs) % windowMs) + 1_000;
    const limit = ACCOUNT_CHANGE_LIMITS.apiKeyCreation.limit;
    expect((await t.call("POST", "/api/v1/api-keys", { token: session.token, body: { name: "" } })).status).toBe(400);
    for (let index = 1; index < limit; index++) await keyWith(["ledger:read"], session);
    const refused = await t.call("POST", "/api/v1/api-keys", { token: session.token, body: { name: "one too many" } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_CHANGE_LIMITS.apiKeyCreation.windowSeconds);
    expect((await t.call("GET", "/api/v1/api-keys", { token: session.token })).body.data).toHaveLength(limit - 1);
    // Another user is not affected; the same user is again once the window has passed.
    await keyWith(["ledger:read"], other);
    clockOffsetMs += retryAfter * 1000;
    await keyWith(["ledger:read"], session);
  });
});

describe("the OpenAPI document", () => {
  const document = openApiDocument() as Json;
  it("names the scope each operation needs, marks the account routes session-only, and documents the 403", () => {
    expect(document.paths["/api/v1/ledger/accounts"].get["x-required-scope"]).toBe("ledger:read");
    expect(document.paths["/api/v1/ledger/transactions/transfer"].post["x-required-scope"]).toBe("ledger:write");
    expect(document.paths["/v1/payments"].post["x-required-scope"]).toBe("payments:write");
    expect(document.paths["/api/v1/rails/quote"].post["x-required-scope"]).toBe("rails:read");
    expect(document.paths["/api/grpc/ledger/command"].post).toMatchObject({
      "x-required-scope": "ledger:read",
      "x-scope-note": expect.stringContaining("ledger:write"),
    });
    expect(document.paths["/api/grpc/live/stream"].get["x-scope-note"]).toContain("payments:read");
    expect(document.paths["/api/v1/users/profile"].put["x-session-only"]).toBe(true);
    expect(document.paths["/api/v1/api-keys"].post["x-session-only"]).toBe(true);
    expect(document.paths["/api/v1/users/email-confirmation"].post["x-required-scope"]).toBeUndefined();
    const forbidden = document.paths["/api/v1/ledger/transactions/transfer"].post.responses["403"];
    expect(forbidden.description).toContain("`insufficient_scope`");
    expect(document.paths["/api/v1/ledger/transactions/transfer"].post.description).toContain(
      "An API key needs the scope `ledger:write`",
    );
    expect(document.components.schemas.Error.properties.scope).toBeDefined();
  });
});
