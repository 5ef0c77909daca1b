import { z } from "zod";
import { Priority, type RiskAssessment } from "../model";

/**
 * The risk engine's rule sets as data (browser-safe: the dashboard's Rules tab validates a draft
 * with these before it sends it). A rule is a json-rules-engine rule whose event says how many
 * points it adds, which flag it raises and what it recommends; a rule set also carries the
 * country-risk table the `country_risk` fact reads, so changing a list is a publish, not a deploy.
 */

/**
 * Every fact a condition may name, with what it means. Conditions naming anything else are refused
 * when a draft is saved (json-rules-engine would only fail at evaluation time).
 */
export const RISK_FACTS = {
  country: "ISO 3166-1 alpha-2 code of the applicant's country, e.g. IN",
  country_risk: '"high", "medium" or "low" from the rule set\'s country_risk table',
  amount: "The submission's amount (INR, whole rupees)",
  identity_numbers_verified: "How many of Aadhaar and PAN are verified (0-2)",
  document_count: "Documents uploaded",
  verified_document_count: "Documents that passed their checks",
  any_document_rejected: "true when a document failed its file or image checks",
  rejected_document_count: "Documents that failed their checks",
  min_sharpness: "Lowest sharpness (variance of the Laplacian) among checked documents; null when none was checked",
  max_glare: "Highest glare share (0-1) among checked documents; null when none was checked",
  duplicate_identity_number: "true when another user holds one of this submission's Aadhaar/PAN numbers",
  duplicate_identity_number_users: "How many other users hold one of this submission's numbers",
  duplicate_image: "true when a document image is a near-duplicate of another user's",
  duplicate_image_users: "How many other users submitted a near-duplicate image",
  email_domain: "The applicant's e-mail domain, lower case",
  velocity_ip_24h:
    "KYC starts from the applicant's IP address in the 24 h up to this submission's start, itself included (0 when unknown)",
  velocity_email_domain_24h:
    "KYC starts from the applicant's e-mail domain in the 24 h up to this submission's start, itself included",
  velocity_device_24h:
    "KYC starts from the applicant's device in the 24 h up to this start, itself included (0 when no device is known)",
  name_similarity: "Jaro-Winkler similarity (0-1, token order ignored) of the KYC name and the account's profile name",
  name_mismatch: "true when name_similarity is below 0.85",
  watchlist_hit: "true when the KYC name matches an entry of the current watchlist (similarity >= 0.92)",
  watchlist_score: "Best similarity of the KYC name to a watchlist entry at or above the threshold (0 without a hit)",
  watchlist_list: 'The list of the best watchlist hit, e.g. "sanctions" or "pep" ("" without a hit)',
} as const;
export type RiskFactName = keyof typeof RISK_FACTS;
export const RISK_FACT_NAMES = Object.keys(RISK_FACTS) as RiskFactName[];

/** The facts of one submission, as the engine sees them. */
export const RiskFacts = z.object({
  country: z.string(),
  country_risk: z.enum(["high", "medium", "low"]),
  amount: z.number(),
  identity_numbers_verified: z.number().int(),
  document_count: z.number().int(),
  verified_document_count: z.number().int(),
  any_document_rejected: z.boolean(),
  rejected_document_count: z.number().int(),
  min_sharpness: z.number().nullable(),
  max_glare: z.number().nullable(),
  duplicate_identity_number: z.boolean(),
  duplicate_identity_number_users: z.number().int(),
  duplicate_image: z.boolean(),
  duplicate_image_users: z.number().int(),
  email_domain: z.string(),
  velocity_ip_24h: z.number().int(),
  velocity_email_domain_24h: z.number().int(),
  velocity_device_24h: z.number().int(),
  name_similarity: z.number(),
  name_mismatch: z.boolean(),
  watchlist_hit: z.boolean(),
  watchlist_score: z.number(),
  watchlist_list: z.string(),
}) satisfies z.ZodType<Record<RiskFactName, unknown>>;
export type RiskFacts = z.infer<typeof RiskFacts>;

