import { CURRENCIES, fromDecimalString, parseAmount, type Currency } from "@fintech/core/money/model";
import { FORM_CURRENCIES, type FormCurrency, type LedgerAccount } from "../api/types";
import { LEDGER_UI_MESSAGES } from "./messages";

/**
 * Money helpers of the workspace: the currency and amount checks the forms share, and sums per
 * currency in exact minor units. Display goes through the one formatter, lib/money.ts
 * (formatMoney): "$1,234.56", "−€20.00".
 */

export const isCurrency = (value: string): value is Currency => Object.hasOwn(CURRENCIES, value);

/** A currency the forms offer, from an account's (USD when it is not one of them). */
export const formCurrency = (currency: string | undefined): FormCurrency =>
  FORM_CURRENCIES.find((item) => item === currency) ?? "USD";

/** Amount: a number with at most the currency's decimals, more than 0 (the server's own rules). */
export function amountError(amount: string, currency: string): string | null {
  if (!amount.trim()) return LEDGER_UI_MESSAGES.amountRequired;
  if (!isCurrency(currency)) return null;
  const parsed = parseAmount(amount, currency);
  return parsed.ok ? null : parsed.message;
}

/** A reply's decimal string as integer minor units. */
export const minorOf = (amount: string, currency: Currency): number => fromDecimalString(amount, currency);

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
    const sum = totals.get(currency) ?? {
      currency,
      accounts: 0,
      balance: 0,
      available: 0,
      pendingIn: 0,
      pendingOut: 0,
    };
    sum.accounts += 1;
    sum.balance += minorOf(account.balance, currency);
    sum.available += minorOf(account.available, currency);
    sum.pendingIn += minorOf(account.pending_in, currency);
    sum.pendingOut += minorOf(account.pending_out, currency);
    totals.set(currency, sum);
  }
  return [...totals.values()].sort((a, b) => b.accounts - a.accounts || a.currency.localeCompare(b.currency));
}
