import {
  mergeOpsRow,
  type OpsBreakRow,
  type OpsJournalRow,
  type OpsKycRow,
  type OpsOverview,
  type OpsPaymentRow,
  type OpsRow,
  type OpsTable,
} from "@fintech/core/ops/model";

/**
 * The console's four tables as a pure state: seeded by the overview, then kept current by the
 * feed's rows (one row per id, its latest change wins, core's mergeOpsRow). Rows that arrived
 * through the feed are marked fresh, so the screen can highlight them.
 */

/** Rows kept per table. */
export const ROWS_PER_TABLE = 50;

export interface OpsTables {
  journal: OpsJournalRow[];
  payment: OpsPaymentRow[];
  kyc: OpsKycRow[];
  break: OpsBreakRow[];
  /** `<table>:<id>` of the rows the feed brought in since they were last shown fresh. */
  fresh: readonly string[];
}

export const emptyTables = (): OpsTables => ({ journal: [], payment: [], kyc: [], break: [], fresh: [] });

export const rowKey = (row: Pick<OpsRow, "table" | "id">) => `${row.table}:${row.id}`;

function withRow(tables: OpsTables, row: OpsRow): OpsTables {
  switch (row.table) {
    case "journal":
      return { ...tables, journal: mergeOpsRow(tables.journal, row, ROWS_PER_TABLE) };
    case "payment":
      return { ...tables, payment: mergeOpsRow(tables.payment, row, ROWS_PER_TABLE) };
    case "kyc":
      return { ...tables, kyc: mergeOpsRow(tables.kyc, row, ROWS_PER_TABLE) };
    case "break":
      return { ...tables, break: mergeOpsRow(tables.break, row, ROWS_PER_TABLE) };
  }
}

/** The overview's rows merged in (breaks are replaced: they are not on the feed, the overview is their source). */
export function withOverview(tables: OpsTables, overview: OpsOverview): OpsTables {
  const rows: OpsRow[] = [...overview.journals, ...overview.payments, ...overview.kyc];
  const merged = rows.reduce(withRow, tables);
  return { ...merged, break: overview.breaks.slice(0, ROWS_PER_TABLE) };
}

/** A row from the feed: merged, and fresh unless it changed nothing (an older change arriving late). */
export function withLiveRow(tables: OpsTables, row: OpsRow): OpsTables {
  const next = withRow(tables, row);
  if (!next[row.table].some((kept) => kept === row)) return next;
  return { ...next, fresh: [...next.fresh.filter((key) => key !== rowKey(row)), rowKey(row)] };
}

export const withoutFresh = (tables: OpsTables, keys: readonly string[]): OpsTables => ({
  ...tables,
  fresh: tables.fresh.filter((key) => !keys.includes(key)),
});

export const TABLE_TITLES: Record<OpsTable, string> = {
  journal: "Journals",
  payment: "Payments",
  kyc: "KYC submissions",
  break: "Reconciliation breaks",
};
