import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors";
import { evaluateRuleSet, parseRuleSetBody } from "./engine";
import { NEUTRAL_FACTS, type RiskFacts, type RuleSetBody } from "./model";
import { FATF_COUNTRY_RISK, SEED_RULE_SET } from "./seed-rules";

/** Rule evaluation: every fact and every rule of the seed set, the assessment's arithmetic, and refused rule sets. */

const AT = "2026-01-15T10:00:00.000Z";
const seed = await parseRuleSetBody(SEED_RULE_SET, NEUTRAL_FACTS);
const assess = (facts: Partial<RiskFacts>, body: RuleSetBody = seed, version: number | null = 7) =>
  evaluateRuleSet({ version, body }, { ...NEUTRAL_FACTS, ...facts }, AT);
const fired = async (facts: Partial<RiskFacts>) => (await assess(facts)).reasons.map((reason) => reason.rule);

async function refusal(input: unknown): Promise<AppError> {
  const error = await parseRuleSetBody(input, NEUTRAL_FACTS).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(400);
  expect((error as AppError).code).toBe("invalid_rule_set");
  return error as AppError;
}

const oneRule = (conditions: unknown, params: Record<string, unknown> = { points: 10, reason: "r" }) => ({
  name: "Test",
  country_risk: { high: [], medium: [] },
  rules: [{ id: "r1", name: "Rule", conditions, event: { type: "risk", params } }],
});

