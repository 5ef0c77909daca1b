import type { CoreContext } from "../shared/context";
import { consumeRateLimit, rateLimitSubject, type RateLimitRule } from "../shared/rate-limit";

/**
 * How often a user may change their account, per user (429 with Retry-After beyond). Every
 * attempt counts, a refused one too (a wrong current password among them), so these limits also
 * bound password guessing through the profile and the mail a user can make the platform send.
 * Change the figures here; each rule's scope names its counter in the table.
 */
export const ACCOUNT_CHANGE_LIMITS = {
  /** POST /api-keys: keys a user may try to create per hour (20 may be active at once). */
  apiKeyCreation: { scope: "api-key:create", limit: 10, windowSeconds: 60 * 60 },
  /** PUT /users/profile: profile edits per hour, email changes included. */
  profileChange: { scope: "profile:change", limit: 10, windowSeconds: 60 * 60 },
  /** Of those, requests to change the sign-in email (each sends two mails). */
  emailChange: { scope: "profile:email", limit: 3, windowSeconds: 60 * 60 },
  /** POST /users/email-confirmation, per client address (the one account route open to anyone). */
  emailConfirmation: { scope: "email-confirm:ip", limit: 30, windowSeconds: 60 },
  /** POST /auth/password-reset/request, per client address: each sends a mail. */
  passwordResetRequestByAddress: { scope: "password-reset:ip", limit: 10, windowSeconds: 15 * 60 },
  /** The same, per email address asked for (hashed), whoever asks: bounds the mail one inbox can be sent. */
  passwordResetRequestByEmail: { scope: "password-reset:email", limit: 3, windowSeconds: 60 * 60 },
  /**
   * POST /auth/password-reset and POST /users/email-verification, per client address (open routes;
   * the token is the proof).
   */
  linkRedemption: { scope: "link-redeem:ip", limit: 30, windowSeconds: 60 },
  /** POST /users/email-verification/resend: new verification mails per user. */
  verificationResend: { scope: "verify:resend", limit: 3, windowSeconds: 60 * 60 },
  /** Session management (sign out one or all others) per user. */
  sessionChange: { scope: "sessions:change", limit: 30, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateLimitRule>;

export type AccountChange = keyof typeof ACCOUNT_CHANGE_LIMITS;

/**
 * Counts one attempt at `change` by `subject` (a user id; a client address or an email for the open
 * routes); a 429 with Retry-After past the limit.
 */
export async function limitAccountChange(ctx: CoreContext, change: AccountChange, subject: string): Promise<void> {
  await consumeRateLimit(ctx.db, ACCOUNT_CHANGE_LIMITS[change], rateLimitSubject(subject), ctx.clock());
}
