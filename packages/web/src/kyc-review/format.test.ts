import { describe, expect, it } from "vitest";
import {
  exportFilename,
  filtersFromSearch,
  filtersToSearch,
  formatInr,
  formatProcessingTime,
  formatTrend,
  hasNarrowingFilters,
  showingText,
  statCards,
  submittedAge,
} from "./format";
import type { DashboardStats } from "../api/kycReview";

const NOW = Date.parse("2026-03-14T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3_600_000;

describe("submitted age (docs/product/kyc.md#submission-list)", () => {
  it("is Just now under an hour, then whole hours, then whole days", () => {
    expect(submittedAge(ago(0), NOW)).toBe("Just now");
    expect(submittedAge(ago(59 * 60_000), NOW)).toBe("Just now");
    expect(submittedAge(ago(HOUR), NOW)).toBe("1h ago");
    expect(submittedAge(ago(23 * HOUR + 59 * 60_000), NOW)).toBe("23h ago");
    expect(submittedAge(ago(24 * HOUR), NOW)).toBe("1d ago");
    expect(submittedAge(ago(9 * 24 * HOUR + 5 * HOUR), NOW)).toBe("9d ago");
  });

  it("treats a clock ahead of the viewer's as just now, and an unreadable date as nothing", () => {
    expect(submittedAge(new Date(NOW + 5 * 60_000).toISOString(), NOW)).toBe("Just now");
    expect(submittedAge("yesterday", NOW)).toBe("");
  });
});

describe("INR amounts", () => {
  it("use the Indian grouping and no decimals", () => {
    expect(formatInr(50_000)).toBe("₹50,000");
    expect(formatInr(250_000)).toBe("₹2,50,000");
    expect(formatInr(12_345_678)).toBe("₹1,23,45,678");
    expect(formatInr(0)).toBe("₹0");
  });

  it("round a stray fraction and show a non-number as zero", () => {
    expect(formatInr(999.6)).toBe("₹1,000");
    expect(formatInr(Number.NaN)).toBe("₹0");
  });
});

describe("trends against the previous period", () => {
  it("sign, round to a tenth and name the period compared with", () => {
    expect(formatTrend(12.345, "7d")).toEqual({
      text: "+12.3%",
      direction: "up",
      description: "up 12.3% on the previous 7 days",
    });
    expect(formatTrend(-4, "30d")).toEqual({
      text: "\u22124%",
      direction: "down",
      description: "down 4% on the previous 30 days",
    });
    expect(formatTrend(0.01, "24h")).toEqual({
      text: "0%",
      direction: "flat",
      description: "unchanged from the previous 24 hours",
    });
  });

  it("show a rate's change in percentage points", () => {
    expect(formatTrend(10.64, "7d", "points")).toEqual({
      text: "+10.6 pts",
      direction: "up",
      description: "up 10.6 pts on the previous 7 days",
    });
    expect(formatTrend(0, "7d", "points").text).toBe("0 pts");
  });

  it("say there is nothing to compare with when the server sends no change", () => {
    expect(formatTrend(null, "90d")).toEqual({
      text: "—",
      direction: "none",
      description: "no figures for the previous 90 days to compare with",
    });
    expect(formatTrend(undefined, "7d").direction).toBe("none");
  });
});

describe("footer figures", () => {
  it("average processing time is N/A when unknown", () => {
    expect(formatProcessingTime(null)).toBe("N/A");
    expect(formatProcessingTime(undefined)).toBe("N/A");
    expect(formatProcessingTime(Number.NaN)).toBe("N/A");
    expect(formatProcessingTime(0.25)).toBe("15 min");
    expect(formatProcessingTime(2.54)).toBe("2.5h");
    expect(formatProcessingTime(30)).toBe("30h");
    expect(formatProcessingTime(72)).toBe("3.0 days");
  });

  it("counts what is shown against the total", () => {
    expect(showingText(25, 130)).toBe("Showing 25 of 130 submissions");
    expect(showingText(1, 1)).toBe("Showing 1 of 1 submission");
    expect(showingText(0, 0)).toBe("Showing 0 of 0 submissions");
    expect(showingText(25, 10_000, true)).toBe("Showing 25 of 10,000+ submissions");
  });

  it("names the export after the server, else after today", () => {
    expect(exportFilename("kyc-2026.csv")).toBe("kyc-2026.csv");
    expect(exportFilename(null, new Date("2026-03-14T23:30:00Z"))).toBe("kyc-submissions-2026-03-14.csv");
  });
});

describe("filters in the URL", () => {
  it("default to the last 7 days with nothing narrowed", () => {
    const filters = filtersFromSearch(new URLSearchParams());
    expect(filters).toEqual({ period: "7d" });
    expect(hasNarrowingFilters(filters)).toBe(false);
  });

  it("read every filter and drop values the server would refuse", () => {
    expect(
      filtersFromSearch(new URLSearchParams("status=under_review&priority=high&country=in&period=30d&search=Asha")),
    ).toEqual({
      status: "under_review",
      priority: "high",
      country: "IN",
      period: "30d",
      search: "Asha",
    });
    expect(
      filtersFromSearch(new URLSearchParams("status=approved&priority=urgent&country=India&period=1y&search=%20%20")),
    ).toEqual({ period: "7d" });
    expect(filtersFromSearch(new URLSearchParams(`search=${"x".repeat(300)}`)).search).toHaveLength(100);
  });

  it("round-trip, leaving out the default period and empty values", () => {
    const filters = { status: "pending", country: "GB", priority: "low", period: "90d", search: "rao" } as const;
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch({ period: "7d", search: " " }).toString()).toBe("");
  });
});

describe("stat cards", () => {
  const figures = {
    total_submissions: 40,
    verified: 28,
    pending: 8,
    awaiting_applicant: 3,
    under_review: 5,
    rejected: 4,
    average_processing_time: 5.2,
    success_rate: 87.5,
  };
  const stats: DashboardStats = {
    ...figures,
    period: "7d",
    from: "2026-01-08T12:00:00.000Z",
    to: "2026-01-15T12:00:00.000Z",
    monthly_growth: 12.5,
    previous: figures,
    trends: {
      total_submissions: 25,
      verified: 40,
      pending: 33.3,
      rejected: -33.3,
      average_processing_time: -20,
      success_rate: -2,
    },
    complete: true,
  };

  it("show the four figures with their trends; more pending reviews is bad news, a lower success rate too", () => {
    expect(statCards(stats, "7d").map((card) => [card.label, card.value, card.trend.text, card.tone])).toEqual([
      ["Total Submissions", "40", "+25%", "good"],
      ["Verified", "28", "+40%", "good"],
      ["Pending Review", "8", "+33.3%", "bad"],
      ["Success Rate", "87.5%", "\u22122 pts", "bad"],
    ]);
  });

  it("are zeros without trends when the stats failed, and a rate without decisions is N/A", () => {
    expect(statCards(null, "30d").map((card) => [card.value, card.trend.text, card.tone])).toEqual([
      ["0", "—", "neutral"],
      ["0", "—", "neutral"],
      ["0", "—", "neutral"],
      ["0%", "—", "neutral"],
    ]);
    expect(statCards({ ...stats, success_rate: null }, "7d")[3]!.value).toBe("N/A");
  });
});
