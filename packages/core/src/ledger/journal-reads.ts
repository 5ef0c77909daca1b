import type { CoreContext } from "../shared/context";
import { notFound } from "../shared/errors";
import { readDecision, RefusalRecord } from "./decisions";
import { journalKey } from "./keys";
import { isLedgerId, LEDGER_MESSAGES } from "./model";
import { Journal } from "./journals";
import { isIncomingFor } from "./journal-view";

/**
 * Reading a journal by id: what holds the id (the journal or a recorded refusal), and the journal
 * as its owner, or a customer it paid into, may read it.
 */

/** What holds a journal id: the journal, or the recorded refusal of the keyed request that would have created it. */
export type Decision = { journal: Journal; refusal?: undefined } | { refusal: RefusalRecord; journal?: undefined };

export async function loadDecision(ctx: CoreContext, journalId: string): Promise<Decision | null> {
  const item = await readDecision(ctx, journalKey(journalId));
  if (!item) return null;
  return item.entity === "refusal" ? { refusal: RefusalRecord.parse(item) } : { journal: Journal.parse(item) };
}

/** The journal with this id; null if there is none (or only a recorded refusal holds the id). */
export async function loadJournal(ctx: CoreContext, journalId: string): Promise<Journal | null> {
  return (await loadDecision(ctx, journalId))?.journal ?? null;
}

export async function requireOwnedJournal(ctx: CoreContext, ownerId: string, journalId: string): Promise<Journal> {
  // An id that cannot be one of ours never reaches DynamoDB (whose keys stop at 2,048 bytes).
  const journal = isLedgerId(journalId) ? await loadJournal(ctx, journalId) : null;
  if (!journal || journal.owner_id !== ownerId)
    throw notFound(LEDGER_MESSAGES.transactionNotFound, "transaction_not_found");
  return journal;
}

/**
 * A journal the caller may read: one they own, or a posted one that paid into their account
 * (while held, draft or voided it is the payer's alone). Anything else is the same 404.
 */
export async function requireVisibleJournal(ctx: CoreContext, viewerId: string, journalId: string): Promise<Journal> {
  const journal = isLedgerId(journalId) ? await loadJournal(ctx, journalId) : null;
  if (
    !journal ||
    !(journal.owner_id === viewerId || (isIncomingFor(journal, viewerId) && journal.status === "posted"))
  ) {
    throw notFound(LEDGER_MESSAGES.transactionNotFound, "transaction_not_found");
  }
  return journal;
}
