import { IDENTITY_NUMBER_KINDS } from "@fintech/core/kyc/identity-numbers";
import {
  DOCUMENT_TYPE_LABELS,
  type DocumentType,
  type IdentityNumberType,
  type KycStatus,
} from "@fintech/core/kyc/model";
import type { KycState } from "../api/kyc";

/**
 * The wizard's steps and the rules that move between them (docs/product/kyc.md#wizard). The steps
 * follow the chosen country: one step per identity number it asks for (country-requirements.ts, as
 * the state reply lists them) around the document step, then the outcome. India has five
 * (docs/product/kyc.md#steps-by-country: Country, Document, Aadhaar, PAN, Completion); the United
 * States four (an optional SSN); most countries three.
 *
 * Optional numbers come before the document and required ones after it: the last required step
 * sends the submission to a reviewer, after which nothing can be added, so an optional step placed
 * after it could never be taken.
 */

/** A number step as the country asks for it. */
export interface NumberRequirement {
  type: IdentityNumberType;
  required: boolean;
}

export type KycStepId = "country" | "documents" | "completion" | IdentityNumberType;

export interface KycStep {
  id: KycStepId;
  title: string;
  estimate: string;
  /** For a number step: the number and whether it may be skipped. */
  number?: NumberRequirement;
}

const COUNTRY_STEP: KycStep = { id: "country", title: "Country Selection", estimate: "30s" };
const DOCUMENTS_STEP: KycStep = { id: "documents", title: "Document Upload", estimate: "2m" };
const COMPLETION_STEP: KycStep = { id: "completion", title: "Completion", estimate: "Instant" };

/** docs/product/kyc.md#wizard names India's two number steps; every other number's step is named after the number. */
const SPEC_NUMBER_STEPS: Partial<Record<IdentityNumberType, Pick<KycStep, "title" | "estimate">>> = {
  aadhaar: { title: "Identity Verification (Aadhaar)", estimate: "45s" },
  pan: { title: "Tax Verification (PAN)", estimate: "1m" },
};

function numberStep(number: NumberRequirement): KycStep {
  const optional = number.required ? "" : ", optional";
  const named = SPEC_NUMBER_STEPS[number.type] ?? {
    title: `Identity Number (${IDENTITY_NUMBER_KINDS[number.type].short}${optional})`,
    estimate: "45s",
  };
  return { id: number.type, ...named, number };
}

/** The steps for what the country asks (none known before a country is chosen: country, document, outcome). */
export function stepsFor(numbers: readonly NumberRequirement[]): KycStep[] {
  const optional = numbers.filter((number) => !number.required).map(numberStep);
  const required = numbers.filter((number) => number.required).map(numberStep);
  return [COUNTRY_STEP, ...optional, DOCUMENTS_STEP, ...required, COMPLETION_STEP];
}

/** The numbers a state asks for, as its reply lists them. */
export const numbersOf = (state: Pick<KycState, "identity_number_requirements"> | null): NumberRequirement[] =>
  (state?.identity_number_requirements ?? []).map(({ type, required }) => ({ type, required }));

/** The index of a step in `steps`; a step the list does not have (a number of another country) is the outcome. */
export function indexOf(steps: readonly KycStep[], id: KycStepId): number {
  const index = steps.findIndex((step) => step.id === id);
  return index === -1 ? steps.length - 1 : index;
}

/** The step at an index within bounds (docs/product/kyc.md#wizard). */
export function stepAt(steps: readonly KycStep[], index: number): KycStep {
  return steps[Math.max(0, Math.min(steps.length - 1, Math.trunc(index)))]!;
}

/**
 * "Step N of M" and how far the verification is, shown from the document step on (docs/product/kyc.md#wizard).
 * The percent is the one figure of progress on the page (the header bar and the outcome's
 * "Verification progress" both show it): the steps done, plus the step being taken, except the
 * outcome, which counts only once the identity is verified. So an applicant waiting for a reviewer
 * never reads 100%.
 */
