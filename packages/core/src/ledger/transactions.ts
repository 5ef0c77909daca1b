import { stringify } from "csv-stringify/sync";
import type { CoreContext } from "../shared/context";
import type { CursorBinding } from "../shared/cursor";
import { unprocessable } from "../shared/errors";
import { type Page, type PageQuery, queryPage } from "../shared/pagination";
import { parseWith } from "../shared/validation";
import { getAccounts, requireOwnedAccount } from "./accounts";
import { Journal, journalReply, requireOwnedJournal, type JournalEntry, type JournalReply } from "./journals";
import { journalsByOwner } from "./keys";
import { TransactionFilters } from "./model";

/**
 * The read side of the Transactions tab: the caller's journals, filtered and paged, one journal
 * in detail, and the CSV export of a filtered list.
 */

export const cursorBinding = (ctx: CoreContext, scope: Record<string, unknown>): CursorBinding => ({ secret: ctx.config.CURSOR_KEYS, scope });

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
      return { ...entry, account_number: account.kind === "system" ? null : account.account_number, owned: account.owner_id === journal.owner_id };
    }),
  }));
}

/** The date range is a key condition on the owner's journals index (gsi1sk = created_at#id). */
function journalsQuery(ownerId: string, filters: TransactionFilters) {
  const partition = journalsByOwner(ownerId).gsi1pk;
  const values: Record<string, string> = { ":pk": partition };
  let range = "";
  if (filters.from) values[":from"] = filters.from;
  // Every sort key of the last included millisecond sorts below "<instant>#\uffff".
  if (filters.to) values[":to"] = `${filters.to}#\uffff`;
  if (filters.from && filters.to) range = " AND gsi1sk BETWEEN :from AND :to";
  else if (filters.from) range = " AND gsi1sk >= :from";
  else if (filters.to) range = " AND gsi1sk <= :to";
  return {
    input: { IndexName: "gsi1", KeyConditionExpression: `gsi1pk = :pk${range}`, ExpressionAttributeValues: values },
    keyNames: ["pk", "sk", "gsi1pk", "gsi1sk"],
    partition: { name: "gsi1pk", value: partition },
  };
}

/** The filters a key condition cannot express, applied in code (paging stays exact: see queryPage). */
function matcher(filters: TransactionFilters): (journal: Journal) => boolean {
  const needle = filters.q?.toLowerCase();
  return (journal) =>
    (!filters.status || journal.status === filters.status) &&
    (!filters.type || journal.type === filters.type) &&
    (!filters.account_id || journal.entries.some((entry) => entry.account_id === filters.account_id)) &&
    (!needle || journal.description.toLowerCase().includes(needle));
}

/** Parses the filters of a request and checks the account filter names one of the caller's accounts. */
export async function parseTransactionFilters(ctx: CoreContext, ownerId: string, query: unknown): Promise<TransactionFilters> {
  const filters = parseWith(TransactionFilters, query);
  if (filters.account_id !== undefined) await requireOwnedAccount(ctx, ownerId, filters.account_id);
  return filters;
}

async function filteredPage(ctx: CoreContext, ownerId: string, filters: TransactionFilters, page: PageQuery, route: string): Promise<Page<Journal>> {
  const { input, keyNames, partition } = journalsQuery(ownerId, filters);
  const accept = matcher(filters);
  const binding = cursorBinding(ctx, { route, owner: ownerId, ...filters });
  const found = await queryPage(ctx.db, input, keyNames, partition, binding, page, (item) => {
    const journal = Journal.parse(item);
    return accept(journal) ? journal : null;
  });
  return { ...found, items: await withAccountDetails(ctx, found.items) };
}

/** The caller's journals, newest first, filtered; cursors are bound to the filters. */
export async function history(ctx: CoreContext, ownerId: string, query: unknown, page: PageQuery): Promise<Page<JournalReply>> {
  const filters = await parseTransactionFilters(ctx, ownerId, query);
  const found = await filteredPage(ctx, ownerId, filters, page, "transactions/history");
  return { ...found, items: found.items.map((journal) => journalReply(journal)) };
}

/** One journal of the caller: legs, status history, idempotency key. */
export async function transactionDetail(ctx: CoreContext, ownerId: string, journalId: string): Promise<JournalReply> {
  const journal = await requireOwnedJournal(ctx, ownerId, journalId);
  const [detailed] = await withAccountDetails(ctx, [journal]);
  return journalReply(detailed!);
}

export const EXPORT_MAX_ROWS = 10_000;
export const EXPORT_COLUMNS = [
  "id",
  "created_at",
  "posted_at",
  "type",
  "status",
  "description",
  "currency",
  "amount",
  "debit_account",
  "credit_account",
  "idempotency_key",
] as const;

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab / carriage return, which some strip
 * first) as a formula: such cells get a leading single quote (OWASP's CSV injection advice).
 */
export function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const accountLabel = (entry: ReturnType<typeof journalReply>["entries"][number]) =>
  entry.account_number ? `${entry.account_name} (${entry.account_number})` : entry.account_name;

function exportRow(reply: JournalReply): Record<(typeof EXPORT_COLUMNS)[number], string | null> {
  const side = (wanted: "debit" | "credit") => reply.entries.filter((entry) => entry.side === wanted).map(accountLabel).join("; ");
  return {
    id: reply.id,
    created_at: reply.created_at,
    posted_at: reply.posted_at,
    type: reply.type,
    status: reply.status,
    description: reply.description,
    currency: reply.currency,
    amount: reply.amount,
    debit_account: side("debit"),
    credit_account: side("credit"),
    idempotency_key: reply.idempotency_key,
  };
}

export interface TransactionsExport {
  filename: string;
  csv: string;
  rows: number;
}

/** The filtered list as CSV, newest first, at most EXPORT_MAX_ROWS rows (more: 422, narrow the filters). */
export async function exportTransactions(ctx: CoreContext, ownerId: string, query: unknown, maxRows = EXPORT_MAX_ROWS): Promise<TransactionsExport> {
  const filters = await parseTransactionFilters(ctx, ownerId, query);
  const found = await filteredPage(ctx, ownerId, filters, { limit: maxRows, offset: 0 }, "transactions/export");
  if (found.has_more) {
    throw unprocessable(
      `The export is limited to ${maxRows.toLocaleString("en-US")} transactions; narrow the filters (for example the date range)`,
      "export_too_large",
    );
  }
  const csv = stringify(found.items.map((journal) => exportRow(journalReply(journal))), {
    header: true,
    columns: [...EXPORT_COLUMNS],
    cast: { string: spreadsheetSafe },
  });
  return { filename: `transactions-${ctx.clock().toISOString().slice(0, 10)}.csv`, csv, rows: found.items.length };
}
