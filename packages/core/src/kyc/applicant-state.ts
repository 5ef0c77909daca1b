import type { z } from "zod";
import type { CoreContext } from "../shared/context";
import { notFound } from "../shared/errors";
import { countryDocumentTypes } from "./countries";
import { describeIdentityNumbers, missingRequirements } from "./country-requirements";
import { IDENTITY_NUMBER_KINDS } from "./identity-numbers";
import { DOCUMENT_TYPE_LABELS, IDENTITY_NUMBER_TYPES, type KycSubmission } from "./model";
import { findUserSubmission } from "./submissions";
import type { KycStateView, RemainingStep } from "./applicant-replies";

/**
 * The applicant's KYC state (docs/product/kyc.md#data): their submission as they may see it, with what is left
 * to do before review by their country's requirements (country-requirements.ts).
 */

export function nextSteps(submission: KycSubmission): string[] {
  switch (submission.status) {
    case "under_review":
      return ["Wait for a reviewer's decision"];
    case "verified":
      return [];
    case "rejected":
      return ["Start a new KYC submission"];
    case "pending":
      break;
  }
  const steps: string[] = [];
  if (submission.info_request) steps.push(`Answer the reviewer's request: ${submission.info_request.message}`);
  const documents = Object.values(submission.documents);
  if (!documents.some((document) => document?.status === "verified")) {
    const rejected = documents.find((document) => document?.status === "rejected");
    const checking = documents.find((document) => document?.status === "checking" || document?.status === "uploaded");
    if (checking) steps.push(`Wait for the checks of your ${DOCUMENT_TYPE_LABELS[checking.type]}`);
    else if (rejected)
      steps.push(
        `Upload your ${DOCUMENT_TYPE_LABELS[rejected.type]} again: ${rejected.checks?.problems.join("; ") || "it did not pass the checks"}`,
      );
    else
      steps.push(
        `Upload an identity document (${countryDocumentTypes(submission.country)
          .map((type) => DOCUMENT_TYPE_LABELS[type])
          .join(", ")})`,
      );
  }
  for (const type of missingRequirements(submission).numbers)
    steps.push(`Verify your ${IDENTITY_NUMBER_KINDS[type].label}`);
  if (submission.info_request && steps.length === 1) steps.push("Resubmit for review");
  return steps;
}

/** The steps still to do, for the wizard: only while the applicant has something to do (pending). */
export function remainingSteps(submission: KycSubmission): z.infer<typeof RemainingStep>[] {
  if (submission.status !== "pending") return [];
  const missing = missingRequirements(submission);
  return [...(missing.document ? (["document"] as const) : []), ...missing.numbers];
}

export function stateOf(submission: KycSubmission): KycStateView {
  return {
    submission_id: submission.id,
    user_id: submission.user_id,
    country: submission.country,
    location: submission.location,
    status: submission.status,
    progress: submission.progress,
    document_types: countryDocumentTypes(submission.country),
    documents: Object.fromEntries(
      Object.values(submission.documents).flatMap((document) =>
        document
          ? [
              [
                document.type,
                {
                  status: document.status,
                  verified_at: document.verified_at,
                  uploaded_at: document.uploaded_at,
                  problems: document.refusal ? [document.refusal] : (document.checks?.problems ?? []),
                },
              ],
            ]
          : [],
      ),
    ),
    identity_number_requirements: describeIdentityNumbers(submission.country),
    identity_numbers: Object.fromEntries(
      IDENTITY_NUMBER_TYPES.flatMap((type) => {
        const record = submission.identity_numbers[type];
        return record ? [[type, { masked: record.masked, verified_at: record.verified_at }]] : [];
      }),
    ),
    remaining_steps: remainingSteps(submission),
    next_steps: nextSteps(submission),
    info_request: submission.info_request
      ? { message: submission.info_request.message, requested_at: submission.info_request.requested_at }
      : null,
    submitted_at: submission.submitted_at,
    updated_at: submission.updated_at,
    verified_at: submission.verified_at,
  };
}

export const kycNotStarted = () =>
  notFound("KYC has not been started: choose your country to begin", "kyc_not_started");

/** The user's current submission, or 404 kyc_not_started. */
export async function requireUserSubmission(ctx: CoreContext, userId: string): Promise<KycSubmission> {
  const submission = await findUserSubmission(ctx, userId);
  if (!submission) throw kycNotStarted();
  return submission;
}

export async function kycState(ctx: CoreContext, userId: string): Promise<KycStateView> {
  return stateOf(await requireUserSubmission(ctx, userId));
}