/** Facts of a submission that raises nothing: what a rule set is test-run on before it is saved. */
export const NEUTRAL_FACTS: RiskFacts = {
  country: "IN",
  country_risk: "low",
  amount: 50_000,
  identity_numbers_verified: 2,
  document_count: 1,
  verified_document_count: 1,
  any_document_rejected: false,
  rejected_document_count: 0,
  min_sharpness: 4_000,
  max_glare: 0,
  duplicate_identity_number: false,
  duplicate_identity_number_users: 0,
  duplicate_image: false,
  duplicate_image_users: 0,
  email_domain: "example.com",
  velocity_ip_24h: 1,
  velocity_email_domain_24h: 1,
  velocity_device_24h: 0,
  name_similarity: 1,
  name_mismatch: false,
  watchlist_hit: false,
  watchlist_score: 0,
  watchlist_list: "",
};

/** json-rules-engine's operators (the engine registers type-safe versions of each, same semantics). */
export const RISK_OPERATORS = [
  "equal",
  "notEqual",
  "in",
  "notIn",
  "contains",
  "doesNotContain",
  "lessThan",
  "lessThanInclusive",
  "greaterThan",
  "greaterThanInclusive",
] as const;
/** json-rules-engine's operator decorators, written `decorator:operator` (e.g. `not:in`). */
export const RISK_OPERATOR_DECORATORS = ["someFact", "someValue", "everyFact", "everyValue", "swap", "not"] as const;

export const RULE_SET_LIMITS = {
  maxRules: 100,
  maxNameLength: 200,
  maxDescriptionLength: 1_000,
  maxReasonLength: 500,
  /** all/any/not levels inside one rule's conditions. */
  maxConditionDepth: 6,
  maxConditionsPerGroup: 50,
  /** The whole rule set as JSON: well inside DynamoDB's 400 KB item. */
  maxJsonBytes: 200_000,
  maxListedCountries: 250,
  maxPoints: 100,
} as const;

const RULE_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;

const boundedText = (label: string, max: number) =>
  z.string().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

/** How deeply a JSON value nests (arrays and objects), stopping early past `limit`. */
export function jsonNesting(value: unknown, limit = 64): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
  let deepest = 0;
  for (const child of children) {
    deepest = Math.max(deepest, jsonNesting(child, limit - 1));
    if (deepest >= limit) break;
  }
  return deepest + 1;
}

/** The value a condition compares with: any JSON (a list for `in`), or another fact as `{fact}`. */
const ConditionValue = z
  .unknown()
  .refine((value) => value !== undefined, "A condition needs a value")
  .refine((value) => jsonNesting(value, 4) <= 3, "A condition's value nests too deeply (a value, a list, or {fact})")
  // json-rules-engine reads an object with a `fact` key as another fact's value: it must be one.
  .refine(
    (value) =>
      !isFactReference(value) ||
      (Object.keys(value).length === 1 && (RISK_FACT_NAMES as string[]).includes(String(value.fact))),
    {
      error: (issue) =>
        `A value {"fact": ...} must name one known fact and nothing else (got ${JSON.stringify(issue.input).slice(0, 100)})`,
    },
  );

function isFactReference(value: unknown): value is { fact: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "fact" in value;
}

/**
 * A leaf condition. `path` and `params` are refused: every fact is a plain value, and a JSONPath
 * from an editable rule set would be evaluated by jsonpath-plus on every assessment for nothing.
 */
export const FactCondition = z
  .object({
    fact: z.enum(RISK_FACT_NAMES as [RiskFactName, ...RiskFactName[]], {
      error: (issue) => `Unknown fact "${String(issue.input)}": facts are ${RISK_FACT_NAMES.join(", ")}`,
    }),
    operator: z
      .string()
      .max(100)
      .refine(isKnownOperator, {
        error: (issue) =>
          `Unknown operator "${String(issue.input)}": operators are ${RISK_OPERATORS.join(", ")}, optionally decorated as ${RISK_OPERATOR_DECORATORS.join("|")}:operator`,
      }),
    value: ConditionValue,
    name: z.string().max(RULE_SET_LIMITS.maxNameLength).optional(),
    priority: z.number().int().min(1).max(100).optional(),
  })
  .strict();
export type FactCondition = z.infer<typeof FactCondition>;

export type RuleConditions = FactCondition | ConditionGroup;
export type ConditionGroup = ({ all: RuleConditions[] } | { any: RuleConditions[] } | { not: RuleConditions }) & {
  name?: string;
  priority?: number;
};

