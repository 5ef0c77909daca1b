import type { CoreContext } from "../../shared/context";
import { badRequest, conflict } from "../../shared/errors";
import { countryDocumentTypes, findCountry } from "../countries";
import { DOCUMENT_TYPE_LABELS, type DocumentType, type KycSubmission } from "../model";
import { findUserSubmission } from "../submissions";

/**
 * Whether a submission may take a document: it exists, it is still with the applicant, and its
 * country accepts the document type. Every upload path asks here before it looks at the bytes.
 */

/**
 * Only a pending submission takes documents, as it takes identity numbers: once it is with a
 * reviewer (or decided) what they review must not change under them. A reviewer's Request Info
 * sends it back to pending.
 */
export const OPEN_STATUSES: ReadonlySet<KycSubmission["status"]> = new Set(["pending"]);

export const KYC_NOT_STARTED_MESSAGE = "Start KYC first: there is no KYC submission for this account yet";

/** The user's submission, if it may still take documents. */
export async function requireOpenSubmission(ctx: CoreContext, userId: string): Promise<KycSubmission> {
  const submission = await findUserSubmission(ctx, userId);
  if (!submission) throw conflict(KYC_NOT_STARTED_MESSAGE, "kyc_not_started");
  assertOpen(submission);
  return submission;
}

export function assertOpen(submission: KycSubmission): void {
  if (!OPEN_STATUSES.has(submission.status)) {
    const message =
      submission.status === "under_review"
        ? "Your KYC submission is under review and its documents cannot be changed now"
        : `This KYC submission is already ${submission.status}; its documents can no longer change`;
    throw conflict(message, "kyc_submission_closed");
  }
}

export function assertSupportedType(submission: KycSubmission, documentType: DocumentType): void {
  const accepted = countryDocumentTypes(submission.country);
  if (!accepted.includes(documentType)) {
    const country = findCountry(submission.country)?.country ?? submission.country;
    throw badRequest(
      `${DOCUMENT_TYPE_LABELS[documentType]} is not accepted for ${country}; accepted: ${accepted.map((type) => DOCUMENT_TYPE_LABELS[type]).join(", ")}`,
      "unsupported_document_type",
    );
  }
}
