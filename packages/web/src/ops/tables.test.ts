import { describe, expect, it } from "vitest";
import type { OpsOverview, OpsPaymentRow } from "@fintech/core/ops/model";
import { minutesSummary, sparklinePoints, successRateText, volumeText, whenText } from "./format";
import { emptyTables, withLiveRow, withOverview, withoutFresh } from "./tables";

const payment = (id: string, at: string, status: OpsPaymentRow["status"] = "pending"): OpsPaymentRow => ({
  table: "payment",
  id,
  change: "status",
  railId: "ach",
  rail: "ACH",
  status,
  amount: "5.00",
  currency: "USD",
  userId: "usr_1",
  at,
});

const overview = (payments: OpsPaymentRow[]): OpsOverview => ({
  journals: [],
  payments,
  kyc: [],
  breaks: [],
  analytics: {
    windowHours: 24,
    rails: [],
    journalsPerMinute: { from: "2026-11-20T09:01:00.000Z", counts: [], capped: false },
    openBreaks: { total: 0, byClass: [] },
  },
  at: "2026-11-20T10:00:00.000Z",
});

describe("the console's tables", () => {
  it("marks rows from the feed fresh, never the overview's, and not an older change arriving late", () => {
    let tables = withOverview(emptyTables(), overview([payment("pay_1", "2026-11-20T10:00:00.000Z")]));
    expect(tables.fresh).toEqual([]);
    tables = withLiveRow(tables, payment("pay_2", "2026-11-20T10:00:01.000Z"));
    tables = withLiveRow(tables, payment("pay_1", "2026-11-20T10:00:02.000Z", "completed"));
    expect(tables.payment.map((row) => [row.id, row.status])).toEqual([
      ["pay_1", "completed"],
      ["pay_2", "pending"],
    ]);
    expect(tables.fresh).toEqual(["payment:pay_2", "payment:pay_1"]);
    tables = withoutFresh(tables, ["payment:pay_2", "payment:pay_1"]);
    tables = withLiveRow(tables, payment("pay_1", "2026-11-20T09:59:00.000Z", "pending"));
    expect(tables.fresh).toEqual([]);
    expect(tables.payment[0]!.status).toBe("completed");
    // An overview read before the feed's last change does not undo it.
    tables = withOverview(tables, overview([payment("pay_1", "2026-11-20T10:00:00.000Z")]));
    expect(tables.payment[0]!.status).toBe("completed");
  });
});

describe("the console's words", () => {
  it("words times, rates, volumes and the sparkline", () => {
    const now = new Date("2026-11-20T12:00:00.000Z");
    expect(whenText("2026-11-20T10:05:09.123Z", now)).toBe("10:05:09 UTC");
    expect(whenText("2026-11-19T10:05:09.123Z", now)).toBe("2026-11-19 10:05:09 UTC");
    expect(successRateText(null)).toBe("No attempts");
    expect(successRateText(0.9167)).toBe("91.7%");
    expect(volumeText([])).toBe("None");
    expect(
      volumeText([
        { currency: "USD", amount: "10.00" },
        { currency: "EUR", amount: "2.50" },
      ]),
    ).toBe("10.00 USD · 2.50 EUR");
    expect(minutesSummary({ from: "", counts: [1, 0, 4, 2], capped: false })).toBe(
      "7 journals in the last hour; busiest minute 4, this minute 2",
    );
    expect(sparklinePoints([0, 2], 10, 10)).toBe("0.0,9.0 10.0,1.0");
  });
});
