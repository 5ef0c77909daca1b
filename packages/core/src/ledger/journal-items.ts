import type { CoreContext } from "../shared/context";
import { depositDraftIndex } from "../approvals/keys";
import { journalOpsIndex } from "../ops/outbox";
import type { TransactItems } from "./write-path";
import { journalKey, journalsByOwner, journalsReceivedBy } from "./keys";
import { UNNAMED_PAYER, type Idempotency, type Journal, type JournalDraft } from "./journals";
import { journalReply } from "./journal-view";

/**
 * A new journal from its draft (balanced, at most one other customer paid), and the stored item
 * with the indexes that list it.
 */

/**
 * The other customer a draft pays into, if any. A journal moves money between at most two
 * customers, its owner and one payee: that is what lets one index entry list it for the payee.
 */
function payeeOwnerOf(draft: JournalDraft): string | null {
  const others = new Set(
    draft.legs
      .filter((leg) => leg.account.kind === "customer" && leg.account.owner_id !== draft.ownerId)
      .map((leg) => leg.account.owner_id),
  );
  if (others.size > 1) throw new Error("A journal may touch the accounts of at most one other customer");
  return [...others][0] ?? null;
}

export function assertBalanced(legs: JournalDraft["legs"]): void {
  const debits = legs.filter((leg) => leg.side === "debit").reduce((sum, leg) => sum + leg.amount, 0);
  const credits = legs.filter((leg) => leg.side === "credit").reduce((sum, leg) => sum + leg.amount, 0);
  if (debits !== credits || debits <= 0) throw new Error(`Unbalanced journal: debits ${debits}, credits ${credits}`);
  for (const leg of legs)
    if (leg.account.currency !== legs[0]!.account.currency) throw new Error("Journal legs in different currencies");
}

/** A new draft journal from its draft, created at `createdAt`, with the reply its creation answers. */
export function newJournal(id: string, draft: JournalDraft, idempotency: Idempotency, createdAt: string): Journal {
  assertBalanced(draft.legs);
  const payeeOwnerId = payeeOwnerOf(draft);
  const journal: Journal = {
    id,
    owner_id: draft.ownerId,
    type: draft.type,
    status: "draft",
    currency: draft.currency,
    total_amount: draft.legs.filter((leg) => leg.side === "debit").reduce((sum, leg) => sum + leg.amount, 0),
    description: draft.description,
    entries: draft.legs.map((leg) => ({
      account_id: leg.account.id,
      account_name: leg.account.name,
      side: leg.side,
      amount: leg.amount,
      account_number: leg.account.kind === "system" ? null : leg.account.account_number,
      owned: leg.account.owner_id === draft.ownerId,
    })),
    created_at: createdAt,
    posted_at: null,
    version: 1,
    history: [{ operation: "create", status: "draft", at: createdAt, by: draft.actor }],
    idempotency_key: idempotency.key,
    request_hash: idempotency.hash,
    created_reply: "",
    operation_replies: {},
    ...(payeeOwnerId ? { payee_owner_id: payeeOwnerId, payer_name: draft.parties?.payerName || UNNAMED_PAYER } : {}),
    ...(draft.parties ? { payee_label: draft.parties.payeeLabel } : {}),
  };
  journal.created_reply = JSON.stringify({ message: "Transaction created", data: journalReply(journal) });
  return journal;
}

/**
 * The journal item: its key and the indexes that list it (its owner's history, the four-eyes
 * queue while a deposit waits, the payee's history while a payment to another user is posted, and
 * otherwise the ops feed, docs/money-operations.md#ops-console: a deposit waiting for four eyes
 * joins it when decided). Every write of a journal writes the whole item, so an index the new
 * state no longer has goes.
 */
export function journalItem(journal: Journal): Record<string, unknown> {
  const received =
    journal.payee_owner_id && journal.status === "posted" && journal.posted_at
      ? journalsReceivedBy(journal.payee_owner_id, journal.posted_at, journal.id)
      : {};
  const waitingDeposit = depositDraftIndex(journal);
  return {
    ...journalKey(journal.id),
    ...journalsByOwner(journal.owner_id, journal.created_at, journal.id),
    ...(waitingDeposit.gsi2pk ? waitingDeposit : journalOpsIndex(journal)),
    ...received,
    entity: "journal",
    ...journal,
  };
}

/** The conditional Put of a new journal item (absent: a journal or a recorded refusal may hold its id). */
export const journalPut = (
  ctx: CoreContext,
  journal: Journal,
  extra: Record<string, unknown> = {},
): TransactItems[number] => ({
  Put: {
    TableName: ctx.db.table,
    Item: { ...journalItem(journal), ...extra },
    ConditionExpression: "attribute_not_exists(pk)",
  },
});
