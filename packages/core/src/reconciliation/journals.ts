import type { CoreContext } from "../shared/context";
import type { Currency } from "../money/model";
import { getAccounts, systemAccountId, type SystemAccountCode } from "../ledger/accounts";
import { createJournal } from "../ledger/journal-create";
import { changeJournalStatus } from "../ledger/journal-status";
import { journalIdFor, requestHash, type Actor } from "../ledger/journals";
import { SYSTEM_OWNER } from "../ledger/keys";
import type { ExtraItems } from "../ledger/journal-writes";

/**
 * The reconciliation's journals (docs/money-operations.md#reconciliation). The ledger mirrors the
 * platform's books the way payments use them: a payment debits Clearing, so money settled out
 * credits Clearing and debits Rail settlements (the outside world's side); money the bank moved
 * that nothing explains goes from Rail settlements to Suspense; a write-off moves it from Suspense
 * to Settlement write-offs. Every journal belongs to the system owner, is created and posted under
 * idempotency keys derived from what it books, so a re-run posts each journal once.
 */

/** Signed amounts per system account: + is a debit, - a credit; they must sum to zero. */
export type Deltas = Partial<Record<SystemAccountCode, number>>;

export const RECON_ACTOR: Actor = { id: "settlement-reconciliation", name: "settlement reconciliation" };

export const reconJournalId = (key: string): string => journalIdFor(SYSTEM_OWNER, key);

/** True when the deltas move nothing. */
export const isEmpty = (deltas: Deltas): boolean => Object.values(deltas).every((amount) => !amount);

/**
 * Creates and posts the journal of `deltas` in `currency` under `key`; `extraItems` commit with the
 * post (the counters and break changes the journal stands for). Returns the journal id; a repeated
 * call with the same key replays both steps and writes nothing.
 */
export async function bookJournal(
  ctx: CoreContext,
  input: { key: string; currency: Currency; deltas: Deltas; description: string; actor: Actor | null },
  extraItems?: ExtraItems,
): Promise<string> {
  const entries = (Object.entries(input.deltas) as [SystemAccountCode, number][]).filter(([, amount]) => amount);
  const sum = entries.reduce((total, [, amount]) => total + amount, 0);
  if (sum !== 0) throw new Error(`Reconciliation journal ${input.key} does not balance (${sum})`);
  const ids = entries.map(([code]) => systemAccountId(code, input.currency));
  const accounts = await getAccounts(ctx, ids);
  const legs = entries.map(([code, amount]) => {
    const account = accounts.get(systemAccountId(code, input.currency));
    if (!account) throw new Error(`System account ${code} (${input.currency}) is missing: run the seed`);
    return { account, side: amount > 0 ? ("debit" as const) : ("credit" as const), amount: Math.abs(amount) };
  });
  const id = reconJournalId(input.key);
  const hash = requestHash({ key: input.key, currency: input.currency, deltas: entries });
  await createJournal(
    ctx,
    {
      type: "adjustment",
      ownerId: SYSTEM_OWNER,
      currency: input.currency,
      description: input.description,
      legs,
      actor: input.actor,
    },
    { key: input.key, hash },
    { id },
  );
  await changeJournalStatus(
    ctx,
    SYSTEM_OWNER,
    id,
    "post",
    { key: `${input.key}:post`, hash },
    input.actor,
    (accountIds) => getAccounts(ctx, accountIds),
    extraItems ? { extraItems } : {},
  );
  return id;
}

/** Voids the draft of a journal whose post lost a race (its extra items were refused). */
export async function voidDraft(ctx: CoreContext, journalId: string, key: string): Promise<void> {
  await changeJournalStatus(
    ctx,
    SYSTEM_OWNER,
    journalId,
    "void",
    { key: `${key}:void`, hash: key },
    RECON_ACTOR,
    (accountIds) => getAccounts(ctx, accountIds),
  ).catch((error: unknown) => ctx.logger.warn("reconciliation draft not voided", { error, journal_id: journalId }));
}
