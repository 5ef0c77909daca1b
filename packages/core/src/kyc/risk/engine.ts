import { Engine, Operator, OperatorDecorator, type RuleProperties } from "json-rules-engine";
import { badRequest } from "../../shared/errors";
import { riskLevel, type Priority, type RiskAssessment, type RiskFlag } from "../model";
import {
  type RISK_OPERATORS,
  RiskEventParams,
  RuleSetBody,
  RULE_SET_LIMITS,
  type RiskFacts,
  type RiskRule,
} from "./model";

/**
 * Evaluation of a rule set with json-rules-engine. The engine's own operators assume their
 * inputs' types (`in` calls value.indexOf, `someValue` calls value.some): with rules edited by
 * people, a number where a list was meant would throw at evaluation time, inside an applicant's
 * upload. So every operator and decorator is registered again with a type check in front and the
 * same meaning; a mistyped comparison is simply false.
 */

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isList = (value: unknown): value is unknown[] => Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === "string";

type Compare = (fact: unknown, value: unknown) => boolean;
const SAFE_OPERATORS: Record<(typeof RISK_OPERATORS)[number], Compare> = {
  equal: (fact, value) => fact === value,
  notEqual: (fact, value) => fact !== value,
  in: (fact, value) => isList(value) && value.includes(fact),
  notIn: (fact, value) => isList(value) && !value.includes(fact),
  contains: (fact, value) =>
    (isList(fact) || isText(fact)) && (isText(fact) ? isText(value) && fact.includes(value) : fact.includes(value)),
  doesNotContain: (fact, value) =>
    (isList(fact) || isText(fact)) && (isText(fact) ? isText(value) && !fact.includes(value) : !fact.includes(value)),
  lessThan: (fact, value) => isNumber(fact) && isNumber(value) && fact < value,
  lessThanInclusive: (fact, value) => isNumber(fact) && isNumber(value) && fact <= value,
  greaterThan: (fact, value) => isNumber(fact) && isNumber(value) && fact > value,
  greaterThanInclusive: (fact, value) => isNumber(fact) && isNumber(value) && fact >= value,
};

type Next = (fact: unknown, value: unknown) => boolean;
const SAFE_DECORATORS: Record<string, (fact: unknown, value: unknown, next: Next) => boolean> = {
  someFact: (fact, value, next) => isList(fact) && fact.some((item) => next(item, value)),
  everyFact: (fact, value, next) => isList(fact) && fact.every((item) => next(item, value)),
  someValue: (fact, value, next) => isList(value) && value.some((item) => next(fact, item)),
  everyValue: (fact, value, next) => isList(value) && value.every((item) => next(fact, item)),
  swap: (fact, value, next) => next(value, fact),
  not: (fact, value, next) => !next(fact, value),
};

function newEngine(): Engine {
  // Undefined facts are errors: a condition naming no fact was refused when the draft was saved.
  const engine = new Engine([], { allowUndefinedFacts: false, allowUndefinedConditions: false });
  for (const [name, compare] of Object.entries(SAFE_OPERATORS)) {
    engine.removeOperator(name);
    engine.addOperator(new Operator(name, compare));
  }
  for (const [name, decorate] of Object.entries(SAFE_DECORATORS)) {
    engine.removeOperatorDecorator(name);
    engine.addOperatorDecorator(new OperatorDecorator(name, decorate));
  }
  return engine;
}

/**
 * A rule set with its version (null for a draft or a dry-run body). The Engine is built anew for
 * every evaluation, never shared: json-rules-engine keeps a run's status on the Engine, and when
 * one of two overlapping runs finishes the other skips its remaining rules. Building one is
 * cheap (a hundred addRule calls) next to the reads that gather the facts.
 */
export interface VersionedRuleSet {
  version: number | null;
  body: RuleSetBody;
}

function toEngineRule(rule: RiskRule): RuleProperties {
  return {
    name: rule.id,
    conditions: rule.conditions,
    event: rule.event,
    ...(rule.priority ? { priority: rule.priority } : {}),
  };
}

/** Loads the rules into a json-rules-engine Engine; whatever it refuses is a 400 naming the rule. */
function loadEngine(body: RuleSetBody): Engine {
  const engine = newEngine();
  for (const [index, rule] of body.rules.entries()) {
    try {
      engine.addRule(toEngineRule(rule));
    } catch (error) {
      throw badRequest(
        `Rule ${index + 1} ("${rule.id}") was refused by the rules engine: ${error instanceof Error ? error.message : String(error)}`,
        "invalid_rule_set",
      );
    }
  }
  return engine;
}

/**
 * Parses an admin's rule set: zod for the shape and bounds (messages name the rule), then the
 * engine itself loads it and runs it once on neutral facts, so a rule set it would refuse at
 * evaluation time never gets saved.
 */
