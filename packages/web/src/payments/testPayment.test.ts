import { describe, expect, it } from "vitest";
import type { LedgerAccount } from "../api/types";
import { planTestPayment, TEST_PAYMENT_MESSAGES, testAmountMinor } from "./testPayment";

function account(
  id: string,
  currency: string,
  availableMinor: number,
  status: LedgerAccount["status"] = "ACTIVE",
): LedgerAccount {
  return { id, name: `Account ${id}`, currency, status, available_minor: availableMinor } as LedgerAccount;
}

describe("Send Test Payment's accounts", () => {
  it("is 1.00 (¥100 in yen)", () => {
    expect(testAmountMinor("USD")).toBe(100);
    expect(testAmountMinor("JPY")).toBe(100);
  });

  it("sends from the account with the most available to another of the same currency", () => {
    const plan = planTestPayment([account("a", "USD", 500), account("b", "USD", 50_000), account("c", "EUR", 90_000)]);
    expect(plan).toMatchObject({ ok: true, currency: "USD", amountMinor: 100 });
    if (plan.ok) expect([plan.from.id, plan.to.id]).toEqual(["b", "a"]);
  });

  it("without two accounts in one currency it says so (no account is created)", () => {
    expect(planTestPayment([])).toEqual({ ok: false, reason: "no_pair", message: TEST_PAYMENT_MESSAGES.noPair });
    expect(planTestPayment([account("a", "USD", 500), account("b", "EUR", 500)])).toMatchObject({
      ok: false,
      reason: "no_pair",
    });
    // A closed or frozen account can neither send nor receive.
    expect(planTestPayment([account("a", "USD", 500), account("b", "USD", 500, "CLOSED")])).toMatchObject({
      ok: false,
      reason: "no_pair",
    });
  });

  it("without funds it says to deposit; a locked account receives but does not send", () => {
    expect(planTestPayment([account("a", "USD", 99), account("b", "USD", 0)])).toEqual({
      ok: false,
      reason: "no_funds",
      message: TEST_PAYMENT_MESSAGES.noFunds("USD"),
    });
    const plan = planTestPayment([account("rich", "GBP", 10_000, "LOCKED"), account("poor", "GBP", 200)]);
    expect(plan).toMatchObject({ ok: true });
    if (plan.ok) expect([plan.from.id, plan.to.id]).toEqual(["poor", "rich"]);
  });
});
