import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { actionErrorMessage, bulkQuestion, keepVisible, parseRuleSet, summariseBulk, toggled, toggledAll } from "./actions";

const names = new Map([
  ["a", "Asha Rao"],
  ["b", "Bilal Khan"],
  ["c", "Chen Li"],
]);

describe("bulk results per id", () => {
  it("all updated", () => {
    const results = ["a", "b"].map((id) => ({ id, ok: true, status: "verified" as const }));
    expect(summariseBulk("verified", ["a", "b"], results, names)).toEqual({ tone: "success", headline: "2 submissions approved", failures: [] });
  });

  it("some refused: each named with the server's reason, and an id the reply leaves out counts as failed", () => {
    const summary = summariseBulk(
      "rejected",
      ["a", "b", "c"],
      [
        { id: "a", ok: true, status: "rejected" },
        { id: "b", ok: false, message: "Submission is already verified" },
      ],
      names,
    );
    expect(summary).toEqual({
      tone: "warning",
      headline: "1 submission rejected, 2 failed",
      failures: ["Bilal Khan: Submission is already verified", "Chen Li: no result returned"],
    });
  });

  it("none updated", () => {
    const summary = summariseBulk("under_review", ["zz"], [{ id: "zz", ok: false, message: "Submission not found" }], names);
    expect(summary).toEqual({ tone: "error", headline: "No submissions moved to under review: 1 failed", failures: ["zz: Submission not found"] });
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
  it("accepts a JSON object", () => {
    expect(parseRuleSet('{"rules": []}')).toEqual({ ok: true, rules: { rules: [] } });
  });

  it("says what is wrong otherwise", () => {
    expect(parseRuleSet("  ")).toEqual({ ok: false, message: "The rule set is empty" });
    expect(parseRuleSet("[1]")).toEqual({ ok: false, message: "The rule set must be a JSON object" });
    const broken = parseRuleSet('{"rules": [}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.message).toMatch(/^Not valid JSON: /);
  });
});

describe("action errors", () => {
  it("show the server's message, else the fallback", () => {
    expect(actionErrorMessage(new ApiError("Submission is already verified", "server-message", 409), "Failed")).toBe("Submission is already verified");
    expect(actionErrorMessage(new ApiError("HTTP error! status: 502", "http-status", 502), "Failed to update submission status")).toBe("Failed to update submission status");
    expect(actionErrorMessage(new Error("boom"), "Failed")).toBe("Failed");
  });
});
