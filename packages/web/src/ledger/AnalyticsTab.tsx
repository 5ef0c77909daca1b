import { useState, type ReactNode } from "react";
import type { AnalyticsSeries, LedgerAnalytics } from "../api/types";
import { writeErrorMessage } from "./actionErrors";
import { BalanceChart } from "./BalanceChart";
import { mostActiveCurrency, summarizeSeries } from "./chart";
import { ANALYTICS_PERIODS, DEFAULT_ANALYTICS_PERIOD, type AnalyticsPeriod } from "./constants";
import { formatDay } from "./format";
import { useAnalytics } from "./hooks";
import { formatMoney } from "../lib/money";
import { cardClass, EmptyState, LoadError, Money, sectionTitleClass, Spinner, subtleTextClass } from "./ui";

/** Balances and flows over time, from GET /api/v1/ledger/analytics. */
export function AnalyticsTab() {
  const [days, setDays] = useState<AnalyticsPeriod>(DEFAULT_ANALYTICS_PERIOD);
  const [currency, setCurrency] = useState<string | null>(null);
  const analytics = useAnalytics(days);

  return (
    <section aria-labelledby="analytics-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="analytics-title" className={sectionTitleClass}>
            Balances and flows
          </h2>
          <p className={subtleTextClass}>End-of-day figures per UTC day, from your balance history.</p>
        </div>
        <fieldset className="flex items-center gap-2">
          <legend className="sr-only">Period</legend>
          <div className="flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700">
            {ANALYTICS_PERIODS.map((period) => (
              <label
                key={period}
                className={`cursor-pointer rounded-md px-3 py-1.5 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600 dark:has-[:focus-visible]:outline-indigo-400 ${
                  days === period
                    ? "bg-indigo-600 text-white dark:bg-indigo-300 dark:text-slate-950"
                    : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                }`}
              >
                <input
                  type="radio"
                  name="analytics-period"
                  value={period}
                  checked={days === period}
                  onChange={() => setDays(period)}
                  className="sr-only"
                />
                {period} days
              </label>
            ))}
          </div>
          {analytics.isFetching && <Spinner label="Updating…" className="text-sm text-slate-600 dark:text-slate-400" />}
        </fieldset>
      </div>

      {analytics.isPending ? (
        <p className={subtleTextClass}>
          <Spinner label="Loading analytics…" />
        </p>
      ) : analytics.isError ? (
        <LoadError
          message={writeErrorMessage(analytics.error, "Failed to load analytics")}
          onRetry={() => void analytics.refetch()}
        />
      ) : analytics.data.currencies.length === 0 ? (
        <EmptyState title="No data yet">
          Connect an account and make a deposit to see your balances over time.
        </EmptyState>
      ) : (
        <AnalyticsBody data={analytics.data} currency={currency} onCurrency={setCurrency} />
      )}
    </section>
  );
}

function AnalyticsBody({
  data,
  currency,
  onCurrency,
}: {
  data: LedgerAnalytics;
  currency: string | null;
  onCurrency: (currency: string) => void;
}) {
  // Until the user picks one, the busiest currency of the period is shown.
  const selected =
    data.currencies.find((item) => item.currency === currency) ??
    mostActiveCurrency(data.currencies) ??
    data.currencies[0]!;
  const accounts = data.accounts.filter((account) => account.currency === selected.currency);
  const summary = summarizeSeries(selected);
  const label = `${selected.currency} balance and flows over ${data.days} days`;

  return (
    <div className="space-y-4">
      {data.currencies.length > 1 && (
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">Currency</legend>
          <div className="flex flex-wrap gap-2">
            {data.currencies.map((item) => (
              <label
                key={item.currency}
                className={`cursor-pointer rounded-full border px-3 py-1 text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600 ${
                  item.currency === selected.currency
                    ? "border-indigo-600 bg-indigo-600 text-white dark:border-indigo-300 dark:bg-indigo-300 dark:text-slate-950"
                    : "border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800"
                }`}
              >
                <input
                  type="radio"
                  name="analytics-currency"
                  value={item.currency}
                  checked={item.currency === selected.currency}
                  onChange={() => onCurrency(item.currency)}
                  className="sr-only"
                />
                {item.currency}
              </label>
            ))}
          </div>
        </fieldset>
      )}

      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <SummaryTile label={`Balance on ${formatDay(data.to)}`}>
          <Money minor={summary.closing} currency={selected.currency} />
        </SummaryTile>
        <SummaryTile label="Change over the period">
          <Money minor={summary.closing - summary.opening} currency={selected.currency} signed />
        </SummaryTile>
        <SummaryTile label="Posted in / out">
          <span className="text-emerald-700 dark:text-emerald-300">
            {formatMoney(summary.inflowPosted, selected.currency)}
          </span>
          {" / "}
          <span className="text-red-700 dark:text-red-300">
            {formatMoney(summary.outflowPosted, selected.currency)}
          </span>
        </SummaryTile>
        <SummaryTile label="New entries">{summary.transactions}</SummaryTile>
      </dl>

      <div className={cardClass}>
        <BalanceChart series={selected} label={label} />
      </div>

      <AccountBreakdown accounts={accounts} />

      <details className={`${cardClass} p-0`}>
        <summary className="cursor-pointer rounded-2xl px-5 py-3 text-sm font-semibold text-slate-900 dark:text-white">
          Daily figures as a table
        </summary>
        <DayTable series={selected} caption={label} />
      </details>
    </div>
  );
}

