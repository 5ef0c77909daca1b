import { useState } from "react";
import toast from "react-hot-toast";
import { api } from "../api";
import type { LedgerTransaction, Paged } from "../api/types";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { statusChangeErrorMessage } from "./actionErrors";
import { approveAll, bulkToasts, draftsOf } from "./bulkApprove";
import { formatDateTime, statusLabel, typeLabel } from "./format";
import { useInvalidateLedger } from "./hooks";
import { formatMinor } from "./money";
import { dangerButtonClass, EmptyState, smallPrimaryButtonClass, Spinner, StatusBadge, subtleTextClass } from "./ui";

interface TransactionsTabProps {
  history: Paged<LedgerTransaction> | undefined;
  loading: boolean;
  refreshing: boolean;
  onRefresh: () => void;
}

const showToast = (type: "success" | "error" | "info", message: string) => {
  if (type === "success") toast.success(message);
  else if (type === "error") toast.error(message);
  else toast(message, { icon: "ℹ️" });
};

/** The transaction table (spec 000 §2.7): refresh, Approve/Unpost per row, bulk approve of drafts. */
export function TransactionsTab({ history, loading, refreshing, onRefresh }: TransactionsTabProps) {
  const invalidate = useInvalidateLedger();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [bulkBusy, setBulkBusy] = useState(false);
  const transactions = history?.data ?? [];
  const drafts = draftsOf(transactions);

  const mark = (ids: string[], on: boolean) =>
    setBusy((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const changeStatus = async (transaction: LedgerTransaction, operation: "post" | "unpost") => {
    if (busy.has(transaction.id)) return;
    mark([transaction.id], true);
    try {
      if (operation === "post") await api.ledger.postTransaction(transaction.id);
      else await api.ledger.unpostTransaction(transaction.id);
      toast.success(operation === "post" ? "Transaction approved" : "Transaction unposted");
    } catch (error) {
      toast.error(statusChangeErrorMessage(error, operation));
    } finally {
      mark([transaction.id], false);
      await invalidate();
    }
  };

  const approveDrafts = async () => {
    if (bulkBusy) return;
    if (drafts.length === 0) {
      for (const item of bulkToasts(0, null)) showToast(item.type, item.message);
      return;
    }
    const ids = drafts.map((draft) => draft.id);
    setBulkBusy(true);
    mark(ids, true);
    try {
      const outcome = await approveAll(drafts, (id) => api.ledger.postTransaction(id));
      for (const item of bulkToasts(drafts.length, outcome)) showToast(item.type, item.message);
    } catch {
      for (const item of bulkToasts(drafts.length, null)) showToast(item.type, item.message);
    } finally {
      mark(ids, false);
      setBulkBusy(false);
      await invalidate();
    }
  };

  return (
    <section aria-labelledby="transactions-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="transactions-title" className="text-lg font-semibold text-slate-900 dark:text-white">
            Transactions
          </h2>
          <p className={subtleTextClass}>
            {transactions.length} shown{history?.pagination?.has_more ? " (latest 50)" : ""} · {drafts.length} draft
            {drafts.length === 1 ? "" : "s"} awaiting approval
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={secondaryButtonClass} onClick={onRefresh} disabled={refreshing} aria-label="Refresh transactions">
            {refreshing ? <Spinner label="Refreshing…" /> : "Refresh"}
          </button>
          <button type="button" className={primaryButtonClass} onClick={() => void approveDrafts()} disabled={bulkBusy}>
            {bulkBusy ? <Spinner label="Approving…" /> : "Approve All Drafts"}
          </button>
        </div>
      </div>

      {loading ? (
        <p className={subtleTextClass}>
          <Spinner label="Loading transactions…" />
        </p>
      ) : transactions.length === 0 ? (
        <EmptyState title="No transactions yet">Deposits, test balances and transfers you make appear here.</EmptyState>
      ) : (
        <>
          {/* Phones: one card per transaction, so the actions are never scrolled out of view. */}
          <ul aria-label="Transactions list" className="space-y-3 sm:hidden">
            {transactions.map((transaction) => (
              <li key={transaction.id} className="rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-semibold text-slate-900 dark:text-white">{typeLabel(transaction.type)}</p>
                    <p className="truncate text-sm text-slate-700 dark:text-slate-300">{transaction.description}</p>
                    <p className="text-xs text-slate-600 dark:text-slate-400">{formatDateTime(transaction.created_at)}</p>
                  </div>
                  <div className="shrink-0 text-right">
                    <p className="font-semibold tabular-nums text-slate-900 dark:text-white">
                      {formatMinor(transaction.total_amount_minor, transaction.currency)} <span className="text-xs font-medium text-slate-600 dark:text-slate-400">{transaction.currency}</span>
                    </p>
                    <StatusBadge status={statusLabel(transaction.status)} />
                  </div>
                </div>
                <div className="mt-3 flex justify-end">
                  <RowAction transaction={transaction} pending={busy.has(transaction.id)} onChange={changeStatus} />
                </div>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 sm:block dark:border-slate-800">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">Your transactions, newest first</caption>
              <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-900 dark:text-slate-400">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Type</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Status</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Amount</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Currency</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Description</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Date</th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 bg-white dark:divide-slate-800 dark:bg-slate-950">
                {transactions.map((transaction) => (
                  <tr key={transaction.id} data-transaction-id={transaction.id}>
                    <td className="px-4 py-3 font-medium text-slate-900 dark:text-white">{typeLabel(transaction.type)}</td>
                    <td className="px-4 py-3">
                      <StatusBadge status={statusLabel(transaction.status)} />
                    </td>
                    <td className="px-4 py-3 text-right font-semibold tabular-nums text-slate-900 dark:text-white">
                      {formatMinor(transaction.total_amount_minor, transaction.currency)}
                    </td>
                    <td className="px-4 py-3 text-slate-700 dark:text-slate-300">{transaction.currency}</td>
                    <td className="max-w-[16rem] truncate px-4 py-3 text-slate-700 dark:text-slate-300" title={transaction.description}>
                      {transaction.description}
                    </td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-300">{formatDateTime(transaction.created_at)}</td>
                    <td className="px-4 py-3 text-right">
                      <RowAction transaction={transaction} pending={busy.has(transaction.id)} onChange={changeStatus} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** Approve for a draft, Unpost for a posted transaction; named with what it acts on. */
function RowAction({
  transaction,
  pending,
  onChange,
}: {
  transaction: LedgerTransaction;
  pending: boolean;
  onChange: (transaction: LedgerTransaction, operation: "post" | "unpost") => Promise<void>;
}) {
  const what = `${typeLabel(transaction.type).toLowerCase()} of ${formatMinor(transaction.total_amount_minor, transaction.currency)} ${transaction.currency}`;
  if (statusLabel(transaction.status) === "draft") {
    return (
      <button type="button" className={smallPrimaryButtonClass} disabled={pending} onClick={() => void onChange(transaction, "post")} aria-label={`Approve ${what}`}>
        {pending ? <Spinner label="Approving…" /> : "Approve"}
      </button>
    );
  }
  return (
    <button type="button" className={dangerButtonClass} disabled={pending} onClick={() => void onChange(transaction, "unpost")} aria-label={`Unpost ${what}`}>
      {pending ? <Spinner label="Unposting…" /> : "Unpost"}
    </button>
  );
}
