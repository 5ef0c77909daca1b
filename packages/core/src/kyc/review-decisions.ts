import type { CoreContext } from "../shared/context";
import { AppError, badRequest, conflict, notFound } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { missingRequirementNames } from "./country-requirements";
import { isReadyForReview } from "./country-requirements";
import type { KycStatus, KycSubmission } from "./model";
import { assertSubmissionId } from "./review-detail";
import {
  approvalRisk,
  BulkUpdateInput,
  DecisionInput,
  DismissAlertInput,
  missingReason,
  reasonIsMissing,
  REASON_REQUIRED_MESSAGES,
  RequestInfoInput,
  ResubmitInput,
  reviewerTransition,
  type BulkOutcome,
  type BulkResult,
  type BulkUpdateReply,
} from "./review-model";
import { activeSubmissionKey } from "./keys";
import { assessSubmission } from "./risk/assess";
import { sameAssessment } from "./risk/links";
import {
  changeSubmission,
  findUserSubmission,
  SYSTEM_ACTOR,
  type HistoryInput,
  type SubmissionChange,
} from "./submissions";
import { afterApplicantStep } from "./workflow";

/**
 * Reviewer decisions, Request Info and the applicant's resubmission. Each is one changeSubmission:
 * the new state and its audit entry (actor, from, to, note) commit together under the
 * submission's version, and a final decision announces verificationCompleted on the KYC stream
 * in the same write. The transition rules are reviewerTransition (review-model.ts).
 *
 * Guardrails: a rejection and a request for information need a reason (400
 * `kyc_reason_required`); an approval is checked against the live rules at the moment it is made,
 * and one that would accept High risk or a "reject" recommendation needs `acknowledge_risk: true`
 * (409 `kyc_risk_acknowledgement_required` otherwise), which is audited with the warnings.
 */

const reasonRequired = (message: string) => badRequest(message, "kyc_reason_required");

export interface Reviewer {
  id: string;
  name: string;
}

const reviewerActor = (reviewer: Reviewer): HistoryInput["actor"] => ({
  id: reviewer.id,
  name: reviewer.name,
  role: "reviewer",
});

const FINAL: Partial<Record<KycStatus, "VERIFIED" | "REJECTED">> = { verified: "VERIFIED", rejected: "REJECTED" };

/** Under review -> pending with a message for the applicant (Request Info, or a decision to pending). */
function infoRequestChange(current: KycSubmission, reviewer: Reviewer, message: string, now: string): SubmissionChange {
  return {
    next: { ...current, status: "pending", info_request: { message, requested_at: now, requested_by: reviewer.name } },
    entries: [
      {
        actor: reviewerActor(reviewer),
        action: "info_requested",
        from: current.status,
        to: "pending",
        note: message,
        event: null,
      },
    ],
  };
}

/**
 * An approval, checked against the live rules now: refused without acknowledge_risk when the
 * guard warns; the acknowledgement (with the warnings) and a changed live assessment are recorded
 * before the approval itself.
 */
async function approvalChange(
  ctx: CoreContext,
  current: KycSubmission,
  reviewer: Reviewer,
  input: DecisionInput,
  notes: string,
  now: string,
): Promise<SubmissionChange> {
  const live = await assessSubmission(ctx, current);
  const risk = approvalRisk(current.risk, live);
  if (risk.acknowledgement_required && input.acknowledge_risk !== true) {
    throw conflict(
      `Approving this submission needs acknowledge_risk: true. ${risk.warnings.join(". ")}.`,
      "kyc_risk_acknowledgement_required",
    );
  }
  const actor = reviewerActor(reviewer);
  const entries: HistoryInput[] = [];
  const rescored = !current.risk || !sameAssessment(current.risk, live);
  if (rescored) {
    entries.push({
      actor: SYSTEM_ACTOR,
      action: "rescored",
      from: null,
      to: null,
      note: `Re-scored at approval under the live rules (v${live.rule_set_version}): risk ${current.risk ? `${current.risk.risk_score} (${current.risk.level})` : "none"} -> ${live.risk_score} (${live.level})`,
      event: null,
    });
  }
  if (risk.acknowledgement_required) {
    entries.push({
      actor,
      action: "risk_acknowledged",
      from: null,
      to: null,
      note: `${risk.warnings.join(". ")}.`,
      event: null,
    });
  }
  entries.push({
    actor,
    action: "approved",
    from: current.status,
    to: "verified",
    note: input.notes ? input.notes : null,
    event: { type: "verificationCompleted", data: { status: "VERIFIED", finalRiskScore: live.risk_score } },
  });
  const assessed = rescored ? { risk: live, risk_score: live.risk_score, priority: live.priority } : {};
  return {
    next: {
      ...current,
      ...assessed,
      status: "verified",
      notes,
      info_request: null,
      decided_at: now,
      verified_at: now,
      review_alert: null,
    },
    entries,
  };
}

