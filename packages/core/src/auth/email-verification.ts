import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { appLink } from "../mail/links";
import { queueMail } from "../mail/outbox";
import type { CoreContext } from "../shared/context";
import { badRequest, conflict } from "../shared/errors";
import { verificationMail } from "./account-mail";
import { limitAccountChange } from "./account-limits";
import { emailVerificationKey } from "./keys";
import { AUTH_MESSAGES, EMAIL_VERIFICATION_PATH, type PublicUser } from "./model";
import { epochSeconds, findLinkItem, linkItemKey, newLinkToken, type LinkKind } from "./one-time-links";
import { findUserById, isEmailVerified, replaceUser, requireUser, toPublicUser, type StoredUser } from "./users";

/**
 * Email verification: sign-up mails a link to the new address; using it marks the account's
 * email verified. An unverified account works, with one exception: nobody can pay it by email
 * (payments/payees.ts), so an address someone signed up with but cannot read never receives
 * money meant for its real owner. Any link mailed to the current address proves it too (a
 * password reset, the confirmation of an email change).
 *
 * A link lives EMAIL_VERIFICATION_TTL_SECONDS, works once, and only while the account still has
 * the address it was sent to. A new link can be asked for (3 an hour) while unverified.
 */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
const VERIFICATION_LINK: LinkKind = { label: "fintech/email-verification-token/v1", keyOf: emailVerificationKey };

type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

const PendingVerification = z.object({
  user_id: z.string(),
  email: z.string(),
  created_at: z.string(),
  expires_at: z.number().int(),
});

/**
 * The pending verification and its mail, as transaction items: put them in the transaction that
 * creates the address.
 */
export function verificationItems(
  ctx: CoreContext,
  user: Pick<StoredUser, "id" | "email" | "first_name">,
): TransactItem[] {
  return verificationLink(ctx, user).items;
}

/** A new verification link's secret and the items that store it and mail it. */
export function verificationLink(
  ctx: CoreContext,
  user: Pick<StoredUser, "id" | "email" | "first_name">,
): { token: string; items: TransactItem[] } {
  const token = newLinkToken();
  const now = ctx.clock();
  const { key, hashVersion } = linkItemKey(ctx, VERIFICATION_LINK, token);
  const pending: z.infer<typeof PendingVerification> = {
    user_id: user.id,
    email: user.email,
    created_at: now.toISOString(),
    expires_at: epochSeconds(now) + EMAIL_VERIFICATION_TTL_SECONDS,
  };
  const link = appLink(ctx.config, EMAIL_VERIFICATION_PATH, { token });
  const items: TransactItem[] = [
    {
      Put: {
        TableName: ctx.db.table,
        Item: { ...key, entity: "email_verification", hash_version: hashVersion, ...pending },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    queueMail(ctx, verificationMail(user.email, user.first_name, link, EMAIL_VERIFICATION_TTL_SECONDS)),
  ];
  return { token, items };
}

/** A new verification link for a signed-in user whose address is not verified yet (409 once it is). */
export async function resendVerification(ctx: CoreContext, userId: string): Promise<void> {
  await limitAccountChange(ctx, "verificationResend", userId);
  const user = await requireUser(ctx.db, userId);
  if (isEmailVerified(user)) throw conflict(AUTH_MESSAGES.emailAlreadyVerified, "email_already_verified");
  await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: verificationItems(ctx, user) }));
  ctx.logger.info("verification mail requested", { user_id: user.id });
}

const invalidLink = () => badRequest(AUTH_MESSAGES.emailVerificationInvalid, "invalid_verification");

/** A user as verified now (kept as it was when already verified). */
export const verifiedNow = (ctx: CoreContext, user: StoredUser): StoredUser["email_verified_at"] =>
  user.email_verified_at ?? ctx.clock().toISOString();

/**
 * Uses a verification link: the account's email becomes verified and the link is used up, in one
 * transaction. An unknown, used or expired link, or one sent to an address the account no longer
 * has, is a 400 `invalid_verification` and changes nothing.
 */
export async function verifyEmail(ctx: CoreContext, token: string): Promise<PublicUser> {
  const found = await findLinkItem(ctx, VERIFICATION_LINK, token);
  const pending = PendingVerification.safeParse(found?.item);
  if (!found || !pending.success || pending.data.expires_at <= epochSeconds(ctx.clock())) throw invalidLink();
  const before = await findUserById(ctx.db, pending.data.user_id);
  if (!before || before.email !== pending.data.email) throw invalidLink();
  const after: StoredUser = {
    ...before,
    email_verified_at: verifiedNow(ctx, before),
    updated_at: new Date(Math.max(ctx.clock().getTime(), Date.parse(before.updated_at) + 1)).toISOString(),
  };
  await replaceUser(ctx.db, before, after, {
    also: [{ Delete: { TableName: ctx.db.table, Key: found.key, ConditionExpression: "attribute_exists(pk)" } }],
    alsoRefused: invalidLink,
  });
  ctx.logger.info("email verified", { user_id: before.id });
  return toPublicUser(after);
}
