import { stringify } from "csv-stringify/sync";
import type { CoreContext } from "../shared/context";
import { unprocessable } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { spreadsheetSafe } from "../shared/spreadsheet";
import { parseSubmission } from "./submissions";
import { ReviewFilters, type ReviewRow } from "./review-model";
import { matchesSearch, periodStart, readSubmissions, reviewRow, submissionsQuery } from "./review-list";

/**
 * Export Report (the footer of docs/product/kyc.md#submission-list): the dashboard's filtered list
 * as CSV, every matching row, newest first, at most KYC_EXPORT_MAX_ROWS (more is a 422 asking for
 * narrower filters, never a silently cut file). Cells a spreadsheet would run as a formula get a
 * leading quote.
 */

export const KYC_EXPORT_MAX_ROWS = 10_000;

export const KYC_EXPORT_COLUMNS = [
  "id",
  "user_id",
  "name",
  "email",
  "phone",
  "location",
  "country",
  "status",
  "risk_score",
  "risk_level",
  "amount",
  "priority",
  "progress",
  "submitted_at",
  "verified_at",
  "decided_at",
  "info_requested",
  "notes",
  "documents",
] as const;

type ExportRow = Record<(typeof KYC_EXPORT_COLUMNS)[number], string | number | null>;

function exportRow(row: ReviewRow): ExportRow {
  return {
    ...row,
    info_requested: row.info_requested ? "yes" : "no",
    // One cell: "passport:verified; idCard:uploaded".
    documents: row.documents.map((document) => `${document.type}:${document.status}`).join("; "),
  };
}

export interface KycExport {
  filename: string;
  csv: string;
  rows: number;
}

export async function exportSubmissions(
  ctx: CoreContext,
  query: unknown,
  maxRows = KYC_EXPORT_MAX_ROWS,
): Promise<KycExport> {
  const filters = parseWith(ReviewFilters, query);
  const search = matchesSearch(filters.search);
  const found = await readSubmissions(
    ctx,
    submissionsQuery(filters, periodStart(ctx, filters.period)),
    (item) => {
      const submission = parseSubmission(item);
      return search(submission) ? reviewRow(submission) : null;
    },
    maxRows,
  );
  if (!found.complete) {
    throw unprocessable(
      `The export is limited to ${maxRows.toLocaleString("en-US")} submissions; narrow the filters (for example the period)`,
      "export_too_large",
    );
  }
  const csv = stringify(found.items.map(exportRow), {
    header: true,
    columns: [...KYC_EXPORT_COLUMNS],
    cast: { string: spreadsheetSafe },
  });
  return { filename: `kyc-submissions-${ctx.clock().toISOString().slice(0, 10)}.csv`, csv, rows: found.items.length };
}
