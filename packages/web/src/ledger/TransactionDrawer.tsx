import { useId } from "react";
import toast from "react-hot-toast";
import type { LedgerTransaction } from "../api/types";
import { Dialog } from "../components/Dialog";
import { CloseIcon } from "../components/icons";
import { iconButtonClass, secondaryButtonClass } from "../components/styles";
import { formatMoney } from "../lib/money";
import { writeErrorMessage } from "./actionErrors";
import { useTransaction } from "./hooks";
import { actorName, formatLocalDateTime, kindLabel, legOwnerLabel, legsOf, operationLabel } from "./transactions";
import { errorTextClass, Spinner, StatusBadge, subtleTextClass } from "./ui";

interface TransactionDrawerProps {
  transactionId: string;
  /** The row as the list showed it, so the drawer has content before the detail reply. */
  shown: LedgerTransaction | undefined;
  onClose: () => void;
}

const cellClass = "px-3 py-2";
const sectionHeadingClass = "text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400";

/**
 * One transaction in full, as an accessible modal dialog: its double-entry legs (account, debit,
 * credit, with totals that balance), its status history (who, when, in the viewer's locale) and
 * the idempotency key of the request that created it, which can be copied.
 */
export function TransactionDrawer({ transactionId, shown, onClose }: TransactionDrawerProps) {
  const titleId = useId();
  const detail = useTransaction(transactionId, shown);
  const transaction = detail.data;

  return (
    <Dialog labelledBy={titleId} onClose={onClose}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-bold">
            Transaction details
          </h2>
          {transaction && (
            <p className={subtleTextClass}>
              {kindLabel(transaction)} · {formatMoney(transaction.total_amount_minor, transaction.currency)} ·{" "}
              <StatusBadge status={transaction.status} />
            </p>
          )}
        </div>
        <button type="button" className={iconButtonClass} onClick={onClose} aria-label="Close transaction details">
          <CloseIcon width="18" height="18" />
        </button>
      </div>

      {detail.isError && !transaction ? (
        <p role="alert" className={`mt-4 ${errorTextClass}`}>
          {writeErrorMessage(detail.error, "Failed to load the transaction")}
        </p>
      ) : !transaction ? (
        <p className={`mt-4 ${subtleTextClass}`}>
          <Spinner label="Loading…" />
        </p>
      ) : (
        <TransactionDetail transaction={transaction} />
      )}
    </Dialog>
  );
}

function TransactionDetail({ transaction }: { transaction: LedgerTransaction }) {
  const { legs, debitTotal, creditTotal, balanced } = legsOf(transaction);
  const money = (minor: number) => formatMoney(minor, transaction.currency);
  const key = transaction.idempotency_key;

  const copyKey = async () => {
    if (!key) return;
    try {
      await navigator.clipboard.writeText(key);
      toast.success("Idempotency key copied");
    } catch {
      toast.error("Could not copy; select the key and copy it");
    }
  };

  return (
    <div className="mt-4 space-y-5">
      {transaction.description && (
        <p className="break-words text-sm text-slate-800 dark:text-slate-200">{transaction.description}</p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className={subtleTextClass}>
          {transaction.incoming ? "From" : transaction.type === "payment" ? "Paid to" : "Counterparty"}
        </dt>
        <dd className="min-w-0 break-words font-medium">{transaction.counterparty}</dd>
        {transaction.fee_minor ? (
          <>
            <dt className={subtleTextClass}>Fee</dt>
            <dd className="tabular-nums">
              {money(transaction.fee_minor)}{" "}
              <span className={subtleTextClass}>(included in {money(transaction.total_amount_minor)})</span>
            </dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="legs-title">
        <h3 id="legs-title" className={sectionHeadingClass}>
          Entries
        </h3>
        <div className="mt-2 overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-700">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Double-entry legs of this transaction</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300">
              <tr>
                <th scope="col" className={cellClass}>
                  Account
                </th>
                <th scope="col" className={`${cellClass} text-right`}>
                  Debit
                </th>
                <th scope="col" className={`${cellClass} text-right`}>
                  Credit
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
              {legs.map((leg) => (
                <tr key={`${leg.accountId}-${leg.debitMinor}-${leg.creditMinor}`}>
                  <th scope="row" className={`${cellClass} font-medium`}>
                    <span className="block">{leg.name}</span>
                    <span className="block font-mono text-xs font-normal text-slate-600 dark:text-slate-400">
                      {legOwnerLabel(leg)}
                    </span>
                  </th>
                  <td className={`${cellClass} text-right tabular-nums`}>
                    {leg.debitMinor ? money(leg.debitMinor) : ""}
                  </td>
                  <td className={`${cellClass} text-right tabular-nums`}>
                    {leg.creditMinor ? money(leg.creditMinor) : ""}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t-2 border-slate-300 font-semibold dark:border-slate-600">
              <tr>
                <th scope="row" className={cellClass}>
                  Total{balanced ? "" : " (does not balance)"}
                </th>
                <td className={`${cellClass} text-right tabular-nums`}>{money(debitTotal)}</td>
                <td className={`${cellClass} text-right tabular-nums`}>{money(creditTotal)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>

      <section aria-labelledby="history-title">
        <h3 id="history-title" className={sectionHeadingClass}>
          Status history
        </h3>
        <ol className="mt-2 space-y-2 text-sm">
          {transaction.history.map((record, index) => (
            <li key={`${record.at}-${index}`} className="flex flex-wrap justify-between gap-x-3">
              <span>
                <span className="font-semibold">{operationLabel(record.operation)}</span> by{" "}
                {actorName(record, transaction.type)}
              </span>
              <time dateTime={record.at} className="text-slate-600 dark:text-slate-400">
                {formatLocalDateTime(record.at)}
              </time>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="key-title">
        <h3 id="key-title" className={sectionHeadingClass}>
          Idempotency key
        </h3>
        {key ? (
          <div className="mt-2 flex items-center gap-2">
            <code className="min-w-0 flex-1 select-all break-all rounded-lg bg-slate-100 px-2 py-1.5 font-mono text-xs text-slate-900 dark:bg-slate-800 dark:text-slate-100">
              {key}
            </code>
            <button
              type="button"
              className={`${secondaryButtonClass} px-3 py-1.5`}
              onClick={() => void copyKey()}
              aria-label="Copy idempotency key"
            >
              Copy
            </button>
          </div>
        ) : transaction.incoming ? (
          <p className={`mt-2 ${subtleTextClass}`}>The payer's own: a request key is never shown to the payee.</p>
        ) : (
          <p className={`mt-2 ${subtleTextClass}`}>None was sent with this request.</p>
        )}
      </section>

      <p className="font-mono text-xs text-slate-600 dark:text-slate-400">Reference {transaction.id}</p>
    </div>
  );
}
