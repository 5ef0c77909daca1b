import type { CoreContext } from "../shared/context";
import { isAppError, unauthorized } from "../shared/errors";
import { assertApiKeyActive } from "./api-keys";
import type { StreamCredential } from "./credentials";
import type { PublicUser, Role } from "./model";
import { isSessionActive } from "./sessions";
import { issueToken, verifyToken, type TokenSigner } from "./token";
import { findUserById, toPublicUser } from "./users";

/**
 * Browsers open SSE streams with EventSource, which cannot send an Authorization header, and the
 * session token must never appear in a URL (it would land in access logs and history). So a
 * signed-in client trades its token for a stream ticket: a token for the same user that lives
 * STREAM_TICKET_TTL_SECONDS, is signed with the cursor keyring under its own label (so it is
 * never accepted as a bearer token, nor a bearer token as a ticket), and only opens streams.
 *
 * A ticket carries the credential it was issued from (the session's id, or the API key's), so a
 * stream opened with it is ended by the same sign-out or revocation as the credential itself,
 * also after the ticket has expired (the stream re-checks the credential while it runs). An API
 * key's ticket opens only the streams the key's scopes allow: the key's scopes are read again
 * when the ticket is redeemed.
 */
const TICKET_LABEL = "fintech/stream-ticket/v1";
const ticketSigner = (ctx: CoreContext): TokenSigner => ({ keys: ctx.config.CURSOR_KEYS, label: TICKET_LABEL });

export async function issueStreamTicket(
  ctx: CoreContext,
  user: { id: string; role: Role },
  credential: StreamCredential,
) {
  const ttl = ctx.config.STREAM_TICKET_TTL_SECONDS;
  const claims = credential.kind === "session" ? { sid: credential.sessionId } : { akid: credential.keyId };
  const { token, expires_at } = await issueToken(user, ticketSigner(ctx), ttl, ctx.clock(), claims);
  return { ticket: token, expires_at, expires_in: ttl };
}

export interface RedeemedTicket {
  userId: string;
  role: Role;
  user: PublicUser;
  credential: StreamCredential;
}

/**
 * The user a ticket was issued to and the credential behind it; any fault (expired, forged, a
 * session token, a signed-out session, a revoked key, a deleted user) is a 401. As with the
 * credential itself, an API key's ticket acts with the role `user`, a session's with the user's
 * current role.
 */
export async function redeemStreamTicket(ctx: CoreContext, ticket: string): Promise<RedeemedTicket> {
  const invalid = () => unauthorized("Invalid or expired stream ticket", "invalid_ticket");
  if (ticket.length > 2_000) throw invalid();
  try {
    const claims = await verifyToken(ticket, ticketSigner(ctx), ctx.clock());
    const user = await findUserById(ctx.db, claims.sub);
    if (!user) throw invalid();
    if (claims.sid !== undefined && claims.akid === undefined) {
      if (!isSessionActive(user, claims.sid)) throw invalid();
      return {
        userId: user.id,
        role: user.role,
        user: toPublicUser(user),
        credential: { kind: "session", userId: user.id, sessionId: claims.sid },
      };
    }
    if (claims.akid !== undefined && claims.sid === undefined) {
      const { scopes } = await assertApiKeyActive(ctx, user.id, claims.akid);
      return {
        userId: user.id,
        role: "user",
        user: { ...toPublicUser(user), role: "user" },
        credential: { kind: "api_key", userId: user.id, keyId: claims.akid, scopes },
      };
    }
    throw invalid();
  } catch (error) {
    if (isAppError(error) && error.status === 401) throw invalid();
    throw error;
  }
}
