import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { createTestApp, fromAddress } from "@fintech/testing/app";

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
const fromNewIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

describe("POST /api/v1/auth/register", () => {
  it("creates the user and replies with token and user as documented", async () => {
    const reply = await t.call("POST", "/api/v1/auth/register", {
      body: validUser("ada@example.com"),
      ip: fromNewIp(),
    });
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
    [
      "last name missing",
      { ...validUser("x@example.com"), last_name: undefined },
      AUTH_MESSAGES.registerFieldsRequired,
    ],
    ["password missing", { ...validUser("x@example.com"), password: undefined }, AUTH_MESSAGES.registerFieldsRequired],
    ["password short", { ...validUser("x@example.com"), password: "1234567" }, AUTH_MESSAGES.passwordTooShort],
    ["email malformed", { ...validUser("x@example.com"), email: "not-an-email" }, AUTH_MESSAGES.invalidEmail],
    [
      "birth date in the future",
      { ...validUser("x@example.com"), date_of_birth: "2999-01-01" },
      AUTH_MESSAGES.invalidDateOfBirth,
    ],
    [
      "birth date not a date",
      { ...validUser("x@example.com"), date_of_birth: "yesterday" },
      AUTH_MESSAGES.invalidDateOfBirth,
    ],
    ["phone with letters", { ...validUser("x@example.com"), phone: "call me" }, AUTH_MESSAGES.invalidPhone],
  ])("refuses %s with the spec's message and writes nothing", async (_case, body, message) => {
    const reply = await t.call("POST", "/api/v1/auth/register", { body, ip: fromNewIp() });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message, code: "validation_error" });
    const login = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "x@example.com", password: "correct horse battery" },
      ip: fromNewIp(),
    });
    expect(login.status).toBe(401);
  });

  it("accepts optional phone and date of birth as null", async () => {
    const reply = await t.call("POST", "/api/v1/auth/register", {
      body: { ...validUser("nulls@example.com"), phone: null, date_of_birth: null },
      ip: fromNewIp(),
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.user).toMatchObject({ phone: null, date_of_birth: null });
  });

  it("answers a duplicate email (any letter case) with 409", async () => {
    await t.call("POST", "/api/v1/auth/register", { body: validUser("dup@example.com"), ip: fromNewIp() });
    const again = await t.call("POST", "/api/v1/auth/register", {
      body: validUser("DUP@Example.com"),
      ip: fromNewIp(),
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: AUTH_MESSAGES.emailTaken, code: "email_taken" });
  });

  it("answers malformed JSON and non-object bodies with 400, never 500", async () => {
    const broken = await t.call("POST", "/api/v1/auth/register", { body: "{not json", ip: fromNewIp() });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("invalid_json");
    const array = await t.call("POST", "/api/v1/auth/register", { body: [1, 2], ip: fromNewIp() });
    expect(array.status).toBe(400);
    expect(array.body.message).toBe("Request body must be a JSON object");
  });
});

describe("POST /api/v1/auth/login", () => {
  beforeAll(async () => {
    await t.call("POST", "/api/v1/auth/register", { body: validUser("grace@example.com"), ip: fromNewIp() });
  });

  it("signs in with the right password and returns the same reply shape", async () => {
    const reply = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "Grace@Example.com", password: "correct horse battery" },
      ip: fromNewIp(),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.user).toMatchObject({ email: "grace@example.com", first_name: "Ada", role: "user" });
    expect(typeof reply.body.data.token).toBe("string");
  });

  it("gives one message for an unknown email and a wrong password", async () => {
    const wrong = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "grace@example.com", password: "wrong password" },
      ip: fromNewIp(),
    });
    const unknown = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "nobody@example.com", password: "wrong password" },
      ip: fromNewIp(),
    });
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
    const reply = await t.call("POST", "/api/v1/auth/login", { body, ip: fromNewIp() });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(AUTH_MESSAGES.loginFieldsRequired);
  });
});

