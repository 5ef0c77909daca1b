/** The starting ledger of a property run: two verified users, their accounts, and the oracle over them. */
import { getAccounts, systemAccountId } from "@fintech/core/ledger/accounts";
import { createAccount } from "@fintech/core/ledger/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { allowMoneyForTests } from "../limits";
import { convertToCreditShards } from "./commands";
import { apply, CURRENCIES, Model, type Leg, type ModelAccount } from "./oracle";

export interface World {
  model: Model;
  owners: string[];
}

export interface WorldOptions {
  /** Indices of accounts an admin converts to credit shards once they are open (credit-shards.ts). */
  creditShards?: number[];
}

/**
 * Two users: a few accounts in USD (one credit-normal), JPY (no decimals), EUR; one with an
 * opening balance; some converted to credit shards if asked.
 */
export async function setUpWorld(ctx: CoreContext, runId: string, options: WorldOptions = {}): Promise<World> {
  const owners = [`${runId}-u1`, `${runId}-u2`];
  // Verified owners under limits no command reaches: the money limits have tests of their own.
  await allowMoneyForTests(ctx, ...owners);
  const specs: { owner: string; body: Record<string, unknown> }[] = [
    { owner: owners[0]!, body: { name: "Checking", currency: "USD", type: "bank" } },
    { owner: owners[0]!, body: { name: "Savings", currency: "USD", type: "bank", initial_balance: "250.00" } },
    { owner: owners[0]!, body: { name: "Credit line", currency: "USD", type: "liability" } },
    { owner: owners[0]!, body: { name: "Yen wallet", currency: "JPY", type: "bank" } },
    { owner: owners[0]!, body: { name: "Yen savings", currency: "JPY", type: "asset" } },
    { owner: owners[0]!, body: { name: "Euro", currency: "EUR", type: "bank" } },
    { owner: owners[1]!, body: { name: "Other checking", currency: "USD", type: "bank" } },
    { owner: owners[1]!, body: { name: "Other yen", currency: "JPY", type: "bank" } },
  ];
  const accounts: ModelAccount[] = [];
  const openings: { owner: string; id: string; accountId: string; minor: number }[] = [];
  for (const spec of specs) {
    const created = await createAccount(ctx, spec.owner, spec.body, null);
    accounts.push({
      id: created.account.id,
      owner: spec.owner,
      name: created.account.name,
      currency: created.account.currency,
      normal: created.account.normal_side,
      kind: "customer",
    });
    if (created.opening_transaction)
      openings.push({
        owner: spec.owner,
        id: created.opening_transaction.id,
        accountId: created.account.id,
        minor: created.opening_transaction.total_amount_minor,
      });
  }
  const systemIds = CURRENCIES.flatMap((currency) => [
    systemAccountId("funding", currency),
    systemAccountId("sandbox", currency),
    systemAccountId("fx", currency),
    systemAccountId("fxrevenue", currency),
  ]);
  const found = await getAccounts(ctx, systemIds);
  const system = new Map<string, ModelAccount>();
  for (const id of systemIds) {
    const account = found.get(id);
    if (!account) throw new Error(`system account ${id} missing`);
    system.set(id, {
      id,
      owner: account.owner_id,
      name: account.name,
      currency: account.currency,
      normal: account.normal_side,
      kind: "system",
    });
  }
  const model = new Model(accounts, system, runId);
  for (const opening of openings) {
    const account = model.account(opening.accountId);
    const legs: Leg[] = [
      { account: account.id, side: account.normal, amount: opening.minor },
      {
        account: systemAccountId("funding", account.currency),
        side: account.normal === "debit" ? "credit" : "debit",
        amount: opening.minor,
      },
    ];
    for (const leg of legs)
      model.totals.set(leg.account, apply(model.totals.get(leg.account)!, leg.side, leg.amount, "create"));
    model.journals.set(opening.id, { id: opening.id, owner: opening.owner, legs, status: "draft" });
    model.journalOrder.push(opening.id);
    model.countDepositTotals(opening.owner, account.currency);
  }
  for (const index of new Set(options.creditShards ?? [])) {
    const account = accounts[index % accounts.length]!;
    const converted = await convertToCreditShards(ctx, account.id);
    if (!converted.ok || !converted.result.at)
      throw new Error(`converting ${account.name} failed: ${JSON.stringify(converted)}`);
    model.creditShards.set(account.id, converted.result.at);
  }
  return { model, owners };
}
