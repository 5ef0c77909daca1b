import { describe, expect, it } from "vitest";
import { KYC_STATUSES, type KycStatus } from "./model";
import type { RiskAssessment } from "./model";
import {
  approvalRisk,
  BulkUpdateInput,
  confirmationMatches,
  DecisionInput,
  missingReason,
  reasonIsMissing,
  ReviewListQuery,
  reviewerTransition,
  shareLabel,
  StatsQuery,
  summariseBulkRisk,
} from "./review-model";

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
    for (const [isComplete, want] of [
      [false, incomplete],
      [true, complete],
    ] as const) {
      const rule = reviewerTransition(from, to, isComplete);
      const got = rule.allowed ? (rule.needsNote ? "note" : "ok") : "refused";
      expect(got, `complete=${isComplete}`).toBe(want);
      if (!rule.allowed) expect(rule.reason).toMatch(/cannot/);
    }
  });
});

describe("the back office's inputs", () => {
  it("reads empty query values as no filter and normalises search and country", () => {
    expect(ReviewListQuery.parse({ status: "", search: "  MEERA ", country: "in", limit: "10" })).toEqual({
      search: "meera",
      country: "IN",
      limit: 10,
    });
    expect(ReviewListQuery.parse({ search: "   " })).toEqual({ limit: 25 });
    expect(StatsQuery.parse({})).toEqual({ period: "7d" });
  });

  it("bounds notes, ids and the bulk size", () => {
    expect(DecisionInput.safeParse({ status: "verified", notes: "x".repeat(2000) }).success).toBe(true);
    expect(DecisionInput.safeParse({ status: "verified", notes: "x".repeat(2001) }).success).toBe(false);
    expect(
      BulkUpdateInput.safeParse({ ids: Array.from({ length: 100 }, (_, index) => `id-${index}`), status: "rejected" })
        .success,
    ).toBe(true);
    expect(
      BulkUpdateInput.safeParse({ ids: Array.from({ length: 101 }, (_, index) => `id-${index}`), status: "rejected" })
        .success,
    ).toBe(false);
  });
});

describe("required reasons", () => {
  it("a reject and a send-back need words; other decisions do not", () => {
    expect(missingReason("rejected", undefined)).toBe("notes must say why the submission is rejected");
    expect(missingReason("rejected", " \n\t ")).toBe("notes must say why the submission is rejected");
    expect(missingReason("pending", "")).toBe("notes must tell the applicant what to provide");
    expect(missingReason("rejected", "Forged")).toBeNull();
    expect(missingReason("verified", undefined)).toBeNull();
    expect(missingReason("under_review", undefined)).toBeNull();
  });

  it("tells a missing reason from a malformed body", () => {
    expect(
      [{}, { message: null }, { message: "" }, { message: "  " }].map((body) => reasonIsMissing(body, "message")),
    ).toEqual([true, true, true, true]);
    expect(
      [{ message: 5 }, { message: "ok" }, null, [], "text"].map((body) => reasonIsMissing(body, "message")),
    ).toEqual([false, false, false, false, false]);
  });
});

const assessment = (score: number, verdict: RiskAssessment["verdict"], version = 2): RiskAssessment => ({
  risk_score: score,
  level: score >= 60 ? "High" : score >= 30 ? "Medium" : "Low",
  priority: "low",
  flags: [],
  verdict,
  reasons: [],
  rule_set_version: version,
  assessed_at: "2026-01-15T09:00:00.000Z",
});

describe("the approval guard", () => {
  it("warns on High risk or a reject recommendation, stored or live, the live one named first", () => {
    expect(approvalRisk(assessment(10, "approve"), assessment(20, "review"))).toEqual({
      risk_score: 20,
      level: "Low",
      reject_recommended: false,
      acknowledgement_required: false,
      warnings: [],
    });
    expect(approvalRisk(assessment(10, "approve", 1), assessment(100, "reject"))).toEqual({
      risk_score: 100,
      level: "High",
      reject_recommended: true,
      acknowledgement_required: true,
      warnings: [
        "High risk: score 100 under the live rules (v2)",
        "The risk rules recommend rejecting it under the live rules (v2)",
      ],
    });
    // A stored High the live rules no longer see still warns: approving accepts the higher of the two.
    expect(approvalRisk(assessment(70, "review", 1), assessment(5, "approve")).warnings).toEqual([
      "High risk: score 70 when last assessed (rules v1)",
    ]);
    // A reject recommendation at a Medium score.
    expect(approvalRisk(null, assessment(40, "reject"))).toMatchObject({
      level: "Medium",
      acknowledgement_required: true,
      warnings: ["The risk rules recommend rejecting it under the live rules (v2)"],
    });
    expect(approvalRisk(null, null)).toEqual({
      risk_score: null,
      level: null,
      reject_recommended: false,
      acknowledgement_required: false,
      warnings: [],
    });
  });

  it("takes the typed word exactly (surrounding spaces aside)", () => {
    expect(["APPROVE", " APPROVE ", "approve", "APPROVED", ""].map(confirmationMatches)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("summarises a bulk selection by level, highest score and reject recommendations", () => {
    const item = (id: string, score: number | null, level: "Low" | "Medium" | "High" | null, reject: boolean) => ({
      id,
      name: id,
      status: "under_review" as const,
      risk_score: score,
      level,
      reject_recommended: reject,
      acknowledgement_required: reject || level === "High",
      warnings: [],
    });
    const summary = summariseBulkRisk(5, [
      item("a", 10, "Low", false),
      item("b", 95, "High", true),
      item("c", 45, "Medium", true),
      item("d", null, null, false),
    ]);
    expect(summary).toMatchObject({
      requested: 5,
      found: 4,
      by_level: { Low: 1, Medium: 1, High: 1 },
      unassessed: 1,
      highest_score: 95,
      reject_recommended: 2,
      acknowledgement_required: true,
    });
    expect(summariseBulkRisk(1, [])).toMatchObject({ found: 0, highest_score: null, acknowledgement_required: false });
  });
});

describe("what linked submissions share, in words", () => {
  it("names the number or the pictures", () => {
    expect(shareLabel({ kind: "identity_number", type: "aadhaar" })).toBe("the same Aadhaar number");
    expect(shareLabel({ kind: "identity_number", type: "pan" })).toBe("the same PAN");
    expect(
      shareLabel({ kind: "document_image", document_type: "passport", other_document_type: "passport", distance: 0 }),
    ).toBe("the same Passport picture");
    expect(
      shareLabel({ kind: "document_image", document_type: "passport", other_document_type: "idCard", distance: 2 }),
    ).toBe("a near-duplicate Passport picture (their National ID Card)");
  });
});
