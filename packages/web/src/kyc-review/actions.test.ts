import { SEED_RULE_SET } from "@fintech/core/kyc/risk/seed-rules";
import { describe, expect, it } from "vitest";
import type { BulkResult } from "../api/kycReview";
import { ApiError } from "../api/errors";
import {
  actionErrorMessage,
  bulkQuestion,
  bulkRiskLines,
  editableRuleSet,
  jsonPath,
  keepVisible,
  parseRuleSet,
  summariseBulk,
  toggled,
  toggledAll,
} from "./actions";

const done = (id: string, status: BulkResult["status"], outcome: BulkResult["outcome"] = "updated"): BulkResult => ({
  id,
  ok: true,
  outcome,
  status,
  code: null,
  message: null,
});
const refused = (id: string, message: string, outcome: BulkResult["outcome"] = "refused"): BulkResult => ({
  id,
  ok: false,
  outcome,
  status: null,
  code: "kyc_invalid_transition",
  message,
});

const names = new Map([
  ["a", "Asha Rao"],
  ["b", "Bilal Khan"],
  ["c", "Chen Li"],
]);

describe("bulk results per id", () => {
  it("all updated", () => {
    const results = [done("a", "verified"), done("b", "verified", "unchanged")];
    expect(summariseBulk("verified", ["a", "b"], results, names)).toEqual({
      tone: "success",
      headline: "2 submissions approved",
      failures: [],
    });
  });

  it("some refused: each named with the server's reason, and an id the reply leaves out counts as failed", () => {
    const summary = summariseBulk(
      "rejected",
      ["a", "b", "c"],
      [done("a", "rejected"), refused("b", "Submission is already verified")],
      names,
    );
    expect(summary).toEqual({
      tone: "warning",
      headline: "1 submission rejected, 2 failed",
      failures: ["Bilal Khan: Submission is already verified", "Chen Li: no result returned"],
    });
  });

  it("none updated", () => {
    const summary = summariseBulk("under_review", ["zz"], [refused("zz", "Submission not found", "not_found")], names);
    expect(summary).toEqual({
      tone: "error",
      headline: "No submissions moved to under review: 1 failed",
      failures: ["zz: Submission not found"],
    });
  });

  it("asks before acting", () => {
    expect(bulkQuestion("verified", 3)).toBe("Approve 3 selected submissions?");
    expect(bulkQuestion("rejected", 1)).toBe("Reject 1 selected submission?");
    expect(bulkQuestion("under_review", 2)).toBe("Move 2 selected submissions to Under Review?");
  });
});

describe("selection", () => {
  it("toggles one row", () => {
    expect([...toggled(new Set(["a"]), "b")]).toEqual(["a", "b"]);
    expect([...toggled(new Set(["a", "b"]), "a")]).toEqual(["b"]);
  });

  it("select-all selects every shown row, or clears them when all are selected", () => {
    expect([...toggledAll(new Set(["a"]), ["a", "b"])].sort()).toEqual(["a", "b"]);
    expect([...toggledAll(new Set(["a", "b", "x"]), ["a", "b"])]).toEqual(["x"]);
    expect([...toggledAll(new Set(), [])]).toEqual([]);
  });

  it("keeps only rows still shown", () => {
    expect([...keepVisible(new Set(["a", "gone"]), ["a", "b"])]).toEqual(["a"]);
  });
});

describe("rule set editor", () => {
  it("accepts a rule set the risk engine's schema accepts", () => {
    const parsed = parseRuleSet(JSON.stringify(SEED_RULE_SET));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.ruleSet.rules).toHaveLength(SEED_RULE_SET.rules.length);
  });

  it("says what is wrong, and where", () => {
    expect(parseRuleSet("  ")).toEqual({ ok: false, message: "The rule set is empty" });
    expect(parseRuleSet("[1]")).toEqual({ ok: false, message: "The rule set must be a JSON object" });
    const broken = parseRuleSet('{"rules": [}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.message).toMatch(/^Not valid JSON: /);
    const tooMany = structuredClone(SEED_RULE_SET);
    tooMany.rules[1]!.event.params.points = 500;
    expect(parseRuleSet(JSON.stringify(tooMany))).toEqual({
      ok: false,
      message: expect.stringMatching(/^rules\[1\]\.event\.params\.points: /),
    });
    const unknownFact = JSON.stringify(SEED_RULE_SET).replace('"fact":"country_risk"', '"fact":"shoe_size"');
    const refusedFact = parseRuleSet(unknownFact);
    expect(refusedFact.ok).toBe(false);
    if (!refusedFact.ok) expect(refusedFact.message).toContain('Unknown fact "shoe_size"');
  });

  it("edits only the body of a version or draft", () => {
    const version = { ...SEED_RULE_SET, version: 3, published_at: "2026-01-01T00:00:00Z", published_by: "Ada" };
    expect(Object.keys(editableRuleSet(version))).toEqual(["name", "description", "rules", "country_risk"]);
    expect(jsonPath(["rules", 2, "event", "params"])).toBe("rules[2].event.params");
    expect(jsonPath([])).toBe("");
  });
});

describe("action errors", () => {
  it("show the server's message, else the fallback", () => {
    expect(actionErrorMessage(new ApiError("Submission is already verified", "server-message", 409), "Failed")).toBe(
      "Submission is already verified",
    );
    expect(
      actionErrorMessage(
        new ApiError("HTTP error! status: 502", "http-status", 502),
        "Failed to update submission status",
      ),
    ).toBe("Failed to update submission status");
    expect(actionErrorMessage(new Error("boom"), "Failed")).toBe("Failed");
  });
});

describe("the risk of a bulk selection in words", () => {
  it("counts by level, names the highest score, the reject recommendations and the missing", () => {
    const lines = bulkRiskLines({
      requested: 4,
      found: 3,
      by_level: { Low: 1, Medium: 0, High: 2 },
      unassessed: 0,
      highest_score: 100,
      reject_recommended: 1,
      acknowledgement_required: true,
      submissions: [],
    });
    expect(lines).toEqual([
      "3 submissions: 1 Low, 0 Medium, 2 High",
      "Highest score: 100",
      "The risk rules recommend rejecting 1 of them",
      "1 of the selected no longer exists",
    ]);
    expect(
      bulkRiskLines({
        requested: 1,
        found: 1,
        by_level: { Low: 0, Medium: 0, High: 0 },
        unassessed: 1,
        highest_score: null,
        reject_recommended: 0,
        acknowledgement_required: false,
        submissions: [],
      }),
    ).toEqual([
      "1 submission: 0 Low, 0 Medium, 0 High, 1 not assessed yet",
      "Highest score: none",
      "The risk rules recommend rejecting none of them",
    ]);
  });
});
