import type { SessionView } from "@fintech/core/auth/model";
import { appHttp } from "../api/appClient";
import { unwrapData, unwrapList } from "../api/envelope";
import type { UserProfile } from "../api/profile";
import type { ApiRequestBody } from "../api/schema";
import { credentialStore } from "../session/credentialStore";
import { toSessionUser } from "../session/sessionUser";

type PasswordChangeBody = ApiRequestBody<"/api/v1/auth/password", "post">;
type ResetBody = ApiRequestBody<"/api/v1/auth/password-reset", "post">;

const messageOf = (body: unknown): string =>
  typeof body === "object" && body !== null && "message" in body && typeof body.message === "string"
    ? body.message
    : "";

/**
 * A reply that continues this session under a new token (password change, sign out others): the
 * stored session takes it at once.
 */
function continueWith(body: unknown): string {
  const { token, user } = unwrapData<{ token: string; user: UserProfile }>(body);
  credentialStore.save(token, toSessionUser(user));
  return messageOf(body);
}

/** The account settings' calls: passwords, sessions, email verification. */
export const accountApi = {
  /** POST /api/v1/auth/password: the other sessions end; this one continues with the new token (stored here). */
  async changePassword(currentPassword: string, newPassword: string): Promise<string> {
    const body: PasswordChangeBody = { current_password: currentPassword, new_password: newPassword };
    return continueWith(await appHttp.authCall<unknown>("POST", "/api/v1/auth/password", { body }));
  },
  /** POST /api/v1/auth/password-reset/request: the same reply whatever the address. */
  async requestPasswordReset(email: string): Promise<string> {
    return messageOf(
      await appHttp.publicCall<unknown>("POST", "/api/v1/auth/password-reset/request", {
        body: { email },
        serverMessages: true,
      }),
    );
  },
  /** POST /api/v1/auth/password-reset: no sign-in needed, the link's token is the proof. */
  async resetPassword(token: string, newPassword: string): Promise<string> {
    const body: ResetBody = { token, new_password: newPassword };
    return messageOf(
      await appHttp.publicCall<unknown>("POST", "/api/v1/auth/password-reset", { body, serverMessages: true }),
    );
  },
  async sessions(signal?: AbortSignal): Promise<SessionView[]> {
    return unwrapList<SessionView>(await appHttp.authCall<unknown>("GET", "/api/v1/auth/sessions", { signal }));
  },
  async endSession(id: string): Promise<string> {
    return messageOf(await appHttp.authCall<unknown>("DELETE", `/api/v1/auth/sessions/${encodeURIComponent(id)}`));
  },
  async endOtherSessions(): Promise<string> {
    return continueWith(await appHttp.authCall<unknown>("POST", "/api/v1/auth/sessions/end-others"));
  },
  async verifyEmail(token: string): Promise<{ message: string; user: UserProfile }> {
    const reply = await appHttp.publicCall<unknown>("POST", "/api/v1/users/email-verification", {
      body: { token },
      serverMessages: true,
    });
    return { message: messageOf(reply), user: unwrapData<UserProfile>(reply) };
  },
  async resendVerification(): Promise<string> {
    return messageOf(await appHttp.authCall<unknown>("POST", "/api/v1/users/email-verification/resend"));
  },
};