describe("rate limits on login and register", () => {
  // Windows are fixed slices of the app's clock; a moved clock, not the wall clock, decides
  // which window an attempt falls in, so no test can straddle a window boundary by chance.
  let now: Date;
  const clock = () => now;
  beforeEach(() => {
    now = new Date("2030-01-01T00:00:10.000Z");
  });
  it("limits one email from one address with 429 and Retry-After; the victim elsewhere still signs in", async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "3", AUTH_RATE_LIMIT_PER_IP: "100" }, { clock });
    try {
      const victim = validUser("victim@example.com");
      expect((await limited.call("POST", "/api/v1/auth/register", { body: victim, ip: "192.0.2.1" })).status).toBe(201);
      const attacker = "203.0.113.66";
      const guess = () =>
        limited.call("POST", "/api/v1/auth/login", {
          body: { email: "Victim@Example.com", password: "guess" },
          ip: attacker,
        });
      for (let i = 0; i < 3; i++) expect((await guess()).status).toBe(401);
      const blocked = await guess();
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe("rate_limited");
      // 10 s into a 60 s window.
      expect(blocked.headers.get("retry-after")).toBe("50");
      // The victim, from an address the attacker does not control, is not locked out.
      const victimLogin = await limited.call("POST", "/api/v1/auth/login", {
        body: { email: victim.email, password: victim.password },
        ip: "198.51.100.200",
      });
      expect(victimLogin.status).toBe(200);
      // The next window lets the attacker's address try again.
      now = new Date(now.getTime() + 50_000);
      expect((await guess()).status).toBe(401);
    } finally {
      await limited.core.dispose();
    }
  });

  it("limits an email across many addresses more slowly, but never from the account's own addresses", async () => {
    // Per email and address 2, so the account-wide limit is 20 attempts per 15 windows.
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "2", AUTH_RATE_LIMIT_PER_IP: "100" }, { clock });
    try {
      const victim = validUser("popular@example.com");
      const home = "192.0.2.50";
      expect((await limited.call("POST", "/api/v1/auth/register", { body: victim, ip: home })).status).toBe(201);
      const guess = (n: number) =>
        limited.call("POST", "/api/v1/auth/login", {
          body: { email: victim.email, password: "guess" },
          ip: `203.0.113.${n}`,
        });
      // The attacker's 20 guesses need 10 addresses (2 each), and each is refused as usual.
      const statuses: number[] = [];
      for (let n = 1; n <= 10; n++) statuses.push((await guess(n)).status, (await guess(n)).status);
      expect(statuses).toEqual(Array(20).fill(401));
      // Only now is a new address refused, right password or not...
      const fresh = await limited.call("POST", "/api/v1/auth/login", {
        body: { email: victim.email, password: victim.password },
        ip: "198.51.100.7",
      });
      expect(fresh.status).toBe(429);
      // 10 s into the account-wide 15-minute window.
      expect(fresh.headers.get("retry-after")).toBe("890");
      // ...but the address the victim signed in from before still works.
      const fromHome = await limited.call("POST", "/api/v1/auth/login", {
        body: { email: victim.email, password: victim.password },
        ip: home,
      });
      expect(fromHome.status).toBe(200);
    } finally {
      await limited.core.dispose();
    }
  });

  it("limits attempts per address across emails, for register too", async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "100", AUTH_RATE_LIMIT_PER_IP: "2" }, { clock });
    try {
      const ip = "203.0.113.9";
      expect(
        (await limited.call("POST", "/api/v1/auth/register", { body: validUser("r1@example.com"), ip })).status,
      ).toBe(201);
      expect(
        (await limited.call("POST", "/api/v1/auth/register", { body: validUser("r2@example.com"), ip })).status,
      ).toBe(201);
      const blocked = await limited.call("POST", "/api/v1/auth/register", { body: validUser("r3@example.com"), ip });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("retry-after")).toBe("50");
      // The refused registration wrote nothing.
      const login = await limited.call("POST", "/api/v1/auth/login", {
        body: { email: "r3@example.com", password: "correct horse battery" },
        ip: "203.0.113.10",
      });
      expect(login.status).toBe(401);
    } finally {
      await limited.core.dispose();
    }
  });

  it("keeps the count in the table, so a second app instance sees it", async () => {
    const first = await createTestApp({ AUTH_RATE_LIMIT_PER_EMAIL: "2", AUTH_RATE_LIMIT_PER_IP: "100" }, { clock });
    try {
      const { createApp } = await import("../app");
      const second = createApp(first.core);
      const body = JSON.stringify({ email: "shared@example.com", password: "guess" });
      const send = (app: { request: typeof second.request }) =>
        app.request(
          "/api/v1/auth/login",
          { method: "POST", headers: { "Content-Type": "application/json" }, body },
          fromAddress("198.51.100.77"),
        );
      expect((await send(first.app)).status).toBe(401);
      expect((await send(second)).status).toBe(401);
      expect((await send(first.app)).status).toBe(429);
    } finally {
      await first.core.dispose();
    }
  });
});

describe("oversized input on the auth routes", () => {
  const long = "a".repeat(3000);

  it.each([
    ["login", "/api/v1/auth/login", { email: `${long}@example.com`, password: "whatever" }],
    ["register", "/api/v1/auth/register", { ...validUser("x@example.com"), email: `${long}@example.com` }],
  ])("answers a 3,000-character email at %s with 400, never 500", async (_name, path, body) => {
    const reply = await t.call("POST", path, { body, ip: fromNewIp() });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: AUTH_MESSAGES.invalidEmail, code: "validation_error" });
  });

  it.each([
    [
      "a 3,000-character X-Forwarded-For",
      { headers: { "X-Forwarded-For": `${long}, ${"b".repeat(3000)}` }, ip: "10.9.9.1" },
    ],
    ["a 3,000-character client address", { ip: `${long}, ${"b".repeat(3000)}` }],
  ])("answers %s like any other attempt", async (_case, from) => {
    const reply = await t.call("POST", "/api/v1/auth/login", {
      body: { email: "grace@example.com", password: "wrong password" },
      ...from,
    });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("refuses JSON nested 10,000 levels deep with 400", async () => {
    const reply = await t.call("POST", "/api/v1/auth/login", {
      body: "[".repeat(10_000) + "]".repeat(10_000),
      ip: fromNewIp(),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe("invalid_json");
  });
});
