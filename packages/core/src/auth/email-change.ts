import { createHmac, randomBytes } from "node:crypto";
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { appLink } from "../mail/links";
import type { MailMessage } from "../mail/model";
import { queueMail } from "../mail/outbox";
import type { CoreContext } from "../shared/context";
import { badRequest, forbidden } from "../shared/errors";
import type { KeyVersion } from "../shared/keyring";
import { emailChangeKey, emailKey } from "./keys";
import { AUTH_MESSAGES, EMAIL_CHANGE_TOKEN_LENGTH, EMAIL_CONFIRMATION_PATH, type PublicUser } from "./model";
import { verifyPassword } from "./password";
import { findUserById, replaceUser, toPublicUser, type StoredUser } from "./users";

/**
 * Changing the sign-in email takes the current password and a link sent to the new address:
 * whoever holds a session (or a stolen one) cannot move the account to an address they own
 * without the password, and nobody can take an address they cannot read mail at.
 *
 * A request answers the same, does the same work and writes the same items whether or not the
 * new address already has an account: an email change is no oracle for who is registered. What
 * differs is the mail the new address gets: a link to confirm, or word that the address already
 * has an account. The old address is told of every request.
 *
 * The link's secret is 32 random bytes; only its HMAC (keyed with API_KEY_HASH_KEYS under its
 * own label) is stored, as the pending change's key. It is used up by the confirmation that
 * changes the email, lives EMAIL_CHANGE_TTL_SECONDS, and is void once the account's email is no
 * longer the one it was issued for (another change went first).
 */
const LABEL = "fintech/email-change-token/v1";
export const EMAIL_CHANGE_TTL_SECONDS = 60 * 60;
const PRODUCT = "Fintech Platform";

const hashOf = (version: KeyVersion, token: string) =>
  createHmac("sha256", version.key(LABEL)).update(token).digest("base64url");

const PendingEmailChange = z.object({
  user_id: z.string(),
  from_email: z.string(),
  to_email: z.string(),
  created_at: z.string(),
  /** Epoch seconds: the link's end, and the table's TTL. */
  expires_at: z.number().int(),
});
type PendingEmailChange = z.infer<typeof PendingEmailChange>;

/** "a***@example.com": enough for the owner to recognise an address, not to learn it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at <= 0 ? "***" : `${email[0]}***${email.slice(at)}`;
}

const minutes = Math.round(EMAIL_CHANGE_TTL_SECONDS / 60);

function confirmationMail(to: string, from: string, link: string): MailMessage {
  return {
    kind: "email-change-confirmation",
    to,
    subject: `Confirm your new sign-in email for ${PRODUCT}`,
    text: [
      `Someone asked to sign in to ${PRODUCT} with this address, ${to}, instead of ${maskEmail(from)}.`,
      "",
      `If it was you, confirm the change within ${minutes} minutes:`,
      link,
      "",
      "Nothing changes until you do. If it was not you, ignore this message.",
    ].join("\n"),
  };
}

function addressInUseMail(to: string): MailMessage {
  return {
    kind: "email-change-address-in-use",
    to,
    subject: `Someone tried to move a ${PRODUCT} account to this address`,
    text: [
      `Someone asked to move a ${PRODUCT} account to this address, ${to}, but it already has an account of its own. Nothing was changed.`,
      "",
      "If it was you, sign in with this address instead. If it was not, you can ignore this message.",
    ].join("\n"),
  };
}

function changeRequestedNotice(to: string, newEmail: string): MailMessage {
  return {
    kind: "email-change-requested",
    to,
    subject: `A change of your ${PRODUCT} sign-in email was requested`,
    text: [
      `Someone signed in to your ${PRODUCT} account asked to change its sign-in email to ${maskEmail(newEmail)}.`,
      "",
      `It changes only if that address confirms within ${minutes} minutes. Until then you still sign in with ${to}.`,
      "If this was not you, change your password and sign out everywhere.",
    ].join("\n"),
  };
}

/** A 403 unless `password` is the user's current password. */
export async function assertCurrentPassword(user: StoredUser, password: string | undefined): Promise<void> {
  if (password === undefined || password.length === 0) throw badRequest(AUTH_MESSAGES.currentPasswordRequired);
  if (!(await verifyPassword(password, user.password_hash)))
    throw forbidden(AUTH_MESSAGES.currentPasswordWrong, "invalid_current_password");
}

