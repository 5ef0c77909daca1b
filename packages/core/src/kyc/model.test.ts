import { describe, expect, it } from "vitest";
import { isReadyForReview } from "./country-requirements";
import { riskLevel, submissionProgress, type SubmissionDocument } from "./model";

const document = (status: SubmissionDocument["status"]): SubmissionDocument => ({
  type: "passport",
  status,
  uploaded_at: "2026-01-01T00:00:00.000Z",
  verified_at: null,
  object_key: "u/s/passport/x",
  file_name: null,
  checks: null,
  face_object_key: null,
  refusal: null,
});
const number = { masked: "XXXX XXXX 1234", hash: "h", verified_at: "2026-01-01T00:00:00.000Z" };

describe("KYC model", () => {
  it("maps scores to levels at 30 and 60", () => {
    expect([0, 29, 30, 59, 60, 100].map(riskLevel)).toEqual(["Low", "Low", "Medium", "Medium", "High", "High"]);
  });

  it("adds 25 per verified number and 100/n per verified document type", () => {
    expect(submissionProgress({ documents: {}, identity_numbers: {} }, 4)).toBe(0);
    expect(
      submissionProgress({ documents: { passport: document("verified") }, identity_numbers: { aadhaar: number } }, 4),
    ).toBe(50);
    expect(
      submissionProgress(
        { documents: { passport: document("verified") }, identity_numbers: { aadhaar: number, pan: number } },
        3,
      ),
    ).toBe(83);
    expect(submissionProgress({ documents: { passport: document("rejected") }, identity_numbers: {} }, 1)).toBe(0);
    expect(
      submissionProgress(
        { documents: { passport: document("verified") }, identity_numbers: { aadhaar: number, pan: number } },
        1,
      ),
    ).toBe(100);
  });

  it("is ready for review once the country's required numbers and one verified document are in", () => {
    const india = { country: "IN", documents: { passport: document("verified") } };
    expect(isReadyForReview({ ...india, identity_numbers: { aadhaar: number, pan: number } })).toBe(true);
    expect(
      isReadyForReview({
        ...india,
        documents: { passport: document("rejected") },
        identity_numbers: { aadhaar: number, pan: number },
      }),
    ).toBe(false);
    expect(isReadyForReview({ ...india, identity_numbers: { aadhaar: number } })).toBe(false);
    // The United States asks for an optional SSN only; a country of the default requirements for none.
    expect(
      isReadyForReview({ country: "US", documents: { passport: document("verified") }, identity_numbers: {} }),
    ).toBe(true);
    expect(
      isReadyForReview({
        country: "US",
        documents: { passport: document("checking") },
        identity_numbers: { us_ssn: number },
      }),
    ).toBe(false);
    expect(
      isReadyForReview({
        country: "KE",
        documents: { idCard: { ...document("verified"), type: "idCard" } },
        identity_numbers: {},
      }),
    ).toBe(true);
    // Germany requires its tax id.
    expect(
      isReadyForReview({ country: "DE", documents: { passport: document("verified") }, identity_numbers: {} }),
    ).toBe(false);
    expect(
      isReadyForReview({
        country: "DE",
        documents: { passport: document("verified") },
        identity_numbers: { de_idnr: number },
      }),
    ).toBe(true);
  });
});
