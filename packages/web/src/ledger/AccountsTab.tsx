import { useState, type FormEvent } from "react";
import type { LedgerAccount } from "../api/types";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { balanceLookupError, writeErrorMessage } from "./actionErrors";
import {
  formatDate,
  formatDateTime,
  humanize,
  isoToLocalInput,
  localInputToIso,
  transactionTitle,
  typeLabel,
} from "./format";
import { useAccountTransactions, useBalanceAt } from "./hooks";
import { minorOf } from "./money";
import { rowMovement } from "./transactions";
import { CreditShardsChip, SpreadCreditsButton } from "./CreditShards";
import { ReconcileDialog } from "./ReconcileDialog";
import { ThresholdForm } from "./ThresholdForm";
import {
  AccountLine,
  cardClass,
  EmptyState,
  errorTextClass,
  Figure,
  isLocked,
  LockedBadge,
  Money,
  sectionTitleClass,
  SignedAmount,
  Spinner,
  StatusBadge,
  subtleTextClass,
} from "./ui";

interface AccountsTabProps {
  accounts: LedgerAccount[];
  selectedId: string | null;
  onSelect: (accountId: string) => void;
  onConnect: () => void;
  onTransfer: (accountId: string) => void;
  onDeposit: (accountId: string) => void;
}

/** The account list with a detail pane (docs/product/ledger-workspace.md#accounts-tab). */
export function AccountsTab({ accounts, selectedId, onSelect, onConnect, onTransfer, onDeposit }: AccountsTabProps) {
  if (accounts.length === 0) {
    return (
      <EmptyState
        title="No accounts yet"
        action={
          <button type="button" className={primaryButtonClass} onClick={onConnect}>
            Connect Account
          </button>
        }
      >
        Connect a bank account or enter one by hand to start using the ledger.
      </EmptyState>
    );
  }
  const selected = accounts.find((account) => account.id === selectedId) ?? accounts[0]!;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
      <section aria-labelledby="account-list-title" className="min-w-0">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id="account-list-title" className={sectionTitleClass}>
            Your accounts{" "}
            <span className="text-sm font-normal text-slate-500 dark:text-slate-400">({accounts.length})</span>
          </h2>
          <button type="button" className={`${secondaryButtonClass} px-3 py-1.5`} onClick={onConnect}>
            Connect Account
          </button>
        </div>
        <ul className="space-y-2">
          {accounts.map((account) => {
            const current = account.id === selected.id;
            return (
              <li key={account.id}>
                <button
                  type="button"
                  aria-current={current ? "true" : undefined}
                  onClick={() => onSelect(account.id)}
                  className={`flex w-full items-center justify-between gap-3 rounded-xl border p-3 text-left motion-safe:transition-colors ${
                    current
                      ? "border-indigo-500 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/50"
                      : "border-slate-200 bg-white hover:border-indigo-300 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-600"
                  }`}
                >
                  <AccountLine account={account} />
                </button>
              </li>
            );
          })}
        </ul>
      </section>
      <AccountDetail
        key={selected.id}
        account={selected}
        onTransfer={() => onTransfer(selected.id)}
        onDeposit={() => onDeposit(selected.id)}
      />
    </div>
  );
}

