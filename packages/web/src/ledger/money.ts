import { CURRENCIES, formatAmount, fromDecimalString, type Currency } from "@fintech/core/money/model";
import type { LedgerAccount } from "../api/types";

/** Money display goes through core's money model only: exact minor units, en-US, JPY without decimals. */

export const isCurrency = (value: string): value is Currency => Object.hasOwn(CURRENCIES, value);

/** A reply's decimal string as integer minor units. */
export const minorOf = (amount: string, currency: Currency): number => fromDecimalString(amount, currency);

/** "1,234.50" (JPY "1,235"). */
export const formatMinor = (minor: number, currency: Currency): string => formatAmount(minor, currency);

/** A decimal string from the API as "1,234.50". */
export const formatDecimal = (amount: string, currency: Currency): string => formatAmount(minorOf(amount, currency), currency);

/** "1,234.50 USD". */
export const withCode = (minor: number, currency: Currency): string => `${formatAmount(minor, currency)} ${currency}`;

/** "-1,234.50 USD" / "+1,234.50 USD" for a signed movement. */
export const signedWithCode = (minor: number, currency: Currency): string => `${minor > 0 ? "+" : ""}${withCode(minor, currency)}`;

export interface CurrencyTotals {
  currency: Currency;
  accounts: number;
  balance: number;
  available: number;
  pendingIn: number;
  pendingOut: number;
}

/**
 * The accounts' figures added up per currency (minor units), most accounts first. Balances are
 * each account's own normal-side figures, as the accounts list shows them.
 */
export function totalsByCurrency(accounts: readonly LedgerAccount[]): CurrencyTotals[] {
  const totals = new Map<Currency, CurrencyTotals>();
  for (const account of accounts) {
    const currency = account.currency;
    const sum = totals.get(currency) ?? { currency, accounts: 0, balance: 0, available: 0, pendingIn: 0, pendingOut: 0 };
    sum.accounts += 1;
    sum.balance += minorOf(account.balance, currency);
    sum.available += minorOf(account.available, currency);
    sum.pendingIn += minorOf(account.pending_in, currency);
    sum.pendingOut += minorOf(account.pending_out, currency);
    totals.set(currency, sum);
  }
  return [...totals.values()].sort((a, b) => b.accounts - a.accounts || a.currency.localeCompare(b.currency));
}
