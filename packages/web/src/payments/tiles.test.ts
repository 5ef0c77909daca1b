import { describe, expect, it } from "vitest";
import { durationText, paymentTiles, processingMs, rateText, type TilePayment } from "./tiles";

function payment(overrides: Partial<TilePayment>): TilePayment {
  return {
    status: "pending",
    amountMinor: 100,
    currency: "USD",
    createdAt: "2026-11-26T04:00:00.000Z",
    completedAt: null,
    ...overrides,
  };
}

describe("the /payments tiles", () => {
  it("with no payment: nothing invented (no rate, no time, no volume)", () => {
    expect(paymentTiles([])).toEqual({
      total: 0,
      completed: 0,
      failed: 0,
      active: 0,
      parked: 0,
      waiting: 0,
      volume: [],
      successRate: null,
      avgProcessingMs: null,
    });
  });

  it("Success Rate is completed / all; Active is pending + processing (not parked, not waiting for a decision); volume is what completed, per currency", () => {
    const tiles = paymentTiles([
      payment({ status: "completed", amountMinor: 1_000, completedAt: "2026-11-26T04:00:01.000Z" }),
      payment({ status: "completed", amountMinor: 250, completedAt: "2026-11-26T04:00:03.000Z" }),
      payment({ status: "completed", currency: "EUR", amountMinor: 5_000, completedAt: "2026-11-26T04:00:02.000Z" }),
      payment({ status: "failed", amountMinor: 99_999 }),
      payment({ status: "pending" }),
      payment({ status: "processing" }),
      payment({ status: "parked", amountMinor: 7_777 }),
      payment({ status: "held_for_review" }),
      payment({ status: "awaiting_approval" }),
    ]);
    expect(tiles.total).toBe(9);
    expect(tiles.successRate).toBe(3 / 9);
    expect(tiles.active).toBe(2);
    expect(tiles.failed).toBe(1);
    expect(tiles.parked).toBe(1);
    expect(tiles.waiting).toBe(2);
    expect(tiles.volume).toEqual([
      { currency: "EUR", minor: 5_000, count: 1 },
      { currency: "USD", minor: 1_250, count: 2 },
    ]);
    // (1 s + 3 s + 2 s) / 3
    expect(tiles.avgProcessingMs).toBe(2_000);
  });

  it("Avg Processing is completedAt − createdAt; unreadable or backwards times are left out", () => {
    expect(processingMs({ createdAt: "2026-11-26T04:00:00.000Z", completedAt: "2026-11-26T04:00:01.250Z" })).toBe(
      1_250,
    );
    expect(processingMs({ createdAt: "2026-11-26T04:00:00.000Z", completedAt: null })).toBeNull();
    expect(processingMs({ createdAt: "nonsense", completedAt: "2026-11-26T04:00:01.250Z" })).toBeNull();
    expect(processingMs({ createdAt: "2026-11-26T04:00:02.000Z", completedAt: "2026-11-26T04:00:01.000Z" })).toBeNull();
    expect(paymentTiles([payment({ status: "completed", completedAt: "bad" })]).avgProcessingMs).toBeNull();
  });

  it("formats durations and rates as people read them", () => {
    expect(durationText(850)).toBe("850 ms");
    expect(durationText(2_300)).toBe("2.3 s");
    expect(durationText(59_940)).toBe("59.9 s");
    expect(durationText(245_000)).toBe("4 min 5 s");
    expect(durationText(120_000)).toBe("2 min");
    expect(durationText(7_800_000)).toBe("2 h 10 min");
    expect(durationText(-1)).toBe("N/A");
    expect(rateText(0.5)).toBe("50%");
    expect(rateText(2 / 3)).toBe("66.7%");
    expect(rateText(1)).toBe("100%");
  });
});
