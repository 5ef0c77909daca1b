import type { CoreContext } from "../shared/context";
import { unauthorized } from "../shared/errors";
import { assertApiKeyActive } from "./api-keys";
import type { ApiKeyScope } from "./model";
import { assertSessionActive } from "./sessions";

/**
 * What a request authenticated with, kept so a long-lived stream can ask again later whether it
 * still holds: a session (signed out?) or an API key (revoked?), and in both cases the user. An
 * API key's carries its scopes, which bound every request made with it (a session has every
 * scope its role allows).
 */
export type StreamCredential =
  | { kind: "session"; userId: string; sessionId: string }
  | { kind: "api_key"; userId: string; keyId: string; scopes: readonly ApiKeyScope[] };

/**
 * Throws the usual 401 when the credential no longer holds: the session was signed out, the key
 * revoked, or the user is gone. A store that cannot be reached propagates (a 503, not a sign-out).
 */
export async function assertCredentialActive(ctx: CoreContext, credential: StreamCredential): Promise<void> {
  if (credential.kind === "session") {
    await assertSessionActive(ctx, credential.userId, credential.sessionId);
    return;
  }
  if (credential.kind === "api_key") {
    await assertApiKeyActive(ctx, credential.userId, credential.keyId);
    return;
  }
  throw unauthorized("Invalid or expired token", "invalid_token");
}
