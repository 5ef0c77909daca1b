import type { CoreContext } from "../shared/context";
import { unauthorized } from "../shared/errors";
import { newId } from "../shared/ids";
import {
  AUTH_MESSAGES,
  type LoginInput,
  type ProfileUpdateInput,
  type PublicUser,
  type RegisterInput,
  type Role,
} from "./model";
import { limitAccountChange } from "./account-limits";
import { assertCurrentPassword, requestEmailChange } from "./email-change";
import { decoyHash, hashPassword, verifyPassword } from "./password";
import { isSessionActive, sessionEpoch } from "./sessions";
import { issueToken, newSessionId, verifyToken, type TokenClaims } from "./token";
import { findUserByEmail, findUserById, insertUser, replaceUser, requireUser, toPublicUser, type StoredUser } from "./users";

export interface Session {
  token: string;
  expires_at: string;
  user: PublicUser;
}

export { limitAuthAttempt, rememberSignInAddress, type AuthAction } from "./attempts";
export { limitAccountChange } from "./account-limits";
export { confirmEmailChange } from "./email-change";

/** A new session of the user's current epoch (sessions.ts), signed with the newest session key. */
async function startSession(ctx: CoreContext, user: StoredUser): Promise<Session> {
  const sid = newSessionId(sessionEpoch(user));
  const { token, expires_at } = await issueToken(user, ctx.config.SESSION_KEYS, ctx.config.TOKEN_TTL_SECONDS, ctx.clock(), { sid });
  return { token, expires_at, user: toPublicUser(user) };
}

export async function register(ctx: CoreContext, input: RegisterInput, role: Role = "user"): Promise<Session> {
  return startSession(ctx, await createUser(ctx, input, role));
}

async function createUser(ctx: CoreContext, input: RegisterInput, role: Role): Promise<StoredUser> {
  const now = ctx.clock().toISOString();
  const user: StoredUser = {
    id: newId(),
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    phone: input.phone,
    date_of_birth: input.date_of_birth,
    role,
    created_at: now,
    updated_at: now,
    password_hash: await hashPassword(input.password, ctx.config.PASSWORD_HASH_COST),
  };
  await insertUser(ctx.db, user);
  ctx.logger.info("user registered", { user_id: user.id, role });
  return user;
}

let cachedDecoy: Promise<string> | null = null;

/** One answer for an unknown email and a wrong password, after the same amount of work. */
export async function login(ctx: CoreContext, input: LoginInput): Promise<Session> {
  const user = await findUserByEmail(ctx.db, input.email);
  cachedDecoy ??= decoyHash(ctx.config.PASSWORD_HASH_COST);
  const valid = await verifyPassword(input.password, user?.password_hash ?? (await cachedDecoy));
  if (!user || !valid) throw unauthorized(AUTH_MESSAGES.invalidCredentials, "invalid_credentials");
  return startSession(ctx, user);
}

export type AuthenticatedSession = TokenClaims & { sid: string; user: PublicUser };

/**
 * Resolves a session token to its claims, and checks with the one read of the user that the
 * user still exists and the session was not signed out. Only a bad token, a deleted user or an
 * ended session is a 401 (which signs the client out); a store that cannot be reached is a
 * failure of ours and propagates, to be answered 503 with the session left alone.
 */
export async function authenticate(ctx: CoreContext, token: string): Promise<AuthenticatedSession> {
  const claims = await verifyToken(token, ctx.config.SESSION_KEYS, ctx.clock());
  const sid = claims.sid;
  if (!sid || claims.akid !== undefined) throw unauthorized("Invalid or expired token", "invalid_token");
  const user = await findUserById(ctx.db, claims.sub);
  if (!user || !isSessionActive(user, sid)) throw unauthorized("Invalid or expired token", "invalid_token");
  // The stored role wins over the token's, so a demotion takes effect at once.
  return { ...claims, sid, role: user.role, user: toPublicUser(user) };
}

export async function getProfile(ctx: CoreContext, userId: string): Promise<PublicUser> {
  return toPublicUser(await requireUser(ctx.db, userId));
}

export interface ProfileUpdate {
  user: PublicUser;
  /** A new sign-in email was asked for: it takes effect once the link sent to it is used. */
  emailChangeRequested: boolean;
}

/**
 * Applies the profile's fields at once; a new email takes the current password and only starts
 * a change (email-change.ts), with the same outcome whether or not the address is taken.
 */
export async function updateProfile(ctx: CoreContext, userId: string, changes: ProfileUpdateInput): Promise<ProfileUpdate> {
  const before = await requireUser(ctx.db, userId);
  const { email, current_password: currentPassword, ...fields } = changes;
  if (email !== undefined) {
    await limitAccountChange(ctx, "emailChange", userId);
    await assertCurrentPassword(before, currentPassword);
  }
  let user = before;
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (given.length > 0) {
    const after: StoredUser = { ...before, ...Object.fromEntries(given), updated_at: ctx.clock().toISOString() };
    // Two edits in the same millisecond would defeat the version check.
    if (after.updated_at === before.updated_at) after.updated_at = new Date(Date.parse(after.updated_at) + 1).toISOString();
    await replaceUser(ctx.db, before, after);
    user = after;
  }
  if (email !== undefined) await requestEmailChange(ctx, user, email);
  return { user: toPublicUser(user), emailChangeRequested: email !== undefined };
}

/**
 * Creates the first admin, or promotes an existing account and resets its password. Used by
 * the admin bootstrap command and the local start-up (ADMIN_EMAIL / ADMIN_PASSWORD).
 */
export async function ensureAdmin(
  ctx: CoreContext,
  input: RegisterInput,
): Promise<{ user: PublicUser; created: boolean }> {
  const existing = await findUserByEmail(ctx.db, input.email);
  // No session is started: the command that calls this hands out no token.
  if (!existing) return { user: toPublicUser(await createUser(ctx, input, "admin")), created: true };
  const after: StoredUser = {
    ...existing,
    role: "admin",
    password_hash: await hashPassword(input.password, ctx.config.PASSWORD_HASH_COST),
    updated_at: new Date(Math.max(ctx.clock().getTime(), Date.parse(existing.updated_at) + 1)).toISOString(),
  };
  await replaceUser(ctx.db, existing, after);
  return { user: toPublicUser(after), created: false };
}
