import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { appLink } from "../mail/links";
import { queueMail } from "../mail/outbox";
import type { CoreContext } from "../shared/context";
import { badRequest } from "../shared/errors";
import { passwordChangedMail, passwordResetMail, passwordResetNoAccountMail } from "./account-mail";
import { limitAccountChange } from "./account-limits";
import { assertCurrentPassword } from "./email-change";
import { verifiedNow } from "./email-verification";
import { passwordResetKey } from "./keys";
import { AUTH_MESSAGES, PASSWORD_RESET_PATH, type PasswordChangeInput } from "./model";
import { epochSeconds, findLinkItem, linkItemKey, newLinkToken, type LinkKind } from "./one-time-links";
import { hashPassword } from "./password";
import { sessionEpoch } from "./sessions";
import { findUserByEmail, findUserById, replaceUser, requireUser, type StoredUser } from "./users";

/**
 * Changing and resetting a password. Both end sessions: a change every session but the one that
 * made it (the caller re-issues that one in the new epoch, service.ts), a reset every session.
 * Both tell the account's address by mail, in the same transaction as the change.
 *
 * A reset is asked for by email address and answered the same whether or not an account uses
 * it, after the same work (one transaction with a queued mail): the address gets either a link
 * or word that no account signs in with it. The link's secret is stored only as an HMAC
 * (one-time-links.ts); it works once, for PASSWORD_RESET_TTL_SECONDS, and only while the account
 * still signs in with the address it was sent to.
 */
export const PASSWORD_RESET_TTL_SECONDS = 30 * 60;
const RESET_LINK: LinkKind = { label: "fintech/password-reset-token/v1", keyOf: passwordResetKey };

/** A user id no user has (randomUUID never makes the nil UUID). */
const NO_USER_ID = "00000000-0000-0000-0000-000000000000";

const PendingReset = z.object({
  user_id: z.string(),
  email: z.string(),
  created_at: z.string(),
  expires_at: z.number().int(),
});

/** The user after a password change: the new hash, and every session of the old epoch over. */
async function withNewPassword(ctx: CoreContext, before: StoredUser, newPassword: string): Promise<StoredUser> {
  return {
    ...before,
    password_hash: await hashPassword(newPassword, ctx.config.PASSWORD_HASH_COST),
    revoked_sessions: {},
    session_epoch: sessionEpoch(before) + 1,
    sessions_version: (before.sessions_version ?? 0) + 1,
    updated_at: new Date(Math.max(ctx.clock().getTime(), Date.parse(before.updated_at) + 1)).toISOString(),
  };
}

/**
 * A signed-in user's password change: the current password is required (403
 * `invalid_current_password`), then the new hash and a new session epoch are written with a
 * notice to the address. Answers the user as changed, for the caller to start the new epoch's session.
 */
export async function changePassword(
  ctx: CoreContext,
  userId: string,
  input: PasswordChangeInput,
): Promise<StoredUser> {
  const before = await requireUser(ctx.db, userId);
  await assertCurrentPassword(before, input.current_password);
  const after = await withNewPassword(ctx, before, input.new_password);
  await replaceUser(ctx.db, before, after, { also: [queueMail(ctx, passwordChangedMail(after.email, "changed"))] });
  ctx.logger.info("password changed", { user_id: userId });
  return after;
}

/**
 * Mails a reset link to `email` if an account signs in with it, and otherwise word that none
 * does: the caller answers the same either way. Rate limited per client address and per email
 * asked for, whoever asks (429 with Retry-After).
 */
export async function requestPasswordReset(ctx: CoreContext, email: string, clientAddress: string): Promise<void> {
  await limitAccountChange(ctx, "passwordResetRequestByAddress", clientAddress);
  await limitAccountChange(ctx, "passwordResetRequestByEmail", email);
  const user = await findUserByEmail(ctx.db, email);
  // The same reads either way: an unknown address reads a user no one has.
  if (!user) await findUserById(ctx.db, NO_USER_ID);
  if (!user) {
    await ctx.db.doc.send(
      new TransactWriteCommand({ TransactItems: [queueMail(ctx, passwordResetNoAccountMail(email))] }),
    );
    ctx.logger.info("password reset requested", { known: false });
    return;
  }
  const token = newLinkToken();
  const now = ctx.clock();
  const { key, hashVersion } = linkItemKey(ctx, RESET_LINK, token);
  const pending: z.infer<typeof PendingReset> = {
    user_id: user.id,
    email: user.email,
    created_at: now.toISOString(),
    expires_at: epochSeconds(now) + PASSWORD_RESET_TTL_SECONDS,
  };
  await ctx.db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: ctx.db.table,
            Item: { ...key, entity: "password_reset", hash_version: hashVersion, ...pending },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        queueMail(
          ctx,
          passwordResetMail(
            user.email,
            appLink(ctx.config, PASSWORD_RESET_PATH, { token }),
            PASSWORD_RESET_TTL_SECONDS,
          ),
        ),
      ],
    }),
  );
  ctx.logger.info("password reset requested", { known: true, user_id: user.id });
}

const invalidLink = () => badRequest(AUTH_MESSAGES.passwordResetInvalid, "invalid_reset_link");

/**
 * Sets a new password from a reset link: the link is used up, every session ends, the address
 * counts as verified (the link reached it) and is told, all in one transaction. An unknown, used
 * or expired link, or one sent to an address the account no longer signs in with, is a 400
 * `invalid_reset_link` and changes nothing.
 */
export async function resetPassword(ctx: CoreContext, token: string, newPassword: string): Promise<void> {
  const found = await findLinkItem(ctx, RESET_LINK, token);
  const pending = PendingReset.safeParse(found?.item);
  if (!found || !pending.success || pending.data.expires_at <= epochSeconds(ctx.clock())) throw invalidLink();
  const before = await findUserById(ctx.db, pending.data.user_id);
  if (!before || before.email !== pending.data.email) throw invalidLink();
  const after: StoredUser = {
    ...(await withNewPassword(ctx, before, newPassword)),
    email_verified_at: verifiedNow(ctx, before),
  };
  await replaceUser(ctx.db, before, after, {
    also: [
      { Delete: { TableName: ctx.db.table, Key: found.key, ConditionExpression: "attribute_exists(pk)" } },
      queueMail(ctx, passwordChangedMail(after.email, "reset")),
    ],
    alsoRefused: invalidLink,
  });
  ctx.logger.info("password reset", { user_id: before.id });
}
