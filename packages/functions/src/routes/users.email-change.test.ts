import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_CHANGE_LIMITS } from "@fintech/core/auth/account-limits";
import { EMAIL_CHANGE_TTL_SECONDS } from "@fintech/core/auth/email-change";
import { AUTH_MESSAGES } from "@fintech/core/auth/model";
import { queuedMail } from "@fintech/core/mail/outbox";
import { createTestApp, nextTestAddress } from "@fintech/testing/app";
import { dataItems } from "@fintech/testing/context";

/**
 * Changing the sign-in email (docs/trust-and-safety.md#changing-the-sign-in-email): the current
 * password, the same reply whether or not the address is taken, a change that completes only
 * through the link sent to the new address (single use, expiring), word to the old address, and a
 * per-user limit on profile changes. Mail is read from the outbox, where the request queued it.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
type Json = Record<string, any>;
let t: TestApp;
let clockOffsetMs = 0;
let users = 0;
const PASSWORD = "long enough pw";

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => new Date(Date.now() + clockOffsetMs) });
  await t.signUp("taken@example.com");
});
afterAll(async () => t.core.dispose());

const newUser = () => t.signUp(`mover-${++users}@example.com`);
const requestChange = (token: string, email: string, currentPassword = PASSWORD) =>
  t.call("PUT", "/api/v1/users/profile", { token, body: { email, current_password: currentPassword } });
const confirm = (token: string) =>
  t.call("POST", "/api/v1/users/email-confirmation", { body: { token }, ip: nextTestAddress() });
const signIn = (email: string) =>
  t.call("POST", "/api/v1/auth/login", { body: { email, password: PASSWORD }, ip: nextTestAddress() });

/** The queued mail to `to`, newest last. */
async function mailTo(to: string) {
  // The sign-up's verification mail is not what these tests are about.
  return (await queuedMail(t.core, 1_000)).filter((mail) => mail.to === to && mail.kind !== "email-verification");
}

/** The link's token in the newest confirmation mail to `to`. */
async function linkTokenFor(to: string): Promise<string> {
  const confirmation = (await mailTo(to)).filter((mail) => mail.kind === "email-change-confirmation").at(-1);
  const token = /[?&]token=([A-Za-z0-9_-]{43})/.exec(confirmation?.text ?? "")?.[1];
  if (!token) throw new Error(`no confirmation link to ${to}`);
  return token;
}

describe("changing the sign-in email", () => {
  it("answers the same for a taken and a free address, and changes the email only once the link is used", async () => {
    const me = await newUser();
    const taken = await requestChange(me.token, "taken@example.com");
    const free = await requestChange(me.token, "free-address@example.com");
    expect(taken.status).toBe(202);
    expect({ status: free.status, body: free.body }).toEqual({ status: taken.status, body: taken.body });
    expect(free.body.message).toBe(AUTH_MESSAGES.emailChangeRequested);
    expect(free.body.data.email).toBe(me.user.email);

    // The taken address is told it already has an account (no link); the free one gets the link;
    // the old address hears of both requests.
    const toTaken = await mailTo("taken@example.com");
    expect(toTaken.map((mail) => mail.kind)).toEqual(["email-change-address-in-use"]);
    expect(toTaken[0]!.text).not.toMatch(/token=/);
    expect((await mailTo(me.user.email)).map((mail) => mail.kind)).toEqual([
      "email-change-requested",
      "email-change-requested",
    ]);
    expect((await mailTo(me.user.email))[0]!.text).toContain("t***@example.com");

    // Nothing has changed yet.
    expect((await t.call("GET", "/api/v1/users/profile", { token: me.token })).body.data.email).toBe(me.user.email);
    expect((await signIn("free-address@example.com")).status).toBe(401);
    expect((await signIn(me.user.email)).status).toBe(200);

    const token = await linkTokenFor("free-address@example.com");
    const confirmed = await confirm(token);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({
      message: AUTH_MESSAGES.emailChanged,
      data: { id: me.user.id, email: "free-address@example.com" },
    });
    expect((await signIn("free-address@example.com")).status).toBe(200);
    expect((await signIn(me.user.email)).status).toBe(401);
    // The session goes on; the old address is free for someone else.
    expect((await t.call("GET", "/api/v1/users/profile", { token: me.token })).body.data.email).toBe(
      "free-address@example.com",
    );
    expect(
      (
        await t.call("POST", "/api/v1/auth/register", {
          body: { email: me.user.email, password: PASSWORD, first_name: "New", last_name: "Owner" },
          ip: nextTestAddress(),
        })
      ).status,
    ).toBe(201);

    // The link works once.
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: AUTH_MESSAGES.emailConfirmationInvalid, code: "invalid_confirmation" });
  });

  it("refuses a wrong or missing current password, and then writes and sends nothing", async () => {
    const me = await newUser();
    const before = await dataItems(t.core);
    const wrong = await requestChange(me.token, "elsewhere@example.com", "not my password");
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: AUTH_MESSAGES.currentPasswordWrong, code: "invalid_current_password" });
    const missing = await t.call("PUT", "/api/v1/users/profile", {
      token: me.token,
      body: { email: "elsewhere@example.com", first_name: "Changed" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: AUTH_MESSAGES.currentPasswordRequired, code: "validation_error" });
    expect(await dataItems(t.core)).toEqual(before);
    expect(await mailTo("elsewhere@example.com")).toEqual([]);
  });

  it("fails at confirmation, changing nothing, when the address was taken since the request", async () => {
    const me = await newUser();
    expect((await requestChange(me.token, "contested@example.com")).status).toBe(202);
    const token = await linkTokenFor("contested@example.com");
    await t.signUp("contested@example.com");
    const refused = await confirm(token);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: AUTH_MESSAGES.emailTaken, code: "email_taken" });
    expect((await t.call("GET", "/api/v1/users/profile", { token: me.token })).body.data.email).toBe(me.user.email);
    expect((await signIn(me.user.email)).status).toBe(200);
  });

  it("voids a link once it has expired, or once another change went first", async () => {
    const me = await newUser();
    expect((await requestChange(me.token, "first-choice@example.com")).status).toBe(202);
    expect((await requestChange(me.token, "second-choice@example.com")).status).toBe(202);
    const first = await linkTokenFor("first-choice@example.com");
    const second = await linkTokenFor("second-choice@example.com");
    expect((await confirm(second)).status).toBe(200);
    expect((await confirm(first)).body.code).toBe("invalid_confirmation");

    const later = await newUser();
    expect((await requestChange(later.token, "too-late@example.com")).status).toBe(202);
    const token = await linkTokenFor("too-late@example.com");
    clockOffsetMs += EMAIL_CHANGE_TTL_SECONDS * 1000;
    const expired = await confirm(token);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("invalid_confirmation");
    expect((await t.call("GET", "/api/v1/users/profile", { token: later.token })).body.data.email).toBe(
      later.user.email,
    );
  });

  it("refuses malformed and unknown links with the same 400", async () => {
    for (const body of [
      {},
      { token: "" },
      { token: "short" },
      { token: "x".repeat(3000) },
      { token: 42 },
      { token: "A".repeat(43) },
    ]) {
      const reply = await t.call("POST", "/api/v1/users/email-confirmation", { body, ip: nextTestAddress() });
      expect(reply.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(reply.body.message).toBe(AUTH_MESSAGES.emailConfirmationInvalid);
    }
  });

  it("asking for the email the account already has changes and sends nothing", async () => {
    const me = await newUser();
    const before = await dataItems(t.core);
    const reply = await requestChange(me.token, me.user.email.toUpperCase());
    expect(reply.status).toBe(202);
    expect(await dataItems(t.core)).toEqual(before);
  });
});

