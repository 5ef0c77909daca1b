import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { accountErrorMessage, balanceLookupError, statusChangeErrorMessage, writeErrorMessage } from "./actionErrors";

describe("write error messages", () => {
  it("show the server's message, else the action's fallback", () => {
    const refused = new ApiError("Insufficient available balance in Main", "server-message", 422, "insufficient_funds");
    expect(writeErrorMessage(refused, "Failed to complete transfer")).toBe("Insufficient available balance in Main");
    expect(
      writeErrorMessage(new ApiError("HTTP error! status: 502", "http-status", 502), "Failed to create deposit"),
    ).toBe("Failed to create deposit");
    expect(writeErrorMessage(new Error("boom"), "Failed to create test balance")).toBe("Failed to create test balance");
    expect(
      writeErrorMessage(new ApiError("Authentication required. Please login again.", "session-expired", 401), "x"),
    ).toBe("Authentication required. Please login again.");
  });

  it("post/unpost: server error, else 'Failed to post/unpost transaction', network 'Network error: …'", () => {
    expect(statusChangeErrorMessage(new ApiError("Transaction is already posted", "server-message", 409), "post")).toBe(
      "Transaction is already posted",
    );
    expect(statusChangeErrorMessage(new ApiError("HTTP error! status: 500", "http-status", 500), "post")).toBe(
      "Failed to post transaction",
    );
    expect(statusChangeErrorMessage(new ApiError("HTTP error! status: 500", "http-status", 500), "unpost")).toBe(
      "Failed to unpost transaction",
    );
    expect(statusChangeErrorMessage(new ApiError("Network error. Please try again.", "network"), "unpost")).toBe(
      "Network error: the server could not be reached",
    );
    expect(statusChangeErrorMessage(new TypeError("Failed to fetch"), "post")).toBe("Network error: Failed to fetch");
  });

  it("account creation without a reply is 'Network error. Please try again.'", () => {
    expect(accountErrorMessage(new ApiError("Network error. Please try again.", "network"))).toBe(
      "Network error. Please try again.",
    );
    expect(
      accountErrorMessage(new ApiError("An account with this account number already exists", "server-message", 409)),
    ).toBe("An account with this account number already exists");
  });
});

describe("point-in-time lookup errors", () => {
  it("explain a moment before the account existed, else 'Failed to retrieve balance'", () => {
    const early = new ApiError(
      "The account did not exist at 2020-01-01T00:00:00.000Z",
      "server-message",
      404,
      "account_not_open_yet",
    );
    expect(balanceLookupError(early, "2020-01-01T00:00:00.000Z", "2026-03-01T10:00:00.000Z")).toMatch(
      /^The account did not exist at Jan 1, 2020, .*: it was opened Mar 1, 2026, .*\.$/,
    );
    expect(balanceLookupError(new ApiError("HTTP error! status: 500", "http-status", 500), "x", "y")).toBe(
      "Failed to retrieve balance",
    );
  });
});