function AccountDetail({
  account,
  onTransfer,
  onDeposit,
}: {
  account: LedgerAccount;
  onTransfer: () => void;
  onDeposit: () => void;
}) {
  const currency = account.currency;
  const minor = (text: string) => minorOf(text, currency);
  const transactions = useAccountTransactions(account.id);
  const [reconciling, setReconciling] = useState(false);
  const locked = isLocked(account);
  return (
    <section aria-labelledby="account-detail-title" className={`${cardClass} min-w-0`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="account-detail-title" className="truncate text-xl font-bold text-slate-900 dark:text-white">
            {account.name}
          </h2>
          <p className="font-mono text-sm text-slate-600 dark:text-slate-400">{account.account_number}</p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {typeLabel(account.type)} · {account.currency} · {humanize(account.status)} · opened{" "}
            {formatDate(account.created_at)}
          </p>
          {account.description && <p className={`mt-2 ${subtleTextClass}`}>{account.description}</p>}
          <CreditShardsChip account={account} className="mt-2" />
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={primaryButtonClass} onClick={onTransfer}>
            Transfer
          </button>
          <button type="button" className={secondaryButtonClass} onClick={onDeposit}>
            Deposit
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setReconciling(true)}>
            Reconcile
          </button>
          <SpreadCreditsButton account={account} />
        </div>
      </div>

      {locked && (
        <div className="mt-4 flex flex-wrap items-start gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm dark:border-red-900 dark:bg-red-950/60">
          <LockedBadge />
          <p className="min-w-0 flex-1 text-red-800 dark:text-red-200">
            {account.lock_reason ? `${account.lock_reason}. ` : ""}Money can still come in; transfers out of this
            account are refused until it is unlocked.
          </p>
        </div>
      )}
      {reconciling && <ReconcileDialog account={account} onClose={() => setReconciling(false)} />}

      <dl className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Figure label="Balance">
          <Money minor={account.balance_minor} currency={currency} />
        </Figure>
        <Figure label="Available">
          <Money minor={account.available_minor} currency={currency} />
        </Figure>
        <Figure label="Pending in">
          <Money minor={minor(account.pending_in)} currency={currency} />
        </Figure>
        <Figure label="Pending out">
          <Money minor={minor(account.pending_out)} currency={currency} />
        </Figure>
      </dl>

      <BalanceLookup account={account} />
      <ThresholdForm account={account} />

      <div className="mt-6">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Latest transactions</h3>
        {transactions.isPending ? (
          <p className={`mt-2 ${subtleTextClass}`}>
            <Spinner label="Loading…" />
          </p>
        ) : transactions.isError ? (
          <p className={`mt-2 ${errorTextClass}`}>
            {writeErrorMessage(transactions.error, "Failed to load transactions")}
          </p>
        ) : transactions.data.data.length === 0 ? (
          <p className={`mt-2 ${subtleTextClass}`}>No transactions on this account yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
            {transactions.data.data.map((transaction) => {
              const movement = rowMovement(transaction, [account], account.id);
              return (
                <li key={transaction.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                  <span className="min-w-0">
                    <span className="block truncate text-slate-900 dark:text-white">
                      {transactionTitle(transaction)}
                    </span>
                    <span className="text-xs text-slate-600 dark:text-slate-400">
                      {formatDateTime(transaction.created_at)}
                    </span>
                  </span>
                  <span className="flex shrink-0 items-center gap-2">
                    <span className="font-semibold">
                      <SignedAmount minor={movement.minor} signed={movement.signed} currency={transaction.currency} />
                    </span>
                    <StatusBadge status={transaction.status} />
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Point-in-time balance: GET .../balance?as_of=ISO. */
function BalanceLookup({ account }: { account: LedgerAccount }) {
  const [value, setValue] = useState(() => isoToLocalInput(new Date()));
  const [asOf, setAsOf] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const lookup = useBalanceAt(account.id, asOf);
  const inputId = `as-of-${account.id}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const iso = localInputToIso(value);
    if (!iso) {
      setInputError("Enter a date and time");
      return;
    }
    setInputError(null);
    setAsOf(iso);
  };

  return (
    <form
      onSubmit={submit}
      className="mt-6 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
      aria-labelledby={`${inputId}-title`}
    >
      <h3 id={`${inputId}-title`} className="text-sm font-semibold text-slate-900 dark:text-white">
        Balance at a point in time
      </h3>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <div className="min-w-[14rem] flex-1">
          <label htmlFor={inputId} className={labelClass}>
            Date and time
          </label>
          <input
            id={inputId}
            type="datetime-local"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={inputError ? true : undefined}
            aria-describedby={inputError ? `${inputId}-error` : undefined}
            className={inputClass}
          />
        </div>
        <button type="submit" className={secondaryButtonClass} disabled={lookup.isFetching}>
          {lookup.isFetching ? <Spinner label="Looking up…" /> : "Look up balance"}
        </button>
      </div>
      <div aria-live="polite" className="mt-3">
        {inputError && (
          <p id={`${inputId}-error`} role="alert" className={errorTextClass}>
            {inputError}
          </p>
        )}
        {!inputError && asOf && lookup.isError && (
          <p role="alert" className={errorTextClass}>
            {balanceLookupError(lookup.error, asOf, account.created_at)}
          </p>
        )}
        {!inputError && asOf && lookup.data && (
          <div>
            <p className={subtleTextClass}>As of {formatDateTime(lookup.data.as_of)}:</p>
            <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
              <Figure label="Balance then">
                <Money minor={lookup.data.balance_minor} currency={lookup.data.currency} />
              </Figure>
              <Figure label="Available then">
                <Money minor={lookup.data.available_minor} currency={lookup.data.currency} />
              </Figure>
              <Figure label="Pending in then">
                <Money minor={minorOf(lookup.data.pending_in, lookup.data.currency)} currency={lookup.data.currency} />
              </Figure>
              <Figure label="Pending out then">
                <Money minor={minorOf(lookup.data.pending_out, lookup.data.currency)} currency={lookup.data.currency} />
              </Figure>
            </dl>
          </div>
        )}
      </div>
    </form>
  );
}
