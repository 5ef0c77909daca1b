import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext } from "@fintech/testing/context";
import { register } from "./service";
import { isSessionActive, MAX_REVOKED_SESSIONS, signOutSession } from "./sessions";
import { newSessionId } from "./token";
import { findUserById } from "./users";

/** The session state on the user item: pruned as tokens expire, bounded, never lost to a race. */

let now = new Date("2026-03-01T10:00:00.000Z");
let ctx: Awaited<ReturnType<typeof createTestContext>>;
beforeAll(async () => {
  ctx = await createTestContext({}, { clock: () => now });
});
afterAll(async () => ctx.dispose());

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const newUser = async (email: string) =>
  (
    await register(ctx, {
      email,
      password: "long enough pw",
      first_name: "S",
      last_name: "T",
      phone: null,
      date_of_birth: null,
    })
  ).user.id;

describe("signed-out sessions", () => {
  it("are dropped from the user item once their tokens have expired", async () => {
    const userId = await newUser("prune@example.com");
    const early = newSessionId(0);
    await signOutSession(ctx, { userId, sessionId: early, expiresAt: seconds(now) + 60 });
    now = new Date(now.getTime() + 61_000);
    const late = newSessionId(0);
    await signOutSession(ctx, { userId, sessionId: late, expiresAt: seconds(now) + 3600 });
    const user = (await findUserById(ctx.db, userId))!;
    expect(Object.keys(user.revoked_sessions ?? {})).toEqual([late]);
    expect(isSessionActive(user, late)).toBe(false);
    expect(isSessionActive(user, newSessionId(0))).toBe(true);
  });

  it(`stay at most ${MAX_REVOKED_SESSIONS}: one more ends every session (a new epoch) instead`, async () => {
    const userId = await newUser("overflow@example.com");
    const kept = newSessionId(0);
    for (let i = 0; i < MAX_REVOKED_SESSIONS; i++)
      await signOutSession(ctx, { userId, sessionId: newSessionId(0), expiresAt: seconds(now) + 3600 });
    let user = (await findUserById(ctx.db, userId))!;
    expect(Object.keys(user.revoked_sessions ?? {})).toHaveLength(MAX_REVOKED_SESSIONS);
    expect(isSessionActive(user, kept)).toBe(true);
    await signOutSession(ctx, { userId, sessionId: newSessionId(0), expiresAt: seconds(now) + 3600 });
    user = (await findUserById(ctx.db, userId))!;
    expect(user.revoked_sessions).toEqual({});
    expect(user.session_epoch).toBe(1);
    expect(isSessionActive(user, kept)).toBe(false);
    expect(isSessionActive(user, newSessionId(1))).toBe(true);
  });

  it("all land when they happen at once", async () => {
    const userId = await newUser("concurrent@example.com");
    const sessions = Array.from({ length: 3 }, () => newSessionId(0));
    await Promise.all(
      sessions.map((sessionId) => signOutSession(ctx, { userId, sessionId, expiresAt: seconds(now) + 3600 })),
    );
    const user = (await findUserById(ctx.db, userId))!;
    for (const sessionId of sessions) expect(isSessionActive(user, sessionId)).toBe(false);
    expect(user.sessions_version).toBe(3);
  });
});
