import { describe, expect, it } from "vitest";
import type { ThresholdsView } from "@fintech/core/approvals/model";
import { awaitsSecondApprover, depositThreshold } from "./depositApproval";

const thresholds: ThresholdsView = {
  thresholds: [
    { kind: "deposit", currency: "USD", amount: "10000.00", amount_minor: 1_000_000 },
    { kind: "payment", currency: "USD", amount: "500.00", amount_minor: 50_000 },
  ],
  version: 1,
  updated_at: null,
  updated_by: null,
};
const draft = (
  overrides: Partial<{ type: string; status: string; total_amount_minor: number; currency: string }> = {},
) => ({ type: "deposit", status: "draft", total_amount_minor: 1_000_001, currency: "USD", ...overrides });

describe("a deposit waiting for a second approver", () => {
  it("is a deposit draft strictly above its currency's deposit threshold", () => {
    expect(depositThreshold(thresholds, "USD")).toBe(1_000_000);
    expect(awaitsSecondApprover(draft(), thresholds)).toBe(true);
    expect(awaitsSecondApprover(draft({ total_amount_minor: 1_000_000 }), thresholds)).toBe(false);
    expect(awaitsSecondApprover(draft({ status: "posted" }), thresholds)).toBe(false);
    expect(awaitsSecondApprover(draft({ type: "transfer" }), thresholds)).toBe(false);
  });

  it("is not claimed while the thresholds are unknown (not loaded, or no row for the currency)", () => {
    expect(awaitsSecondApprover(draft(), undefined)).toBe(false);
    expect(awaitsSecondApprover(draft({ currency: "JPY" }), thresholds)).toBe(false);
  });
});
