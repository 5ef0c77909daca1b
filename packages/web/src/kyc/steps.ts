import { DOCUMENT_TYPE_LABELS, IDENTITY_NUMBER_TYPES, type DocumentType, type IdentityNumberType, type KycStatus } from "@fintech/core/kyc/model";
import type { KycState } from "../api/kyc";

/**
 * The wizard's five steps (spec 001 §2) and the rules that move between them (§4): which step a
 * returning applicant resumes at, when Continue is allowed, and what the completion step reports.
 */

export const KYC_STEPS = [
  { id: "country", title: "Country Selection", estimate: "30s" },
  { id: "documents", title: "Document Upload", estimate: "2m" },
  { id: "aadhaar", title: "Identity Verification (Aadhaar)", estimate: "45s" },
  { id: "pan", title: "Tax Verification (PAN)", estimate: "1m" },
  { id: "completion", title: "Completion", estimate: "Instant" },
] as const;

export type KycStepId = (typeof KYC_STEPS)[number]["id"];
export const STEP_INDEX: Record<KycStepId, number> = { country: 0, documents: 1, aadhaar: 2, pan: 3, completion: 4 };
export const LAST_STEP = KYC_STEPS.length - 1;

/** Step index within bounds 0 to 4 (spec 001 §4). */
export const clampStep = (step: number) => Math.max(0, Math.min(LAST_STEP, Math.trunc(step)));

/** "Step N of 5" and its percent, shown from step 2 on (spec 001 §2). */
export function stepProgress(step: number): { label: string; percent: number } {
  const index = clampStep(step);
  return { label: `Step ${index + 1} of ${KYC_STEPS.length}`, percent: Math.round(((index + 1) / KYC_STEPS.length) * 100) };
}

/** Previous and Continue appear on steps 2 to 4 (indexes 1 to 3). */
export const hasStepButtons = (step: number) => step >= STEP_INDEX.documents && step <= STEP_INDEX.pan;

type NumbersState = Pick<KycState, "identity_numbers"> | null;

export const isNumberVerified = (state: NumbersState, type: IdentityNumberType) => state?.identity_numbers[type] !== undefined;

/** Continue waits for a verified Aadhaar on its step and a verified PAN on its step; elsewhere it is free. */
export function canContinue(step: number, state: NumbersState): boolean {
  if (step === STEP_INDEX.aadhaar) return isNumberVerified(state, "aadhaar");
  if (step === STEP_INDEX.pan) return isNumberVerified(state, "pan");
  return hasStepButtons(step);
}

/** A document that counts as given: uploaded and not refused by the checks (it may still be checking). */
export const hasUsableDocument = (state: Pick<KycState, "documents">) => Object.values(state.documents).some((document) => document !== undefined && document.status !== "rejected");

/** Statuses where the applicant has nothing left to do but read the outcome. */
const SETTLED: readonly KycStatus[] = ["under_review", "verified", "rejected"];

/**
 * Where an applicant who comes back resumes: the country step before any start, the outcome once
 * the submission is with a reviewer, decided, or sent back with a request; otherwise the first
 * step still to do (a document, then Aadhaar, then PAN).
 */
export function resumeStep(state: KycState | null): number {
  if (state === null) return STEP_INDEX.country;
  if (SETTLED.includes(state.status) || state.info_request) return STEP_INDEX.completion;
  if (!hasUsableDocument(state)) return STEP_INDEX.documents;
  for (const type of IDENTITY_NUMBER_TYPES) if (!isNumberVerified(state, type)) return STEP_INDEX[type];
  return STEP_INDEX.completion;
}

/** Which steps are done (the overview's ticks): by what the submission holds, not by where the applicant stands. */
export function stepsDone(state: KycState | null): boolean[] {
  if (state === null) return KYC_STEPS.map(() => false);
  return [true, hasUsableDocument(state), isNumberVerified(state, "aadhaar"), isNumberVerified(state, "pan"), state.status === "verified"];
}

export interface MissingStep {
  step: number;
  label: string;
}

/** What the completion step lists as still to do, each with the step that does it. */
export function missingSteps(state: KycState): MissingStep[] {
  const missing: MissingStep[] = [];
  if (!hasUsableDocument(state)) missing.push({ step: STEP_INDEX.documents, label: "Upload an identity document that passes the checks" });
  if (!isNumberVerified(state, "aadhaar")) missing.push({ step: STEP_INDEX.aadhaar, label: "Verify your Aadhaar number" });
  if (!isNumberVerified(state, "pan")) missing.push({ step: STEP_INDEX.pan, label: "Verify your PAN" });
  return missing;
}

/**
 * A reviewer's decision seen by polling (no stream): the same jump to the last step the stream's
 * verificationCompleted makes, once, when the status turns verified or rejected.
 */
export function decidedSince(previous: KycStatus | undefined, next: KycStatus | undefined): boolean {
  const decided = (status: KycStatus | undefined) => status === "verified" || status === "rejected";
  return previous !== undefined && next !== undefined && !decided(previous) && decided(next);
}

/** The outcome the completion step shows for a status. */
export type Outcome = "incomplete" | "under_review" | "verified" | "rejected" | "info_requested";

export function outcomeOf(state: KycState): Outcome {
  if (state.status === "verified") return "verified";
  if (state.status === "rejected") return "rejected";
  if (state.info_request) return "info_requested";
  if (state.status === "under_review") return "under_review";
  return missingSteps(state).length > 0 ? "incomplete" : "under_review";
}

export const documentLabel = (type: DocumentType) => DOCUMENT_TYPE_LABELS[type];
