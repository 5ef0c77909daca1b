import type { ReactNode } from "react";
import type { Currency } from "@fintech/core/money/model";
import type { LedgerAccount, LedgerTransaction, Paged } from "../api/types";
import { linkButtonClass } from "../components/styles";
import { formatDateTime, transactionTitle } from "./format";
import type { CurrencyTotals } from "./money";
import { balanceShares, overviewStats } from "./overview";
import type { LedgerMode } from "./tabs";
import { kindLabel, listedAt, rowMovement } from "./transactions";
import {
  AccountLine,
  cardClass,
  EmptyState,
  errorTextClass,
  Money,
  sectionTitleClass,
  SignedAmount,
  StatusBadge,
  subtleTextClass,
} from "./ui";

interface OverviewTabProps {
  accounts: LedgerAccount[];
  history: Paged<LedgerTransaction> | undefined;
  /** The history could not be read: the activity list says so instead of "No transactions yet". */
  historyFailed?: boolean;
  onAction: (mode: LedgerMode) => void;
  onOpenAccount: (accountId: string) => void;
  onShowAccounts: () => void;
  onShowTransactions: () => void;
}

const QUICK_ACTIONS: { mode: LedgerMode; label: string; hint: string; icon: string }[] = [
  { mode: "account", label: "Connect Account", hint: "Link a bank or add one by hand", icon: "M12 5v14M5 12h14" },
  {
    mode: "transfer",
    label: "Transfer Funds",
    hint: "Move money between your accounts",
    icon: "M4 8h13l-3-3M20 16H7l3 3",
  },
  {
    mode: "deposit",
    label: "Make Deposit",
    hint: "Add funds or a test balance",
    icon: "M12 4v11m0 0-4-4m4 4 4-4M5 20h14",
  },
];

const SHARE_COLOURS = ["bg-indigo-500", "bg-emerald-500", "bg-amber-500", "bg-sky-500", "bg-rose-500", "bg-violet-500"];

