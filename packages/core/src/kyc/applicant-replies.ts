import { z } from "zod";
import { DOCUMENT_STATUSES, DocumentType, IdentityNumberType, KYC_STATUSES } from "./model";

/**
 * What an applicant is told about their KYC: what to do next, never a risk signal (score, level,
 * flag, rule), which would teach them which check to get around. Reviewers see the rest.
 */

export const ApplicantDocumentView = z.object({
  status: z.enum(DOCUMENT_STATUSES),
  verified_at: z.string().nullable(),
  uploaded_at: z.string(),
  /** Why a document's checks failed, in words the applicant can act on (empty when passed). */
  problems: z.array(z.string()),
});

/** A number the applicant's country asks for, as the wizard offers it. */
export const IdentityNumberRequirementView = z.object({
  type: IdentityNumberType,
  label: z.string().describe("What the field calls it, e.g. Social Security number (SSN)"),
  required: z.boolean().describe("false: offered, may be skipped"),
  format: z.string().describe("How it looks (an illustration, not a real number)"),
});

/** A step still to do before review: the document, or a required number by type. */
export const RemainingStep = z.union([z.literal("document"), IdentityNumberType]);

export const KycStateView = z.object({
  submission_id: z.string(),
  user_id: z.string(),
  country: z.string(),
  location: z.string(),
  status: z.enum(KYC_STATUSES),
  progress: z.number().int(),
  /** The document types the country accepts, in the order to offer them. */
  document_types: z.array(DocumentType),
  documents: z.partialRecord(DocumentType, ApplicantDocumentView),
  /** The numbers the country asks for, in the order to ask (none for many countries). */
  identity_number_requirements: z.array(IdentityNumberRequirementView),
  identity_numbers: z.partialRecord(IdentityNumberType, z.object({ masked: z.string(), verified_at: z.string() })),
  /**
   * What must still be done before review ("document" and required number types), in the wizard's
   * order; empty once submitted.
   */
  remaining_steps: z.array(RemainingStep),
  next_steps: z.array(z.string()),
  info_request: z.object({ message: z.string(), requested_at: z.string() }).nullable(),
  submitted_at: z.string(),
  updated_at: z.string(),
  verified_at: z.string().nullable(),
});
export type KycStateView = z.infer<typeof KycStateView>;

export const IdentityNumberVerified = z.object({
  valid: z.literal(true),
  status: z.literal("verified"),
  document_type: IdentityNumberType,
  masked: z.string(),
  progress: z.number().int(),
  /** The submission's status after this step (under_review once every step is done). */
  kyc_status: z.enum(KYC_STATUSES),
});
export type IdentityNumberVerified = z.infer<typeof IdentityNumberVerified>;