const GROUP_KEYS = ["all", "any", "not"] as const;
const GroupExtras = z.object({
  name: z.string().max(RULE_SET_LIMITS.maxNameLength).optional(),
  priority: z.number().int().min(1).max(100).optional(),
});

/**
 * What is wrong with a conditions tree, said with its place (e.g. `conditions.all[2].fact`), or
 * null. Walked by hand rather than with a zod union: a union reports "Invalid input" for a tree
 * with one bad fact deep inside, and the admin needs to know which one.
 */
export function conditionsProblem(node: unknown, at: string, depth: number, root: boolean): string | null {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return `${at} must be an object`;
  const record = node as Record<string, unknown>;
  const groups = GROUP_KEYS.filter((key) => key in record);
  if (groups.length > 1) return `${at} must have only one of all, any, not`;
  const group = groups[0];
  if (!group) {
    if (root) return `${at} must start with {"all": [...]}, {"any": [...]} or {"not": {...}}`;
    const leaf = FactCondition.safeParse(node);
    if (leaf.success) return null;
    const issue = leaf.error.issues[0]!;
    if (issue.code === "unrecognized_keys")
      return `${at}: unknown field ${issue.keys.join(", ")} (a condition has fact, operator, value and optionally name, priority)`;
    return `${at}${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${issue.message}`;
  }
  if (depth >= RULE_SET_LIMITS.maxConditionDepth)
    return `${at} nests deeper than ${RULE_SET_LIMITS.maxConditionDepth} levels of all/any/not`;
  const { [group]: children, ...extras } = record;
  const extra = GroupExtras.strict().safeParse(extras);
  if (!extra.success) {
    const issue = extra.error.issues[0]!;
    return issue.code === "unrecognized_keys"
      ? `${at}: unknown field ${issue.keys.join(", ")} beside ${group}`
      : `${at}.${issue.path.join(".")}: ${issue.message}`;
  }
  if (group === "not") return conditionsProblem(children, `${at}.not`, depth + 1, false);
  if (!Array.isArray(children) || children.length === 0) return `${at}.${group} must be a non-empty list of conditions`;
  if (children.length > RULE_SET_LIMITS.maxConditionsPerGroup)
    return `${at}.${group} has more than ${RULE_SET_LIMITS.maxConditionsPerGroup} conditions`;
  for (const [index, child] of children.entries()) {
    const problem = conditionsProblem(child, `${at}.${group}[${index}]`, depth + 1, false);
    if (problem) return problem;
  }
  return null;
}

/** A rule's conditions: json-rules-engine's tree, starting with all, any or not. */
export const TopLevelConditions = z
  .custom<ConditionGroup>((value) => conditionsProblem(value, "conditions", 0, true) === null, {
    error: (issue) => conditionsProblem(issue.input, "conditions", 0, true) ?? "Invalid conditions",
  })
  .meta({
    description:
      'json-rules-engine conditions: {"all"|"any": [conditions]} or {"not": condition}, leaves {fact, operator, value}',
  });

export function isKnownOperator(operator: string): boolean {
  const parts = operator.split(":");
  const base = parts.pop() ?? "";
  return (
    (RISK_OPERATORS as readonly string[]).includes(base) &&
    parts.every((part) => (RISK_OPERATOR_DECORATORS as readonly string[]).includes(part))
  );
}

export const RiskFlagParam = z
  .object({
    code: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, "A flag code is 1-64 capital letters, digits or _"),
    message: boundedText("A flag message", RULE_SET_LIMITS.maxReasonLength),
  })
  .strict();

export const RiskEventParams = z
  .object({
    points: z.number().int().min(-RULE_SET_LIMITS.maxPoints).max(RULE_SET_LIMITS.maxPoints),
    flag: RiskFlagParam.optional(),
    reason: boundedText("A reason", RULE_SET_LIMITS.maxReasonLength),
    verdict: z.enum(["reject", "review"]).optional(),
    /** Overrides the priority the level gives (the highest any fired rule asks for wins). */
    priority: Priority.optional(),
  })
  .strict();
export type RiskEventParams = z.infer<typeof RiskEventParams>;

