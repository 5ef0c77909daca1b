import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import type { Notifier } from "../toast/notify";
import { authFailureMessage, submitWithToasts } from "./submit";

function recordingNotifier() {
  const events: string[] = [];
  const notifier: Notifier = {
    loading: (message) => {
      events.push(`loading:${message}`);
      return "toast-1";
    },
    dismiss: (id) => void events.push(`dismiss:${id}`),
    success: (message) => void events.push(`success:${message}`),
    error: (message) => void events.push(`error:${message}`),
    info: (message) => void events.push(`info:${message}`),
  };
  return { notifier, events };
}

const wording = { loading: "Signing in...", fallback: "Login failed. Please try again." };

describe("submitWithToasts", () => {
  it("dismisses the loading toast on success", async () => {
    const { notifier, events } = recordingNotifier();
    await expect(submitWithToasts(async () => 42, wording, notifier)).resolves.toEqual({ ok: true, value: 42 });
    expect(events).toEqual(["loading:Signing in...", "dismiss:toast-1"]);
  });

  it("shows the server's message as an error toast and returns it", async () => {
    const { notifier, events } = recordingNotifier();
    const failing = () => Promise.reject(new ApiError("Invalid email or password", "server-message", 401));
    await expect(submitWithToasts(failing, wording, notifier)).resolves.toEqual({
      ok: false,
      message: "Invalid email or password",
    });
    expect(events).toEqual(["loading:Signing in...", "error:Invalid email or password", "dismiss:toast-1"]);
  });
});

describe("authFailureMessage", () => {
  it("keeps server messages and 'Invalid response format', replaces the rest", () => {
    const fallback = "Registration failed. Please try again.";
    expect(authFailureMessage(new ApiError("Email taken", "server-message", 409), fallback)).toBe("Email taken");
    expect(authFailureMessage(new ApiError("Invalid response format", "invalid-response"), fallback)).toBe(
      "Invalid response format",
    );
    expect(authFailureMessage(new ApiError("HTTP error! status: 500", "http-status", 500), fallback)).toBe(fallback);
    expect(authFailureMessage(new ApiError("Network error. Please try again.", "network"), fallback)).toBe(fallback);
    expect(authFailureMessage(new TypeError("Failed to fetch"), fallback)).toBe(fallback);
  });
});
