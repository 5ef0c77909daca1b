import { describe, expect, it } from "vitest";
import type { KycState } from "../api/kyc";
import { canContinue, clampStep, decidedSince, hasStepButtons, KYC_STEPS, missingSteps, outcomeOf, resumeStep, STEP_INDEX, stepProgress, stepsDone } from "./steps";

const base: KycState = {
  user_id: "u1",
  country: "IN",
  status: "pending",
  progress: 0,
  documents: {},
  next_steps: [],
  updated_at: "2026-11-26T00:00:00.000Z",
  identity_numbers: {},
  info_request: null,
};
const masked = { masked: "XXXX XXXX 2346", verified_at: "2026-11-26T00:00:00.000Z" };
const withDocument = (status: "uploaded" | "checking" | "verified" | "rejected"): KycState => ({ ...base, documents: { passport: { status, verified_at: null } } });

describe("wizard steps", () => {
  it("are the spec's five, with their time estimates", () => {
    expect(KYC_STEPS.map((step) => [step.title, step.estimate])).toEqual([
      ["Country Selection", "30s"],
      ["Document Upload", "2m"],
      ["Identity Verification (Aadhaar)", "45s"],
      ["Tax Verification (PAN)", "1m"],
      ["Completion", "Instant"],
    ]);
  });

  it("says Step N of 5 with its percent, within bounds", () => {
    expect(stepProgress(1)).toEqual({ label: "Step 2 of 5", percent: 40 });
    expect(stepProgress(4)).toEqual({ label: "Step 5 of 5", percent: 100 });
    expect(stepProgress(9)).toEqual({ label: "Step 5 of 5", percent: 100 });
    expect(clampStep(-1)).toBe(0);
  });

  it("shows Previous/Continue on steps 2 to 4 only", () => {
    expect([0, 1, 2, 3, 4].map(hasStepButtons)).toEqual([false, true, true, true, false]);
  });

  it("holds Continue on the Aadhaar step until Aadhaar is verified, and on the PAN step until PAN is", () => {
    expect(canContinue(STEP_INDEX.documents, base)).toBe(true);
    expect(canContinue(STEP_INDEX.aadhaar, base)).toBe(false);
    expect(canContinue(STEP_INDEX.aadhaar, { ...base, identity_numbers: { aadhaar: masked } })).toBe(true);
    expect(canContinue(STEP_INDEX.pan, { ...base, identity_numbers: { aadhaar: masked } })).toBe(false);
    expect(canContinue(STEP_INDEX.pan, { ...base, identity_numbers: { pan: masked } })).toBe(true);
  });

  it("resumes at the first step still to do", () => {
    expect(resumeStep(null)).toBe(STEP_INDEX.country);
    expect(resumeStep(base)).toBe(STEP_INDEX.documents);
    expect(resumeStep(withDocument("rejected"))).toBe(STEP_INDEX.documents);
    // A document still being checked counts as given: the applicant moves on meanwhile.
    expect(resumeStep(withDocument("checking"))).toBe(STEP_INDEX.aadhaar);
    expect(resumeStep({ ...withDocument("verified"), identity_numbers: { aadhaar: masked } })).toBe(STEP_INDEX.pan);
    expect(resumeStep({ ...withDocument("verified"), identity_numbers: { aadhaar: masked, pan: masked } })).toBe(STEP_INDEX.completion);
  });

  it("resumes at the outcome once a reviewer has it, decided, or asked for more", () => {
    for (const status of ["under_review", "verified", "rejected"] as const) expect(resumeStep({ ...base, status })).toBe(STEP_INDEX.completion);
    expect(resumeStep({ ...base, info_request: { message: "Glare on the photo", requested_at: "2026-11-26T00:00:00.000Z" } })).toBe(STEP_INDEX.completion);
  });

  it("ticks the steps the submission has done, wherever the applicant stands", () => {
    expect(stepsDone(null)).toEqual([false, false, false, false, false]);
    expect(stepsDone({ ...base, identity_numbers: { pan: masked } })).toEqual([true, false, false, true, false]);
    expect(stepsDone({ ...withDocument("verified"), identity_numbers: { aadhaar: masked, pan: masked }, status: "verified" })).toEqual([true, true, true, true, true]);
  });

  it("notices a decision that arrived by polling, once", () => {
    expect(decidedSince("under_review", "verified")).toBe(true);
    expect(decidedSince("under_review", "rejected")).toBe(true);
    expect(decidedSince("verified", "verified")).toBe(false);
    expect(decidedSince(undefined, "verified")).toBe(false);
    expect(decidedSince("pending", "under_review")).toBe(false);
  });

  it("lists what is missing and names the outcome", () => {
    expect(missingSteps(base).map((item) => item.step)).toEqual([STEP_INDEX.documents, STEP_INDEX.aadhaar, STEP_INDEX.pan]);
    expect(outcomeOf(base)).toBe("incomplete");
    expect(outcomeOf({ ...withDocument("verified"), identity_numbers: { aadhaar: masked, pan: masked } })).toBe("under_review");
    expect(outcomeOf({ ...base, status: "under_review" })).toBe("under_review");
    expect(outcomeOf({ ...base, status: "verified" })).toBe("verified");
    expect(outcomeOf({ ...base, status: "rejected" })).toBe("rejected");
    expect(outcomeOf({ ...base, info_request: { message: "More", requested_at: "x" } })).toBe("info_requested");
  });
});
