import { describe, expect, it } from "vitest";
import { describeIdentityNumbers } from "@fintech/core/kyc/country-requirements";
import type { KycState } from "../api/kyc";
import {
  canContinue,
  decidedSince,
  hasStepButtons,
  indexOf,
  missingSteps,
  numbersOf,
  outcomeOf,
  resumeStep,
  stepAt,
  stepProgress,
  stepsDone,
  stepsFor,
  type KycStep,
} from "./steps";

const stateFor = (country: string): KycState => ({
  user_id: "u1",
  country,
  status: "pending",
  progress: 0,
  documents: {},
  next_steps: [],
  updated_at: "2026-11-26T00:00:00.000Z",
  identity_number_requirements: describeIdentityNumbers(country),
  identity_numbers: {},
  info_request: null,
});
const base = stateFor("IN");
const masked = { masked: "XXXX XXXX 2346", verified_at: "2026-11-26T00:00:00.000Z" };
const withDocument = (status: "uploaded" | "checking" | "verified" | "rejected", state: KycState = base): KycState => ({
  ...state,
  documents: { passport: { status, verified_at: null } },
});
const india = stepsFor(numbersOf(base));
const us = stepsFor(numbersOf(stateFor("US")));
const kenya = stepsFor(numbersOf(stateFor("KE")));
const step = (steps: KycStep[], id: KycStep["id"]) => stepAt(steps, indexOf(steps, id));

