import { describe, expect, it } from "vitest";
import type { LimitStatus, LimitUsage } from "@fintech/core/limits/model";
import { limitLines } from "./limitLines";

const usage = (
  movement: LimitUsage["movement"],
  window: LimitUsage["window"],
  limit: number | null,
  used: number,
  currency: LimitUsage["currency"] = "USD",
): LimitUsage => ({
  movement,
  window,
  currency,
  allowed: limit !== null,
  limit: limit === null ? null : (limit / 100).toFixed(2),
  used: (used / 100).toFixed(2),
  remaining: limit === null ? null : (Math.max(0, limit - used) / 100).toFixed(2),
  limit_minor: limit,
  used_minor: used,
  remaining_minor: limit === null ? null : Math.max(0, limit - used),
});

const unverified: LimitStatus = {
  level: "unverified",
  level_label: "Unverified",
  source: "kyc",
  next_step: { href: "/kyc", message: "Complete verification at /kyc to raise your limits and send money to others." },
  limits: [
    usage("deposit", "day", 100_000, 30_000),
    usage("deposit", "month", 500_000, 470_000),
    usage("outgoing", "day", null, 0),
    usage("outgoing", "month", null, 0),
    usage("deposit", "day", 100_000, 0, "EUR"),
    usage("deposit", "month", 500_000, 0, "EUR"),
    usage("outgoing", "day", null, 0, "EUR"),
    usage("outgoing", "month", null, 0, "EUR"),
  ],
};

describe("the limit banner's lines", () => {
  it("shows what may still move now: the smaller of what the 24-hour and 30-day windows leave", () => {
    expect(limitLines(unverified, ["USD"])).toEqual([
      {
        movement: "deposit",
        label: "Deposits",
        currency: "USD",
        allowed: true,
        remaining: "$300.00",
        detail: "of $1,000.00 per 24 hours · $300.00 of $5,000.00 left per 30 days",
      },
      {
        movement: "outgoing",
        label: "Payments to others",
        currency: "USD",
        allowed: false,
        remaining: null,
        detail: "Not available until your identity is verified",
      },
    ]);
  });

  it("lists each currency of the user's accounts once, USD when they have none", () => {
    expect(limitLines(unverified, ["EUR", "USD", "EUR"]).map((line) => `${line.movement} ${line.currency}`)).toEqual([
      "deposit EUR",
      "deposit USD",
      "outgoing EUR",
      "outgoing USD",
    ]);
    expect(limitLines(unverified, []).map((line) => line.currency)).toEqual(["USD", "USD"]);
  });

  it("says a locked movement is not available at the level when no verification would unlock it", () => {
    const held = { ...unverified, source: "manual" as const, next_step: null };
    expect(limitLines(held, ["USD"])[1]).toMatchObject({ allowed: false, detail: "Not available at your level" });
  });
});
