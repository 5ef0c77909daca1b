import { describe, expect, it } from "vitest";
import { LEDGER_EVENT_NAMES, parseLedgerEvent, type LedgerLiveEvent } from "./events";
import { LIVE_TOAST_MS, liveToastFor } from "./toasts";

const balance = (changeType: "CREDIT" | "DEBIT", operation: string, extra: Partial<LedgerLiveEvent> = {}) =>
  ({
    type: "balanceUpdate",
    accountId: "a1",
    accountName: "Operating",
    balance: "100.00",
    available: "100.00",
    changeAmount: "100.00",
    changeType,
    operation,
    currency: "USD",
    transactionId: "t1",
    ...extra,
  }) as LedgerLiveEvent;

describe("stream toasts (docs/product/ledger-workspace.md#live-updates)", () => {
  it("announces money that moved for 3 s, signed from the holder's side", () => {
    expect(liveToastFor(balance("CREDIT", "post"))).toEqual({
      kind: "success",
      message: "Balance credited: +$100.00 · Operating",
      durationMs: 3000,
      id: undefined,
    });
    expect(
      liveToastFor(
        balance("DEBIT", "unpost", {
          changeAmount: "25.00",
          accountName: "Savings",
          currency: "EUR",
        } as Partial<LedgerLiveEvent>),
      )?.message,
    ).toBe("Balance debited: −€25.00 · Savings");
    // A signed change amount is read by its changeType, not printed twice.
    expect(
      liveToastFor(balance("DEBIT", "post", { changeAmount: "-25.00" } as Partial<LedgerLiveEvent>))?.message,
    ).toBe("Balance debited: −$25.00 · Operating");
  });

  it("names the payer of money another customer paid in", () => {
    expect(
      liveToastFor(
        balance("CREDIT", "post", { counterparty: "Alice Payer", changeAmount: "42.50" } as Partial<LedgerLiveEvent>),
      )?.message,
    ).toBe("Received $42.50 from Alice Payer · Operating");
  });

  it("folds a replayed event into its toast, never two different events", () => {
    const at = "2026-03-14T12:00:00.000Z";
    const result = {
      type: "reconciliationResult",
      accountId: "a1",
      accountName: "Everyday",
      expectedBalance: "0.00",
      ledgerBalance: "0.00",
      currency: "USD",
    } as const;
    const first = liveToastFor({ ...result, reconciled: true, variance: "0.00", at });
    const again = liveToastFor({ ...result, reconciled: true, variance: "0.00", at });
    const next = liveToastFor({ ...result, reconciled: false, variance: "1.00", at: "2026-03-14T12:00:04.000Z" });
    expect(first?.id).toBeDefined();
    expect(again?.id).toBe(first?.id);
    expect(next?.id).not.toBe(first?.id);
  });

  it("raises nothing for a draft's creation (the balance has not moved yet)", () => {
    expect(liveToastFor(balance("CREDIT", "create"))).toBeNull();
    expect(
      liveToastFor({
        type: "transactionCreated",
        transactionId: "t1",
        amount: "5.00",
        status: "draft",
        currency: "USD",
        fromAccountId: null,
        toAccountId: "a1",
        description: "Deposit",
      }),
    ).toBeNull();
  });

  it("names the account from the screen when the event does not, else by id", () => {
    const event = balance("CREDIT", "post", { accountName: undefined } as Partial<LedgerLiveEvent>);
    expect(liveToastFor(event, (id) => (id === "a1" ? "Everyday" : undefined))?.message).toBe(
      "Balance credited: +$100.00 · Everyday",
    );
    expect(liveToastFor(event)?.message).toBe("Balance credited: +$100.00 · a1");
  });

  it("alerts a low balance and a lock for 10 s", () => {
    expect(
      liveToastFor({
        type: "lowBalanceAlert",
        accountId: "a1",
        accountName: "Everyday",
        currentBalance: "40.00",
        threshold: "50.00",
        currency: "USD",
      }),
    ).toMatchObject({
      kind: "warning",
      message: "Account Everyday has $40.00 (below $50.00)",
      durationMs: LIVE_TOAST_MS.alert,
    });
    expect(
      liveToastFor({ type: "accountLocked", accountId: "a1", accountName: "Everyday", reason: "Fraud review" }),
    ).toMatchObject({ kind: "error", message: "Account locked: Everyday - Fraud review", durationMs: 10_000 });
    expect(
      liveToastFor({ type: "accountUnlocked", accountId: "a1", accountName: "Everyday", reason: "Cleared" })?.message,
    ).toBe("Account unlocked: Everyday");
  });

  it("reports a reconciliation for 5 s, with the signed variance when it is off", () => {
    const result = {
      type: "reconciliationResult",
      accountId: "a1",
      accountName: "Everyday",
      currency: "USD",
      expectedBalance: "0.00",
      ledgerBalance: "0.00",
    } as const;
    expect(liveToastFor({ ...result, reconciled: true, variance: "0.00" })).toMatchObject({
      kind: "success",
      message: "Reconciliation completed successfully: Everyday",
      durationMs: 5000,
    });
    expect(liveToastFor({ ...result, reconciled: false, variance: "-12.50" })).toMatchObject({
      kind: "warning",
      message: "Reconciliation issue: Everyday is off by −$12.50",
      durationMs: 5000,
    });
    expect(liveToastFor({ ...result, reconciled: false, variance: "3.00" })?.message).toBe(
      "Reconciliation issue: Everyday is off by +$3.00",
    );
  });

  it("says 'Transaction failed: {message}' for a failed transaction only", () => {
    expect(
      liveToastFor({
        type: "transactionStatusUpdate",
        transactionId: "t1",
        status: "failed",
        message: "Insufficient funds",
      }),
    ).toMatchObject({ kind: "error", message: "Transaction failed: Insufficient funds" });
    expect(
      liveToastFor({
        type: "transactionStatusUpdate",
        transactionId: "t1",
        status: "posted",
        message: "Transaction posted",
      }),
    ).toBeNull();
  });
});

