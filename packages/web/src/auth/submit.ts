import { ApiError } from "../api/errors";
import type { Notifier } from "../toast/notify";

/**
 * The message a failed sign-in or registration shows: the server's own words ('Invalid email
 * or password', a duplicate email, a rate limit) or 'Invalid response format'; anything vaguer
 * (a bare status, a network fault) gets the form's fallback.
 */
export function authFailureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.kind === "server-message" || error.kind === "invalid-response")) {
    return error.message;
  }
  return fallback;
}

export type SubmitOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Runs one auth request behind a loading toast that is always dismissed, and turns a failure
 * into its message plus an error toast. Success toasts are the caller's: they need the user.
 */
export async function submitWithToasts<T>(
  request: () => Promise<T>,
  wording: { loading: string; fallback: string },
  notifier: Notifier,
): Promise<SubmitOutcome<T>> {
  const toastId = notifier.loading(wording.loading);
  try {
    return { ok: true, value: await request() };
  } catch (error) {
    const message = authFailureMessage(error, wording.fallback);
    notifier.error(message);
    return { ok: false, message };
  } finally {
    notifier.dismiss(toastId);
  }
}