describe("wizard steps", () => {
  it("are the documented five for India, with their time estimates", () => {
    expect(india.map((item) => [item.title, item.estimate])).toEqual([
      ["Country Selection", "30s"],
      ["Document Upload", "2m"],
      ["Identity Verification (Aadhaar)", "45s"],
      ["Tax Verification (PAN)", "1m"],
      ["Completion", "Instant"],
    ]);
  });

  it("follow the country: an optional SSN before the document in the US, no number step where none is asked, three before a country is chosen", () => {
    expect(us.map((item) => item.title)).toEqual([
      "Country Selection",
      "Identity Number (SSN, optional)",
      "Document Upload",
      "Completion",
    ]);
    expect(kenya.map((item) => item.id)).toEqual(["country", "documents", "completion"]);
    expect(stepsFor(numbersOf(null)).map((item) => item.id)).toEqual(["country", "documents", "completion"]);
    expect(stepsFor(numbersOf(stateFor("BR"))).map((item) => item.id)).toEqual([
      "country",
      "documents",
      "br_cpf",
      "completion",
    ]);
  });

  it("says Step N of the real count with how far the verification is", () => {
    expect(stepProgress(india, "documents", base)).toEqual({ label: "Step 2 of 5", percent: 40 });
    expect(stepProgress(us, "us_ssn", stateFor("US"))).toEqual({ label: "Step 2 of 4", percent: 50 });
    const inReview: KycState = {
      ...withDocument("verified"),
      identity_numbers: { aadhaar: masked, pan: masked },
      status: "under_review",
    };
    // Everything done and with a reviewer: not 100% until verified, the same figure wherever it shows.
    expect(stepProgress(india, "completion", inReview)).toEqual({ label: "Step 5 of 5", percent: 80 });
    expect(stepProgress(india, "documents", inReview).percent).toBe(80);
    expect(stepProgress(india, "completion", { ...inReview, status: "verified" }).percent).toBe(100);
    expect(stepProgress(kenya, "completion", withDocument("verified", stateFor("KE")))).toEqual({
      label: "Step 3 of 3",
      percent: 67,
    });
    // Reaching the outcome with steps missing does not count them.
    expect(stepProgress(india, "completion", base).percent).toBe(20);
    // A step of another country's list is the outcome here; indexes stay within bounds.
    expect(indexOf(kenya, "aadhaar")).toBe(2);
    expect(stepAt(india, -1).id).toBe("country");
    expect(stepAt(india, 9).id).toBe("completion");
  });

  it("shows Previous/Continue between the country and the outcome only", () => {
    expect(india.map((item) => hasStepButtons(item.id))).toEqual([false, true, true, true, false]);
  });

  it("holds Continue on a required number's step until it is verified; an optional one may be skipped", () => {
    expect(canContinue(step(india, "documents"), base)).toBe(true);
    expect(canContinue(step(india, "aadhaar"), base)).toBe(false);
    expect(canContinue(step(india, "aadhaar"), { ...base, identity_numbers: { aadhaar: masked } })).toBe(true);
    expect(canContinue(step(india, "pan"), { ...base, identity_numbers: { aadhaar: masked } })).toBe(false);
    expect(canContinue(step(india, "pan"), { ...base, identity_numbers: { pan: masked } })).toBe(true);
    expect(canContinue(step(us, "us_ssn"), stateFor("US"))).toBe(true);
  });

  it("resumes at the first step not done", () => {
    expect(resumeStep(null, india)).toBe("country");
    expect(resumeStep(base, india)).toBe("documents");
    expect(resumeStep(withDocument("rejected"), india)).toBe("documents");
    // A document still being checked counts as given: the applicant moves on meanwhile.
    expect(resumeStep(withDocument("checking"), india)).toBe("aadhaar");
    expect(resumeStep({ ...withDocument("verified"), identity_numbers: { aadhaar: masked } }, india)).toBe("pan");
    expect(resumeStep({ ...withDocument("verified"), identity_numbers: { aadhaar: masked, pan: masked } }, india)).toBe(
      "completion",
    );
    // An optional number comes first while no document is in; once given (or a document is in) it is behind.
    expect(resumeStep(stateFor("US"), us)).toBe("us_ssn");
    expect(resumeStep({ ...stateFor("US"), identity_numbers: { us_ssn: masked } }, us)).toBe("documents");
    expect(resumeStep(withDocument("checking", stateFor("US")), us)).toBe("completion");
  });

  it("resumes at the outcome once a reviewer has it, decided, or asked for more", () => {
    for (const status of ["under_review", "verified", "rejected"] as const)
      expect(resumeStep({ ...base, status }, india)).toBe("completion");
    expect(
      resumeStep(
        { ...base, info_request: { message: "Glare on the photo", requested_at: "2026-11-26T00:00:00.000Z" } },
        india,
      ),
    ).toBe("completion");
  });

  it("ticks the steps the submission has done, wherever the applicant stands", () => {
    expect(stepsDone(null, india)).toEqual([false, false, false, false, false]);
    expect(stepsDone({ ...base, identity_numbers: { pan: masked } }, india)).toEqual([true, false, false, true, false]);
    expect(
      stepsDone(
        { ...withDocument("verified"), identity_numbers: { aadhaar: masked, pan: masked }, status: "verified" },
        india,
      ),
    ).toEqual([true, true, true, true, true]);
    expect(stepsDone(withDocument("verified", stateFor("US")), us)).toEqual([true, false, true, false]);
  });

  it("notices a decision that arrived by polling, once", () => {
    expect(decidedSince("under_review", "verified")).toBe(true);
    expect(decidedSince("under_review", "rejected")).toBe(true);
    expect(decidedSince("verified", "verified")).toBe(false);
    expect(decidedSince(undefined, "verified")).toBe(false);
    expect(decidedSince("pending", "under_review")).toBe(false);
  });

  it("lists what is missing by the country's requirements and names the outcome", () => {
    expect(missingSteps(base, india).map((item) => item.step)).toEqual(["documents", "aadhaar", "pan"]);
    expect(missingSteps(base, india).map((item) => item.label)).toEqual([
      "Upload an identity document that passes the checks",
      "Verify your Aadhaar number",
      "Verify your PAN",
    ]);
    expect(missingSteps(stateFor("US"), us).map((item) => item.step)).toEqual(["documents"]);
    expect(outcomeOf(base, india)).toBe("incomplete");
    expect(outcomeOf({ ...withDocument("verified"), identity_numbers: { aadhaar: masked, pan: masked } }, india)).toBe(
      "under_review",
    );
    expect(outcomeOf(withDocument("verified", stateFor("US")), us)).toBe("under_review");
    expect(outcomeOf({ ...base, status: "under_review" }, india)).toBe("under_review");
    expect(outcomeOf({ ...base, status: "verified" }, india)).toBe("verified");
    expect(outcomeOf({ ...base, status: "rejected" }, india)).toBe("rejected");
    expect(outcomeOf({ ...base, info_request: { message: "More", requested_at: "x" } }, india)).toBe("info_requested");
  });
});