export function OverviewTab({
  accounts,
  history,
  historyFailed = false,
  onAction,
  onOpenAccount,
  onShowAccounts,
  onShowTransactions,
}: OverviewTabProps) {
  const stats = overviewStats(accounts, history);

  return (
    <div className="space-y-6">
      <section aria-labelledby="quick-actions-title">
        <h2 id="quick-actions-title" className="sr-only">
          Quick actions
        </h2>
        <div className="grid gap-3 sm:grid-cols-3">
          {QUICK_ACTIONS.map((action) => (
            <button
              key={action.mode}
              type="button"
              onClick={() => onAction(action.mode)}
              className="group flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 text-left shadow-sm hover:border-indigo-400 hover:shadow dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500 motion-safe:transition"
            >
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-indigo-600 text-white dark:bg-indigo-500 dark:text-slate-950">
                <svg
                  viewBox="0 0 24 24"
                  width="20"
                  height="20"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                  aria-hidden="true"
                >
                  <path d={action.icon} />
                </svg>
              </span>
              <span>
                <span className="block font-semibold text-slate-900 dark:text-white">{action.label}</span>
                <span className="block text-sm text-slate-600 dark:text-slate-400">{action.hint}</span>
              </span>
            </button>
          ))}
        </div>
      </section>

      <section aria-labelledby="stats-title">
        <h2 id="stats-title" className="sr-only">
          Key figures
        </h2>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatTile label="Total balance">
            <CurrencyLines
              lines={stats.currencies.map((total) => ({ currency: total.currency, minor: total.balance }))}
            />
          </StatTile>
          <StatTile label="Available">
            <CurrencyLines
              lines={stats.currencies.map((total) => ({ currency: total.currency, minor: total.available }))}
            />
          </StatTile>
          <StatTile label="Pending">
            <ul className="space-y-0.5">
              {withZero(stats.currencies).map((total) => (
                <li key={total.currency} className="text-base">
                  <span className="text-emerald-700 dark:text-emerald-300">
                    in <Money minor={total.pendingIn} currency={total.currency} />
                  </span>
                  <br />
                  <span className="text-red-700 dark:text-red-300">
                    out <Money minor={total.pendingOut} currency={total.currency} />
                  </span>
                </li>
              ))}
            </ul>
          </StatTile>
          <StatTile label="Accounts / transactions">
            <span className="tabular-nums">
              {stats.accountCount} / {stats.transactionCount}
              {stats.moreTransactions ? "+" : ""}
            </span>
            <span className="mt-1 block text-sm font-medium text-amber-800 dark:text-amber-200">
              {stats.drafts} awaiting approval
            </span>
          </StatTile>
        </dl>
      </section>

      <div className="grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="portfolio-title" className={`${cardClass} min-w-0 lg:col-span-1`}>
          <h2 id="portfolio-title" className={sectionTitleClass}>
            Portfolio balance
          </h2>
          {stats.currencies.length === 0 ? (
            <p className={`mt-3 ${subtleTextClass}`}>Connect an account to see your portfolio.</p>
          ) : (
            <div className="mt-3 space-y-5">
              {stats.currencies.map((total) => (
                <div key={total.currency}>
                  <p className="text-3xl font-bold text-slate-900 dark:text-white">
                    <Money minor={total.balance} currency={total.currency} />
                  </p>
                  <p className={subtleTextClass}>
                    {total.accounts} {total.accounts === 1 ? "account" : "accounts"} · available{" "}
                    <Money minor={total.available} currency={total.currency} />
                  </p>
                  <ShareBar accounts={accounts} currency={total.currency} />
                </div>
              ))}
            </div>
          )}
        </section>

        <section aria-labelledby="recent-title" className={`${cardClass} min-w-0`}>
          <div className="flex items-center justify-between gap-2">
            <h2 id="recent-title" className={sectionTitleClass}>
              Recent activity
            </h2>
            <button type="button" className={`text-sm ${linkButtonClass}`} onClick={onShowTransactions}>
              View all
            </button>
          </div>
          {historyFailed ? (
            <p className={`mt-3 ${errorTextClass}`}>Could not load your transactions.</p>
          ) : stats.recent.length === 0 ? (
            <p className={`mt-3 ${subtleTextClass}`}>No transactions yet.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
              {stats.recent.map((transaction) => (
                <li key={transaction.id} className="flex items-start justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900 dark:text-white">
                      {transaction.incoming ? `From ${transaction.counterparty}` : transactionTitle(transaction)}
                    </p>
                    <p className="text-xs text-slate-600 dark:text-slate-400">
                      {kindLabel(transaction)} · {formatDateTime(listedAt(transaction))}
                    </p>
                  </div>
                  <div className="shrink-0 text-right">
                    <p className="font-semibold">
                      <RecentAmount transaction={transaction} accounts={accounts} />
                    </p>
                    <StatusBadge status={transaction.status} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="summary-title" className={`${cardClass} min-w-0`}>
          <div className="flex items-center justify-between gap-2">
            <h2 id="summary-title" className={sectionTitleClass}>
              Account summary
            </h2>
            <button type="button" className={`text-sm ${linkButtonClass}`} onClick={onShowAccounts}>
              All accounts
            </button>
          </div>
          {stats.summary.length === 0 ? (
            <div className="mt-3">
              <EmptyState title="No accounts yet">Use Connect Account to add your first one.</EmptyState>
            </div>
          ) : (
            <ul className="mt-3 space-y-2">
              {stats.summary.map((account) => (
                <li key={account.id}>
                  <button
                    type="button"
                    onClick={() => onOpenAccount(account.id)}
                    className="flex w-full items-center justify-between gap-3 rounded-xl border border-slate-200 p-3 text-left hover:border-indigo-400 dark:border-slate-800 dark:hover:border-indigo-500"
                  >
                    <AccountLine account={account} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

function RecentAmount({ transaction, accounts }: { transaction: LedgerTransaction; accounts: LedgerAccount[] }) {
  const movement = rowMovement(transaction, accounts);
  return <SignedAmount minor={movement.minor} signed={movement.signed} currency={transaction.currency} />;
}

function StatTile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={`${cardClass} p-4`}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-2 text-xl font-bold text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

/** With no accounts yet a figure is $0.00, not "-" (USD: the default currency of a new account). */
function withZero(totals: CurrencyTotals[]): CurrencyTotals[] {
  return totals.length > 0
    ? totals
    : [{ currency: "USD", accounts: 0, balance: 0, available: 0, pendingIn: 0, pendingOut: 0 }];
}

function CurrencyLines({ lines }: { lines: { currency: Currency; minor: number }[] }) {
  const shown = lines.length > 0 ? lines : [{ currency: "USD" as const, minor: 0 }];
  return (
    <ul className="space-y-0.5">
      {shown.map((line) => (
        <li key={line.currency}>
          <Money minor={line.minor} currency={line.currency} />
        </li>
      ))}
    </ul>
  );
}

/** Each account's share of the currency's balance, as a bar and a legend. */
function ShareBar({ accounts, currency }: { accounts: LedgerAccount[]; currency: string }) {
  const shares = balanceShares(accounts, currency).filter((share) => share.percent > 0);
  if (shares.length === 0) return null;
  return (
    <div className="mt-3">
      <div className="flex h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
        {shares.map((share, index) => (
          <span
            key={share.account.id}
            className={SHARE_COLOURS[index % SHARE_COLOURS.length]}
            style={{ width: `${share.percent}%` }}
          />
        ))}
      </div>
      <ul className="mt-2 space-y-1 text-xs text-slate-700 dark:text-slate-300">
        {shares.map((share, index) => (
          <li key={share.account.id} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`h-2 w-2 rounded-full ${SHARE_COLOURS[index % SHARE_COLOURS.length]}`}
            />
            <span className="min-w-0 truncate">{share.account.name}</span>
            <span className="ml-auto tabular-nums">{share.percent.toFixed(0)}%</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
