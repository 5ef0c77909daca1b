import { useMemo, useRef, useState, type MouseEvent } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router-dom";
import { api } from "../api";
import type { LedgerAccount, LedgerTransaction, TransactionFilters } from "../api/types";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import { statusChangeErrorMessage, writeErrorMessage } from "./actionErrors";
import { approveAll, bulkToasts, draftsOf } from "./bulkApprove";
import { ConfirmDialog } from "./ConfirmDialog";
import { SecondApproverGate } from "./DepositApprovals";
import { exportFilename, saveFile } from "./download";
import { formatDateTime, transactionAction, typeLabel } from "./format";
import { useInvalidateLedger, useTransactionPages } from "./hooks";
import { TransactionDrawer } from "./TransactionDrawer";
import { TransactionFiltersBar } from "./TransactionFiltersBar";
import {
  dateRangeError,
  filtersFromSearch,
  filtersToSearch,
  hasFilters,
  kindLabel,
  listedAt,
  rowMovement,
  type RowMovement,
} from "./transactions";
import {
  dangerButtonClass,
  EmptyState,
  LoadError,
  SignedAmount,
  smallPrimaryButtonClass,
  Spinner,
  StatusBadge,
  subtleTextClass,
} from "./ui";

const showToast = (type: "success" | "error" | "info", message: string) => {
  if (type === "success") toast.success(message);
  else if (type === "error") toast.error(message);
  else toast(message, { icon: "ℹ️" });
};

/** The filters the server is asked with: a reversed date range is shown as an error, not sent. */
function appliedFilters(filters: TransactionFilters): TransactionFilters {
  if (!dateRangeError(filters)) return filters;
  const { from: _from, to: _to, ...rest } = filters;
  return rest;
}

/** "Approve deposit of $500.00": what a row's action acts on, for its accessible name and the dialog. */
const describe = (transaction: LedgerTransaction) =>
  `${typeLabel(transaction.type).toLowerCase()} of ${formatMoney(transaction.total_amount_minor, transaction.currency)}`;

/**
 * The transaction table (docs/product/ledger-workspace.md#transactions-tab): refresh,
 * Approve/Unpost per row (Unpost asks first), bulk approve of drafts; plus filters kept in the URL,
 * description search, paging past the first 50, CSV export of the filtered rows, and a detail
 * drawer per row.
 */
