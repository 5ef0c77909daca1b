import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { ApiError } from "../api/errors";
import { startDefaults, startFailure, startFormSchema } from "./startForm";

const messages = (values: unknown) => {
  const parsed = startFormSchema.safeParse(values);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("start form", () => {
  it("fills name and email from the signed-in user", () => {
    expect(
      startDefaults({ id: "1", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", role: "user" }),
    ).toEqual({ name: "Ada Lovelace", email: "ada@example.com", phone: "" });
    expect(startDefaults(null)).toEqual({ name: "", email: "", phone: "" });
  });

  it("accepts a name, an email and a phone number", () => {
    expect(messages({ name: " Ada Lovelace ", email: "ada@example.com", phone: "+91 98765 43210" })).toEqual([]);
  });

  it("says what is wrong with each field", () => {
    expect(messages({ name: "", email: "", phone: "" })).toEqual([
      "name: Full name is required",
      "email: Email is required",
      "phone: Phone number is required",
    ]);
    expect(messages({ name: "x".repeat(201), email: "not-an-email", phone: "12ab" })).toEqual([
      "name: Full name must be at most 200 characters",
      "email: Please enter a valid email address",
      "phone: Enter a phone number of 6 to 20 characters, e.g. +919876543210",
    ]);
    for (const phone of ["+1 23", "12345678901234567890123", "98765 43210-", "++919876543210"]) {
      expect(messages({ name: "Ada", email: "ada@example.com", phone })).toEqual([
        "phone: Enter a phone number of 6 to 20 characters, e.g. +919876543210",
      ]);
    }
  });

  it("turns 'already has a KYC submission' into the KYC Already Exists warning", () => {
    expect(startFailure(new ApiError("User already has a KYC submission", "server-message", 409))).toEqual({
      kind: "exists",
      title: KYC_MESSAGES.alreadyStartedWarningTitle,
      message: KYC_MESSAGES.alreadyStartedWarning,
    });
  });

  it("shows the server's message, else the spec's fallback, under KYC Start Failed", () => {
    expect(startFailure(new ApiError("country must be a supported country code", "server-message", 400))).toEqual({
      kind: "failed",
      title: "KYC Start Failed",
      message: "country must be a supported country code",
    });
    expect(startFailure(new ApiError("Network error. Please try again.", "network"))).toEqual({
      kind: "failed",
      title: "KYC Start Failed",
      message: KYC_MESSAGES.startFailed,
    });
    expect(startFailure("boom").message).toBe(KYC_MESSAGES.startFailed);
  });
});
