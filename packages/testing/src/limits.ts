import type { CoreContext } from "@fintech/core/shared/context";
import { AppError } from "@fintech/core/shared/errors";
import { holdLevel } from "@fintech/core/limits/levels";
import { MoneyLimits, type CurrencyLimits, type LimitsEditor, type WindowLimits } from "@fintech/core/limits/model";
import { getMoneyLimits, saveMoneyLimits } from "@fintech/core/limits/settings";

/**
 * Test helpers for tests whose subject is not the limits (the ledger engine, payments, feeds):
 * their users move money as verified users would, through the same gate, with the data an
 * administrator could set. The limits' own tests use the defaults and the admin routes.
 */

export const TEST_LIMITS_EDITOR: LimitsEditor = { id: "tests", email: "tests@example.com" };

/** Holds each user at the verified level (an administrator's level, as PUT .../users/{id}/level sets it). */
export async function verifyForTests(ctx: CoreContext, ...userIds: string[]): Promise<void> {
  for (const userId of userIds)
    await holdLevel(ctx, userId, { level: "verified", reason: "Test user, verified for the test" }, TEST_LIMITS_EDITOR);
}

/** The largest limit the table stores, in every slot: no test amount or sum of them reaches it. */
const HIGHEST = 2 ** 50;
const everywhere = (): CurrencyLimits => ({ USD: HIGHEST, EUR: HIGHEST, GBP: HIGHEST, JPY: HIGHEST, INR: HIGHEST });
const unbounded = (): WindowLimits => ({ day: everywhere(), month: everywhere() });
const LIFTED: MoneyLimits = {
  unverified: { deposit: unbounded(), outgoing: null },
  verified: { deposit: unbounded(), outgoing: unbounded() },
};

/** Saves limits no test reaches (the unverified level still may not pay others), for tests of other rules. */
export async function liftLimitsForTests(ctx: CoreContext): Promise<void> {
  const lifted = async () => JSON.stringify(MoneyLimits.parse(await getMoneyLimits(ctx))) === JSON.stringify(LIFTED);
  if (await lifted()) return;
  try {
    await saveMoneyLimits(ctx, (await getMoneyLimits(ctx)).version, LIFTED, TEST_LIMITS_EDITOR);
  } catch (error) {
    // Another setup on the same table lifted them at the same moment.
    if (!(error instanceof AppError && error.code === "limits_changed" && (await lifted()))) throw error;
  }
}

/** Verified users under lifted limits: what the tests of the ledger engine and the payments need. */
export async function allowMoneyForTests(ctx: CoreContext, ...userIds: string[]): Promise<void> {
  await liftLimitsForTests(ctx);
  await verifyForTests(ctx, ...userIds);
}
