import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { createTestApp } from "@fintech/testing/app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  const reply = await t.call("POST", "/api/v1/auth/register", {
    body: { email: "profile@example.com", password: "long enough pw", first_name: "Pro", last_name: "File" },
  });
  token = reply.body.data.token;
  await t.call("POST", "/api/v1/auth/register", {
    body: { email: "taken@example.com", password: "long enough pw", first_name: "Tak", last_name: "En" },
  });
});
afterAll(async () => t.core.dispose());

describe("/api/v1/users/profile", () => {
  it("needs a bearer token", async () => {
    const reply = await t.call("GET", "/api/v1/users/profile");
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ message: "Authentication required", code: "unauthorized" });
    expect(reply.headers.get("www-authenticate")).toBe("Bearer");
    expect(reply.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses a forged or expired token", async () => {
    const forged = await t.call("GET", "/api/v1/users/profile", { token: token.slice(0, -3) + "abc" });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe("invalid_token");
    expect(forged.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    // The app's clock is moved, not waited for.
    let now = new Date("2030-01-01T00:00:00.000Z");
    const expired = await createTestApp({ TOKEN_TTL_SECONDS: "60" }, { clock: () => now });
    try {
      const session = await expired.call("POST", "/api/v1/auth/register", {
        body: { email: "short@example.com", password: "long enough pw", first_name: "S", last_name: "T" },
      });
      const sessionToken: string = session.body.data.token;
      now = new Date(now.getTime() + 59_000);
      expect((await expired.call("GET", "/api/v1/users/profile", { token: sessionToken })).status).toBe(200);
      now = new Date(now.getTime() + 1_000);
      const reply = await expired.call("GET", "/api/v1/users/profile", { token: sessionToken });
      expect(reply.status).toBe(401);
      expect(reply.body.code).toBe("invalid_token");
      expect(reply.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    } finally {
      await expired.core.dispose();
    }
  });

  it("returns the signed-in user's profile", async () => {
    const reply = await t.call("GET", "/api/v1/users/profile", { token });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ email: "profile@example.com", first_name: "Pro", role: "user" });
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.headers.get("www-authenticate")).toBeNull();
  });

  it("updates names and phone", async () => {
    const reply = await t.call("PUT", "/api/v1/users/profile", {
      token,
      body: { first_name: "Profile", phone: "+1 555 0100" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ first_name: "Profile", last_name: "File", phone: "+1 555 0100" });
    const again = await t.call("GET", "/api/v1/users/profile", { token });
    expect(again.body.data.first_name).toBe("Profile");
  });

  it("cannot change the role", async () => {
    const reply = await t.call("PUT", "/api/v1/users/profile", { token, body: { role: "admin" } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("Unknown field: role");
    expect((await t.call("GET", "/api/v1/users/profile", { token })).body.data.role).toBe("user");
  });

  it("rejects invalid values with a clear message", async () => {
    const blank = await t.call("PUT", "/api/v1/users/profile", { token, body: { first_name: "" } });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe("First name cannot be empty");
    const badEmail = await t.call("PUT", "/api/v1/users/profile", { token, body: { email: "nope" } });
    expect(badEmail.body.message).toBe(AUTH_MESSAGES.invalidEmail);
  });
});