/**
 * Starts a change of `user`'s sign-in email to `newEmail` (the current password already
 * checked): the pending change and both mails, in one transaction. Asking for the email the
 * account already has changes and sends nothing.
 */
export async function requestEmailChange(ctx: CoreContext, user: StoredUser, newEmail: string): Promise<void> {
  if (newEmail === user.email) return;
  const taken = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: emailKey(newEmail), ConsistentRead: true }),
  );
  const token = randomBytes(32).toString("base64url");
  const now = ctx.clock();
  const pending: PendingEmailChange = {
    user_id: user.id,
    from_email: user.email,
    to_email: newEmail,
    created_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + EMAIL_CHANGE_TTL_SECONDS,
  };
  const version = ctx.config.API_KEY_HASH_KEYS.current;
  const link = appLink(ctx.config, EMAIL_CONFIRMATION_PATH, { token });
  await ctx.db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: ctx.db.table,
            Item: {
              ...emailChangeKey(hashOf(version, token)),
              entity: "email_change",
              hash_version: version.version,
              ...pending,
            },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
        queueMail(ctx, taken.Item ? addressInUseMail(newEmail) : confirmationMail(newEmail, user.email, link)),
        queueMail(ctx, changeRequestedNotice(user.email, newEmail)),
      ],
    }),
  );
  ctx.logger.info("email change requested", { user_id: user.id });
}

const invalidLink = () => badRequest(AUTH_MESSAGES.emailConfirmationInvalid, "invalid_confirmation");

/** The pending change a link's secret stands for, under the newest hash version that has it. */
async function findPending(
  ctx: CoreContext,
  token: string,
): Promise<{ key: { pk: string; sk: string }; pending: PendingEmailChange } | null> {
  for (const version of ctx.config.API_KEY_HASH_KEYS.versions) {
    const key = emailChangeKey(hashOf(version, token));
    const reply = await ctx.db.doc.send(new GetCommand({ TableName: ctx.db.table, Key: key, ConsistentRead: true }));
    if (reply.Item) return { key, pending: PendingEmailChange.parse(reply.Item) };
  }
  return null;
}

/**
 * Completes a change from its link: the account's email becomes the new one and the link is used
 * up, in one transaction. An unknown, used or expired link, or one issued before the account's
 * email changed otherwise, is a 400 `invalid_confirmation`; a new address taken since the request
 * is a 409 `email_taken`. Either way nothing changes.
 */
export async function confirmEmailChange(ctx: CoreContext, token: string): Promise<PublicUser> {
  if (token.length !== EMAIL_CHANGE_TOKEN_LENGTH) throw invalidLink();
  const found = await findPending(ctx, token);
  if (!found || found.pending.expires_at <= Math.floor(ctx.clock().getTime() / 1000)) throw invalidLink();
  const { key, pending } = found;
  const before = await findUserById(ctx.db, pending.user_id);
  if (!before || before.email !== pending.from_email) throw invalidLink();
  const after: StoredUser = {
    ...before,
    email: pending.to_email,
    // The link reached the new address: it is verified.
    email_verified_at: ctx.clock().toISOString(),
    updated_at: new Date(Math.max(ctx.clock().getTime(), Date.parse(before.updated_at) + 1)).toISOString(),
  };
  await replaceUser(ctx.db, before, after, {
    also: [{ Delete: { TableName: ctx.db.table, Key: key, ConditionExpression: "attribute_exists(pk)" } }],
    alsoRefused: invalidLink,
  });
  ctx.logger.info("email changed", { user_id: before.id });
  return toPublicUser(after);
}
