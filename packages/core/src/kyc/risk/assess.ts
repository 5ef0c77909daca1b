import type { CoreContext } from "../../shared/context";
import type { KycSubmission, RiskAssessment } from "../model";
import { evaluateRuleSet } from "./engine";
import { computeFacts, DEFAULT_FACT_SOURCES, type FactSources } from "./facts";
import { livePublishedRuleSet } from "./rule-sets";

/**
 * Scores a submission with the live rule set (re-read on every call, see rule-sets.ts: a publish
 * on any instance applies to the next evaluation everywhere). The assessment records the version
 * that produced it. Called by workflow.ts after every applicant step, inside the step's commit.
 */
export async function assessSubmission(
  ctx: CoreContext,
  submission: KycSubmission,
  sources: FactSources = DEFAULT_FACT_SOURCES,
): Promise<RiskAssessment> {
  const ruleSet = await livePublishedRuleSet(ctx);
  const facts = await computeFacts(ctx, submission, ruleSet, sources);
  return evaluateRuleSet({ version: ruleSet.version, body: ruleSet }, facts, ctx.clock().toISOString());
}
