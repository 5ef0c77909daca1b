import { describe, expect, it } from "vitest";
import { parseTaxRate, periodDays, PeriodQuery, presetPeriod } from "./model";
import { taxOf } from "./reports";
import { ctrAggregates, rapidMovement, sarFindings, structuring, type DepositFact, type PayoutFact } from "./detect";

/**
 * The report rules on hand-made facts: where each threshold and window starts and ends, so a
 * change of rules.ts or of a detector shows here before it shows in a report.
 */

let next = 0;
const nextId = (prefix: string) => {
  next += 1;
  return `${prefix}${next}`;
};
const deposit = (
  customerId: string,
  amount: number,
  postedAt: string,
  currency: DepositFact["currency"] = "USD",
): DepositFact => ({
  journalId: nextId("j"),
  customerId,
  currency,
  amountMinor: amount * 100,
  postedAt,
});
const payout = (customerId: string, amount: number, createdAt: string): PayoutFact => ({
  paymentId: nextId("p"),
  customerId,
  currency: "USD",
  amountMinor: amount * 100,
  createdAt,
});

describe("CTR", () => {
  it("adds a customer's deposits of one UTC day and currency; 10,000.00 exactly counts, 9,999.99 does not", () => {
    const rows = ctrAggregates([
      deposit("a", 4000, "2026-11-10T00:00:00.000Z"),
      deposit("a", 6000, "2026-11-10T23:59:59.999Z"),
      deposit("b", 9999, "2026-11-10T10:00:00.000Z"),
      { ...deposit("b", 0, "2026-11-10T11:00:00.000Z"), amountMinor: 99 },
      deposit("c", 6000, "2026-11-10T23:00:00.000Z"),
      deposit("c", 6000, "2026-11-11T01:00:00.000Z"),
      deposit("d", 6000, "2026-11-10T09:00:00.000Z", "USD"),
      deposit("d", 6000, "2026-11-10T09:00:00.000Z", "EUR"),
      // Yen have no minor unit: the line is 1,500,000 yen.
      { ...deposit("e", 0, "2026-11-10T09:00:00.000Z", "JPY"), amountMinor: 1_499_999 },
      { ...deposit("f", 0, "2026-11-10T09:00:00.000Z", "JPY"), amountMinor: 1_500_000 },
    ]);
    expect(rows.map((row) => [row.customerId, row.day, row.currency, row.totalMinor, row.journalIds.length])).toEqual([
      ["a", "2026-11-10", "USD", 1_000_000, 2],
      ["f", "2026-11-10", "JPY", 1_500_000, 1],
    ]);
  });
});

describe("structuring", () => {
  it("needs 3 deposits from 80 % of the threshold up to just under it, within 48 hours of the first", () => {
    const found = structuring([
      deposit("s", 8000, "2026-11-10T00:00:00.000Z"),
      deposit("s", 9999, "2026-11-11T00:00:00.000Z"),
      deposit("s", 9000, "2026-11-12T00:00:00.000Z"),
      // Outside the window of the first run; the rest of this run is too few.
      deposit("s", 9000, "2026-11-20T00:00:00.000Z"),
      deposit("s", 9000, "2026-11-22T00:00:01.000Z"),
      // 79.99 % and 100 % are not "just under".
      deposit("t", 7999, "2026-11-10T00:00:00.000Z"),
      deposit("t", 10_000, "2026-11-10T01:00:00.000Z"),
      deposit("t", 9000, "2026-11-10T02:00:00.000Z"),
      deposit("t", 9000, "2026-11-10T03:00:00.000Z"),
    ]);
    expect(found.map((finding) => [finding.customerId, finding.window, finding.journalIds.length])).toEqual([
      ["s", "2026-11-10 USD", 3],
    ]);
  });
});

describe("rapid in-and-out", () => {
  it("80 % of a deposit paid out within 24 hours after it; later, earlier or less is not", () => {
    const deposits = [
      deposit("r", 5000, "2026-11-10T08:00:00.000Z"),
      deposit("late", 5000, "2026-11-10T08:00:00.000Z"),
      deposit("less", 5000, "2026-11-10T08:00:00.000Z"),
    ];
    const payouts = [
      payout("r", 2000, "2026-11-10T09:00:00.000Z"),
      payout("r", 2000, "2026-11-11T08:00:00.000Z"),
      payout("late", 4500, "2026-11-11T08:00:00.001Z"),
      payout("late", 4500, "2026-11-10T07:59:59.999Z"),
      payout("less", 3999, "2026-11-10T09:00:00.000Z"),
    ];
    expect(rapidMovement(deposits, payouts).map((finding) => [finding.customerId, finding.paymentIds.length])).toEqual([
      ["r", 2],
    ]);
  });
});

describe("all rules", () => {
  it("a customer with ordinary deposits and payments is never a candidate", () => {
    const deposits = [deposit("n", 500, "2026-11-10T10:00:00.000Z"), deposit("n", 1200, "2026-11-11T10:00:00.000Z")];
    const payouts = [payout("n", 100, "2026-11-10T12:00:00.000Z")];
    expect(sarFindings({ deposits, payouts, screening: [], riskOf: () => "Low" })).toEqual([]);
    expect(sarFindings({ deposits, payouts, screening: [], riskOf: () => "High" })).toEqual([]);
  });
});

describe("periods and rates", () => {
  it("a period is 1 to 366 UTC days, from on or before to", () => {
    expect(periodDays("2026-01-01", "2026-01-01")).toBe(1);
    expect(PeriodQuery.safeParse({ from: "2025-01-01", to: "2026-01-01" }).success).toBe(true);
    expect(PeriodQuery.safeParse({ from: "2025-01-01", to: "2026-01-02" }).success).toBe(false);
    expect(PeriodQuery.safeParse({ from: "2026-02-29", to: "2026-03-01" }).success).toBe(false);
    expect(presetPeriod("lastMonth", new Date("2026-03-15T12:00:00Z"))).toEqual({
      from: "2026-02-01",
      to: "2026-02-28",
    });
    expect(presetPeriod("last7", new Date("2026-03-15T12:00:00Z"))).toEqual({ from: "2026-03-09", to: "2026-03-15" });
    expect(presetPeriod("thisMonth", new Date("2026-03-15T12:00:00Z"))).toEqual({
      from: "2026-03-01",
      to: "2026-03-15",
    });
  });

  it("rates are exact millionths from 0 to 1, and the tax rounds half away from zero", () => {
    expect(["0", "1", "0.18", "0.075", "0.123456", 0.18].map(parseTaxRate)).toEqual([
      0, 1_000_000, 180_000, 75_000, 123_456, 180_000,
    ]);
    expect(["1.1", "-0.1", "0.1234567", "", "abc", Number.NaN, "1.000001"].map(parseTaxRate)).toEqual(
      Array(7).fill(null),
    );
    expect(taxOf(950, 180_000)).toBe(171);
    expect(taxOf(25, 100_000)).toBe(3);
    expect(taxOf(-25, 100_000)).toBe(-3);
    expect(taxOf(Number.MAX_SAFE_INTEGER, 1_000_000)).toBe(Number.MAX_SAFE_INTEGER);
  });
});
