import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { commandErrorMessage } from "./actionErrors";
import { reconcileFormSchema, thresholdFormSchema } from "./formSchemas";

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("the reconcile form", () => {
  it("takes a signed decimal in the account's currency", () => {
    expect(reconcileFormSchema.safeParse({ expectedBalance: "-12.50", currency: "USD" }).success).toBe(true);
    expect(reconcileFormSchema.safeParse({ expectedBalance: "0", currency: "USD" }).success).toBe(true);
    expect(reconcileFormSchema.safeParse({ expectedBalance: "1200", currency: "JPY" }).success).toBe(true);
  });
  it("names the field in its messages", () => {
    expect(issues(reconcileFormSchema.safeParse({ expectedBalance: " ", currency: "USD" }))).toEqual([
      "Expected balance is required",
    ]);
    expect(issues(reconcileFormSchema.safeParse({ expectedBalance: "12,5", currency: "USD" }))).toEqual([
      "Expected balance must be a number",
    ]);
    expect(issues(reconcileFormSchema.safeParse({ expectedBalance: "1.5", currency: "JPY" }))).toEqual([
      "JPY amounts cannot have decimals",
    ]);
  });
});

describe("the threshold form", () => {
  it("allows empty (no alert) and a non-negative amount, nothing else", () => {
    expect(thresholdFormSchema.safeParse({ threshold: "", currency: "USD" }).success).toBe(true);
    expect(thresholdFormSchema.safeParse({ threshold: "25.00", currency: "USD" }).success).toBe(true);
    expect(issues(thresholdFormSchema.safeParse({ threshold: "-5", currency: "USD" }))).toEqual([
      "Threshold must be greater than 0",
    ]);
    expect(issues(thresholdFormSchema.safeParse({ threshold: "abc", currency: "USD" }))).toEqual([
      "Threshold must be a number",
    ]);
  });
});

describe("ledger command errors (docs/product/ledger-workspace.md#messages)", () => {
  it("says 'Ledger command failed' with the server's reason", () => {
    expect(
      commandErrorMessage(
        new ApiError("Ledger command failed", "server-message", 404, "not_found", null, "Account not found"),
      ),
    ).toBe("Ledger command failed: Account not found");
    expect(commandErrorMessage(new ApiError("Ledger command failed", "server-message", 400))).toBe(
      "Ledger command failed",
    );
    expect(commandErrorMessage(new ApiError("HTTP error! status: 502", "http-status", 502))).toBe(
      "Ledger command failed",
    );
  });
  it("says 'Not connected to ledger service' when no reply came", () => {
    expect(commandErrorMessage(new ApiError("Network error. Please try again.", "network"))).toBe(
      "Not connected to ledger service",
    );
  });
  it("keeps the session messages", () => {
    expect(
      commandErrorMessage(new ApiError("Authentication required. Please login again.", "session-expired", 401)),
    ).toBe("Authentication required. Please login again.");
  });
});
