import { CURRENCIES, type Currency } from "@fintech/core/money/model";
import type { LedgerAccount } from "../api/types";

/**
 * Send Test Payment (docs/product/payments.md#live-events-and-a-test-payment): a real payment of a
 * small amount between two of the user's own accounts in the same currency. The page never creates
 * accounts for it: without two usable accounts, or without funds, it says what is missing and links
 * to the ledger.
 */

/** The test amount in minor units: 1.00 in two-decimal currencies, ¥100 in yen (no minor unit). */
export function testAmountMinor(currency: Currency): number {
  return CURRENCIES[currency] === 0 ? 100 : 1 * 10 ** CURRENCIES[currency];
}

export const TEST_PAYMENT_DESCRIPTION = "Test payment from the real-time payments page";

export type TestPaymentPlan =
  | { ok: true; from: LedgerAccount; to: LedgerAccount; currency: Currency; amountMinor: number }
  | { ok: false; reason: "no_pair" | "no_funds"; message: string };

export const TEST_PAYMENT_MESSAGES = {
  noPair:
    "Send Test Payment needs two of your accounts in the same currency. Create a second account on the Ledger page.",
  noFunds: (currency: string) =>
    `None of your ${currency} accounts has enough available to send a test payment. Deposit into one on the Ledger page.`,
} as const;

const isCurrency = (value: string): value is Currency => Object.hasOwn(CURRENCIES, value);

/** Money can leave an ACTIVE account; it can arrive in an ACTIVE or LOCKED one (a lock stops outflows only). */
const canSend = (account: LedgerAccount) => account.status === "ACTIVE";
const canReceive = (account: LedgerAccount) => account.status === "ACTIVE" || account.status === "LOCKED";

/**
 * The pair to use: in each currency, the sender with the most available and the first other account
 * (in the ledger's order) that can receive; among currencies, the one whose sender can afford the
 * test amount most times over.
 */
export function planTestPayment(accounts: readonly LedgerAccount[]): TestPaymentPlan {
  const byCurrency = new Map<Currency, LedgerAccount[]>();
  for (const account of accounts) {
    if (!isCurrency(account.currency)) continue;
    byCurrency.set(account.currency, [...(byCurrency.get(account.currency) ?? []), account]);
  }
  let best: Extract<TestPaymentPlan, { ok: true }> | null = null;
  let pairCurrency: Currency | null = null;
  for (const [currency, list] of byCurrency) {
    const senders = list.filter(canSend).sort((a, b) => b.available_minor - a.available_minor);
    for (const from of senders) {
      const to = list.find((account) => account.id !== from.id && canReceive(account));
      if (!to) continue;
      pairCurrency ??= currency;
      const amountMinor = testAmountMinor(currency);
      if (from.available_minor < amountMinor) break;
      const headroom = from.available_minor / amountMinor;
      if (!best || headroom > best.from.available_minor / best.amountMinor)
        best = { ok: true, from, to, currency, amountMinor };
      break;
    }
  }
  if (best) return best;
  if (pairCurrency) return { ok: false, reason: "no_funds", message: TEST_PAYMENT_MESSAGES.noFunds(pairCurrency) };
  return { ok: false, reason: "no_pair", message: TEST_PAYMENT_MESSAGES.noPair };
}
