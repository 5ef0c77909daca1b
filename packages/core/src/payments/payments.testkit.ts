import { register } from "../auth/service";
import { createCustomerAccount, type Account } from "../ledger/accounts";
import { CreateAccountInput } from "../ledger/model";
import { deposit, setJournalStatus } from "../ledger/service";
import type { CoreContext } from "../shared/context";
import { RailEditInput } from "../rails/model";
import { getRail, updateRail } from "../rails/store";
import type { PaymentCaller } from "./service";

/** Test helpers of the payments tests: users, funded accounts, a rail's error injection. */

export async function testCaller(ctx: CoreContext, email: string, firstName = "Test"): Promise<PaymentCaller> {
  const session = await register(ctx, { email, password: "long enough pw", first_name: firstName, last_name: "Tester", phone: null, date_of_birth: null });
  return { userId: session.user.id, user: session.user };
}

export async function openTestAccount(ctx: CoreContext, owner: PaymentCaller, name: string, currency = "USD"): Promise<Account> {
  return (await createCustomerAccount(ctx, owner.userId, CreateAccountInput.parse({ name, currency }))).account;
}

/** A posted deposit of `amount` (decimal string). */
export async function fundAccount(ctx: CoreContext, owner: PaymentCaller, account: Account, amount: string): Promise<void> {
  const created = await deposit(ctx, owner.userId, { account_id: account.id, amount }, null);
  await setJournalStatus(ctx, owner.userId, (JSON.parse(created.body) as { data: { id: string } }).data.id, "post", null);
}

/** Sets a rail's error injection (percent) through the admin edit, everything else as it is. */
export async function setErrorInjection(ctx: CoreContext, railId: string, percent: number): Promise<void> {
  const rail = await getRail(ctx, railId);
  const edit = RailEditInput.parse({ name: rail.name, type: rail.type, status: rail.status, fixedFee: rail.fixedFee, fxSpreadPercent: String(rail.fxSpread * 100), slaTarget: rail.slaTarget, errorInjectionPercent: percent });
  await updateRail(ctx, railId, edit, "tests@example.com");
}
