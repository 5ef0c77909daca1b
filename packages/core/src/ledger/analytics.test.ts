import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chainSeries,
  dayFigures,
  dayReply,
  dayWindow,
  parseAnalyticsDays,
  sumFigures,
  type SeriesVersion,
} from "./analytics";
import { applyEntry, figures, ZERO_TOTALS, type Operation, type Side } from "./model";

/** A chain as the ledger writes it: a genesis version, then one version per change. */
function buildChain(
  openedAt: string,
  changes: { at: string; operation: Operation; side: Side; amount: number }[],
): SeriesVersion[] {
  const versions: SeriesVersion[] = [
    { ...ZERO_TOTALS, committed_at: openedAt, operation: "open", side: null, amount: 0 },
  ];
  let totals = { ...ZERO_TOTALS };
  for (const change of changes) {
    totals = applyEntry(totals, change.side, change.amount, change.operation);
    versions.push({
      ...totals,
      committed_at: change.at,
      operation: change.operation,
      side: change.side,
      amount: change.amount,
    });
  }
  return versions;
}

describe("dayWindow", () => {
  it("lists UTC days ending today, oldest first", () => {
    expect(dayWindow(new Date("2026-03-01T23:30:00-05:00"), 3)).toEqual(["2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(dayWindow(new Date("2024-03-01T00:00:00Z"), 2)).toEqual(["2024-02-29", "2024-03-01"]);
  });
});

describe("parseAnalyticsDays", () => {
  it("defaults to 30 and takes 1..365", () => {
    expect(parseAnalyticsDays(undefined)).toBe(30);
    expect(parseAnalyticsDays("")).toBe(30);
    expect(parseAnalyticsDays(" 7 ")).toBe(7);
    expect(parseAnalyticsDays("365")).toBe(365);
  });
  it.each(["0", "366", "x", "1.5", "-3", "1e2"])("refuses %s", (value) => {
    expect(() => parseAnalyticsDays(value)).toThrow("days must be a whole number from 1 to 365");
  });
});

describe("chainSeries", () => {
  const dates = ["2026-01-01", "2026-01-02", "2026-01-03"];

  it("reads flows from each version and end-of-day totals from the day's last one", () => {
    const chain = buildChain("2026-01-01T08:00:00.000Z", [
      { at: "2026-01-01T09:00:00.000Z", operation: "create", side: "debit", amount: 500 },
      { at: "2026-01-02T09:00:00.000Z", operation: "post", side: "debit", amount: 500 },
      { at: "2026-01-02T10:00:00.000Z", operation: "create", side: "credit", amount: 200 },
      { at: "2026-01-03T09:00:00.000Z", operation: "post", side: "credit", amount: 200 },
      { at: "2026-01-03T10:00:00.000Z", operation: "unpost", side: "credit", amount: 200 },
    ]);
    const days = chainSeries(null, chain, dates, "debit").map((day) => dayFigures(day, "debit"));
    expect(days).toEqual([
      {
        date: "2026-01-01",
        balance: 0,
        available: 0,
        pending_in: 500,
        pending_out: 0,
        inflow_posted: 0,
        outflow_posted: 0,
        inflow_pending: 500,
        outflow_pending: 0,
        transactions: 1,
      },
      {
        date: "2026-01-02",
        balance: 500,
        available: 300,
        pending_in: 0,
        pending_out: 200,
        inflow_posted: 500,
        outflow_posted: 0,
        inflow_pending: 0,
        outflow_pending: 200,
        transactions: 1,
      },
      {
        date: "2026-01-03",
        balance: 500,
        available: 300,
        pending_in: 0,
        pending_out: 200,
        inflow_posted: 0,
        outflow_posted: 0,
        inflow_pending: 0,
        outflow_pending: 0,
        transactions: 0,
      },
    ]);
    expect(dayReply(days[1]!, "USD")).toMatchObject({
      balance: "5.00",
      balance_minor: 500,
      outflow_pending: "2.00",
      transactions: 1,
    });
    expect(dayReply(days[1]!, "JPY")).toMatchObject({ balance: "500", available: "300" });
  });

  it("starts from the baseline and treats credit-normal accounts in their own terms", () => {
    const baseline = {
      ...ZERO_TOTALS,
      posted_credits: 1000,
      committed_at: "2025-12-31T12:00:00.000Z",
      operation: "post" as const,
      side: "credit" as const,
      amount: 1000,
    };
    const later = {
      ...ZERO_TOTALS,
      posted_credits: 1000,
      posted_debits: 300,
      committed_at: "2026-01-02T00:00:00.000Z",
      operation: "post" as const,
      side: "debit" as const,
      amount: 300,
    };
    const days = chainSeries(baseline, [later], dates, "credit").map((day) => dayFigures(day, "credit"));
    expect(days.map((day) => [day.balance, day.outflow_posted])).toEqual([
      [1000, 0],
      [700, 300],
      [700, 0],
    ]);
  });

  it("counts a version stamped after the last day on the last day", () => {
    const chain = buildChain("2026-01-01T00:00:00.000Z", [
      { at: "2026-01-04T00:00:00.001Z", operation: "create", side: "debit", amount: 5 },
    ]);
    expect(chainSeries(null, chain, dates, "debit").at(-1)).toMatchObject({ pending_debits: 5, transactions: 1 });
  });

  it("keeps balance changes equal to posted flows and end-of-day figures equal to the chain's (property)", () => {
    const change = fc.record({
      day: fc.integer({ min: 0, max: 9 }),
      kind: fc.constantFrom<Operation>("create", "post", "unpost"),
      side: fc.constantFrom<Side>("debit", "credit"),
      amount: fc.integer({ min: 1, max: 100_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(change, { maxLength: 40 }),
        fc.constantFrom<Side>("debit", "credit"),
        fc.integer({ min: 1, max: 10 }),
        (raw, normal, windowDays) => {
          // Times increase along the chain, as the ledger guarantees.
          const sorted = [...raw].sort((a, b) => a.day - b.day);
          const changes = sorted.map((item, index) => ({
            at: new Date(Date.UTC(2026, 0, 1 + item.day, 0, 0, index)).toISOString(),
            operation: item.kind,
            side: item.side,
            amount: item.amount,
          }));
          const chain = buildChain("2026-01-01T00:00:00.000Z", changes);
          const all = dayWindow(new Date("2026-01-10T12:00:00Z"), 10);
          const window = all.slice(10 - windowDays);
          const baseline =
            [...chain].reverse().find((version) => version.committed_at < `${window[0]}T00:00:00.000Z`) ?? null;
          const inWindow = chain.filter((version) => version.committed_at >= `${window[0]}T00:00:00.000Z`);
          const days = chainSeries(baseline, inWindow, window, normal).map((day) => dayFigures(day, normal));
          let previous = baseline ? figures(baseline, normal).balance : 0;
          for (const day of days) {
            expect(day.balance - previous).toBe(day.inflow_posted - day.outflow_posted);
            previous = day.balance;
            const last = [...chain].reverse().find((version) => version.committed_at.slice(0, 10) <= day.date);
            expect(day.balance).toBe(last ? figures(last, normal).balance : 0);
            expect(day.available).toBe(last ? figures(last, normal).available : 0);
          }
          const created = inWindow.filter((version) => version.operation === "create");
          expect(days.reduce((sum, day) => sum + day.inflow_pending + day.outflow_pending, 0)).toBe(
            created.reduce((sum, version) => sum + version.amount, 0),
          );
          expect(days.reduce((sum, day) => sum + day.transactions, 0)).toBe(created.length);
        },
      ),
    );
  });
});

describe("sumFigures", () => {
  it("adds accounts up day by day", () => {
    const day = (date: string, balance: number) => ({
      date,
      balance,
      available: balance,
      pending_in: 0,
      pending_out: 1,
      inflow_posted: 2,
      outflow_posted: 0,
      inflow_pending: 0,
      outflow_pending: 0,
      transactions: 1,
    });
    expect(sumFigures([[day("d1", 5)], [day("d1", 7)]], ["d1"])).toEqual([
      { ...day("d1", 12), pending_out: 2, inflow_posted: 4, transactions: 2 },
    ]);
  });
});
