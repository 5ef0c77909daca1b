import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import {
  effectOf,
  KYC_COMPLETED_TOAST_ID,
  KYC_EVENT_NAMES,
  KYC_UI_MESSAGES,
  markShownInPlace,
  parseKycEvent,
  toastToRaise,
  type KycLiveEvent,
} from "./events";

describe("KYC stream events", () => {
  it("parses each event by its SSE name; malformed data is null", () => {
    expect(
      parseKycEvent(
        "documentVerified",
        JSON.stringify({ documentType: "passport", status: "verified", confidence: 0.93 }),
      ),
    ).toEqual({
      type: "documentVerified",
      documentType: "passport",
      status: "VERIFIED",
      confidence: 0.93,
    });
    expect(parseKycEvent("verificationCompleted", JSON.stringify({ status: "REQUIRES_REVIEW" }))?.type).toBe(
      "verificationCompleted",
    );
    // As the server sends it: the fields under event.<type>, with the type and commit time beside them.
    const wire = {
      event: { verificationCompleted: { verificationId: "s1", status: "VERIFIED" } },
      type: "verificationCompleted",
      verificationId: "s1",
      at: "2026-11-26T00:00:00.000Z",
    };
    expect(parseKycEvent("verificationCompleted", JSON.stringify(wire))).toEqual({
      type: "verificationCompleted",
      status: "VERIFIED",
    });
    expect(parseKycEvent("documentVerified", "{not json")).toBeNull();
    expect(parseKycEvent("somethingElse", JSON.stringify({}))).toBeNull();
    expect(parseKycEvent("documentUploaded", JSON.stringify([1]))).toBeNull();
  });

  const effect = (event: KycLiveEvent) => effectOf(event);

  it("a verified completion jumps to the last step with the success message, and no score", () => {
    const result = effect({ type: "verificationCompleted", status: "VERIFIED" });
    expect(result.jumpToCompletion).toBe(true);
    expect(result.toast).toMatchObject({ kind: "success", message: KYC_MESSAGES.completed });
    expect(result.toast?.message).not.toMatch(/risk|score/i);
  });

  it("a completion that needs review shows the manual-review warning", () => {
    const result = effect({ type: "verificationCompleted", status: "REQUIRES_REVIEW" });
    expect(result).toMatchObject({
      jumpToCompletion: false,
      manualReview: true,
      toast: { kind: "warning", message: KYC_UI_MESSAGES.manualReview },
    });
  });

  it("a verified document only refreshes; a failed one raises '{type} verification failed.'", () => {
    expect(effect({ type: "documentVerified", documentType: "passport", status: "VERIFIED" })).toEqual({
      refresh: true,
      toast: null,
      jumpToCompletion: false,
      manualReview: false,
    });
    expect(effect({ type: "documentVerified", documentType: "driverLicense", status: "REJECTED" }).toast).toMatchObject(
      { kind: "error", message: "Driver's License verification failed." },
    );
    // The same failure told by the upload reply and by the stream folds into one toast.
    expect(effect({ type: "documentVerified", documentType: "idCard", status: "FAILED" }).toast?.id).toBe(
      "kyc-document-failed-idCard",
    );
  });

  it("listens to the applicant's events only, and reads no risk update or compliance alert even if one came", () => {
    expect([...KYC_EVENT_NAMES].sort()).toEqual([
      "documentUploaded",
      "documentVerified",
      "verificationCompleted",
      "verificationStarted",
    ]);
    expect(
      parseKycEvent(
        "complianceAlert",
        JSON.stringify({
          alertType: "DUPLICATE_IDENTITY",
          severity: "high",
          message: "The same Aadhaar is on another account",
        }),
      ),
    ).toBeNull();
    expect(
      parseKycEvent(
        "riskAssessmentUpdate",
        JSON.stringify({ riskScore: 100, riskLevel: "High", flags: ["WATCHLIST"] }),
      ),
    ).toBeNull();
    for (const message of Object.values(KYC_UI_MESSAGES).map((value) =>
      typeof value === "function" ? value("Passport") : value,
    ))
      expect(message).not.toMatch(/risk|score|severity|flag/i);
  });

  it("every other event just refreshes the state", () => {
    expect(effect({ type: "verificationStarted" })).toEqual({
      refresh: true,
      toast: null,
      jumpToCompletion: false,
      manualReview: false,
    });
    expect(effect({ type: "documentUploaded", documentType: "passport" }).toast).toBeNull();
  });
});

describe("one message, one place", () => {
  it("raises no toast for an outcome the page is showing, and raises it again once it is not", () => {
    const completed = effectOf({ type: "verificationCompleted", status: "VERIFIED" }).toast;
    expect(completed?.id).toBe(KYC_COMPLETED_TOAST_ID);
    expect(toastToRaise(completed)).toBe(completed);
    const release = markShownInPlace(KYC_COMPLETED_TOAST_ID);
    const again = markShownInPlace(KYC_COMPLETED_TOAST_ID);
    expect(toastToRaise(completed)).toBeNull();
    release();
    release();
    // Still shown by the second mark.
    expect(toastToRaise(completed)).toBeNull();
    again();
    expect(toastToRaise(completed)).toBe(completed);
    expect(toastToRaise(null)).toBeNull();
  });
});