describe("reading stream events", () => {
  it("reads every event of the contract by its SSE name", () => {
    const samples: Record<string, object> = {
      balanceUpdate: {
        accountId: "a",
        accountName: "A",
        balance: "1.00",
        available: "1.00",
        changeAmount: "1.00",
        changeType: "CREDIT",
        operation: "post",
        currency: "USD",
        transactionId: "t",
      },
      transactionCreated: {
        transactionId: "t",
        amount: "1.00",
        status: "draft",
        fromAccountId: null,
        toAccountId: "a",
        currency: "USD",
        description: "",
      },
      transactionStatusUpdate: { transactionId: "t", status: "posted", message: "Transaction posted" },
      reconciliationResult: {
        accountId: "a",
        accountName: "A",
        reconciled: true,
        variance: "0.00",
        expectedBalance: "1.00",
        ledgerBalance: "1.00",
        currency: "USD",
      },
      lowBalanceAlert: { accountId: "a", accountName: "A", currentBalance: "1.00", threshold: "2.00", currency: "USD" },
      accountLocked: { accountId: "a", accountName: "A", reason: "r" },
      accountUnlocked: { accountId: "a", accountName: "A", reason: "r" },
    };
    for (const name of LEDGER_EVENT_NAMES) {
      expect(
        parseLedgerEvent(name, JSON.stringify({ type: name, at: "2026-03-14T12:00:00Z", ...samples[name] }))?.type,
      ).toBe(name);
    }
  });

  it("refuses what it cannot show: not JSON, a missing field, a bad currency", () => {
    expect(parseLedgerEvent("balanceUpdate", "nope")).toBeNull();
    expect(parseLedgerEvent("balanceUpdate", "[]")).toBeNull();
    expect(parseLedgerEvent("accountLocked", JSON.stringify({ accountId: "a" }))).toBeNull();
    expect(
      parseLedgerEvent(
        "balanceUpdate",
        JSON.stringify({ accountId: "a", balance: "1", changeAmount: "1", changeType: "CREDIT", currency: "dollars" }),
      ),
    ).toBeNull();
    expect(parseLedgerEvent("somethingElse", JSON.stringify({ accountId: "a" }))).toBeNull();
  });
});