export function stepProgress(
  steps: readonly KycStep[],
  id: KycStepId,
  state: KycState | null,
): { label: string; percent: number } {
  const index = indexOf(steps, id);
  const done = stepsDone(state, steps);
  const counted = steps.filter((step, at) => done[at] || (at === index && step.id !== "completion")).length;
  return {
    label: `Step ${index + 1} of ${steps.length}`,
    percent: steps.length === 0 ? 0 : Math.round((counted / steps.length) * 100),
  };
}

/** Previous and Continue appear on every step between the country and the outcome. */
export const hasStepButtons = (id: KycStepId) => id !== "country" && id !== "completion";

type NumbersState = Pick<KycState, "identity_numbers"> | null;

export const isNumberVerified = (state: NumbersState, type: IdentityNumberType) =>
  state?.identity_numbers[type] !== undefined;

/** Continue waits on a required number's step until it is verified; an optional number's step may be skipped. */
export function canContinue(step: KycStep, state: NumbersState): boolean {
  if (step.number) return !step.number.required || isNumberVerified(state, step.number.type);
  return hasStepButtons(step.id);
}

/** A document that counts as given: uploaded and not refused by the checks (it may still be checking). */
export const hasUsableDocument = (state: Pick<KycState, "documents">) =>
  Object.values(state.documents).some((document) => document !== undefined && document.status !== "rejected");

/** Statuses where the applicant has nothing left to do but read the outcome. */
const SETTLED: readonly KycStatus[] = ["under_review", "verified", "rejected"];

/**
 * Where an applicant who comes back resumes: the country step before any start, the outcome once
 * the submission is with a reviewer, decided, or sent back with a request; otherwise the first
 * step not done in order: an optional number not given yet while no document is in (they come
 * first), the document, then each required number in the country's order.
 */
export function resumeStep(state: KycState | null, steps: readonly KycStep[]): KycStepId {
  if (state === null) return "country";
  if (SETTLED.includes(state.status) || state.info_request) return "completion";
  if (!hasUsableDocument(state))
    return (
      steps.find((step) => step.number && !step.number.required && !isNumberVerified(state, step.number.type))?.id ??
      "documents"
    );
  for (const step of steps) if (step.number?.required && !isNumberVerified(state, step.number.type)) return step.id;
  return "completion";
}

/** Which steps are done (the overview's ticks): by what the submission holds, not by where the applicant stands. */
export function stepsDone(state: KycState | null, steps: readonly KycStep[]): boolean[] {
  return steps.map((step) => {
    if (state === null) return false;
    if (step.id === "country") return true;
    if (step.id === "documents") return hasUsableDocument(state);
    if (step.id === "completion") return state.status === "verified";
    return isNumberVerified(state, step.id);
  });
}

export interface MissingStep {
  step: KycStepId;
  label: string;
}

/** What the completion step lists as still to do before review, each with the step that does it. */
export function missingSteps(state: KycState, steps: readonly KycStep[]): MissingStep[] {
  const missing: MissingStep[] = [];
  if (!hasUsableDocument(state))
    missing.push({ step: "documents", label: "Upload an identity document that passes the checks" });
  for (const step of steps) {
    if (step.number?.required && !isNumberVerified(state, step.number.type))
      missing.push({ step: step.id, label: `Verify your ${IDENTITY_NUMBER_KINDS[step.number.type].label}` });
  }
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

export function outcomeOf(state: KycState, steps: readonly KycStep[]): Outcome {
  if (state.status === "verified") return "verified";
  if (state.status === "rejected") return "rejected";
  if (state.info_request) return "info_requested";
  if (state.status === "under_review") return "under_review";
  return missingSteps(state, steps).length > 0 ? "incomplete" : "under_review";
}

export const documentLabel = (type: DocumentType) => DOCUMENT_TYPE_LABELS[type];