export function TransactionsTab({ accounts }: { accounts: LedgerAccount[] }) {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const applied = useMemo(() => appliedFilters(filters), [filters]);
  const pages = useTransactionPages(applied);
  const invalidate = useInvalidateLedger();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [bulkBusy, setBulkBusy] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState<LedgerTransaction | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);

  const transactions = useMemo(() => pages.data?.pages.flatMap((page) => page.data) ?? [], [pages.data]);
  const drafts = draftsOf(transactions);
  const viewAccountId = applied.account_id ?? null;
  const filtered = hasFilters(applied);

  // The URL as last written: two quick changes (from, then to) must build on each other, and the
  // router's own search params only catch up on the next render.
  const written = useRef(search);
  const seen = useRef(search);
  if (seen.current !== search) {
    // The router caught up (or back/forward moved): its params are the truth again.
    seen.current = search;
    written.current = search;
  }
  const writeFilters = (next: TransactionFilters) => {
    written.current = filtersToSearch(next, written.current);
    setSearch(written.current, { replace: true });
  };
  const changeFilters = (change: Partial<TransactionFilters>) =>
    writeFilters({ ...filtersFromSearch(written.current), ...change });
  const clearFilters = () => writeFilters({});

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
      if (operation === "unpost") setConfirming(null);
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

  const exportCsv = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      const file = await api.ledger.exportTransactions(applied);
      saveFile(file.blob, exportFilename(file.filename));
      toast.success("Export ready");
    } catch (error) {
      toast.error(writeErrorMessage(error, "Failed to export transactions"));
    } finally {
      setExporting(false);
    }
  };

  const refreshing = pages.isFetching && !pages.isPending && !pages.isFetchingNextPage;
  const opened = transactions.find((transaction) => transaction.id === openId);
  // A click anywhere on a row opens its details, except on the row's own buttons (keyboard users have Details).
  const openFromRow = (event: MouseEvent<HTMLElement>, id: string) => {
    if ((event.target as HTMLElement).closest("button, a, input, select, textarea")) return;
    setOpenId(id);
  };

  return (
    <section aria-labelledby="transactions-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="transactions-title" className="text-lg font-semibold text-slate-900 dark:text-white">
            Transactions
          </h2>
          <p className={subtleTextClass} aria-live="polite">
            {transactions.length} shown{pages.hasNextPage ? ", more to load" : ""}
            {filtered ? " (filtered)" : ""} · {drafts.length} draft{drafts.length === 1 ? "" : "s"} awaiting approval
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => void pages.refetch()}
            disabled={refreshing}
            aria-label="Refresh transactions"
          >
            {refreshing ? <Spinner label="Refreshing…" /> : "Refresh"}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => void exportCsv()} disabled={exporting}>
            {exporting ? <Spinner label="Exporting…" /> : "Export CSV"}
          </button>
          <button type="button" className={primaryButtonClass} onClick={() => void approveDrafts()} disabled={bulkBusy}>
            {bulkBusy ? <Spinner label="Approving…" /> : "Approve All Drafts"}
          </button>
        </div>
      </div>

      <TransactionFiltersBar
        filters={filters}
        accounts={accounts}
        rangeError={dateRangeError(filters)}
        onChange={changeFilters}
        onClear={clearFilters}
      />

      {pages.isError && transactions.length === 0 ? (
        <LoadError
          message={writeErrorMessage(pages.error, "Failed to load transactions")}
          onRetry={() => void pages.refetch()}
        />
      ) : pages.isPending ? (
        <p className={subtleTextClass}>
          <Spinner label="Loading transactions…" />
        </p>
      ) : transactions.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No transactions match these filters"
            action={
              <button type="button" className={secondaryButtonClass} onClick={clearFilters}>
                Clear filters
              </button>
            }
          />
        ) : (
          <EmptyState title="No transactions yet">
            Deposits, transfers and payments you make or receive appear here.
          </EmptyState>
        )
      ) : (
        <>
          {/* Phones: one card per transaction, so the actions are never scrolled out of view. */}
          <ul aria-label="Transactions list" className="space-y-3 sm:hidden">
            {transactions.map((transaction) => {
              const movement = rowMovement(transaction, accounts, viewAccountId);
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: a pointer shortcut; Details is the keyboard way.
                <li
                  key={transaction.id}
                  className="cursor-pointer rounded-2xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
                  onClick={(event) => openFromRow(event, transaction.id)}
                >
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <p className="font-semibold text-slate-900 dark:text-white">{kindLabel(transaction)}</p>
                      <p className="truncate text-sm text-slate-700 dark:text-slate-300">{transaction.description}</p>
                      <p className="truncate text-xs text-slate-600 dark:text-slate-400">{movement.accounts}</p>
                      <p className="truncate text-xs text-slate-600 dark:text-slate-400">{movement.counterparty}</p>
                      <p className="text-xs text-slate-600 dark:text-slate-400">
                        {formatDateTime(listedAt(transaction))}
                      </p>
                    </div>
                    <div className="shrink-0 text-right">
                      <p className="font-semibold">
                        <SignedAmount minor={movement.minor} signed={movement.signed} currency={transaction.currency} />
                      </p>
                      <FeeNote movement={movement} currency={transaction.currency} />
                      <StatusBadge status={transaction.status} />
                    </div>
                  </div>
                  <div className="mt-3 flex justify-end gap-2">
                    <DetailsButton transaction={transaction} onOpen={setOpenId} />
                    <RowAction
                      transaction={transaction}
                      pending={busy.has(transaction.id)}
                      onApprove={changeStatus}
                      onUnpost={setConfirming}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
          <div className="hidden overflow-x-auto rounded-2xl border border-slate-200 sm:block dark:border-slate-800">
            <table className="w-full min-w-[60rem] text-left text-sm">
              <caption className="sr-only">Your transactions, newest first</caption>
              <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-900 dark:text-slate-400">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Date
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Description
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Account
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Counterparty
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Type
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 bg-white dark:divide-slate-800 dark:bg-slate-950">
                {transactions.map((transaction) => {
                  const movement = rowMovement(transaction, accounts, viewAccountId);
                  return (
                    <tr
                      key={transaction.id}
                      data-transaction-id={transaction.id}
                      className="cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-900"
                      onClick={(event) => openFromRow(event, transaction.id)}
                    >
                      <td className="whitespace-nowrap px-4 py-3 text-slate-700 dark:text-slate-300">
                        {formatDateTime(listedAt(transaction))}
                      </td>
                      <td
                        className="max-w-[14rem] truncate px-4 py-3 text-slate-900 dark:text-white"
                        title={transaction.description}
                      >
                        {transaction.description}
                      </td>
                      <td
                        className="max-w-[14rem] truncate px-4 py-3 text-slate-700 dark:text-slate-300"
                        title={movement.accounts}
                      >
                        {movement.accounts}
                      </td>
                      <td
                        className="max-w-[12rem] truncate px-4 py-3 text-slate-700 dark:text-slate-300"
                        title={movement.counterparty}
                      >
                        {movement.counterparty}
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-slate-900 dark:text-white">
                        {kindLabel(transaction)}
                      </td>
                      <td className="px-4 py-3">
                        <StatusBadge status={transaction.status} />
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-right font-semibold">
                        <SignedAmount minor={movement.minor} signed={movement.signed} currency={transaction.currency} />
                        <FeeNote movement={movement} currency={transaction.currency} />
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex justify-end gap-2">
                          <DetailsButton transaction={transaction} onOpen={setOpenId} />
                          <RowAction
                            transaction={transaction}
                            pending={busy.has(transaction.id)}
                            onApprove={changeStatus}
                            onUnpost={setConfirming}
                          />
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {pages.hasNextPage && (
            <div className="flex justify-center">
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => void pages.fetchNextPage()}
                disabled={pages.isFetchingNextPage}
              >
                {pages.isFetchingNextPage ? <Spinner label="Loading more…" /> : "Load more transactions"}
              </button>
            </div>
          )}
        </>
      )}

      {confirming && (
        <ConfirmDialog
          title={`Unpost this ${typeLabel(confirming.type).toLowerCase()}?`}
          confirmLabel="Unpost"
          busyLabel="Unposting…"
          busy={busy.has(confirming.id)}
          onConfirm={() => void changeStatus(confirming, "unpost")}
          onCancel={() => setConfirming(null)}
        >
          <p>
            Unposting reverses the posted entry of this {describe(confirming)}: its amounts go back to pending, and the
            balances change now.
          </p>
          <p>It becomes a draft again, which you can approve later.</p>
        </ConfirmDialog>
      )}
      {openId && <TransactionDrawer transactionId={openId} shown={opened} onClose={() => setOpenId(null)} />}
    </section>
  );
}

/**
 * "incl. $0.02 fee" under a payment's amount to someone else, "+ $0.02 fee" beside a move between
 * own accounts: the fee is shown as what it is, not as the row's amount.
 */
function FeeNote({ movement, currency }: { movement: RowMovement; currency: LedgerTransaction["currency"] }) {
  if (movement.feeMinor <= 0) return null;
  const fee = formatMoney(movement.feeMinor, currency);
  return (
    <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
      {movement.signed ? `incl. ${fee} fee` : `+ ${fee} fee`}
    </span>
  );
}

function DetailsButton({ transaction, onOpen }: { transaction: LedgerTransaction; onOpen: (id: string) => void }) {
  return (
    <button
      type="button"
      className="inline-flex items-center rounded-lg px-3 py-1.5 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800"
      onClick={() => onOpen(transaction.id)}
      aria-label={`Details of ${describe(transaction)}`}
    >
      Details
    </button>
  );
}

/**
 * Approve for a draft, Unpost (after a confirmation) for a posted transaction; named with what it
 * acts on. A payment's hold and a voided journal get no action, and say why.
 */
function RowAction({
  transaction,
  pending,
  onApprove,
  onUnpost,
}: {
  transaction: LedgerTransaction;
  pending: boolean;
  onApprove: (transaction: LedgerTransaction, operation: "post") => Promise<void>;
  onUnpost: (transaction: LedgerTransaction) => void;
}) {
  const action = transactionAction(transaction);
  if (action === null) {
    if (transaction.incoming) return <span className={subtleTextClass}>Received</span>;
    return (
      <span className={subtleTextClass}>
        {transaction.type.toLowerCase() === "payment" ? "Settled by its payment" : "Final"}
      </span>
    );
  }
  if (action === "approve") {
    return (
      <SecondApproverGate transaction={transaction}>
        <button
          type="button"
          className={smallPrimaryButtonClass}
          disabled={pending}
          onClick={() => void onApprove(transaction, "post")}
          aria-label={`Approve ${describe(transaction)}`}
        >
          {pending ? <Spinner label="Approving…" /> : "Approve"}
        </button>
      </SecondApproverGate>
    );
  }
  return (
    <button
      type="button"
      className={dangerButtonClass}
      disabled={pending}
      onClick={() => onUnpost(transaction)}
      aria-label={`Unpost ${describe(transaction)}`}
    >
      {pending ? <Spinner label="Unposting…" /> : "Unpost"}
    </button>
  );
}
