import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "@fintech/core/shared/context";
import { verificationLink, verifyEmail } from "@fintech/core/auth/email-verification";
import { requireUser } from "@fintech/core/auth/users";

/**
 * Verifies a test user's email through the real link check (verifyEmail), with a fresh link
 * instead of the one in the sign-up mail: tests whose users are paid by email need it
 * (payments/payees.ts), and reading the outbox for one message would not scale to a shared table.
 */
export async function verifyEmailForTests(ctx: CoreContext, ...userIds: string[]): Promise<void> {
  for (const userId of userIds) {
    const { token, items } = verificationLink(ctx, await requireUser(ctx.db, userId));
    await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: items }));
    await verifyEmail(ctx, token);
  }
}