describe("the seed rule set", () => {
  it("gives a clean submission 0, Low, low priority, approve, and names its version", async () => {
    const result = await assess({});
    expect(result).toEqual({
      risk_score: 0,
      level: "Low",
      priority: "low",
      flags: [],
      verdict: "approve",
      reasons: [],
      rule_set_version: 7,
      assessed_at: AT,
    });
  });

  // Each row: the facts that should make exactly these rules fire.
  const cases: [string, Partial<RiskFacts>, string[]][] = [
    ["a FATF call-for-action country", { country: "IR", country_risk: "high" }, ["country_high_risk"]],
    ["a country under increased monitoring", { country: "VN", country_risk: "medium" }, ["country_medium_risk"]],
    ["a rejected document", { any_document_rejected: true, rejected_document_count: 1 }, ["document_rejected"]],
    ["a marginally focused image", { min_sharpness: 150 }, ["document_marginal_focus"]],
    ["marginal glare", { max_glare: 0.2 }, ["document_marginal_glare"]],
    [
      "someone else's identity number",
      { duplicate_identity_number: true, duplicate_identity_number_users: 1 },
      ["duplicate_identity_number"],
    ],
    ["someone else's image", { duplicate_image: true, duplicate_image_users: 2 }, ["duplicate_image"]],
    ["10 lakh", { amount: 1_000_000 }, ["amount_high"]],
    ["1 crore", { amount: 10_000_000 }, ["amount_high", "amount_very_high"]],
    ["three starts from one IP", { velocity_ip_24h: 3 }, ["velocity_ip"]],
    [
      "five starts from one private domain",
      { velocity_email_domain_24h: 5, email_domain: "fraud-ring.example" },
      ["velocity_email_domain"],
    ],
    ["three starts from one device", { velocity_device_24h: 3 }, ["velocity_device"]],
    ["a name unlike the profile's", { name_mismatch: true, name_similarity: 0.41 }, ["name_mismatch"]],
    [
      "a fuzzy PEP watchlist hit",
      { watchlist_hit: true, watchlist_score: 0.95, watchlist_list: "pep" },
      ["watchlist_hit"],
    ],
    [
      "an exact sanctions hit",
      { watchlist_hit: true, watchlist_score: 1, watchlist_list: "sanctions" },
      ["watchlist_hit", "watchlist_sanctions_exact"],
    ],
  ];
  it.each(cases)("fires on %s", async (_label, facts, rules) => {
    expect(await fired(facts)).toEqual(rules);
  });

  it("covers every rule of the seed set in the table above", () => {
    const covered = new Set(cases.flatMap(([, , rules]) => rules));
    expect(seed.rules.map((rule) => rule.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it("stays quiet just below each threshold", async () => {
    expect(
      await fired({
        min_sharpness: 200,
        max_glare: 0.15,
        amount: 999_999,
        velocity_ip_24h: 2,
        velocity_device_24h: 2,
        velocity_email_domain_24h: 4,
        email_domain: "fraud-ring.example",
        watchlist_score: 0.99,
        watchlist_list: "sanctions",
      }),
    ).toEqual([]);
    // Webmail domains are shared by honest applicants: their velocity does not count.
    expect(await fired({ velocity_email_domain_24h: 500, email_domain: "gmail.com" })).toEqual([]);
    // No checked document: the image-quality facts are null and numeric rules do not fire.
    expect(await fired({ min_sharpness: null, max_glare: null })).toEqual([]);
  });

  it("lists the FATF countries as data of the rule set", () => {
    expect(seed.country_risk.high).toEqual(FATF_COUNTRY_RISK.high);
    expect(seed.country_risk.medium).toContain("VN");
  });
});

describe("the assessment", () => {
  it("sums points, fills facts into reasons, raises each flag once and recommends review on a flag", async () => {
    const result = await assess({ duplicate_image: true, duplicate_image_users: 2, velocity_ip_24h: 4 });
    expect(result.risk_score).toBe(60);
    expect(result.level).toBe("High");
    expect(result.priority).toBe("high");
    expect(result.verdict).toBe("review");
    expect(result.flags.map((flag) => flag.code)).toEqual(["DUPLICATE_IMAGE", "VELOCITY_IP"]);
    expect(result.reasons).toEqual([
      {
        rule: "duplicate_image",
        points: 40,
        reason: "A document image is a near-duplicate of one from 2 other user(s)",
      },
      { rule: "velocity_ip", points: 20, reason: "4 KYC starts from the same IP address within 24 hours" },
    ]);
  });

  it("clamps the score at 100 and lets any reject verdict win", async () => {
    const result = await assess({
      country_risk: "high",
      duplicate_identity_number: true,
      watchlist_hit: true,
      watchlist_score: 1,
      watchlist_list: "sanctions",
    });
    expect(result.risk_score).toBe(100);
    expect(result.verdict).toBe("reject");
  });

  it("takes the priority from the level unless a fired rule asks for a higher one", async () => {
    const medium = await assess({ country_risk: "medium", amount: 1_000_000 });
    expect([medium.risk_score, medium.level, medium.priority, medium.verdict]).toEqual([
      30,
      "Medium",
      "medium",
      "approve",
    ]);
    const asked = await assess({ amount: 10_000_000 });
    expect([asked.risk_score, asked.level, asked.priority]).toEqual([25, "Low", "high"]);
  });

  it("clamps negative totals at 0 and approves", async () => {
    const body = await parseRuleSetBody(
      oneRule({ all: [{ fact: "amount", operator: "greaterThan", value: 0 }] }, { points: -30, reason: "Trusted" }),
      NEUTRAL_FACTS,
    );
    const result = await assess({}, body, null);
    expect([result.risk_score, result.verdict, result.rule_set_version]).toEqual([0, "approve", 0]);
  });

  it("never throws on a comparison of the wrong type: it is false", async () => {
    const body = await parseRuleSetBody(
      oneRule({
        any: [
          { fact: "amount", operator: "in", value: 5 },
          { fact: "country", operator: "someValue:equal", value: "IN" },
          { fact: "amount", operator: "contains", value: 1 },
          { fact: "country", operator: "greaterThan", value: "A" },
        ],
      }),
      NEUTRAL_FACTS,
    );
    expect((await assess({}, body)).reasons).toEqual([]);
  });

  it("supports decorators, nesting and comparing two facts", async () => {
    const body = await parseRuleSetBody(
      oneRule({
        all: [
          { not: { fact: "country", operator: "in", value: ["IR", "KP"] } },
          {
            any: [
              { fact: "verified_document_count", operator: "lessThan", value: { fact: "document_count" } },
              { fact: "country", operator: "not:equal", value: "IN" },
            ],
          },
        ],
      }),
      NEUTRAL_FACTS,
    );
    expect(
      (await assess({ document_count: 2, verified_document_count: 1 }, body)).reasons.map((reason) => reason.rule),
    ).toEqual(["r1"]);
    expect((await assess({}, body)).reasons).toEqual([]);
    expect((await assess({ country: "IR", document_count: 2 }, body)).reasons).toEqual([]);
  });
});

describe("refused rule sets", () => {
  it("names an unknown fact with its place", async () => {
    const error = await refusal(
      oneRule({
        all: [
          { fact: "amount", operator: "equal", value: 1 },
          { fact: "shoe_size", operator: "equal", value: 42 },
        ],
      }),
    );
    expect(error.message).toMatch(/^Rule 1 \("r1"\): conditions\.all\[1\]\.fact: Unknown fact "shoe_size"/);
  });

  it("refuses a value that names an unknown fact", async () => {
    const error = await refusal(
      oneRule({ all: [{ fact: "amount", operator: "lessThan", value: { fact: "income" } }] }),
    );
    expect(error.message).toMatch(
      /^Rule 1 \("r1"\): conditions\.all\[0\]\.value: A value \{"fact": \.\.\.\} must name one known fact/,
    );
  });

  it("names an unknown operator or decorator", async () => {
    expect(
      (await refusal(oneRule({ all: [{ fact: "amount", operator: "approximately", value: 1 }] }))).message,
    ).toContain('Unknown operator "approximately"');
    expect(
      (await refusal(oneRule({ all: [{ fact: "amount", operator: "maybe:equal", value: 1 }] }))).message,
    ).toContain('Unknown operator "maybe:equal"');
  });

  it("refuses a bare condition at the root, an empty group, path/params, and too deep nesting", async () => {
    expect((await refusal(oneRule({ fact: "amount", operator: "equal", value: 1 }))).message).toContain(
      'must start with {"all": [...]}',
    );
    expect((await refusal(oneRule({ all: [] }))).message).toContain("conditions.all must be a non-empty list");
    expect(
      (await refusal(oneRule({ all: [{ fact: "amount", operator: "equal", value: 1, path: "$.x" }] }))).message,
    ).toContain("unknown field path");
    let deep: unknown = { fact: "amount", operator: "equal", value: 1 };
    for (let level = 0; level < 8; level += 1) deep = { all: [deep] };
    expect((await refusal(oneRule(deep))).message).toContain("nests deeper than 6 levels");
  });

  it("refuses bad events, duplicate ids, too many rules, bad countries and unknown fields", async () => {
    expect(
      (await refusal(oneRule({ all: [{ fact: "amount", operator: "equal", value: 1 }] }, { points: 101, reason: "r" })))
        .message,
    ).toMatch(/^Rule 1 \("r1"\) event\.params\.points:/);
    expect(
      (
        await refusal(
          oneRule(
            { all: [{ fact: "amount", operator: "equal", value: 1 }] },
            { points: 1, reason: "r", verdict: "approve" },
          ),
        )
      ).message,
    ).toContain("Rule 1");
    const rule = oneRule({ all: [{ fact: "amount", operator: "equal", value: 1 }] }).rules[0]!;
    expect((await refusal({ ...oneRule({}), rules: [rule, rule] })).message).toBe('rules: Two rules have the id "r1"');
    expect(
      (
        await refusal({
          ...oneRule({}),
          rules: Array.from({ length: 101 }, (_, index) => ({ ...rule, id: `r${index}` })),
        })
      ).message,
    ).toContain("at most 100 rules");
    expect(
      (
        await refusal({
          ...oneRule({ all: [{ fact: "amount", operator: "equal", value: 1 }] }),
          country_risk: { high: ["Iran"], medium: [] },
        })
      ).message,
    ).toContain("ISO 3166-1 alpha-2");
    expect(
      (await refusal({ ...oneRule({ all: [{ fact: "amount", operator: "equal", value: 1 }] }), extra: 1 })).message,
    ).toBe("Unknown field: extra");
    expect((await refusal("rules")).message).toBe("A rule set must be a JSON object");
  });

  it("refuses a rule set over the size bound before parsing it", async () => {
    const huge = oneRule({
      all: [{ fact: "country", operator: "in", value: Array.from({ length: 30_000 }, (_, index) => `C${index}`) }],
    });
    expect((await refusal(huge)).message).toContain("at most 200000 bytes");
  });
});
