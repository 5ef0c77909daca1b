import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { register } from "@fintech/core/auth/service";
import { createCustomerAccount, type Account } from "@fintech/core/ledger/accounts";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { deposit, setJournalStatus } from "@fintech/core/ledger/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { RailEditInput } from "@fintech/core/rails/edit-form";
import { getRail, updateRail } from "@fintech/core/rails/store";
import type { PaymentCaller } from "@fintech/core/payments/model";
import { verifyForTests } from "./limits";
import { verifyEmailForTests } from "./auth";

/** Test helpers of the payments tests: users, funded accounts, a rail's error injection, steps that always throw. */

export async function testCaller(ctx: CoreContext, email: string, firstName = "Test"): Promise<PaymentCaller> {
  const session = await register(ctx, {
    email,
    password: "long enough pw",
    first_name: firstName,
    last_name: "Tester",
    phone: null,
    date_of_birth: null,
  });
  // Payments to others need a verified payer (limits/gate.ts); the limits have tests of their own.
  await verifyForTests(ctx, session.user.id);
  // Paid by email only once the address is verified (payees.ts).
  await verifyEmailForTests(ctx, session.user.id);
  return { userId: session.user.id, user: session.user };
}

export async function openTestAccount(
  ctx: CoreContext,
  owner: PaymentCaller,
  name: string,
  currency = "USD",
): Promise<Account> {
  return (await createCustomerAccount(ctx, owner.userId, CreateAccountInput.parse({ name, currency }))).account;
}

/** A posted deposit of `amount` (decimal string). */
export async function fundAccount(
  ctx: CoreContext,
  owner: PaymentCaller,
  account: Account,
  amount: string,
): Promise<void> {
  const created = await deposit(ctx, owner.userId, { account_id: account.id, amount }, null);
  await setJournalStatus(
    ctx,
    owner.userId,
    (JSON.parse(created.body) as { data: { id: string } }).data.id,
    "post",
    null,
  );
}

/** Sets a rail's error injection (percent) through the admin edit, everything else as it is. */
export async function setErrorInjection(ctx: CoreContext, railId: string, percent: number): Promise<void> {
  const rail = await getRail(ctx, railId);
  const edit = RailEditInput.parse({
    name: rail.name,
    type: rail.type,
    status: rail.status,
    fixedFee: rail.fixedFee,
    fxSpreadPercent: String(rail.fxSpread * 100),
    slaTarget: rail.slaTarget,
    errorInjectionPercent: percent,
  });
  await updateRail(ctx, railId, edit, "tests@example.com");
}

/** The error a step of a payment in `withFailingSteps`'s set throws. */
export const INJECTED_STEP_ERROR = "Injected: this payment's steps always fail";

/**
 * Whether a transaction is a lifecycle step of one of `failing` (a payment write after its creation
 * that does not park it).
 */
function isFailingStep(command: TransactWriteCommand, failing: ReadonlySet<string>): boolean {
  return (command.input.TransactItems ?? []).some((item) => {
    const written = item.Put?.Item;
    return (
      written?.entity === "payment" &&
      failing.has(String(written.paymentId)) &&
      Number(written.version) > 1 &&
      written.status !== "parked"
    );
  });
}

/**
 * The context with a store that refuses every lifecycle step of the payments in `failing` (the
 * set may grow later) with an unexpected error, as a step that always throws would: creating the
 * payment, reading it, and parking it still work. Everything else goes to the real store.
 */
export function withFailingSteps<C extends CoreContext>(ctx: C, failing: ReadonlySet<string>): C {
  const doc = ctx.db.doc;
  const send = (command: unknown, ...rest: unknown[]): Promise<unknown> => {
    if (command instanceof TransactWriteCommand && isFailingStep(command, failing))
      return Promise.reject(new Error(INJECTED_STEP_ERROR));
    return (doc.send as (...args: unknown[]) => Promise<unknown>).call(doc, command, ...rest);
  };
  const failingDoc = new Proxy(doc, {
    get: (target, property, receiver) => (property === "send" ? send : Reflect.get(target, property, receiver)),
  });
  return { ...ctx, db: { ...ctx.db, doc: failingDoc } };
}