function SummaryTile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={`${cardClass} p-4`}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-lg font-bold text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

function AccountBreakdown({ accounts }: { accounts: (AnalyticsSeries & { account_id: string; name: string })[] }) {
  return (
    // Scrolls sideways on a phone (the page itself never does); focusable so keyboards can scroll it too.
    <div
      role="region"
      aria-label="Per account figures"
      tabIndex={0}
      className="max-w-full overflow-x-auto rounded-2xl border border-slate-200 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-800"
    >
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="px-4 pt-3 text-left text-sm font-semibold text-slate-900 dark:text-white">
          Per account
        </caption>
        <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-4 py-2">
              Account
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Opening
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Posted in
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Posted out
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Closing
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {accounts.map((account) => {
            const summary = summarizeSeries(account);
            return (
              <tr key={account.account_id}>
                <th scope="row" className="px-4 py-2 font-medium text-slate-900 dark:text-white">
                  {account.name}
                </th>
                <td className="px-4 py-2 text-right tabular-nums">{formatMoney(summary.opening, account.currency)}</td>
                <td className="px-4 py-2 text-right tabular-nums text-emerald-700 dark:text-emerald-300">
                  {formatMoney(summary.inflowPosted, account.currency)}
                </td>
                <td className="px-4 py-2 text-right tabular-nums text-red-700 dark:text-red-300">
                  {formatMoney(summary.outflowPosted, account.currency)}
                </td>
                <td className="px-4 py-2 text-right font-semibold tabular-nums text-slate-900 dark:text-white">
                  {formatMoney(summary.closing, account.currency)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function DayTable({ series, caption }: { series: AnalyticsSeries; caption: string }) {
  const money = (minor: number) => formatMoney(minor, series.currency);
  return (
    <div
      role="region"
      aria-label="Daily figures"
      tabIndex={0}
      className="max-h-96 overflow-auto border-t border-slate-200 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-800"
    >
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-white text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-4 py-2">
              Date (UTC)
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Balance
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Available
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Posted in
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              Posted out
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              New in
            </th>
            <th scope="col" className="px-4 py-2 text-right">
              New out
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {[...series.series].reverse().map((day) => (
            <tr key={day.date}>
              <th scope="row" className="whitespace-nowrap px-4 py-1.5 font-medium text-slate-900 dark:text-white">
                {formatDay(day.date, true)}
              </th>
              <td className="px-4 py-1.5 text-right tabular-nums">{money(day.balance_minor)}</td>
              <td className="px-4 py-1.5 text-right tabular-nums">{money(day.available_minor)}</td>
              <td className="px-4 py-1.5 text-right tabular-nums">{money(day.inflow_posted_minor)}</td>
              <td className="px-4 py-1.5 text-right tabular-nums">{money(day.outflow_posted_minor)}</td>
              <td className="px-4 py-1.5 text-right tabular-nums">{money(day.inflow_pending_minor)}</td>
              <td className="px-4 py-1.5 text-right tabular-nums">{money(day.outflow_pending_minor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
