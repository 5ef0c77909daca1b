import type { LedgerAccount, LedgerTransaction, Paged } from "../api/types";
import { OVERVIEW_ITEMS } from "./constants";
import { totalsByCurrency, type CurrencyTotals } from "./money";

export interface OverviewStats {
  currencies: CurrencyTotals[];
  accountCount: number;
  activeAccounts: number;
  /** Transactions in the loaded page, and whether there are more than that. */
  transactionCount: number;
  moreTransactions: boolean;
  drafts: number;
  posted: number;
  recent: LedgerTransaction[];
  /** Accounts for the summary: the largest balances first (by minor units within a currency). */
  summary: LedgerAccount[];
}

/** Everything the overview shows, from the real accounts and the history page. */
export function overviewStats(
  accounts: readonly LedgerAccount[],
  history: Paged<LedgerTransaction> | undefined,
): OverviewStats {
  const transactions = history?.data ?? [];
  const summary = [...accounts]
    .sort((a, b) => b.balance_minor - a.balance_minor || b.created_at.localeCompare(a.created_at))
    .slice(0, OVERVIEW_ITEMS);
  const recent = [...transactions].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, OVERVIEW_ITEMS);
  return {
    currencies: totalsByCurrency(accounts),
    accountCount: accounts.length,
    activeAccounts: accounts.filter((account) => account.status === "ACTIVE").length,
    transactionCount: transactions.length,
    moreTransactions: history?.pagination?.has_more ?? false,
    drafts: transactions.filter((transaction) => transaction.status === "draft").length,
    posted: transactions.filter((transaction) => transaction.status === "posted").length,
    recent,
    summary,
  };
}

/** Each account's share of its currency's total balance, in percent (0 when the total is not positive). */
export function balanceShares(
  accounts: readonly LedgerAccount[],
  currency: string,
): { account: LedgerAccount; percent: number }[] {
  const members = accounts.filter((account) => account.currency === currency);
  const total = members.reduce((sum, account) => sum + Math.max(account.balance_minor, 0), 0);
  return members
    .map((account) => ({ account, percent: total > 0 ? (Math.max(account.balance_minor, 0) / total) * 100 : 0 }))
    .sort((a, b) => b.percent - a.percent);
}
