import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { PASSWORD_RESET_TTL_SECONDS } from "@fintech/core/auth/passwords";
import { queuedMail } from "@fintech/core/mail/outbox";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";

/**
 * Passwords, sessions and email verification: a change needs the current password and ends the
 * other sessions (this one continues with a new token); a reset is asked for with the same reply
 * for any address, and its link works once and expires (the clock is the test's); the sessions
 * list and its sign-outs; the sign-up's verification link.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
let clockOffsetMs = 0;
let users = 0;
const PASSWORD = "long enough pw";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => t.core.dispose());

const newUser = () => t.signUp(`pw-${++users}@example.com`);
const signIn = (email: string, password = PASSWORD, userAgent?: string) =>
  t.call("POST", "/api/v1/auth/login", {
    body: { email, password },
    ip: nextTestAddress(),
    headers: userAgent ? { "User-Agent": userAgent } : {},
  });
const profileStatus = async (token: string) => (await t.call("GET", "/api/v1/users/profile", { token })).status;
const mailTo = async (to: string, kind: string) =>
  (await queuedMail(t.core, 1_000)).filter((mail) => mail.to === to && mail.kind === kind);
async function linkToken(to: string, kind: string): Promise<string> {
  const token = /[?&]token=([A-Za-z0-9_-]{43})/.exec((await mailTo(to, kind)).at(-1)?.text ?? "")?.[1];
  if (!token) throw new Error(`no ${kind} link to ${to}`);
  return token;
}

describe("POST /api/v1/auth/password", () => {
  it("needs the current password; ends every other session and keeps this one with a new token", async () => {
    const me = await newUser();
    const other = (await signIn(me.user.email)).body.data.token as string;
    const change = (token: string, body: unknown) =>
      t.call("POST", "/api/v1/auth/password", { token, body, ip: nextTestAddress() });

    const before = await dataItems(t.core);
    expect(
      (await change(me.token, { current_password: "wrong password", new_password: "brand new secret" })).body,
    ).toEqual({
      message: AUTH_MESSAGES.currentPasswordWrong,
      code: "invalid_current_password",
    });
    const missing = await change(me.token, { new_password: "brand new secret" });
    expect([missing.status, missing.body.code]).toEqual([400, "validation_error"]);
    const same = await change(me.token, { current_password: PASSWORD, new_password: PASSWORD });
    expect([same.status, same.body.message]).toEqual([400, AUTH_MESSAGES.newPasswordSameAsCurrent]);
    const short = await change(me.token, { current_password: PASSWORD, new_password: "short" });
    expect([short.status, short.body.message]).toEqual([400, AUTH_MESSAGES.passwordTooShort]);
    expect((await change(me.token, { current_password: PASSWORD, new_password: "x".repeat(300) })).status).toBe(400);
    expect(
      (await change(me.token, { current_password: PASSWORD, new_password: "brand new secret", role: "admin" })).status,
    ).toBe(400);
    expect(await dataItems(t.core)).toEqual(before);

    const changed = await change(me.token, { current_password: PASSWORD, new_password: "brand new secret" });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe(AUTH_MESSAGES.passwordChanged);
    expect(changed.headers.get("cache-control")).toBe("no-store");
    const fresh = changed.body.data.token as string;
    expect(await profileStatus(fresh)).toBe(200);
    expect(await profileStatus(me.token)).toBe(401);
    expect(await profileStatus(other)).toBe(401);

    expect((await signIn(me.user.email)).status).toBe(401);
    expect((await signIn(me.user.email, "brand new secret")).status).toBe(200);
    expect((await mailTo(me.user.email, "password-changed")).length).toBe(1);
  });

  it("is refused to API keys and to a request without a session", async () => {
    const me = await newUser();
    const key = (await t.call("POST", "/api/v1/api-keys", { token: me.token, body: { name: "script" } })).body.data
      .key as string;
    const body = { current_password: PASSWORD, new_password: "brand new secret" };
    const byKey = await t.call("POST", "/api/v1/auth/password", { token: key, body });
    expect([byKey.status, byKey.body.code]).toEqual([403, "session_required"]);
    expect((await t.call("POST", "/api/v1/auth/password", { body })).status).toBe(401);
    expect((await t.call("POST", "/api/v1/auth/password", { token: "forged.token.value", body })).status).toBe(401);
    expect((await signIn(me.user.email)).status).toBe(200);
  });
});

describe("password reset by email link", () => {
  const requestReset = (email: string, ip = nextTestAddress()) =>
    t.call("POST", "/api/v1/auth/password-reset/request", { body: { email }, ip });
  const reset = (token: string, newPassword: string) =>
    t.call("POST", "/api/v1/auth/password-reset", {
      body: { token, new_password: newPassword },
      ip: nextTestAddress(),
    });

  it("answers the same for a registered and an unknown address; only the owner's mail carries a link", async () => {
    const me = await newUser();
    const known = await requestReset(me.user.email);
    const unknown = await requestReset("nobody-here@example.com");
    expect(known.status).toBe(202);
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    expect(known.body).toEqual({ message: AUTH_MESSAGES.passwordResetRequested });
    expect((await mailTo(me.user.email, "password-reset"))[0]!.text).toMatch(/\/reset-password\?token=/);
    const toNobody = await mailTo("nobody-here@example.com", "password-reset-no-account");
    expect(toNobody).toHaveLength(1);
    expect(toNobody[0]!.text).not.toMatch(/token=/);
  });

  it("sets the new password once per link, ends every session, and marks the address verified", async () => {
    const me = await t.call("POST", "/api/v1/auth/register", {
      body: { email: "reset-once@example.com", password: PASSWORD, first_name: "Re", last_name: "Set" },
      ip: nextTestAddress(),
    });
    const session = me.body.data.token as string;
    expect(me.body.data.user.email_verified).toBe(false);
    await requestReset("reset-once@example.com");
    const token = await linkToken("reset-once@example.com", "password-reset");

    const done = await reset(token, "after the reset");
    expect([done.status, done.body]).toEqual([200, { message: AUTH_MESSAGES.passwordReset }]);
    expect(await profileStatus(session)).toBe(401);
    const signedIn = await signIn("reset-once@example.com", "after the reset");
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.email_verified).toBe(true);
    expect((await signIn("reset-once@example.com")).status).toBe(401);

    const again = await reset(token, "a third password");
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: AUTH_MESSAGES.passwordResetInvalid, code: "invalid_reset_link" });
    expect((await signIn("reset-once@example.com", "after the reset")).status).toBe(200);
    expect((await mailTo("reset-once@example.com", "password-changed")).length).toBe(1);
  });

  it("refuses a link once it has expired, and malformed or unknown links, changing nothing", async () => {
    const me = await newUser();
    await requestReset(me.user.email);
    const token = await linkToken(me.user.email, "password-reset");
    clockOffsetMs = PASSWORD_RESET_TTL_SECONDS * 1000 + 1_000;
    try {
      const before = await dataItems(t.core);
      const late = await reset(token, "too late now");
      expect([late.status, late.body.code]).toEqual([400, "invalid_reset_link"]);
      for (const bad of ["", "short", "A".repeat(43), "A".repeat(44), 42, null]) {
        const reply = await t.call("POST", "/api/v1/auth/password-reset", {
          body: { token: bad, new_password: "whatever it is" },
          ip: nextTestAddress(),
        });
        expect([reply.status, reply.body.code]).toEqual([
          400,
          typeof bad === "string" && bad.length === 43 ? "invalid_reset_link" : "validation_error",
        ]);
      }
      expect(await dataItems(t.core)).toEqual(before);
    } finally {
      clockOffsetMs = 0;
    }
    expect((await signIn(me.user.email)).status).toBe(200);
  });

  it("is rate limited per email asked for, whatever the address asking, with the same 429 for any address", async () => {
    const ask = async (email: string) => (await requestReset(email)).status;
    for (const email of ["limited@example.com", "limited-nobody@example.com"]) {
      expect([await ask(email), await ask(email), await ask(email)]).toEqual([202, 202, 202]);
      const fourth = await requestReset(email);
      expect(fourth.status).toBe(429);
      expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    }
  });
});

describe("the sessions list", () => {
  it("lists the user's own sessions with their device; signs out one, or all but this one", async () => {
    const me = await newUser();
    const laptop = (await signIn(me.user.email, PASSWORD, FIREFOX)).body.data.token as string;
    const phone = (await signIn(me.user.email, PASSWORD, SAFARI_IPHONE)).body.data.token as string;
    const list = await t.call("GET", "/api/v1/auth/sessions", { token: laptop });
    expect(list.status).toBe(200);
    const sessions = list.body.data as { id: string; current: boolean; device: string }[];
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ current: true, device: "Firefox on Linux" });
    const phoneSession = sessions.find((session) => session.device === "Safari on iPhone")!;

    // Another user's session id, a malformed one and an API key are refused.
    const stranger = await newUser();
    expect((await t.call("DELETE", `/api/v1/auth/sessions/${phoneSession.id}`, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await t.call("DELETE", `/api/v1/auth/sessions/${"x".repeat(500)}`, { token: laptop })).body.code).toBe(
      "session_not_found",
    );
    const key = (await t.call("POST", "/api/v1/api-keys", { token: me.token, body: { name: "script" } })).body.data
      .key as string;
    expect((await t.call("GET", "/api/v1/auth/sessions", { token: key })).body.code).toBe("session_required");
    expect(await profileStatus(phone)).toBe(200);

    expect((await t.call("DELETE", `/api/v1/auth/sessions/${phoneSession.id}`, { token: laptop })).status).toBe(200);
    expect(await profileStatus(phone)).toBe(401);
    expect((await t.call("DELETE", `/api/v1/auth/sessions/${phoneSession.id}`, { token: laptop })).status).toBe(404);
    expect(((await t.call("GET", "/api/v1/auth/sessions", { token: laptop })).body.data as unknown[]).length).toBe(2);

    const ended = await t.call("POST", "/api/v1/auth/sessions/end-others", { token: laptop });
    expect(ended.status).toBe(200);
    const continued = ended.body.data.token as string;
    expect(await profileStatus(me.token)).toBe(401);
    expect(await profileStatus(laptop)).toBe(401);
    expect(await profileStatus(continued)).toBe(200);
    const after = (await t.call("GET", "/api/v1/auth/sessions", { token: continued })).body.data as {
      current: boolean;
      device: string;
    }[];
    expect(after).toEqual([expect.objectContaining({ current: true, device: "Firefox on Linux" })]);
  });
});

describe("email verification", () => {
  it("mails a link at sign-up that verifies the address once; a new link can be asked for until then", async () => {
    const email = "verify-me@example.com";
    const registered = await t.call("POST", "/api/v1/auth/register", {
      body: { email, password: PASSWORD, first_name: "Veri", last_name: "Fy" },
      ip: nextTestAddress(),
    });
    const token = registered.body.data.token as string;
    expect(registered.body.data.user.email_verified).toBe(false);
    const resent = await t.call("POST", "/api/v1/users/email-verification/resend", { token });
    expect([resent.status, resent.body]).toEqual([202, { message: AUTH_MESSAGES.verificationSent }]);
    expect(await mailTo(email, "email-verification")).toHaveLength(2);

    const verify = (link: string) =>
      t.call("POST", "/api/v1/users/email-verification", { body: { token: link }, ip: nextTestAddress() });
    const link = await linkToken(email, "email-verification");
    const verified = await verify(link);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      message: AUTH_MESSAGES.emailVerified,
      data: { email, email_verified: true },
    });
    expect((await verify(link)).body).toEqual({
      message: AUTH_MESSAGES.emailVerificationInvalid,
      code: "invalid_verification",
    });
    expect((await verify("A".repeat(43))).status).toBe(400);
    expect((await t.call("GET", "/api/v1/users/profile", { token })).body.data.email_verified).toBe(true);
    const late = await t.call("POST", "/api/v1/users/email-verification/resend", { token });
    expect([late.status, late.body.code]).toEqual([409, "email_already_verified"]);
  });
});
