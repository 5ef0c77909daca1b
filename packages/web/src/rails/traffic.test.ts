import { describe, expect, it } from "vitest";
import { estimateText, moneyLine, performanceBars, savingText, todaysSavings } from "./traffic";

describe("the console's reading of real traffic", () => {
  it("money in several currencies is one line, largest first; none is null (no invented zero)", () => {
    expect(moneyLine([])).toBeNull();
    expect(moneyLine([{ currency: "USD", minor: 0 }])).toBeNull();
    expect(
      moneyLine([
        { currency: "USD", minor: 125 },
        { currency: "EUR", minor: 5_000 },
      ]),
    ).toBe("€50.00 · $1.25");
    expect(moneyLine([{ currency: "JPY", minor: 300 }])).toBe("¥300");
  });

  it("says what a decision saved against the default rail, or what it cost more", () => {
    const base = { currency: "USD" as const, chosenRail: "SEPA", defaultRail: "ACH" };
    expect(savingText({ ...base, savingMinor: 75 })).toBe("Saved $0.75 against ACH (default)");
    expect(savingText({ ...base, savingMinor: -120 })).toBe("Cost $1.20 more than ACH (default)");
    expect(savingText({ ...base, savingMinor: 0 })).toBe("Same cost as ACH (default)");
    expect(savingText({ ...base, chosenRail: "ACH", savingMinor: 0 })).toBe("ACH is the default rail: nothing to save");
  });

  it("a rail's bars come from its attempts: error rate = 100 − success rate; none without attempts", () => {
    expect(performanceBars({ transactions: 0, successRate: null, avgProcessingTime: null })).toBeNull();
    expect(performanceBars({ transactions: 8, successRate: 87.5, avgProcessingTime: 1.25 })).toEqual({
      successRate: 87.5,
      errorRate: 12.5,
      avgSeconds: 1.25,
    });
    expect(performanceBars({ transactions: 3, successRate: 100, avgProcessingTime: 0.3 })?.errorRate).toBe(0);
  });

  it("today's savings are the last UTC day's rows only", () => {
    const savingsByDay = [
      { day: "2026-11-26", currency: "USD" as const, saving: "0.75", savingMinor: 75, decisions: 2 },
      { day: "2026-11-26", currency: "EUR" as const, saving: "0.10", savingMinor: 10, decisions: 1 },
      { day: "2026-11-25", currency: "USD" as const, saving: "9.00", savingMinor: 900, decisions: 9 },
    ];
    expect(todaysSavings({ savingsByDay, to: "2026-11-26T04:10:00.000Z" })).toBe("$0.75 · €0.10");
    expect(todaysSavings({ savingsByDay, to: "2026-11-27T00:01:00.000Z" })).toBeNull();
  });

  it("a success estimate (0..1) reads as a percentage", () => {
    expect(estimateText(0.985)).toBe("98.5%");
    expect(estimateText(1)).toBe("100%");
  });
});