describe("profile changes are rate limited per user", () => {
  const alignToWindow = (windowSeconds: number) => {
    const windowMs = windowSeconds * 1000;
    clockOffsetMs += windowMs - ((Date.now() + clockOffsetMs) % windowMs) + 1_000;
  };

  it("answers 429 with Retry-After past the limit, refused attempts counted, and not for another user", async () => {
    const me = await newUser();
    const other = await newUser();
    alignToWindow(ACCOUNT_CHANGE_LIMITS.profileChange.windowSeconds);
    const limit = ACCOUNT_CHANGE_LIMITS.profileChange.limit;
    expect((await t.call("PUT", "/api/v1/users/profile", { token: me.token, body: { first_name: "" } })).status).toBe(
      400,
    );
    for (let index = 1; index < limit; index++) {
      expect(
        (await t.call("PUT", "/api/v1/users/profile", { token: me.token, body: { first_name: `Name ${index}` } }))
          .status,
      ).toBe(200);
    }
    const refused = await t.call("PUT", "/api/v1/users/profile", {
      token: me.token,
      body: { first_name: "One too many" },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(ACCOUNT_CHANGE_LIMITS.profileChange.windowSeconds);
    expect((await t.call("GET", "/api/v1/users/profile", { token: me.token })).body.data.first_name).toBe(
      `Name ${limit - 1}`,
    );
    expect(
      (await t.call("PUT", "/api/v1/users/profile", { token: other.token, body: { first_name: "Calm" } })).status,
    ).toBe(200);
    clockOffsetMs += retryAfter * 1000;
    expect(
      (await t.call("PUT", "/api/v1/users/profile", { token: me.token, body: { first_name: "Next hour" } })).status,
    ).toBe(200);
  });

  it("allows fewer email changes than other edits: the fourth request in an hour is a 429", async () => {
    const me = await newUser();
    alignToWindow(ACCOUNT_CHANGE_LIMITS.emailChange.windowSeconds);
    for (let index = 0; index < ACCOUNT_CHANGE_LIMITS.emailChange.limit; index++) {
      expect((await requestChange(me.token, `burst-${users}-${index}@example.com`)).status).toBe(202);
    }
    const refused = await requestChange(me.token, `burst-${users}-last@example.com`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await mailTo(`burst-${users}-last@example.com`)).toEqual([]);
  });
});

describe("the reply's contract", () => {
  it("is the same shape for 202 and 200 (message + profile)", async () => {
    const me = await newUser();
    const reply = (await requestChange(me.token, "shape@example.com")).body as Json;
    expect(Object.keys(reply).sort()).toEqual(["data", "message"]);
  });
});
