import type { CoreContext } from "../shared/context";
import { isReadyForReview } from "./country-requirements";
import { submissionProgress, type KycSubmission } from "./model";
import { countryDocumentTypes } from "./countries";
import { assessSubmission } from "./risk/assess";
import { rescoreLinkedSubmissions } from "./risk/links";
import { SYSTEM_ACTOR, type HistoryInput, type SubmissionChange } from "./submissions";

/**
 * What follows every applicant step, in the same commit as the step itself: progress is
 * recomputed, the risk engine scores the submission again (a riskAssessmentUpdate when the score,
 * level or flags change), and once every step is done a pending submission goes to a reviewer
 * (verificationCompleted with REQUIRES_REVIEW). Document checks, identity numbers and a
 * resubmission after Request Info all end here, so they cannot disagree about what comes next.
 */
export async function afterApplicantStep(
  ctx: CoreContext,
  draft: KycSubmission,
  entries: HistoryInput[],
  extraItems: Record<string, unknown>[] = [],
): Promise<SubmissionChange> {
  const next: KycSubmission = {
    ...draft,
    progress: submissionProgress(draft, countryDocumentTypes(draft.country).length),
  };
  const assessment = await assessSubmission(ctx, next);
  const previous = draft.risk;
  next.risk = assessment;
  next.risk_score = assessment.risk_score;
  next.priority = assessment.priority;
  const all = [...entries];
  const changed =
    !previous ||
    previous.risk_score !== assessment.risk_score ||
    previous.level !== assessment.level ||
    previous.flags.map((flag) => flag.code).join() !== assessment.flags.map((flag) => flag.code).join();
  if (changed) {
    all.push({
      actor: SYSTEM_ACTOR,
      action: "risk_assessed",
      from: null,
      to: null,
      note: `Risk ${assessment.risk_score} (${assessment.level}), rule set v${assessment.rule_set_version}`,
      event: {
        type: "riskAssessmentUpdate",
        data: {
          riskScore: assessment.risk_score,
          riskLevel: assessment.level,
          flags: assessment.flags.map((flag) => flag.code),
        },
      },
    });
    for (const flag of assessment.flags.filter((flag) => !previous?.flags.some((old) => old.code === flag.code))) {
      all.push({
        actor: SYSTEM_ACTOR,
        action: "compliance_alert",
        from: null,
        to: null,
        note: flag.message,
        event: {
          type: "complianceAlert",
          data: {
            alertType: flag.code,
            severity: assessment.level === "High" ? "high" : "medium",
            message: flag.message,
          },
        },
      });
    }
  }
  // While a reviewer's request for information is open, steps only update the submission: it
  // goes back to review when the applicant resubmits (which closes the request first).
  if (next.status === "pending" && next.info_request === null && isReadyForReview(next)) {
    next.status = "under_review";
    all.push({
      actor: SYSTEM_ACTOR,
      action: "submitted_for_review",
      from: "pending",
      to: "under_review",
      note: null,
      event: {
        type: "verificationCompleted",
        data: { status: "REQUIRES_REVIEW", finalRiskScore: assessment.risk_score },
      },
    });
  }
  // A number or picture this step shared with an earlier submission re-scores that one too.
  return { next, entries: all, extraItems, afterCommit: (committed) => rescoreLinkedSubmissions(ctx, committed) };
}
