import type { CoreContext } from "../../shared/context";
import type { KycSubmission, RiskAssessment } from "../model";

/**
 * PLACEHOLDER owned by the risk-engine helper: replaced by the rules-as-data evaluation
 * (published rule set from the table, facts from the submission, duplicates, velocity,
 * watchlist). Must stay this signature.
 */
export async function assessSubmission(ctx: CoreContext, submission: KycSubmission): Promise<RiskAssessment> {
  return {
    risk_score: 0,
    level: "Low",
    priority: "low",
    flags: [],
    verdict: "review",
    reasons: [],
    rule_set_version: 0,
    assessed_at: ctx.clock().toISOString(),
  };
}
