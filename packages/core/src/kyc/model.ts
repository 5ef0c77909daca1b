import { z } from "zod";
import { IDENTITY_NUMBER_KINDS, IDENTITY_NUMBER_TYPES } from "./identity-numbers";

/**
 * The KYC domain's shapes, messages and constants (docs/product/kyc.md). Browser-safe: the wizard and
 * the reviewer dashboard import these, so the server and the screens say the same thing.
 */

export const KYC_STATUSES = ["pending", "under_review", "verified", "rejected"] as const;
export const KycStatus = z.enum(KYC_STATUSES);
export type KycStatus = z.infer<typeof KycStatus>;

export const DOCUMENT_TYPES = ["passport", "idCard", "driverLicense", "residencePermit"] as const;
export const DocumentType = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof DocumentType>;
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  passport: "Passport",
  idCard: "National ID Card",
  driverLicense: "Driver's License",
  residencePermit: "Residence Permit",
};

/**
 * Identity numbers verified by their own steps: every type of the registry (identity-numbers.ts);
 * which ones a country asks for is country-requirements.ts.
 */
export { IDENTITY_NUMBER_TYPES };
export const IdentityNumberType = z.enum(IDENTITY_NUMBER_TYPES);
export type IdentityNumberType = z.infer<typeof IdentityNumberType>;

export const PRIORITIES = ["high", "medium", "low"] as const;
export const Priority = z.enum(PRIORITIES);
export type Priority = z.infer<typeof Priority>;

export const RISK_LEVELS = ["Low", "Medium", "High"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** docs/product/kyc.md#constants. */
export const KYC_LIMITS = {
  maxFileBytes: 5 * 1024 * 1024,
  acceptedImageTypes: ["image/jpeg", "image/png"] as const,
  aadhaarDigits: 12,
  panLength: 10,
  riskMediumFrom: 30,
  riskHighFrom: 60,
  /** Progress each verified identity number adds. */
  identityNumberProgress: 25,
  /** The stream's startVerification sends this amount (INR). */
  defaultAmount: 50_000,
  maxAmount: 1_000_000_000,
  maxNoteLength: 2_000,
  maxBulkIds: 100,
} as const;

/** Messages of docs/product/kyc.md#messages, word for word. */
export const KYC_MESSAGES = {
  invalidAadhaar: IDENTITY_NUMBER_KINDS.aadhaar.invalidMessage,
  invalidPan: IDENTITY_NUMBER_KINDS.pan.invalidMessage,
  notAnImage: "File must be an image",
  fileTooLarge: "File size must be less than 5MB",
  wrongImageFormat: "File must be JPG, JPEG, or PNG format",
  fileValidationTitle: "File Validation Failed",
  alreadyStarted: "User already has a KYC submission",
  alreadyStartedWarningTitle: "KYC Already Exists",
  alreadyStartedWarning: "You already have an active KYC submission. Please check your verification status.",
  startFailed: "Failed to start KYC process. Please try again.",
  loadCountriesFailed: "Failed to load countries. Please refresh the page and try again.",
  verificationFailed: "Document verification failed. Please check your details and try again.",
  genericVerificationFailed: "Verification failed. Please try again.",
  started: (country: string) => `KYC verification process has been successfully initiated for ${country}`,
  documentVerified: (doc: string) => `${doc} verified successfully!`,
  /**
   * docs/product/kyc.md#messages follows this sentence with the risk score; applicants never see it
   * (docs/trust-and-safety.md#what-applicants-see), so the sentence ends here.
   */
  completed: "KYC verification completed successfully!",
} as const;

/** Under 30 Low; 30 to under 60 Medium; 60 and above High (docs/product/kyc.md#progress-and-risk). */
export function riskLevel(score: number): RiskLevel {
  if (score < KYC_LIMITS.riskMediumFrom) return "Low";
  if (score < KYC_LIMITS.riskHighFrom) return "Medium";
  return "High";
}

export const DOCUMENT_STATUSES = ["uploaded", "checking", "verified", "rejected"] as const;
export const DocumentStatus = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

/** Results of the image checks on one document (filled by the document checks). */
export const ImageChecks = z.object({
  format: z.enum(["jpeg", "png"]),
  bytes: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** Variance of the Laplacian of the greyscale image: low means blurred. */
  sharpness: z.number(),
  /** Share of pixels at the top of the brightness range: high means glare / washed out. */
  glare: z.number(),
  /** 64-bit perceptual hash as 16 hex digits. */
  phash: z.string(),
  passed: z.boolean(),
  /** Why a check failed, in words the applicant can act on. */
  problems: z.array(z.string()),
});
export type ImageChecks = z.infer<typeof ImageChecks>;

export const SubmissionDocument = z.object({
  type: DocumentType,
  status: DocumentStatus,
  uploaded_at: z.string(),
  verified_at: z.string().nullable(),
  /** S3 key of the object (never shown to applicants; reviewers get a presigned GET). */
  object_key: z.string(),
  file_name: z.string().nullable(),
  checks: ImageChecks.nullable(),
  /** A face image stored beside it for the reviewer (Didit-style verification). */
  face_object_key: z.string().nullable(),
  /** Why the file itself was refused (not a JPG/PNG, too large), when it came by presigned upload and was deleted. */
  refusal: z.string().nullable().default(null),
});
export type SubmissionDocument = z.infer<typeof SubmissionDocument>;

export const IdentityNumberRecord = z.object({
  /** Last four characters only, e.g. "XXXX XXXX 1234"; the number itself is never stored. */
  masked: z.string(),
  /** Keyed hash (HMAC) of the normalised number under the newest key, to find the same number on another user. */
  hash: z.string(),
  /** Every hash the number was claimed under, one per key version retained then (identity-hash.ts). */
  hashes: z.array(z.string()).optional(),
  verified_at: z.string(),
});
export type IdentityNumberRecord = z.infer<typeof IdentityNumberRecord>;

export const RiskFlag = z.object({ code: z.string(), message: z.string() });
export type RiskFlag = z.infer<typeof RiskFlag>;

export const RiskAssessment = z.object({
  risk_score: z.number().int().min(0).max(100),
  level: z.enum(RISK_LEVELS),
  priority: Priority,
  flags: z.array(RiskFlag),
  verdict: z.enum(["approve", "review", "reject"]),
  /** Every rule that fired, with the points it added and why. */
  reasons: z.array(z.object({ rule: z.string(), points: z.number(), reason: z.string() })),
  rule_set_version: z.number().int(),
  assessed_at: z.string(),
});
export type RiskAssessment = z.infer<typeof RiskAssessment>;

/** What the applicant was asked for when a reviewer chose Request Info. */
export const InfoRequest = z.object({ message: z.string(), requested_at: z.string(), requested_by: z.string() });
export type InfoRequest = z.infer<typeof InfoRequest>;

/**
 * Raised on a decided (verified) submission when a re-score finds it linked to a later one
 * (risk/links.ts): it keeps its status and goes back in front of a reviewer, who dismisses the
 * alert with a reason or reopens the submission.
 */
export const ReviewAlert = z.object({
  reason: z.string(),
  raised_at: z.string(),
  /** The later submission whose number or picture caused the re-score. */
  cause_submission_id: z.string(),
});
export type ReviewAlert = z.infer<typeof ReviewAlert>;

/** The stored submission (the KYC submission of docs/product/kyc.md#data, plus what the checks and the review keep). */
export const KycSubmission = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  country: z.string(),
  location: z.string(),
  status: KycStatus,
  amount: z.number().int(),
  priority: Priority,
  risk_score: z.number().int(),
  risk: RiskAssessment.nullable(),
  progress: z.number().int().min(0).max(100),
  documents: z.partialRecord(DocumentType, SubmissionDocument),
  identity_numbers: z.partialRecord(IdentityNumberType, IdentityNumberRecord),
  notes: z.string(),
  info_request: InfoRequest.nullable(),
  /** Where the applicant came from, for velocity rules (never shown to other users). */
  origin: z.object({
    ip: z.string().nullable(),
    email_domain: z.string(),
    device: z.string().nullable().default(null),
  }),
  submitted_at: z.string(),
  updated_at: z.string(),
  verified_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** An open alert for a reviewer (see ReviewAlert); null when there is none. */
  review_alert: ReviewAlert.nullable().default(null),
  /** Sequence number of the submission's last event: the optimistic-concurrency guard. */
  version: z.number().int(),
});
export type KycSubmission = z.infer<typeof KycSubmission>;

