import { describe, expect, it } from "vitest";
import type { IntegrityJob, IntegrityResult } from "@fintech/core/ledger/integrity-model";
import { isActive, problemLines, progressText, statusSentence } from "./integrityView";

const zero = { posted_debits: 0, posted_credits: 0, pending_debits: 0, pending_credits: 0 };
const balanced: IntegrityResult = {
  checked_at: "2026-01-15T12:04:10.000Z",
  scope: "ledger",
  as_of: "2026-01-15T11:59:00.000Z",
  accounts_checked: 3,
  journals_checked: 2,
  drift: [],
  drift_count: 0,
  unbalanced_journals: [],
  unbalanced_count: 0,
  currencies: [{ currency: "USD", ...zero, posted_debits: 500, posted_credits: 500, is_balanced: true }],
  ok: true,
};

function job(overrides: Partial<IntegrityJob> = {}, progress: Partial<IntegrityJob["progress"]> = {}): IntegrityJob {
  return {
    id: "5a0c3e2f-9b1d-4c8e-a7f6-3d2e1c0b9a87",
    scope: "ledger",
    started_by: { id: "u1", name: "Ada Admin" },
    started_at: "2026-01-15T12:00:00.000Z",
    as_of: "2026-01-15T11:59:00.000Z",
    status: "running",
    progress: {
      phase: "journals",
      pages: 2,
      items_examined: 1204,
      estimated_items: 3000,
      journals_checked: 10,
      accounts_found: 4,
      accounts_checked: 0,
      percent: 32,
      ...progress,
    },
    result: null,
    finished_at: null,
    error: null,
    updated_at: "2026-01-15T12:00:02.000Z",
    ...overrides,
  };
}

describe("the integrity panel's wording", () => {
  it("follows a job from queued to its outcome", () => {
    expect(statusSentence(null)).toBe("No integrity check has run yet.");
    expect(statusSentence(job({ status: "queued" }))).toBe("Integrity check queued: it starts in a moment.");
    expect(statusSentence(job())).toBe("Integrity check running: reading the journals and accounts.");
    expect(statusSentence(job({}, { phase: "accounts" }))).toBe(
      "Integrity check running: comparing every balance with its journals.",
    );
    expect(statusSentence(job({ status: "succeeded", result: balanced }))).toBe(
      "Integrity check finished: the ledger is balanced.",
    );
    expect(statusSentence(job({ status: "failed", error: "boom" }))).toBe("The integrity check failed.");
    const broken = {
      ...balanced,
      ok: false,
      drift_count: 2,
      unbalanced_count: 1,
      currencies: [{ ...balanced.currencies[0]!, posted_debits: 501, is_balanced: false }],
    };
    expect(statusSentence(job({ status: "succeeded", result: broken }))).toBe(
      "Integrity check finished: 4 problems found.",
    );
    expect(isActive(job({ status: "queued" }))).toBe(true);
    expect(isActive(job({ status: "succeeded" }))).toBe(false);
    expect(isActive(null)).toBe(false);
  });

  it("says how far a job got, with or without an estimate", () => {
    expect(progressText(job())).toBe("32% · 1,204 items read");
    expect(progressText(job({}, { percent: null }))).toBe("1,204 items read");
    expect(progressText(job({}, { phase: "accounts", accounts_checked: 3, percent: 95 }))).toBe(
      "95% · 3 of 4 accounts compared",
    );
  });

  it("lists each problem in words, and says how many were left out", () => {
    const result: IntegrityResult = {
      ...balanced,
      ok: false,
      drift: [
        {
          account_id: "a1",
          account_name: "Savings",
          recorded: { ...zero, posted_debits: 1001 },
          expected: { ...zero, posted_debits: 1000 },
        },
      ],
      drift_count: 150,
      unbalanced_journals: ["j9"],
      unbalanced_count: 1,
      currencies: [{ currency: "USD", ...zero, posted_debits: 1001, posted_credits: 1000, is_balanced: false }],
    };
    expect(problemLines(result)).toEqual([
      "Savings (a1): posted debits 1001 recorded, 1000 from its journals (minor units)",
      "Journal j9: its debits and credits differ",
      "USD: debits $10.01 and credits $10.00 posted, $0.00 and $0.00 pending",
      "…and 149 more (the first 100 of each kind are listed)",
    ]);
    expect(problemLines(balanced)).toEqual([]);
  });
});
