import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { sign } from "hono/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCredentialActive, type StreamCredential } from "@fintech/core/auth/credentials";
import { API_KEY_SCOPES } from "@fintech/core/auth/model";
import { userKey } from "@fintech/core/auth/keys";
import { redeemStreamTicket } from "@fintech/core/auth/stream-ticket";
import { SESSION_TOKEN_LABEL } from "@fintech/core/auth/token";
import { loadConfig } from "@fintech/core/shared/config";
import { createApp } from "../app";
import { createTestApp, fromAddress, nextTestAddress } from "@fintech/testing/app";
import { rotatedKeyring, TEST_KEYS } from "@fintech/testing/context";

/** Sessions on the server: sign-out, key rotation, what is refused, and replies no cache keeps. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
const PASSWORD = "long enough pw";

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.core.dispose());

const login = async (email: string) => {
  const reply = await t.call("POST", "/api/v1/auth/login", {
    body: { email, password: PASSWORD },
    ip: nextTestAddress(),
  });
  expect(reply.status).toBe(200);
  return reply.body.data.token as string;
};
const profileStatus = async (token: string, app = t.app) =>
  (
    await app.request(
      "/api/v1/users/profile",
      { headers: { Authorization: `Bearer ${token}` } },
      fromAddress(nextTestAddress()),
    )
  ).status;
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
const headerOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8")) as Record<string, unknown>;

describe("POST /api/v1/auth/logout", () => {
  it("ends the session it is sent with, for every route, while the user's other sessions go on", async () => {
    const { token: first } = await t.signUp("logout-one@example.com");
    const second = await login("logout-one@example.com");
    expect(claimsOf(first).sid).not.toBe(claimsOf(second).sid);

    const reply = await t.call("POST", "/api/v1/auth/logout", { token: first });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: "Signed out" });
    expect(reply.headers.get("cache-control")).toBe("no-store");

    expect(await profileStatus(first)).toBe(401);
    const refused = await t.call("GET", "/api/v1/ledger/accounts", { token: first });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("invalid_token");
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect((await t.call("POST", "/api/v1/auth/stream-ticket", { token: first })).status).toBe(401);
    expect((await t.call("POST", "/api/v1/auth/logout", { token: first })).status).toBe(401);

    expect(await profileStatus(second)).toBe(200);
    expect(await profileStatus(await login("logout-one@example.com"))).toBe(200);
  });

  it("with everywhere: true ends every session of the user; a new sign-in works", async () => {
    const { token: first } = await t.signUp("logout-all@example.com");
    const second = await login("logout-all@example.com");
    const { token: someoneElse } = await t.signUp("logout-bystander@example.com");
    expect((await t.call("POST", "/api/v1/auth/logout", { token: second, body: { everywhere: true } })).status).toBe(
      200,
    );
    expect(await profileStatus(first)).toBe(401);
    expect(await profileStatus(second)).toBe(401);
    expect(await profileStatus(someoneElse)).toBe(200);
    const fresh = await login("logout-all@example.com");
    expect(await profileStatus(fresh)).toBe(200);
    expect(String(claimsOf(fresh).sid)).toMatch(/^1\./);
  });

  it("keeps sign-outs through a profile edit, and shows no session state in the profile", async () => {
    const { token } = await t.signUp("logout-edit@example.com");
    const other = await login("logout-edit@example.com");
    expect((await t.call("POST", "/api/v1/auth/logout", { token: other })).status).toBe(200);
    expect((await t.call("PUT", "/api/v1/users/profile", { token, body: { first_name: "Renamed" } })).status).toBe(200);
    expect(await profileStatus(other)).toBe(401);
    const profile = await t.call("GET", "/api/v1/users/profile", { token });
    expect(profile.body.data).not.toHaveProperty("revoked_sessions");
    expect(JSON.stringify(profile.body)).not.toContain("session");
  });

  it("refuses an API key (revoke it instead), a body that is not a JSON object, and no token", async () => {
    const { token } = await t.signUp("logout-refusals@example.com");
    const key = (await t.call("POST", "/api/v1/api-keys", { token, body: { name: "script" } })).body.data.key as string;
    const withKey = await t.call("POST", "/api/v1/auth/logout", { token: key });
    expect(withKey.status).toBe(403);
    expect(withKey.body).toEqual({
      message: "API keys cannot sign out: revoke the key instead",
      code: "session_required",
    });
    for (const body of ["{", "[1]", JSON.stringify({ everywhere: "yes" })]) {
      const reply = await t.call("POST", "/api/v1/auth/logout", { token, body });
      expect(reply.status, body).toBe(400);
      expect(reply.body.code, body).toMatch(/^(invalid_json|validation_error)$/);
    }
    expect((await t.call("POST", "/api/v1/auth/logout", {})).status).toBe(401);
    expect(await profileStatus(token)).toBe(200);
  });
});

describe("credentials behind streams", () => {
  it("a stream ticket carries its session: it is refused once the session is signed out, and the credential check fails", async () => {
    const { token } = await t.signUp("ticket-session@example.com");
    const ticket = (await t.call("POST", "/api/v1/auth/stream-ticket", { token })).body.ticket as string;
    const redeemed = await redeemStreamTicket(t.core, ticket);
    expect(redeemed.credential).toEqual({ kind: "session", userId: redeemed.userId, sessionId: claimsOf(token).sid });
    await assertCredentialActive(t.core, redeemed.credential);

    await t.call("POST", "/api/v1/auth/logout", { token });
    await expect(redeemStreamTicket(t.core, ticket)).rejects.toMatchObject({ status: 401, code: "invalid_ticket" });
    await expect(assertCredentialActive(t.core, redeemed.credential)).rejects.toMatchObject({ status: 401 });
  });

  it("a ticket issued with an API key acts as `user` and ends with the key's revocation", async () => {
    const { token } = await t.signUp("ticket-key@example.com");
    const created = (await t.call("POST", "/api/v1/api-keys", { token, body: { name: "stream" } })).body.data as {
      id: string;
      key: string;
    };
    const ticket = (await t.call("POST", "/api/v1/auth/stream-ticket", { token: created.key })).body.ticket as string;
    const redeemed = await redeemStreamTicket(t.core, ticket);
    const credential: StreamCredential = {
      kind: "api_key",
      userId: redeemed.userId,
      keyId: created.id,
      scopes: [...API_KEY_SCOPES],
    };
    expect(redeemed).toMatchObject({ role: "user", credential });
    await assertCredentialActive(t.core, credential);

    expect((await t.call("DELETE", `/api/v1/api-keys/${created.id}`, { token })).status).toBe(200);
    await expect(redeemStreamTicket(t.core, ticket)).rejects.toMatchObject({ status: 401, code: "invalid_ticket" });
    await expect(assertCredentialActive(t.core, credential)).rejects.toMatchObject({
      status: 401,
      code: "invalid_api_key",
    });
    await expect(assertCredentialActive(t.core, { ...credential, keyId: "not-a-key" })).rejects.toMatchObject({
      status: 401,
    });
  });

  it("fail once the user is gone", async () => {
    const { token, user } = await t.signUp("credential-gone@example.com");
    const credential: StreamCredential = { kind: "session", userId: user.id, sessionId: String(claimsOf(token).sid) };
    await assertCredentialActive(t.core, credential);
    await t.core.db.doc.send(new DeleteCommand({ TableName: t.core.db.table, Key: userKey(user.id) }));
    await expect(assertCredentialActive(t.core, credential)).rejects.toMatchObject({
      status: 401,
      code: "invalid_token",
    });
  });
});

describe("session keys", () => {
  it("refuse a token whose nbf lies in the future, on every route", async () => {
    const { token } = await t.signUp("future-nbf@example.com");
    const claims = claimsOf(token);
    const now = Math.floor(Date.now() / 1000);
    const key = t.core.config.SESSION_KEYS.current;
    const jwk = { kty: "oct", alg: "HS256", kid: key.version, k: key.key(SESSION_TOKEN_LABEL).toString("base64url") };
    const early = await sign({ ...claims, nbf: now + 3600 }, jwk, "HS256");
    const due = await sign({ ...claims, nbf: now - 1 }, jwk, "HS256");
    const reply = await t.call("GET", "/api/v1/ledger/accounts", { token: early });
    expect(reply.status).toBe(401);
    expect(reply.body.code).toBe("invalid_token");
    expect(await profileStatus(early)).toBe(401);
    expect(await profileStatus(due)).toBe(200);
  });

  it("after a rotation sign with the new version and accept the previous one's tokens; an unknown version is refused", async () => {
    const { token: before } = await t.signUp("rotation@example.com");
    expect(headerOf(before).kid).toBe("t1");
    const rotated = createApp({
      ...t.core,
      config: {
        ...t.core.config,
        SESSION_KEYS: loadConfig({ SESSION_KEYS: rotatedKeyring("t2", TEST_KEYS.SESSION_KEYS) }).SESSION_KEYS,
      },
    });
    expect(await profileStatus(before, rotated)).toBe(200);
    const reply = await rotated.request(
      "/api/v1/auth/login",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: "rotation@example.com", password: PASSWORD }),
      },
      fromAddress(nextTestAddress()),
    );
    const after = ((await reply.json()) as { data: { token: string } }).data.token;
    expect(headerOf(after).kid).toBe("t2");
    expect(await profileStatus(after, rotated)).toBe(200);
    // The app before the rotation knows no t2; once t1 is retired its tokens end.
    expect(await profileStatus(after)).toBe(401);
    const retired = createApp({
      ...t.core,
      config: {
        ...t.core.config,
        SESSION_KEYS: loadConfig({ SESSION_KEYS: rotatedKeyring("t2", TEST_KEYS.SESSION_KEYS).split(",")[0] })
          .SESSION_KEYS,
      },
    });
    expect(await profileStatus(before, retired)).toBe(401);
    expect(await profileStatus(after, retired)).toBe(200);
  });
});

describe("replies that carry a token or a secret", () => {
  it("are never cached: register, login (success and failure), stream ticket, API key creation", async () => {
    const address = nextTestAddress();
    const registered = await t.call("POST", "/api/v1/auth/register", {
      body: { email: "no-store@example.com", password: PASSWORD, first_name: "N", last_name: "S" },
      ip: address,
    });
    expect(registered.status).toBe(201);
    expect(registered.headers.get("cache-control")).toBe("no-store");
    const loggedIn = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "no-store@example.com", password: PASSWORD },
      ip: address,
    });
    expect(loggedIn.headers.get("cache-control")).toBe("no-store");
    const wrong = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "no-store@example.com", password: "not the password" },
      ip: address,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("cache-control")).toBe("no-store");
    const token = loggedIn.body.data.token as string;
    expect((await t.call("POST", "/api/v1/auth/stream-ticket", { token })).headers.get("cache-control")).toBe(
      "no-store",
    );
    expect(
      (await t.call("POST", "/api/v1/api-keys", { token, body: { name: "cached?" } })).headers.get("cache-control"),
    ).toBe("no-store");
  });
});
