import { describe, expect, it } from "vitest";
import { DEFAULT_MONEY_LIMITS } from "./default-limits";
import {
  formatLimitAmount,
  LIMIT_MESSAGES,
  limitsAsAmounts,
  limitsFromInput,
  MoneyLimits,
  type MoneyLimitsInput,
} from "./model";

const defaultsAsInput = (): MoneyLimitsInput => ({
  version: 0,
  ...structuredClone(limitsAsAmounts(DEFAULT_MONEY_LIMITS)),
});

describe("money limits as data", () => {
  it("the seeded defaults are valid limits and read back as themselves", () => {
    expect(MoneyLimits.parse(DEFAULT_MONEY_LIMITS)).toEqual(DEFAULT_MONEY_LIMITS);
    expect(limitsFromInput(defaultsAsInput())).toEqual({ ok: true, limits: DEFAULT_MONEY_LIMITS });
    expect(limitsAsAmounts(DEFAULT_MONEY_LIMITS).unverified).toEqual({
      deposit: {
        day: { USD: "1000.00", EUR: "1000.00", GBP: "1000.00", JPY: "150000", INR: "80000.00" },
        month: { USD: "5000.00", EUR: "5000.00", GBP: "5000.00", JPY: "750000", INR: "400000.00" },
      },
      outgoing: null,
    });
  });

  it("refuses an edit with the field named: amounts, day over month, verified under unverified", () => {
    const cases: [(input: MoneyLimitsInput) => void, string][] = [
      [(input) => (input.verified.deposit.day.USD = "0"), "verified.deposit.day.USD: Amount must be greater than 0"],
      [
        (input) => (input.verified.deposit.day.JPY = "10.5"),
        "verified.deposit.day.JPY: JPY amounts cannot have decimals",
      ],
      [
        (input) => (input.unverified.deposit!.month.EUR = "abc"),
        "unverified.deposit.month.EUR: Amount must be a number",
      ],
      [
        (input) => (input.verified.outgoing.day.GBP = "200000"),
        "verified.outgoing.day.GBP cannot be more than verified.outgoing.month.GBP: 30 days hold every 24 hours in them",
      ],
      [
        (input) => (input.verified.deposit.month.USD = "10"),
        "verified.deposit.day.USD cannot be more than verified.deposit.month.USD: 30 days hold every 24 hours in them",
      ],
      [
        (input) =>
          (input.unverified.outgoing = {
            day: { USD: "100", EUR: "100", GBP: "100", JPY: "100", INR: "100" },
            month: { USD: "1000000", EUR: "100", GBP: "100", JPY: "100", INR: "100" },
          }),
        "verified.outgoing.month.USD cannot be lower than unverified.outgoing.month.USD: verifying never lowers a limit",
      ],
    ];
    for (const [change, message] of cases) {
      const input = defaultsAsInput();
      change(input);
      expect(limitsFromInput(input)).toEqual({ ok: false, message });
    }
  });

  it("words amounts with grouping and the currency's decimals, and names what unlocks more", () => {
    expect(formatLimitAmount(123_456_789, "USD")).toBe("1,234,567.89 USD");
    expect(formatLimitAmount(150_000, "JPY")).toBe("150,000 JPY");
    expect(formatLimitAmount(5, "EUR")).toBe("0.05 EUR");
    const breach = {
      level: "unverified" as const,
      movement: "deposit" as const,
      window: "month" as const,
      currency: "GBP" as const,
      limitMinor: 500_000,
      usedMinor: 480_000,
      remainingMinor: 20_000,
    };
    expect(LIMIT_MESSAGES.limitExceeded(breach)).toBe(
      "This would pass your unverified limit of 5,000.00 GBP in deposits per 30 days: 200.00 GBP remains. Complete verification at /kyc to raise it.",
    );
    expect(LIMIT_MESSAGES.limitExceeded({ ...breach, level: "verified", movement: "outgoing" })).toBe(
      "This would pass your verified limit of 5,000.00 GBP in payments to other people and outside accounts per 30 days: 200.00 GBP remains. It frees up as earlier payments to other people and outside accounts leave the 30-day window.",
    );
  });
});