export async function parseRuleSetBody(input: unknown, sampleFacts: RiskFacts): Promise<RuleSetBody> {
  const size = JSON.stringify(input ?? null).length;
  if (size > RULE_SET_LIMITS.maxJsonBytes)
    throw badRequest(
      `A rule set is at most ${RULE_SET_LIMITS.maxJsonBytes} bytes of JSON (this one is ${size})`,
      "invalid_rule_set",
    );
  const parsed = RuleSetBody.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [first, index] = issue.path;
    const rules = (input as { rules?: { id?: unknown }[] } | null)?.rules;
    const where =
      first === "rules" && typeof index === "number"
        ? `Rule ${index + 1}${typeof rules?.[index]?.id === "string" ? ` ("${rules[index].id}")` : ""}${issue.path.length > 2 && issue.path[2] !== "conditions" ? ` ${issue.path.slice(2).join(".")}` : ""}: `
        : issue.code === "unrecognized_keys" || issue.path.length === 0
          ? ""
          : `${issue.path.join(".")}: `;
    const message =
      issue.code === "unrecognized_keys"
        ? `Unknown field: ${issue.keys.join(", ")}`
        : issue.path.length === 0 && issue.code === "invalid_type"
          ? "A rule set must be a JSON object"
          : issue.message;
    throw badRequest(`${where}${message}`, "invalid_rule_set");
  }
  const engine = loadEngine(parsed.data);
  try {
    await engine.run({ ...sampleFacts });
  } catch (error) {
    throw badRequest(
      `The rules engine could not evaluate this rule set: ${error instanceof Error ? error.message : String(error)}`,
      "invalid_rule_set",
    );
  }
  return parsed.data;
}

const PRIORITY_RANK: Record<Priority, number> = { low: 0, medium: 1, high: 2 };
const LEVEL_PRIORITY = { Low: "low", Medium: "medium", High: "high" } as const;

/** Fills `{fact_name}` in a reason or flag message with the fact's value. */
function fillIn(text: string, facts: RiskFacts): string {
  return text.replace(/\{([a-z_0-9]+)\}/g, (whole, name: string) => {
    const value = (facts as Record<string, unknown>)[name];
    if (value === undefined) return whole;
    return typeof value === "number" && !Number.isInteger(value) ? value.toFixed(2) : String(value);
  });
}

/** Sum of the fired rules' points, clamped to 0-100. */
export const clampScore = (points: number) => Math.max(0, Math.min(100, Math.round(points)));

/**
 * The assessment a compiled rule set gives these facts: points summed and clamped 0-100, level by
 * the thresholds of docs/product/kyc.md#progress-and-risk, priority from the level unless a fired
 * rule asks for a higher one, every fired rule as a reason, flags without repeats, and a verdict:
 * any rule's "reject" wins; else High, any flag or any rule's "review" means review; else approve.
 */
export async function evaluateRuleSet(
  ruleSet: VersionedRuleSet,
  facts: RiskFacts,
  assessedAt: string,
): Promise<RiskAssessment> {
  const { results } = await loadEngine(ruleSet.body).run({ ...facts });
  let points = 0;
  const flags: RiskFlag[] = [];
  const reasons: RiskAssessment["reasons"] = [];
  let rejected = false;
  let reviewAsked = false;
  let askedPriority: Priority | null = null;
  // json-rules-engine reports events in rule priority order; reasons keep the rule set's order.
  const order = new Map(ruleSet.body.rules.map((rule, index) => [rule.id, index]));
  const fired = results
    .map((result) => ({ id: result.name, params: RiskEventParams.parse(result.event?.params) }))
    .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  for (const { id, params } of fired) {
    points += params.points;
    reasons.push({ rule: id, points: params.points, reason: fillIn(params.reason, facts) });
    if (params.flag && !flags.some((flag) => flag.code === params.flag!.code))
      flags.push({ code: params.flag.code, message: fillIn(params.flag.message, facts) });
    if (params.verdict === "reject") rejected = true;
    if (params.verdict === "review") reviewAsked = true;
    if (params.priority && (!askedPriority || PRIORITY_RANK[params.priority] > PRIORITY_RANK[askedPriority]))
      askedPriority = params.priority;
  }
  const score = clampScore(points);
  const level = riskLevel(score);
  const levelPriority = LEVEL_PRIORITY[level];
  const priority =
    askedPriority && PRIORITY_RANK[askedPriority] > PRIORITY_RANK[levelPriority] ? askedPriority : levelPriority;
  const verdict = rejected ? "reject" : level === "High" || flags.length > 0 || reviewAsked ? "review" : "approve";
  return {
    risk_score: score,
    level,
    priority,
    flags,
    verdict,
    reasons,
    rule_set_version: ruleSet.version ?? 0,
    assessed_at: assessedAt,
  };
}