/** The change a decision makes, or null when it changes nothing; refusals are AppErrors (nothing written). */
async function decisionChange(
  ctx: CoreContext,
  current: KycSubmission,
  reviewer: Reviewer,
  input: DecisionInput,
): Promise<SubmissionChange | null> {
  const rule = reviewerTransition(current.status, input.status, isReadyForReview(current));
  if (!rule.allowed) throw conflict(rule.reason, "kyc_invalid_transition");
  const note = input.notes ? input.notes : null;
  if (rule.needsNote && !note) throw badRequest("notes must say why this decision is reopened", "kyc_note_required");
  const now = ctx.clock().toISOString();
  const actor = reviewerActor(reviewer);
  const notes = input.notes ?? current.notes;
  if (input.status === current.status) {
    if (notes === current.notes) return null;
    return {
      next: { ...current, notes },
      entries: [{ actor, action: "notes_updated", from: current.status, to: current.status, note, event: null }],
    };
  }
  // To pending, `notes` is the message for the applicant, kept in info_request and the audit, not
  // as the reviewer's notes.
  if (input.status === "pending") return infoRequestChange(current, reviewer, note!, now);
  if (input.status === "verified") return approvalChange(ctx, current, reviewer, input, notes, now);
  const final = FINAL[input.status];
  if (final) {
    return {
      next: {
        ...current,
        status: input.status,
        notes,
        info_request: null,
        decided_at: now,
        verified_at: null,
        review_alert: null,
      },
      entries: [
        {
          actor,
          action: "rejected",
          from: current.status,
          to: input.status,
          note,
          event: { type: "verificationCompleted", data: { status: final, finalRiskScore: current.risk_score } },
        },
      ],
    };
  }
  // To under_review: a reopened decision, or a complete submission pulled back from the applicant.
  if (current.status === "rejected") {
    // A rejected applicant may have started again; the old submission then stays closed.
    const active = await findUserSubmission(ctx, current.user_id);
    if (active?.id !== current.id)
      throw conflict(
        "This submission was replaced by a newer one from the applicant and cannot be reopened",
        "kyc_submission_superseded",
      );
  }
  return {
    // A reopened submission is in front of a reviewer again: that answers any open alert.
    next: {
      ...current,
      status: "under_review",
      notes,
      info_request: null,
      decided_at: null,
      verified_at: null,
      review_alert: null,
      priority: current.review_alert ? "high" : current.priority,
    },
    entries: [
      {
        actor,
        action: current.status === "pending" ? "moved_to_review" : "reopened",
        from: current.status,
        to: "under_review",
        note,
        event: null,
      },
    ],
    // A start racing with this reopen must not leave the user two live submissions.
    conditions:
      current.status === "rejected"
        ? [
            {
              key: activeSubmissionKey(current.user_id),
              expression: "submission_id = :id",
              values: { ":id": current.id },
            },
          ]
        : [],
  };
}

async function decideOne(
  ctx: CoreContext,
  reviewer: Reviewer,
  submissionId: string,
  input: DecisionInput,
): Promise<{ submission: KycSubmission; changed: boolean }> {
  assertSubmissionId(submissionId);
  let changed = false;
  const submission = await changeSubmission(ctx, submissionId, async (current) => {
    const planned = await decisionChange(ctx, current, reviewer, input);
    changed = planned !== null;
    return planned;
  });
  return { submission, changed };
}

/** A decision's input, with the reason a reject or a send-back needs. */
function withReason<T extends { status: KycStatus; notes?: string | undefined }>(input: T): T {
  const missing = missingReason(input.status, input.notes);
  if (missing) throw reasonRequired(missing);
  return input;
}

/** PUT /submissions/{id}: a reviewer sets the status (and notes); see reviewerTransition for what is allowed. */
export async function decide(
  ctx: CoreContext,
  reviewer: Reviewer,
  submissionId: string,
  body: unknown,
): Promise<KycSubmission> {
  return (await decideOne(ctx, reviewer, submissionId, withReason(parseWith(DecisionInput, body)))).submission;
}

/** Submissions changed at once by a bulk update: enough to be quick, few enough not to crowd the table. */
const BULK_CONCURRENCY = 4;

/**
 * The same decision for many submissions. Each id is its own change (not all-or-nothing): one
 * refused or unknown id does not hold back the others, and the reply says what happened to each,
 * in the order given.
 */
