import type { CoreContext } from "../shared/context";
import { notFound } from "../shared/errors";
import { presignDocumentDownload } from "./documents/storage";
import {
  DOCUMENT_TYPES,
  IDENTITY_NUMBER_TYPES,
  type KycHistoryEntry,
  type KycSubmission,
  type SubmissionDocument,
} from "./model";
import { reviewRow } from "./review-list";
import { riskCheck } from "./review-risk";
import { linkedSubmissions } from "./risk/links";
import {
  ReviewedDocumentFields,
  SUBMISSION_ID_PATTERN,
  type ReviewAuditRow,
  type ReviewDocument,
  type SubmissionDetail,
} from "./review-model";
import { getSubmission, listHistory } from "./submissions";

/**
 * One submission as the reviewer's detail modal shows it: the list row's fields, each document
 * with short-lived presigned links to its image (and face image), the risk breakdown (which rules
 * fired) beside what the live rules say now, the submissions it is linked to (shared numbers or
 * pictures, both ways), an open review alert, the identity numbers masked, the open Request Info,
 * and the audit trail.
 */

const submissionNotFound = () => notFound("KYC submission not found", "kyc_submission_not_found");

/** Ids are UUIDs: anything else cannot name a submission and is a 404 without a read (never a key built from it). */
export function assertSubmissionId(submissionId: string): void {
  if (!SUBMISSION_ID_PATTERN.test(submissionId)) throw submissionNotFound();
}

export async function findSubmissionForReview(ctx: CoreContext, submissionId: string): Promise<KycSubmission> {
  assertSubmissionId(submissionId);
  const submission = await getSubmission(ctx, submissionId);
  if (!submission) throw submissionNotFound();
  return submission;
}

async function reviewDocument(ctx: CoreContext, document: SubmissionDocument): Promise<ReviewDocument> {
  const [image, face] = await Promise.all([
    presignDocumentDownload(ctx, document.object_key),
    document.face_object_key ? presignDocumentDownload(ctx, document.face_object_key) : Promise.resolve(null),
  ]);
  return {
    ...ReviewedDocumentFields.parse(document),
    url: image.url,
    face_url: face?.url ?? null,
    url_expires_at: image.expires_at,
  };
}

export function auditRow(entry: KycHistoryEntry): ReviewAuditRow {
  return {
    actor: entry.actor.name,
    actor_id: entry.actor.id,
    actor_role: entry.actor.role,
    at: entry.at,
    action: entry.action,
    from: entry.from,
    to: entry.to,
    note: entry.note,
  };
}

/** The detail of a submission already read (e.g. just changed), with its history. */
export async function detailOf(ctx: CoreContext, submission: KycSubmission): Promise<SubmissionDetail> {
  const [history, documents, check, linked] = await Promise.all([
    listHistory(ctx, submission.id),
    Promise.all(
      DOCUMENT_TYPES.flatMap((type) =>
        submission.documents[type] ? [reviewDocument(ctx, submission.documents[type])] : [],
      ),
    ),
    riskCheck(ctx, submission),
    linkedSubmissions(ctx, submission),
  ]);
  const { documents: _rows, ...row } = reviewRow(submission);
  return {
    ...row,
    documents,
    // Only the masked form: the keyed hash is for duplicate detection, not for people.
    identity_numbers: Object.fromEntries(
      IDENTITY_NUMBER_TYPES.flatMap((type) => {
        const record = submission.identity_numbers[type];
        return record ? [[type, { masked: record.masked, verified_at: record.verified_at }]] : [];
      }),
    ),
    risk: submission.risk,
    risk_check: check,
    linked,
    review_alert: submission.review_alert,
    info_request: submission.info_request,
    updated_at: submission.updated_at,
    audit: history.map(auditRow),
  };
}

export async function submissionDetail(ctx: CoreContext, submissionId: string): Promise<SubmissionDetail> {
  return detailOf(ctx, await findSubmissionForReview(ctx, submissionId));
}
