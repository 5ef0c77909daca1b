import { describe, expect, it } from "vitest";
import { KYC_STATUSES, type KycStatus } from "./model";
import { BulkUpdateInput, DecisionInput, ReviewListQuery, reviewerTransition, StatsQuery } from "./review-model";

/** The reviewer's transition rules, every pair of statuses with a complete and an incomplete submission. */
describe("reviewerTransition", () => {
  // [from, to, complete] -> "ok" | "note" (allowed, needs a note) | "refused"
  const expected: Record<`${KycStatus}>${KycStatus}`, [incomplete: string, complete: string]> = {
    "pending>pending": ["ok", "ok"],
    "pending>under_review": ["refused", "ok"],
    "pending>verified": ["refused", "refused"],
    "pending>rejected": ["ok", "ok"],
    "under_review>pending": ["note", "note"],
    "under_review>under_review": ["ok", "ok"],
    "under_review>verified": ["ok", "ok"],
    "under_review>rejected": ["ok", "ok"],
    "verified>pending": ["refused", "refused"],
    "verified>under_review": ["note", "note"],
    "verified>verified": ["ok", "ok"],
    "verified>rejected": ["refused", "refused"],
    "rejected>pending": ["refused", "refused"],
    "rejected>under_review": ["note", "note"],
    "rejected>verified": ["refused", "refused"],
    "rejected>rejected": ["ok", "ok"],
  };
  const pairs = KYC_STATUSES.flatMap((from) => KYC_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)("%s -> %s", (from, to) => {
    const [incomplete, complete] = expected[`${from}>${to}`];
    for (const [isComplete, want] of [[false, incomplete], [true, complete]] as const) {
      const rule = reviewerTransition(from, to, isComplete);
      const got = rule.allowed ? (rule.needsNote ? "note" : "ok") : "refused";
      expect(got, `complete=${isComplete}`).toBe(want);
      if (!rule.allowed) expect(rule.reason).toMatch(/cannot/);
    }
  });
});

describe("the back office's inputs", () => {
  it("reads empty query values as no filter and normalises search and country", () => {
    expect(ReviewListQuery.parse({ status: "", search: "  MEERA ", country: "in", limit: "10" })).toEqual({ search: "meera", country: "IN", limit: 10 });
    expect(ReviewListQuery.parse({ search: "   " })).toEqual({ limit: 25 });
    expect(StatsQuery.parse({})).toEqual({ period: "7d" });
  });

  it("bounds notes, ids and the bulk size", () => {
    expect(DecisionInput.safeParse({ status: "verified", notes: "x".repeat(2000) }).success).toBe(true);
    expect(DecisionInput.safeParse({ status: "verified", notes: "x".repeat(2001) }).success).toBe(false);
    expect(BulkUpdateInput.safeParse({ ids: Array.from({ length: 100 }, (_, index) => `id-${index}`), status: "rejected" }).success).toBe(true);
    expect(BulkUpdateInput.safeParse({ ids: Array.from({ length: 101 }, (_, index) => `id-${index}`), status: "rejected" }).success).toBe(false);
  });
});