/** Stream events of docs/product/kyc.md#live-updates, as the KYC stream sends them. */
export const KYC_EVENT_TYPES = [
  "verificationStarted",
  "documentUploaded",
  "documentVerified",
  "riskAssessmentUpdate",
  "verificationCompleted",
  "complianceAlert",
] as const;
export type KycEventType = (typeof KYC_EVENT_TYPES)[number];

/**
 * The events an applicant's own feed carries: what happened and what comes next. Risk updates and
 * compliance alerts reach reviewers only (events.ts).
 */
export const APPLICANT_KYC_EVENT_TYPES = [
  "verificationStarted",
  "documentUploaded",
  "documentVerified",
  "verificationCompleted",
] as const satisfies readonly KycEventType[];

/**
 * One entry of a submission's history (its outbox and audit trail at once): who did what, the
 * status before and after, a note, and the stream event it announces (if any).
 */
export const KycHistoryEntry = z.object({
  seq: z.number().int(),
  at: z.string(),
  actor: z.object({ id: z.string(), name: z.string(), role: z.enum(["applicant", "reviewer", "system"]) }),
  action: z.string(),
  from: KycStatus.nullable(),
  to: KycStatus.nullable(),
  note: z.string().nullable(),
  event: z.object({ type: z.enum(KYC_EVENT_TYPES), data: z.record(z.string(), z.unknown()) }).nullable(),
});
export type KycHistoryEntry = z.infer<typeof KycHistoryEntry>;

/** Audit trail rows as the reviewer's detail shows them ({actor, at, from, to, note}). */
export interface AuditRow {
  actor: string;
  at: string;
  action: string;
  from: KycStatus | null;
  to: KycStatus | null;
  note: string | null;
}

/**
 * Progress (docs/product/kyc.md#progress-and-risk): +25 per verified identity number, and 100 / n
 * for each verified document type among the n the country supports; capped at 100.
 */
export function submissionProgress(
  submission: Pick<KycSubmission, "documents" | "identity_numbers">,
  countryDocumentTypeCount: number,
): number {
  const numbers = Object.keys(submission.identity_numbers).length * KYC_LIMITS.identityNumberProgress;
  const verifiedDocuments = Object.values(submission.documents).filter(
    (document) => document?.status === "verified",
  ).length;
  const documents = countryDocumentTypeCount > 0 ? (verifiedDocuments * 100) / countryDocumentTypeCount : 0;
  return Math.min(100, Math.round(numbers + documents));
}
