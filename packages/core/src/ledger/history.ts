import type { CoreContext } from "../shared/context";
import type { CursorBinding } from "../shared/cursor";
import type { Page, PageQuery } from "../shared/pagination";
import { parseWith } from "../shared/validation";
import { getAccounts, requireOwnedAccount } from "./accounts";
import { Journal, type JournalEntry } from "./journals";
import { requireVisibleJournal } from "./journal-reads";
import { journalReply, type JournalReply } from "./journal-view";
import { journalsByOwner, journalsReceivedBy } from "./keys";
import { mergedPage, type MergedSource } from "./merged-pages";
import { TransactionFilters } from "./model";

/**
 * The read side of the Transactions tab: the caller's journals and the money other customers
 * paid them, filtered and paged, and one journal in detail. The CSV export of a filtered list is
 * history-export.ts.
 */

export const cursorBinding = (ctx: CoreContext, scope: Record<string, unknown>): CursorBinding => ({
  secret: ctx.config.CURSOR_KEYS,
  scope,
});

/**
 * Journals written before entries carried their account number and ownership get both from the
 * accounts (immutable and cached per process), so every reply has the same shape.
 */
export async function withAccountDetails(ctx: CoreContext, journals: Journal[]): Promise<Journal[]> {
  const lacking = (entry: JournalEntry) => entry.account_number === undefined || entry.owned === undefined;
  const ids = journals.flatMap((journal) => journal.entries.filter(lacking).map((entry) => entry.account_id));
  if (ids.length === 0) return journals;
  const accounts = await getAccounts(ctx, ids);
  return journals.map((journal) => ({
    ...journal,
    entries: journal.entries.map((entry) => {
      const account = accounts.get(entry.account_id);
      if (!lacking(entry) || !account) return entry;
      return {
        ...entry,
        account_number: account.kind === "system" ? null : account.account_number,
        owned: account.owner_id === journal.owner_id,
      };
    }),
  }));
}

/**
 * The caller's history is two index partitions merged (merged-pages.ts): the journals they own
 * (gsi1, by creation) and the journals of other customers that paid into their accounts (gsi3,
 * present only while such a journal is posted, by arrival). The date range is a key condition on
 * both: creation time for their own, arrival for money received.
 */
function historySources(
  ownerId: string,
  filters: TransactionFilters,
  accept: (journal: Journal) => boolean,
): MergedSource<Journal>[] {
  // Every sort key of the last included millisecond sorts below "<instant>#\uffff".
  const range = { from: filters.from, to: filters.to ? `${filters.to}#\uffff` : undefined };
  const parse = (item: Record<string, unknown>) => {
    const journal = Journal.parse(item);
    return accept(journal) ? journal : null;
  };
  return [
    {
      indexName: "gsi1",
      partition: { name: "gsi1pk", value: journalsByOwner(ownerId).gsi1pk },
      sortKeyName: "gsi1sk",
      range,
      accept: parse,
    },
    {
      indexName: "gsi3",
      partition: { name: "gsi3pk", value: journalsReceivedBy(ownerId).gsi3pk },
      sortKeyName: "gsi3sk",
      range,
      accept: parse,
    },
  ];
}

/**
 * The filters a key condition cannot express, applied in code to the journal as the caller sees it
 * (paging stays exact).
 */
function matcher(ownerId: string, filters: TransactionFilters): (journal: Journal) => boolean {
  const needle = filters.q?.toLowerCase();
  return (journal) => {
    if (filters.status && journal.status !== filters.status) return false;
    if (filters.type && journal.type !== filters.type) return false;
    const seen = journalReply(journal, { ownerId });
    if (filters.account_id && !seen.entries.some((entry) => entry.account_id === filters.account_id)) return false;
    return (
      !needle || [seen.description, seen.counterparty, seen.id].some((text) => text.toLowerCase().includes(needle))
    );
  };
}

/** Parses the filters of a request and checks the account filter names one of the caller's accounts. */
export async function parseTransactionFilters(
  ctx: CoreContext,
  ownerId: string,
  query: unknown,
): Promise<TransactionFilters> {
  const filters = parseWith(TransactionFilters, query);
  if (filters.account_id !== undefined) await requireOwnedAccount(ctx, ownerId, filters.account_id);
  return filters;
}

/**
 * One page of the caller's history under `filters`, as they see each journal; cursors are bound to
 * `route` and the filters.
 */
export async function filteredPage(
  ctx: CoreContext,
  ownerId: string,
  filters: TransactionFilters,
  page: PageQuery,
  route: string,
): Promise<Page<JournalReply>> {
  const binding = cursorBinding(ctx, { route, owner: ownerId, ...filters });
  const found = await mergedPage(ctx.db, historySources(ownerId, filters, matcher(ownerId, filters)), binding, page);
  const detailed = await withAccountDetails(ctx, found.items);
  return { ...found, items: detailed.map((journal) => journalReply(journal, { ownerId })) };
}

/**
 * The caller's journals and the money other customers paid them, newest first, filtered; cursors
 * are bound to the filters.
 */
export async function history(
  ctx: CoreContext,
  ownerId: string,
  query: unknown,
  page: PageQuery,
): Promise<Page<JournalReply>> {
  const filters = await parseTransactionFilters(ctx, ownerId, query);
  return filteredPage(ctx, ownerId, filters, page, "transactions/history");
}

/**
 * One journal of the caller, or one that paid into their account (as they may see it): legs, status
 * history, idempotency key.
 */
export async function transactionDetail(ctx: CoreContext, ownerId: string, journalId: string): Promise<JournalReply> {
  const journal = await requireVisibleJournal(ctx, ownerId, journalId);
  const [detailed] = await withAccountDetails(ctx, [journal]);
  return journalReply(detailed!, { ownerId });
}
