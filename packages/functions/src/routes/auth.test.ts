import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { createTestApp } from "../../../../infra/local/testing";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.core.dispose());

const validUser = (email: string) => ({
  email,
  password: "correct horse battery",
  first_name: "Ada",
  last_name: "Lovelace",
  phone: "+44 20 7946 0000",
  date_of_birth: "1990-12-10T00:00:00.000Z",
});

/** Every call from its own address so the per-IP limit does not couple the tests. */
let ipCounter = 0;
const fromNewIp = () => ({ "X-Forwarded-For": `10.0.0.${++ipCounter}` });

describe("POST /api/v1/auth/register", () => {
  it("creates the user and replies with token and user as the spec shapes them", async () => {
    const reply = await t.call("POST", "/api/v1/auth/register", { body: validUser("ada@example.com"), headers: fromNewIp() });
    expect(reply.status).toBe(201);
    expect(typeof reply.body.data.token).toBe("string");
    expect(reply.body.data.user).toMatchObject({
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      role: "user",
      phone: "+44 20 7946 0000",
      date_of_birth: "1990-12-10T00:00:00.000Z",
    });
    expect(reply.body.data.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.body.data.user).not.toHaveProperty("password_hash");
    expect(Date.parse(reply.body.data.expires_at)).toBeGreaterThan(Date.now());
  });

  it.each([
    ["email missing", { ...validUser("x@example.com"), email: undefined }, AUTH_MESSAGES.registerFieldsRequired],
    ["first name blank", { ...validUser("x@example.com"), first_name: "  " }, AUTH_MESSAGES.registerFieldsRequired],
    ["last name missing", { ...validUser("x@example.com"), last_name: undefined }, AUTH_MESSAGES.registerFieldsRequired],
    ["password missing", { ...validUser("x@example.com"), password: undefined }, AUTH_MESSAGES.registerFieldsRequired],
    ["password short", { ...validUser("x@example.com"), password: "1234567" }, AUTH_MESSAGES.passwordTooShort],
    ["email malformed", { ...validUser("x@example.com"), email: "not-an-email" }, AUTH_MESSAGES.invalidEmail],
    ["birth date in the future", { ...validUser("x@example.com"), date_of_birth: "2999-01-01" }, AUTH_MESSAGES.invalidDateOfBirth],
    ["birth date not a date", { ...validUser("x@example.com"), date_of_birth: "yesterday" }, AUTH_MESSAGES.invalidDateOfBirth],
    ["phone with letters", { ...validUser("x@example.com"), phone: "call me" }, AUTH_MESSAGES.invalidPhone],
  ])("refuses %s with the spec's message and writes nothing", async (_case, body, message) => {
    const reply = await t.call("POST", "/api/v1/auth/register", { body, headers: fromNewIp() });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message, code: "validation_error" });
    const login = await t.call("POST", "/api/v1/auth/login", { body: { email: "x@example.com", password: "correct horse battery" }, headers: fromNewIp() });
    expect(login.status).toBe(401);
  });

  it("accepts optional phone and date of birth as null", async () => {
    const reply = await t.call("POST", "/api/v1/auth/register", {
      body: { ...validUser("nulls@example.com"), phone: null, date_of_birth: null },
      headers: fromNewIp(),
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.user).toMatchObject({ phone: null, date_of_birth: null });
  });

  it("answers a duplicate email (any letter case) with 409", async () => {
    await t.call("POST", "/api/v1/auth/register", { body: validUser("dup@example.com"), headers: fromNewIp() });
    const again = await t.call("POST", "/api/v1/auth/register", { body: validUser("DUP@Example.com"), headers: fromNewIp() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: AUTH_MESSAGES.emailTaken, code: "email_taken" });
  });

  it("answers malformed JSON and non-object bodies with 400, never 500", async () => {
    const broken = await t.call("POST", "/api/v1/auth/register", { body: "{not json", headers: fromNewIp() });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("invalid_json");
    const array = await t.call("POST", "/api/v1/auth/register", { body: [1, 2], headers: fromNewIp() });
    expect(array.status).toBe(400);
    expect(array.body.message).toBe("Request body must be a JSON object");
  });
});

