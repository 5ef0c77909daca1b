import type { CoreContext } from "../shared/context";
import { notFound, unauthorized } from "../shared/errors";
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
import { verificationItems } from "./email-verification";
import { decoyHash, hashPassword, verifyPassword } from "./password";
import { changePassword } from "./passwords";
import {
  deleteSessionRecord,
  findSessionRecord,
  listSessions,
  recordSession,
  touchSession,
  type SessionOrigin,
} from "./session-records";
import { isSessionActive, sessionEpoch, signOutSession } from "./sessions";
import { issueToken, newSessionId, verifyToken, type TokenClaims } from "./token";
import {
  findUserByEmail,
  findUserById,
  insertUser,
  replaceUser,
  requireUser,
  toPublicUser,
  type StoredUser,
} from "./users";
import type { PasswordChangeInput, SessionView } from "./model";

export interface Session {
  token: string;
  expires_at: string;
  user: PublicUser;
}

export { limitAuthAttempt, rememberSignInAddress, type AuthAction } from "./attempts";
export { limitAccountChange } from "./account-limits";
export { confirmEmailChange } from "./email-change";
export { resendVerification, verifyEmail } from "./email-verification";
export { requestPasswordReset, resetPassword } from "./passwords";
export type { SessionOrigin } from "./session-records";

/**
 * A new session of the user's current epoch (sessions.ts), signed with the newest session key,
 * and its record for the sessions list (a re-issued session keeps its start and device).
 */
async function startSession(
  ctx: CoreContext,
  user: StoredUser,
  origin: SessionOrigin = {},
  carried: { createdAt?: string; device?: string } = {},
): Promise<Session> {
  const sid = newSessionId(sessionEpoch(user));
  const { token, expires_at, exp } = await issueToken(
    user,
    ctx.config.SESSION_KEYS,
    ctx.config.TOKEN_TTL_SECONDS,
    ctx.clock(),
    { sid },
  );
  await recordSession(ctx, user.id, sid, exp, { origin, ...carried });
  return { token, expires_at, user: toPublicUser(user) };
}

/** Creates the account, mails a link to verify its address, and signs it in. */
export async function register(
  ctx: CoreContext,
  input: RegisterInput,
  role: Role = "user",
  origin: SessionOrigin = {},
): Promise<Session> {
  return startSession(ctx, await createUser(ctx, input, role), origin);
}

async function createUser(
  ctx: CoreContext,
  input: RegisterInput,
  role: Role,
  options: { verified?: boolean } = {},
): Promise<StoredUser> {
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
    ...(options.verified ? { email_verified_at: now } : {}),
  };
  await insertUser(ctx.db, user, options.verified ? [] : verificationItems(ctx, user));
  ctx.logger.info("user registered", { user_id: user.id, role });
  return user;
}

let cachedDecoy: Promise<string> | null = null;

/** One answer for an unknown email and a wrong password, after the same amount of work. */
export async function login(ctx: CoreContext, input: LoginInput, origin: SessionOrigin = {}): Promise<Session> {
  const user = await findUserByEmail(ctx.db, input.email);
  cachedDecoy ??= decoyHash(ctx.config.PASSWORD_HASH_COST);
  const valid = await verifyPassword(input.password, user?.password_hash ?? (await cachedDecoy));
  if (!user || !valid) throw unauthorized(AUTH_MESSAGES.invalidCredentials, "invalid_credentials");
  return startSession(ctx, user, origin);
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
  await touchSession(ctx, user.id, sid);
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
export async function updateProfile(
  ctx: CoreContext,
  userId: string,
  changes: ProfileUpdateInput,
): Promise<ProfileUpdate> {
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
    if (after.updated_at === before.updated_at)
      after.updated_at = new Date(Date.parse(after.updated_at) + 1).toISOString();
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
  // No session is started: the command that calls this hands out no token. The operator who
  // runs it vouches for the address, so no verification mail goes out.
  if (!existing)
    return { user: toPublicUser(await createUser(ctx, input, "admin", { verified: true })), created: true };
  const after: StoredUser = {
    ...existing,
    role: "admin",
    email_verified_at: existing.email_verified_at ?? ctx.clock().toISOString(),
    password_hash: await hashPassword(input.password, ctx.config.PASSWORD_HASH_COST),
    updated_at: new Date(Math.max(ctx.clock().getTime(), Date.parse(existing.updated_at) + 1)).toISOString(),
  };
  await replaceUser(ctx.db, existing, after);
  return { user: toPublicUser(after), created: false };
}

/** The session a signed-in request was made with. */
export interface CurrentSession {
  userId: string;
  sessionId: string;
  /** When its token expires (epoch seconds). */
  expiresAt: number;
}

/**
 * Starts the new epoch's session in place of `current` after every session of the user was ended
 * (a password change, "sign out all other sessions"): the caller keeps working with the new token,
 * and the sessions list shows the same session (its start and device carried over).
 */
async function continueSession(
  ctx: CoreContext,
  user: StoredUser,
  current: CurrentSession,
  origin: SessionOrigin,
): Promise<Session> {
  const record = await findSessionRecord(ctx, current.userId, current.sessionId);
  const session = await startSession(
    ctx,
    user,
    origin,
    record ? { createdAt: record.created_at, device: record.device } : {},
  );
  await deleteSessionRecord(ctx, current.userId, current.sessionId);
  return session;
}

/** A password change by its signed-in owner: every other session ends; this one continues with the new token. */
export async function changePasswordAndContinue(
  ctx: CoreContext,
  current: CurrentSession,
  input: PasswordChangeInput,
  origin: SessionOrigin = {},
): Promise<Session> {
  const user = await changePassword(ctx, current.userId, input);
  return continueSession(ctx, user, current, origin);
}

/** "Sign out all other sessions": a new epoch, and this session continues with the new token. */
export async function endOtherSessions(
  ctx: CoreContext,
  current: CurrentSession,
  origin: SessionOrigin = {},
): Promise<Session> {
  await limitAccountChange(ctx, "sessionChange", current.userId);
  await signOutSession(ctx, { ...current, everywhere: true });
  return continueSession(ctx, await requireUser(ctx.db, current.userId), current, origin);
}

/**
 * Signs out one of the user's own sessions by its id (404 `session_not_found` for any other id, or
 * one already over).
 */
export async function endSession(ctx: CoreContext, userId: string, sessionId: string): Promise<void> {
  await limitAccountChange(ctx, "sessionChange", userId);
  const user = await requireUser(ctx.db, userId);
  const record = await findSessionRecord(ctx, userId, sessionId);
  const nowSeconds = Math.floor(ctx.clock().getTime() / 1000);
  if (!record || record.expires_at <= nowSeconds || !isSessionActive(user, sessionId))
    throw notFound(AUTH_MESSAGES.sessionNotFound, "session_not_found");
  await signOutSession(ctx, { userId, sessionId, expiresAt: record.expires_at });
  await deleteSessionRecord(ctx, userId, sessionId);
}

/** The user's sessions that are still on, the current one marked. */
export async function sessionsOf(
  ctx: CoreContext,
  userId: string,
  currentSessionId: string | null,
): Promise<SessionView[]> {
  return listSessions(ctx, await requireUser(ctx.db, userId), currentSessionId);
}
