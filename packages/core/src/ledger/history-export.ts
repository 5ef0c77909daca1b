import { stringify } from "csv-stringify/sync";
import type { CoreContext } from "../shared/context";
import { unprocessable } from "../shared/errors";
import { spreadsheetSafe } from "../shared/spreadsheet";
import type { JournalReply } from "./journal-view";
import { filteredPage, parseTransactionFilters } from "./history";

/** The Transactions tab's CSV export: the caller's filtered history, one row per journal as they see it. */

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
  "counterparty",
  "fee",
] as const;

const accountLabel = (entry: JournalReply["entries"][number]) =>
  entry.account_number ? `${entry.account_name} (${entry.account_number})` : entry.account_name;

function exportRow(reply: JournalReply): Record<(typeof EXPORT_COLUMNS)[number], string | null> {
  const side = (wanted: "debit" | "credit") =>
    reply.entries
      .filter((entry) => entry.side === wanted)
      .map(accountLabel)
      .join("; ");
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
    counterparty: reply.counterparty,
    fee: reply.fee,
  };
}

export interface TransactionsExport {
  filename: string;
  csv: string;
  rows: number;
}

/** The filtered list as CSV, newest first, at most EXPORT_MAX_ROWS rows (more: 422, narrow the filters). */
export async function exportTransactions(
  ctx: CoreContext,
  ownerId: string,
  query: unknown,
  maxRows = EXPORT_MAX_ROWS,
): Promise<TransactionsExport> {
  const filters = await parseTransactionFilters(ctx, ownerId, query);
  const found = await filteredPage(ctx, ownerId, filters, { limit: maxRows, offset: 0 }, "transactions/export");
  if (found.has_more) {
    throw unprocessable(
      `The export is limited to ${maxRows.toLocaleString("en-US")} transactions; narrow the filters (for example the date range)`,
      "export_too_large",
    );
  }
  const csv = stringify(found.items.map(exportRow), {
    header: true,
    columns: [...EXPORT_COLUMNS],
    cast: { string: spreadsheetSafe },
  });
  return { filename: `transactions-${ctx.clock().toISOString().slice(0, 10)}.csv`, csv, rows: found.items.length };
}
