import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { conflict, unauthorized } from "../shared/errors";
import { userKey } from "./keys";
import { sessionsUnchanged, findUserById, type StoredUser } from "./users";

/**
 * Server-side sign-out for stateless session tokens. A token names its session (`sid`); the
 * user item, which every authenticated request reads anyway, carries the sessions that are over:
 * - `revoked_sessions`: ids signed out one by one, each with its token's expiry, dropped once
 *   that has passed (after it the signature check refuses the token by itself);
 * - `session_epoch`: "sign out everywhere" starts a new epoch, and a session id carries the epoch
 *   it was issued in, so every older session ends without listing it.
 * So a check costs no read beyond the user's, and the item stays small: past
 * MAX_REVOKED_SESSIONS live entries a sign-out ends every session instead (the safe direction).
 */
export const MAX_REVOKED_SESSIONS = 50;
const WRITE_ATTEMPTS = 4;

const signedOut = () => unauthorized("Invalid or expired token", "invalid_token");

export const sessionEpoch = (user: StoredUser): number => user.session_epoch ?? 0;

/** Whether a session of this user is still on: its epoch is the user's, and it was not signed out. */
export function isSessionActive(user: StoredUser, sessionId: string): boolean {
  const epoch = Number(sessionId.slice(0, sessionId.indexOf(".")));
  return epoch === sessionEpoch(user) && user.revoked_sessions?.[sessionId] === undefined;
}

/** A 401 unless the user exists and the session is still on. */
export async function assertSessionActive(ctx: CoreContext, userId: string, sessionId: string): Promise<StoredUser> {
  const user = await findUserById(ctx.db, userId);
  if (!user || !isSessionActive(user, sessionId)) throw signedOut();
  return user;
}

export interface SignOut {
  userId: string;
  sessionId: string;
  /** When the session's token expires (epoch seconds): its entry can go then. */
  expiresAt: number;
  /** End every session of the user, this one included. */
  everywhere?: boolean;
}

/** The session state after a sign-out: expired entries pruned, this one added (or a new epoch). */
function afterSignOut(user: StoredUser, signOut: SignOut, nowSeconds: number) {
  const live = Object.entries(user.revoked_sessions ?? {}).filter(([, expiresAt]) => expiresAt > nowSeconds);
  if (signOut.everywhere || live.length >= MAX_REVOKED_SESSIONS) {
    return { revoked_sessions: {}, session_epoch: sessionEpoch(user) + 1 };
  }
  return {
    revoked_sessions: Object.fromEntries([...live, [signOut.sessionId, signOut.expiresAt]]),
    session_epoch: sessionEpoch(user),
  };
}

/**
 * Ends a session (or all of them) from now on, for every route and every open stream. Signing out
 * a session that is already over answers the same. The write is conditional on the session state
 * as read, so two sign-outs at once both land, and a profile edit in between cannot undo one.
 */
export async function signOutSession(ctx: CoreContext, signOut: SignOut): Promise<void> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const user = await findUserById(ctx.db, signOut.userId);
    if (!user) throw signedOut();
    if (!signOut.everywhere && !isSessionActive(user, signOut.sessionId)) return;
    const next = afterSignOut(user, signOut, Math.floor(ctx.clock().getTime() / 1000));
    const unchanged = sessionsUnchanged(user);
    try {
      await ctx.db.doc.send(
        new UpdateCommand({
          TableName: ctx.db.table,
          Key: userKey(user.id),
          UpdateExpression: "SET revoked_sessions = :revoked, session_epoch = :epoch, sessions_version = :next",
          ConditionExpression: `attribute_exists(pk) AND ${unchanged.expression}`,
          ExpressionAttributeValues: {
            ":revoked": next.revoked_sessions,
            ":epoch": next.session_epoch,
            ":next": (user.sessions_version ?? 0) + 1,
            ...unchanged.values,
          },
        }),
      );
      ctx.logger.info("signed out", { user_id: user.id, everywhere: next.session_epoch !== sessionEpoch(user) });
      return;
    } catch (error) {
      if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
    }
  }
  throw conflict("Your sessions changed while signing out; try again", "concurrent_update");
}
