import {
  BREAK_CLASSES,
  BREAK_STATUSES,
  type BreakClass,
  type BreakStatus,
  type ReconciliationBreak,
} from "@fintech/core/reconciliation/model";
import { useId, useState } from "react";
import { errorMessage } from "../api/errors";
import { inputClass, labelClass, secondaryButtonClass } from "../components/styles";
import { cardClass, EmptyState, LoadError, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { formatMoney } from "../lib/money";
import { useRails } from "../rails/hooks";
import { BreakDialog } from "./BreakDialog";
import { breakClassLabel } from "./format";
import { BREAKS_PAGE, useBreaks } from "./hooks";

const headClass =
  "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300";
const cellClass = "px-3 py-2 align-top text-sm text-slate-800 dark:text-slate-100";

const STATUS_LABELS: Record<BreakStatus, string> = { open: "Open", resolved: "Resolved" };

const amount = (value: string | null, currency: string | null) =>
  value === null || currency === null ? "—" : formatMoney(value, currency);

/** How a resolved break was closed, in words. */
function resolutionText(entry: ReconciliationBreak): string {
  const resolution = entry.resolution;
  if (!resolution) return "";
  const how = resolution.action === "match" ? `Matched to ${resolution.reference ?? "a payment"}` : "Written off";
  return `${how} by ${resolution.by}: ${resolution.note}`;
}

export interface BreakFilterValues {
  class: BreakClass | "";
  status: BreakStatus | "";
  railId: string;
}

/**
 * Breaks by class with filters (class, status, rail), newest first, a page at a time. Each open
 * break offers Resolve (match by reference or write off, in a dialog), each resolved one Reopen.
 */
export function BreaksPanel() {
  const headingId = useId();
  const [filters, setFilters] = useState<BreakFilterValues>({ class: "", status: "open", railId: "" });
  const [acting, setActing] = useState<ReconciliationBreak | null>(null);
  const rails = useRails();
  const breaks = useBreaks({
    class: filters.class || undefined,
    status: filters.status || undefined,
    railId: filters.railId || undefined,
    limit: BREAKS_PAGE,
  });
  const rows = breaks.data?.pages.flatMap((page) => page.breaks) ?? [];
  const change = (next: Partial<BreakFilterValues>) => setFilters((current) => ({ ...current, ...next }));

  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`}>
      <h2 id={headingId} className={sectionTitleClass}>
        Breaks
      </h2>
      <p className={`mt-1 ${subtleTextClass}`}>
        Lines that did not reconcile, by class. Unmatched amounts sit in the rail's suspense account until a break is
        matched or written off.
      </p>
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor={`${headingId}-class`} className={labelClass}>
            Class
          </label>
          <select
            id={`${headingId}-class`}
            className={inputClass}
            value={filters.class}
            onChange={(event) => change({ class: event.target.value as BreakClass | "" })}
          >
            <option value="">All classes</option>
            {BREAK_CLASSES.map((name) => (
              <option key={name} value={name}>
                {breakClassLabel(name)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${headingId}-status`} className={labelClass}>
            Status
          </label>
          <select
            id={`${headingId}-status`}
            className={inputClass}
            value={filters.status}
            onChange={(event) => change({ status: event.target.value as BreakStatus | "" })}
          >
            <option value="">Open and resolved</option>
            {BREAK_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${headingId}-rail`} className={labelClass}>
            Rail
          </label>
          <select
            id={`${headingId}-rail`}
            className={inputClass}
            value={filters.railId}
            onChange={(event) => change({ railId: event.target.value })}
          >
            <option value="">All rails</option>
            {(rails.data ?? []).map((rail) => (
              <option key={rail.id} value={rail.id}>
                {rail.name}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="mt-4" aria-busy={breaks.data ? undefined : true}>
        {breaks.isError && !breaks.data ? (
          <LoadError
            message={errorMessage(breaks.error, "Failed to load the breaks")}
            onRetry={() => void breaks.refetch()}
          />
        ) : !breaks.data ? (
          <p className={subtleTextClass}>
            <Spinner label="Loading the breaks…" />
          </p>
        ) : rows.length === 0 ? (
          <EmptyState title="No breaks">Nothing matches these filters.</EmptyState>
        ) : (
          <div className="-mx-1 overflow-x-auto px-1">
            <table className="w-full min-w-[44rem] border-collapse">
              <caption className="sr-only">Reconciliation breaks</caption>
              <thead className="border-b border-slate-200 dark:border-slate-700">
                <tr>
                  <th scope="col" className={headClass}>
                    Class
                  </th>
                  <th scope="col" className={headClass}>
                    Rail and day
                  </th>
                  <th scope="col" className={headClass}>
                    Reference
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    File
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    Ledger
                  </th>
                  <th scope="col" className={`${headClass} text-right`}>
                    Difference
                  </th>
                  <th scope="col" className={headClass}>
                    Status
                  </th>
                  <th scope="col" className={headClass}>
                    <span className="sr-only">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {rows.map((entry) => (
                  <tr key={entry.id} data-break-id={entry.id}>
                    <th scope="row" className={`${cellClass} text-left font-medium`}>
                      {entry.classLabel}
                      {entry.line !== null && (
                        <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                          Line {entry.line}
                        </span>
                      )}
                    </th>
                    <td className={`${cellClass} whitespace-nowrap`}>
                      {entry.rail}
                      <span className="block text-xs tabular-nums text-slate-600 dark:text-slate-300">
                        {entry.date}
                      </span>
                    </td>
                    <td className={`${cellClass} break-all font-mono text-xs`}>{entry.reference ?? "—"}</td>
                    <td className={`${cellClass} whitespace-nowrap text-right tabular-nums`}>
                      {amount(entry.fileAmount, entry.currency)}
                    </td>
                    <td className={`${cellClass} whitespace-nowrap text-right tabular-nums`}>
                      {amount(entry.ledgerAmount, entry.currency)}
                    </td>
                    <td className={`${cellClass} whitespace-nowrap text-right tabular-nums`}>
                      {amount(entry.difference, entry.currency)}
                    </td>
                    <td className={cellClass}>
                      <span
                        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${
                          entry.status === "open"
                            ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
                            : "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
                        }`}
                      >
                        {STATUS_LABELS[entry.status]}
                      </span>
                      {entry.resolution && (
                        <span className="mt-1 block max-w-56 text-xs text-slate-600 dark:text-slate-300">
                          {resolutionText(entry)}
                        </span>
                      )}
                    </td>
                    <td className={cellClass}>
                      <button
                        type="button"
                        className={`${secondaryButtonClass} !px-3 !py-1`}
                        onClick={() => setActing(entry)}
                      >
                        {entry.status === "open" ? "Resolve" : "Reopen"}
                        <span className="sr-only">
                          {" "}
                          {entry.classLabel} {entry.reference ?? entry.id}
                        </span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {breaks.hasNextPage && (
          <button
            type="button"
            className={`${secondaryButtonClass} mt-3`}
            disabled={breaks.isFetchingNextPage}
            onClick={() => void breaks.fetchNextPage()}
          >
            {breaks.isFetchingNextPage ? <Spinner label="Loading more breaks…" /> : "Show more breaks"}
          </button>
        )}
      </div>
      {acting && <BreakDialog entry={acting} onClose={() => setActing(null)} />}
    </section>
  );
}
