import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { riskLevel } from "../model";
import { evaluateRuleSet, parseRuleSetBody } from "./engine";
import { NEUTRAL_FACTS, type RuleSetBodyInput } from "./model";

/**
 * The assessment against an independent oracle: random rule sets over a numeric fact, where the
 * oracle knows which rules fire (amount >= threshold) and computes score, level, priority and
 * verdict by the definitions of docs/kyc.md#risk-engine-rules-as-data. Then the score is monotone:
 * a rule with non-negative points added to any rule set never lowers the score of any submission.
 */

const AT = "2026-01-15T10:00:00.000Z";

interface GeneratedRule {
  threshold: number;
  points: number;
  flag: boolean;
  verdict: "reject" | "review" | undefined;
  priority: "high" | "medium" | "low" | undefined;
}

const ruleArbitrary = fc.record({
  threshold: fc.integer({ min: 0, max: 1_000 }),
  points: fc.integer({ min: -100, max: 100 }),
  flag: fc.boolean(),
  verdict: fc.constantFrom("reject" as const, "review" as const, undefined),
  priority: fc.constantFrom("high" as const, "medium" as const, "low" as const, undefined),
});

function ruleSet(rules: GeneratedRule[]): RuleSetBodyInput {
  return {
    name: "Generated",
    country_risk: { high: [], medium: [] },
    rules: rules.map((rule, index) => ({
      id: `r${index}`,
      name: `Rule ${index}`,
      conditions: { all: [{ fact: "amount", operator: "greaterThanInclusive", value: rule.threshold }] },
      event: {
        type: "risk",
        params: {
          points: rule.points,
          reason: `r${index}`,
          ...(rule.flag ? { flag: { code: `FLAG_${index % 3}`, message: "flag" } } : {}),
          ...(rule.verdict ? { verdict: rule.verdict } : {}),
          ...(rule.priority ? { priority: rule.priority } : {}),
        },
      },
    })),
  };
}

const RANK = { low: 0, medium: 1, high: 2 } as const;

/** What docs/kyc.md#risk-engine-rules-as-data says the assessment is, computed without the engine. */
function oracle(rules: GeneratedRule[], amount: number) {
  const fired = rules.filter((rule) => amount >= rule.threshold);
  const score = Math.max(
    0,
    Math.min(
      100,
      fired.reduce((sum, rule) => sum + rule.points, 0),
    ),
  );
  const level = riskLevel(score);
  const fromLevel = ({ Low: "low", Medium: "medium", High: "high" } as const)[level];
  const asked = fired.flatMap((rule) => (rule.priority ? [rule.priority] : []));
  const priority = [fromLevel, ...asked].reduce((best, next) => (RANK[next] > RANK[best] ? next : best));
  const flags = new Set(
    rules.flatMap((rule, index) => (rule.flag && amount >= rule.threshold ? [`FLAG_${index % 3}`] : [])),
  );
  const verdict = fired.some((rule) => rule.verdict === "reject")
    ? "reject"
    : level === "High" || flags.size > 0 || fired.some((rule) => rule.verdict === "review")
      ? "review"
      : "approve";
  return { score, level, priority, verdict, flags: [...flags].sort(), reasons: fired.length };
}

async function assess(rules: GeneratedRule[], amount: number) {
  const body = await parseRuleSetBody(ruleSet(rules), NEUTRAL_FACTS);
  return evaluateRuleSet({ version: 3, body }, { ...NEUTRAL_FACTS, amount }, AT);
}

describe("the assessment (property)", () => {
  it("matches the oracle: score clamped 0-100, level, priority, verdict, flags, one reason per fired rule", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleArbitrary, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 1_200 }),
        async (rules, amount) => {
          const result = await assess(rules, amount);
          const expected = oracle(rules, amount);
          expect(result.risk_score).toBe(expected.score);
          expect(result.risk_score).toBeGreaterThanOrEqual(0);
          expect(result.risk_score).toBeLessThanOrEqual(100);
          expect(result.level).toBe(expected.level);
          expect(result.priority).toBe(expected.priority);
          expect(result.verdict).toBe(expected.verdict);
          expect(result.flags.map((flag) => flag.code).sort()).toEqual(expected.flags);
          expect(result.reasons).toHaveLength(expected.reasons);
          expect(result.rule_set_version).toBe(3);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is monotone: adding a rule with non-negative points never lowers a score", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleArbitrary, { minLength: 1, maxLength: 10 }),
        ruleArbitrary.map((rule) => ({ ...rule, points: Math.abs(rule.points) })),
        fc.integer({ min: 0, max: 1_200 }),
        async (rules, added, amount) => {
          const before = await assess(rules, amount);
          const after = await assess([...rules, added], amount);
          expect(after.risk_score).toBeGreaterThanOrEqual(before.risk_score);
        },
      ),
      { numRuns: 150 },
    );
  });
});
