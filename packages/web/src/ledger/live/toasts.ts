import { formatMoney } from "../../lib/money";
import type { ToastSpec } from "../../toast/notify";
import type { LedgerLiveEvent } from "./events";

/**
 * Ledger toasts last 3 s (balance), 5 s (reconciliation) and 10 s (alerts):
 * docs/product/ledger-workspace.md#constants.
 */
export const LIVE_TOAST_MS = {
  balance: 3_000,
  reconciliation: 5_000,
  alert: 10_000,
  /** For the events docs/product/ledger-workspace.md#live-updates gives no duration ("others" in its Constants). */
  other: 5_000,
} as const;

export const LIVE_MESSAGES = {
  credited: (amount: string, account: string) => `Balance credited: ${amount} · ${account}`,
  received: (amount: string, account: string, payer: string) => `Received ${amount} from ${payer} · ${account}`,
  debited: (amount: string, account: string) => `Balance debited: ${amount} · ${account}`,
  transactionFailed: (message: string) => `Transaction failed: ${message}`,
  lowBalance: (account: string, balance: string, threshold: string) =>
    `Account ${account} has ${balance} (below ${threshold})`,
  locked: (account: string, reason: string) => `Account locked: ${account} - ${reason}`,
  unlocked: (account: string) => `Account unlocked: ${account}`,
  reconciled: (account: string) => `Reconciliation completed successfully: ${account}`,
  reconciliationIssue: (account: string, variance: string) => `Reconciliation issue: ${account} is off by ${variance}`,
} as const;

/**
 * An account's name for a toast: the event's own, else the one on screen, else its id
 * (docs/product/ledger-workspace.md#live-updates).
 */
export type AccountNameLookup = (accountId: string) => string | undefined;

const withoutSign = (amount: string) => amount.trim().replace(/^[-+]/, "");

/** "$40.00" in the event's currency; in dollars when the event names no currency. */
const money = (amount: string, currency: string | undefined, signDisplay: "auto" | "always" | "exceptZero" = "auto") =>
  formatMoney(amount, currency ?? "USD", { signDisplay });

/**
 * The toast an event raises, or null. Balance toasts speak only of money that moved: a draft's
 * creation only reserves (the balance is unchanged until Approve), so it raises none; posting and
 * unposting do.
 */
export function liveToastFor(event: LedgerLiveEvent, nameOf: AccountNameLookup = () => undefined): ToastSpec | null {
  const accountLabel = (accountId: string, given?: string) => given?.trim() || nameOf(accountId) || accountId;
  /**
   * The same event announced twice (a replay after a fresh start) folds into one toast. The id
   * includes the commit time, so two different events never share one: a toast re-raised under
   * the id of one that is being dismissed would vanish with it.
   */
  const idOf = (...parts: (string | undefined)[]) =>
    event.at ? ["live", event.type, ...parts, event.at].join(":") : undefined;
  switch (event.type) {
    case "balanceUpdate": {
      if (event.operation === "create") return null;
      const magnitude = withoutSign(event.changeAmount);
      const credit = event.changeType === "CREDIT";
      const amount = money(credit ? magnitude : `-${magnitude}`, event.currency, "always");
      const account = accountLabel(event.accountId, event.accountName);
      return {
        kind: "success",
        message: credit
          ? event.counterparty
            ? LIVE_MESSAGES.received(money(magnitude, event.currency), account, event.counterparty)
            : LIVE_MESSAGES.credited(amount, account)
          : LIVE_MESSAGES.debited(amount, account),
        durationMs: LIVE_TOAST_MS.balance,
        id: idOf(event.transactionId, event.accountId, event.operation),
      };
    }
    case "transactionStatusUpdate":
      if (event.status.toLowerCase() !== "failed") return null;
      return {
        kind: "error",
        message: LIVE_MESSAGES.transactionFailed(event.message?.trim() || event.transactionId),
        durationMs: LIVE_TOAST_MS.other,
        id: idOf(event.transactionId),
      };
    case "lowBalanceAlert":
      return {
        kind: "warning",
        message: LIVE_MESSAGES.lowBalance(
          accountLabel(event.accountId, event.accountName),
          money(event.currentBalance, event.currency),
          money(event.threshold, event.currency),
        ),
        durationMs: LIVE_TOAST_MS.alert,
        id: idOf(event.accountId),
      };
    case "accountLocked":
      return {
        kind: "error",
        message: LIVE_MESSAGES.locked(accountLabel(event.accountId, event.accountName), event.reason),
        durationMs: LIVE_TOAST_MS.alert,
        id: idOf(event.accountId),
      };
    case "accountUnlocked":
      return {
        kind: "info",
        message: LIVE_MESSAGES.unlocked(accountLabel(event.accountId, event.accountName)),
        durationMs: LIVE_TOAST_MS.other,
        id: idOf(event.accountId),
      };
    case "reconciliationResult": {
      const account = accountLabel(event.accountId, event.accountName);
      return event.reconciled
        ? {
            kind: "success",
            message: LIVE_MESSAGES.reconciled(account),
            durationMs: LIVE_TOAST_MS.reconciliation,
            id: idOf(event.accountId),
          }
        : {
            kind: "warning",
            message: LIVE_MESSAGES.reconciliationIssue(account, money(event.variance, event.currency, "exceptZero")),
            durationMs: LIVE_TOAST_MS.reconciliation,
            id: idOf(event.accountId),
          };
    }
    case "transactionCreated":
      return null;
  }
}