export async function bulkUpdate(ctx: CoreContext, reviewer: Reviewer, body: unknown): Promise<BulkUpdateReply> {
  const { ids, status, notes, acknowledge_risk } = withReason(parseWith(BulkUpdateInput, body));
  const results: BulkResult[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      const id = ids[index]!;
      try {
        const { submission, changed } = await decideOne(ctx, reviewer, id, {
          status,
          ...(notes === undefined ? {} : { notes }),
          ...(acknowledge_risk === undefined ? {} : { acknowledge_risk }),
        });
        results[index] = {
          id,
          ok: true,
          outcome: changed ? "updated" : "unchanged",
          status: submission.status,
          code: null,
          message: null,
        };
      } catch (error) {
        if (!(error instanceof AppError) || error.status === 503) throw error;
        const missing = error.status === 404;
        results[index] = {
          id,
          ok: false,
          outcome: missing ? "not_found" : "refused",
          status: null,
          code: error.code,
          message: error.message,
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ids.length) }, worker));
  const summary: Record<BulkOutcome, number> = { updated: 0, unchanged: 0, not_found: 0, refused: 0 };
  for (const result of results) summary[result.outcome] += 1;
  return { results, summary };
}

/**
 * Request Info: the submission goes back to the applicant (pending) with a message they see in
 * the wizard. From under_review, or again on a pending one (the message is replaced); a decided
 * submission must be reopened first.
 */
export async function requestInfo(
  ctx: CoreContext,
  reviewer: Reviewer,
  submissionId: string,
  body: unknown,
): Promise<KycSubmission> {
  if (reasonIsMissing(body, "message")) throw reasonRequired(REASON_REQUIRED_MESSAGES.requestInfo);
  const { message } = parseWith(RequestInfoInput, body);
  assertSubmissionId(submissionId);
  return changeSubmission(ctx, submissionId, (current) => {
    if (current.status === "verified" || current.status === "rejected") {
      throw conflict(
        `A ${current.status} submission cannot be sent back to the applicant: reopen it (under_review) first`,
        "kyc_invalid_transition",
      );
    }
    // A retry of the same request (its reply lost) finds it open already: nothing to add.
    if (current.status === "pending" && current.info_request?.message === message) return null;
    return infoRequestChange(current, reviewer, message, ctx.clock().toISOString());
  });
}

/**
 * A reviewer deals with a review alert (a verified submission re-scored after a link to a later
 * one) without reopening it: the alert closes and the reason is kept in the audit trail. Reopening
 * the submission (PUT under_review) closes it too.
 */
export async function dismissAlert(
  ctx: CoreContext,
  reviewer: Reviewer,
  submissionId: string,
  body: unknown,
): Promise<KycSubmission> {
  if (reasonIsMissing(body, "reason")) throw reasonRequired(REASON_REQUIRED_MESSAGES.dismissAlert);
  const { reason } = parseWith(DismissAlertInput, body);
  assertSubmissionId(submissionId);
  return changeSubmission(ctx, submissionId, (current) => {
    if (!current.review_alert) throw conflict("This submission has no open alert", "kyc_no_review_alert");
    return {
      next: { ...current, review_alert: null, priority: current.risk?.priority ?? current.priority },
      entries: [
        { actor: reviewerActor(reviewer), action: "alert_dismissed", from: null, to: null, note: reason, event: null },
      ],
    };
  });
}

/** What the applicant's country still requires (country-requirements.ts), in words. */
const missingSteps = (submission: KycSubmission): string[] => missingRequirementNames(submission);

/**
 * The applicant answers a Request Info: only while one is open, and only once every step is done
 * (otherwise the answer names what is missing). The applicant's entry is followed by the
 * after-step workflow, which rescores the submission and moves it back to under_review.
 */
export async function resubmit(ctx: CoreContext, userId: string, body: unknown): Promise<KycSubmission> {
  const { note } = parseWith(ResubmitInput, body);
  const submission = await findUserSubmission(ctx, userId);
  if (!submission) throw notFound("You have no KYC submission", "kyc_submission_not_found");
  return changeSubmission(ctx, submission.id, async (current) => {
    if (!current.info_request || current.status !== "pending") {
      throw conflict("There is no open request for information on your KYC submission", "kyc_no_info_request");
    }
    const missing = missingSteps(current);
    if (missing.length > 0)
      throw conflict(`Complete the missing steps before resubmitting: ${missing.join(", ")}`, "kyc_incomplete");
    const entry: HistoryInput = {
      actor: { id: userId, name: current.name, role: "applicant" },
      action: "resubmitted",
      from: current.status,
      to: current.status,
      note: note ? note : null,
      event: null,
    };
    // The answer closes the request; the workflow then moves the complete submission to review.
    return afterApplicantStep(ctx, { ...current, info_request: null }, [entry]);
  });
}
