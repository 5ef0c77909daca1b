import type { CoreContext } from "../shared/context";
import { derivedKey } from "../shared/derived-keys";
import { isAppError, unauthorized } from "../shared/errors";
import type { PublicUser } from "./model";
import { authenticate } from "./service";
import { issueToken, type TokenClaims } from "./token";

/**
 * Browsers open SSE streams with EventSource, which cannot send an Authorization header, and the
 * session token must never appear in a URL (it would land in access logs and history). So a
 * signed-in client trades its token for a stream ticket: a token for the same user that lives
 * STREAM_TICKET_TTL_SECONDS, is signed with a key derived for this purpose only (so it is never
 * accepted as a bearer token, nor a bearer token as a ticket), and only opens streams. A stream
 * that is open keeps running after the ticket expires; reconnecting needs a new one.
 */
const PURPOSE = "fintech/stream-ticket/v1";
const ticketKey = (secret: string) => derivedKey(secret, PURPOSE).toString("base64url");

export async function issueStreamTicket(ctx: CoreContext, user: { id: string; role: TokenClaims["role"] }) {
  const ttl = ctx.config.STREAM_TICKET_TTL_SECONDS;
  const { token, expires_at } = await issueToken(user, ticketKey(ctx.config.JWT_SECRET), ttl, ctx.clock());
  return { ticket: token, expires_at, expires_in: ttl };
}

/** The user a ticket was issued to; any fault (expired, forged, a session token) is a 401. */
export async function redeemStreamTicket(ctx: CoreContext, ticket: string): Promise<TokenClaims & { user: PublicUser }> {
  if (ticket.length > 2_000) throw unauthorized("Invalid or expired stream ticket", "invalid_ticket");
  try {
    // The same checks as a session token, under the ticket key: the user still exists, and their
    // current role counts.
    return await authenticate(ctx, ticket, ticketKey(ctx.config.JWT_SECRET));
  } catch (error) {
    if (isAppError(error) && error.status === 401) throw unauthorized("Invalid or expired stream ticket", "invalid_ticket");
    throw error;
  }
}
