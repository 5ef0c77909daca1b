import { describe, expect, it } from "vitest";
import type { Payment } from "@fintech/core/payments/model";
import { caseSubject, kindLabel, payeeText, waitingPayments } from "./reviews";

describe("words for payments waiting for a decision", () => {
  it("names the payee without an account id", () => {
    expect(payeeText({ kind: "external", name: "Kim Jong Un", accountLast4: "5678", country: "CN" })).toBe(
      "Kim Jong Un (…5678, CN)",
    );
    expect(payeeText({ kind: "user", email: "grace@example.com" })).toBe("grace@example.com");
    expect(payeeText({ kind: "account", accountId: "a-1" })).toBe("one of the payer's own accounts");
    expect(
      caseSubject({ amount: "250.00", currency: "USD", payee: { kind: "user", email: "grace@example.com" } }),
    ).toBe("payment of $250.00 to grace@example.com");
    expect([kindLabel("screening"), kindLabel("four_eyes"), kindLabel(null)]).toEqual([
      "Sanctions screening",
      "Four eyes",
      "None",
    ]);
  });

  it("keeps the payments held for review or awaiting approval, in order", () => {
    const payments = (["pending", "held_for_review", "completed", "awaiting_approval", "parked"] as const).map(
      (status, index) => ({ paymentId: `p${index}`, status }) as Payment,
    );
    expect(waitingPayments(payments).map((payment) => payment.paymentId)).toEqual(["p1", "p3"]);
  });
});
