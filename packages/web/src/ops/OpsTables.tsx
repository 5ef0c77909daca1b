import type { ReactNode } from "react";
import type { OpsBreakRow, OpsJournalRow, OpsKycRow, OpsPaymentRow, OpsRow, OpsTable } from "@fintech/core/ops/model";
import { cardClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";
import { breakClassText, statusText, whenText } from "./format";
import { rowKey, TABLE_TITLES } from "./tables";

const headClass =
  "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300";
const cellClass = "px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-100";
const idClass = `${cellClass} whitespace-nowrap text-left font-mono text-xs font-medium`;
const freshClass = "bg-amber-50 dark:bg-amber-950/40";

interface Column<R> {
  title: string;
  cell: (row: R) => ReactNode;
  className?: string;
}

function amountCell(row: { amount: string | null; currency: string | null }) {
  return row.amount === null ? "—" : `${row.amount} ${row.currency ?? ""}`.trim();
}

/**
 * One live table: a caption, column headers, one row per id (the row's id is its header cell),
 * rows the feed just brought highlighted with a "New" mark (words, not only colour).
 */
function LiveTable<R extends OpsRow>({
  table,
  rows,
  total,
  fresh,
  now,
  columns,
  empty,
}: {
  table: OpsTable;
  rows: readonly R[];
  total: number;
  fresh: ReadonlySet<string>;
  now: Date;
  columns: readonly Column<R>[];
  empty: string;
}) {
  const headingId = `ops-${table}-heading`;
  const title = TABLE_TITLES[table];
  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`} data-ops-table={table}>
      <h2 id={headingId} className={sectionTitleClass}>
        {title}
      </h2>
      <p className={`mt-1 ${subtleTextClass}`}>
        {rows.length === total ? `${total} shown` : `${rows.length} of ${total} shown (filtered)`}, newest first
      </p>
      {rows.length === 0 ? (
        <p
          className={`mt-4 rounded-xl border border-dashed border-slate-300 p-4 text-center dark:border-slate-700 ${subtleTextClass}`}
        >
          {total === 0 ? empty : "No row matches the filters."}
        </p>
      ) : (
        // A narrow screen scrolls the table sideways: the region takes focus so a keyboard can scroll it.
        <div className="-mx-1 mt-4 overflow-x-auto px-1" role="region" aria-label={`${title} table`} tabIndex={0}>
          <table className="w-full min-w-[40rem] border-collapse">
            <caption className="sr-only">{title}, newest first</caption>
            <thead className="border-b border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="col" className={headClass}>
                  Id
                </th>
                {columns.map((column) => (
                  <th key={column.title} scope="col" className={headClass}>
                    {column.title}
                  </th>
                ))}
                <th scope="col" className={headClass}>
                  When
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {rows.map((row) => {
                const isFresh = fresh.has(rowKey(row));
                return (
                  <tr
                    key={row.id}
                    data-row-id={row.id}
                    data-fresh={isFresh}
                    className={isFresh ? freshClass : undefined}
                  >
                    <th scope="row" className={idClass}>
                      {row.id}
                      {isFresh && (
                        <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 font-sans text-[0.7rem] font-semibold text-amber-950">
                          New
                        </span>
                      )}
                    </th>
                    {columns.map((column) => (
                      <td key={column.title} className={`${cellClass} ${column.className ?? ""}`}>
                        {column.cell(row)}
                      </td>
                    ))}
                    <td className={`${cellClass} whitespace-nowrap tabular-nums`}>{whenText(row.at, now)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const JOURNAL_COLUMNS: Column<OpsJournalRow>[] = [
  { title: "Type", cell: (row) => statusText(row.type) },
  { title: "Status", cell: (row) => statusText(row.status) },
  { title: "Amount", cell: amountCell, className: "whitespace-nowrap tabular-nums" },
  { title: "Owner", cell: (row) => row.ownerId, className: "whitespace-nowrap font-mono text-xs" },
  { title: "Description", cell: (row) => row.description || "—" },
];
const PAYMENT_COLUMNS: Column<OpsPaymentRow>[] = [
  { title: "Rail", cell: (row) => row.rail },
  { title: "Status", cell: (row) => statusText(row.status) },
  { title: "Amount", cell: amountCell, className: "whitespace-nowrap tabular-nums" },
  { title: "Payer", cell: (row) => row.userId, className: "whitespace-nowrap font-mono text-xs" },
];
const KYC_COLUMNS: Column<OpsKycRow>[] = [
  { title: "Status", cell: (row) => statusText(row.status) },
  { title: "Risk", cell: (row) => (row.riskLevel ? `${row.riskLevel} (${row.riskScore})` : "Not assessed") },
  { title: "Country", cell: (row) => row.country },
  { title: "Applicant", cell: (row) => row.userId, className: "whitespace-nowrap font-mono text-xs" },
];
const BREAK_COLUMNS: Column<OpsBreakRow>[] = [
  { title: "Class", cell: (row) => breakClassText(row.class) },
  { title: "Rail", cell: (row) => row.railId },
  { title: "Status", cell: (row) => statusText(row.status) },
  { title: "Difference", cell: amountCell, className: "whitespace-nowrap tabular-nums" },
];

export interface ShownTables {
  journal: { rows: OpsJournalRow[]; total: number };
  payment: { rows: OpsPaymentRow[]; total: number };
  kyc: { rows: OpsKycRow[]; total: number };
  break: { rows: OpsBreakRow[]; total: number };
}

export function OpsTablesView({ tables, fresh, now }: { tables: ShownTables; fresh: ReadonlySet<string>; now: Date }) {
  return (
    <div className="grid gap-6">
      <LiveTable
        table="journal"
        {...tables.journal}
        fresh={fresh}
        now={now}
        columns={JOURNAL_COLUMNS}
        empty="No journal yet: transfers, deposits and payments appear here as they are written."
      />
      <LiveTable
        table="payment"
        {...tables.payment}
        fresh={fresh}
        now={now}
        columns={PAYMENT_COLUMNS}
        empty="No payment yet: each one appears when it is initiated and moves with every step."
      />
      <LiveTable
        table="kyc"
        {...tables.kyc}
        fresh={fresh}
        now={now}
        columns={KYC_COLUMNS}
        empty="No KYC submission yet."
      />
      <LiveTable
        table="break"
        {...tables.break}
        fresh={fresh}
        now={now}
        columns={BREAK_COLUMNS}
        empty="No reconciliation break is recorded."
      />
    </div>
  );
}