export const RiskRule = z
  .object({
    id: z
      .string()
      .regex(RULE_ID, "A rule id is 1-64 lower-case letters, digits, _ or -, starting with a letter or digit"),
    name: boundedText("A rule name", RULE_SET_LIMITS.maxNameLength),
    description: z.string().max(RULE_SET_LIMITS.maxDescriptionLength).default(""),
    conditions: TopLevelConditions,
    event: z
      .object({ type: z.literal("risk", 'A rule\'s event type must be "risk"'), params: RiskEventParams })
      .strict(),
    priority: z.number().int().min(1).max(100).optional(),
  })
  .strict();
export type RiskRule = z.infer<typeof RiskRule>;

export const CountryRiskTable = z
  .object({
    high: z
      .array(z.string().regex(COUNTRY_CODE, "Country codes are ISO 3166-1 alpha-2, e.g. IR"))
      .max(RULE_SET_LIMITS.maxListedCountries),
    medium: z
      .array(z.string().regex(COUNTRY_CODE, "Country codes are ISO 3166-1 alpha-2, e.g. IR"))
      .max(RULE_SET_LIMITS.maxListedCountries),
    /** Where the lists come from (e.g. "FATF, October 2025"). */
    source: z.string().max(RULE_SET_LIMITS.maxDescriptionLength).default(""),
  })
  .strict()
  .refine(
    (table) => !table.high.some((code) => table.medium.includes(code)),
    "A country cannot be both high and medium risk",
  );

/** What an admin edits: a draft, or the body of a dry run. */
export const RuleSetBody = z
  .object({
    name: boundedText("The rule set name", RULE_SET_LIMITS.maxNameLength),
    description: z.string().max(RULE_SET_LIMITS.maxDescriptionLength).default(""),
    rules: z
      .array(RiskRule)
      .min(1, "A rule set needs at least one rule")
      .max(RULE_SET_LIMITS.maxRules, `A rule set has at most ${RULE_SET_LIMITS.maxRules} rules`),
    country_risk: CountryRiskTable,
  })
  .strict()
  .superRefine((body, issues) => {
    const seen = new Set<string>();
    for (const rule of body.rules) {
      if (seen.has(rule.id))
        issues.addIssue({ code: "custom", message: `Two rules have the id "${rule.id}"`, path: ["rules"] });
      seen.add(rule.id);
    }
  });
export type RuleSetBody = z.infer<typeof RuleSetBody>;
export type RuleSetBodyInput = z.input<typeof RuleSetBody>;

/** A published, immutable version. */
export const PublishedRuleSet = RuleSetBody.safeExtend({
  version: z.number().int().min(1),
  published_at: z.string(),
  published_by: z.string(),
});
export type PublishedRuleSet = z.infer<typeof PublishedRuleSet>;

/** The one editable draft: `revision` guards against publishing an edit one did not see. */
export const RuleSetDraft = RuleSetBody.safeExtend({
  revision: z.number().int().min(1),
  based_on_version: z.number().int().nullable(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type RuleSetDraft = z.infer<typeof RuleSetDraft>;

/* ---------- what the admin's Rules tab reads (the server's replies) ---------- */

export interface VersionListing {
  version: number;
  name: string;
  rules: number;
  published_at: string;
  published_by: string;
}

export interface RulesOverview {
  /** The live version (the seed, published as version 1 on first use, until an admin publishes). */
  published: PublishedRuleSet;
  draft: RuleSetDraft | null;
  /** Every published version, newest first. */
  versions: VersionListing[];
}

export interface DryRunResult {
  /** What was evaluated: a body given with the request, the draft, or a published version. */
  rule_set: { source: "body" | "draft" | "version"; version: number | null; name: string };
  assessment: RiskAssessment;
  facts: RiskFacts;
  /** The assessment the submission holds now, for comparison. */
  current: RiskAssessment | null;
}

/** A sanctions / PEP watchlist entry, as uploaded (watchlist.ts screens names against these). */
export const WatchlistEntry = z.object({
  name: z.string(),
  aliases: z.array(z.string()),
  country: z.string(),
  /** e.g. "sanctions", "pep" (lower case); "sanctions" when the file has no list column. */
  list: z.string(),
  /** e.g. "individual", "entity"; "" when not given. */
  type: z.string(),
});
export type WatchlistEntry = z.infer<typeof WatchlistEntry>;

export interface WatchlistSummary {
  version: number | null;
  name: string | null;
  entries: number;
  lists: Record<string, number>;
  uploaded_at: string | null;
  uploaded_by: string | null;
  /** The first entries, for a glance. */
  sample: WatchlistEntry[];
}