describe("POST /api/v1/auth/login", () => {
  beforeAll(async () => {
    await t.call("POST", "/api/v1/auth/register", { body: validUser("grace@example.com"), headers: fromNewIp() });
  });

  it("signs in with the right password and returns the same reply shape", async () => {
    const reply = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "Grace@Example.com", password: "correct horse battery" },
      headers: fromNewIp(),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.user).toMatchObject({ email: "grace@example.com", first_name: "Ada", role: "user" });
    expect(typeof reply.body.data.token).toBe("string");
  });

  it("gives one message for an unknown email and a wrong password", async () => {
    const wrong = await t.call("POST", "/api/v1/auth/login", { body: { email: "grace@example.com", password: "wrong password" }, headers: fromNewIp() });
    const unknown = await t.call("POST", "/api/v1/auth/login", { body: { email: "nobody@example.com", password: "wrong password" }, headers: fromNewIp() });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: AUTH_MESSAGES.invalidCredentials, code: "invalid_credentials" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it.each([
    ["no email", { password: "x" }],
    ["no password", { email: "grace@example.com" }],
    ["empty strings", { email: "", password: "" }],
  ])("refuses %s with 'Please fill in all fields'", async (_case, body) => {
    const reply = await t.call("POST", "/api/v1/auth/login", { body, headers: fromNewIp() });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(AUTH_MESSAGES.loginFieldsRequired);
  });
});

describe("rate limits on login and register", () => {
  it("limits attempts per email across addresses with 429 and Retry-After", async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "3", AUTH_RATE_LIMIT_PER_IP: "100" });
    try {
      const attempt = () =>
        limited.call("POST", "/api/v1/auth/login", { body: { email: "target@example.com", password: "guess" }, headers: fromNewIp() });
      for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(401);
      const blocked = await attempt();
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe("rate_limited");
      const retryAfter = Number(blocked.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another email from a fresh address is unaffected.
      const other = await limited.call("POST", "/api/v1/auth/login", { body: { email: "other@example.com", password: "guess" }, headers: fromNewIp() });
      expect(other.status).toBe(401);
    } finally {
      await limited.core.dispose();
    }
  });

  it("limits attempts per address across emails, for register too", async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "100", AUTH_RATE_LIMIT_PER_IP: "2" });
    try {
      const headers = { "X-Forwarded-For": "203.0.113.9" };
      expect((await limited.call("POST", "/api/v1/auth/register", { body: validUser("r1@example.com"), headers })).status).toBe(201);
      expect((await limited.call("POST", "/api/v1/auth/register", { body: validUser("r2@example.com"), headers })).status).toBe(201);
      const blocked = await limited.call("POST", "/api/v1/auth/register", { body: validUser("r3@example.com"), headers });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
      // The refused registration wrote nothing.
      const login = await limited.call("POST", "/api/v1/auth/login", { body: { email: "r3@example.com", password: "correct horse battery" }, headers: { "X-Forwarded-For": "203.0.113.10" } });
      expect(login.status).toBe(401);
    } finally {
      await limited.core.dispose();
    }
  });

  it("keeps the count in the table, so a second app instance sees it", async () => {
    const first = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "2", AUTH_RATE_LIMIT_PER_IP: "100" });
    try {
      const { createApp } = await import("../app");
      const second = createApp(first.core);
      const body = JSON.stringify({ email: "shared@example.com", password: "guess" });
      const send = (app: { request: typeof second.request }) =>
        app.request("/api/v1/auth/login", { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": `198.51.100.${++ipCounter % 250}` }, body });
      expect((await send(first.app)).status).toBe(401);
      expect((await send(second)).status).toBe(401);
      expect((await send(first.app)).status).toBe(429);
    } finally {
      await first.core.dispose();
    }
  });
});
