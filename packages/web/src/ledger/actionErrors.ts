import { ApiError } from "../api/errors";
import { formatDateTime } from "./format";
import { LEDGER_UI_MESSAGES, NETWORK_FAILURE_DETAIL } from "./messages";

/**
 * The text to show for a failed ledger write (docs/product/ledger-workspace.md#messages): the
 * server's own message when the reply carried one (e.g. 'Insufficient available balance in Main'),
 * the session messages as they are, and the action's fallback ('Failed to create deposit') for
 * anything else.
 */
export function writeErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.kind === "server-message" || error.kind === "no-token" || error.kind === "session-expired")
      return error.message;
    return fallback;
  }
  return fallback;
}

/**
 * Post and unpost (docs/product/ledger-workspace.md#messages): the server's error, else 'Failed to
 * post/unpost transaction'; no reply at all is 'Network error: {message}'.
 */
export function statusChangeErrorMessage(error: unknown, operation: "post" | "unpost"): string {
  const fallback = operation === "post" ? LEDGER_UI_MESSAGES.postFailed : LEDGER_UI_MESSAGES.unpostFailed;
  if (error instanceof ApiError && error.kind === "network")
    return LEDGER_UI_MESSAGES.networkError(NETWORK_FAILURE_DETAIL);
  if (error instanceof TypeError) return LEDGER_UI_MESSAGES.networkError(error.message);
  return writeErrorMessage(error, fallback);
}

/** Account creation: the server's message, 'Network error. Please try again.' without a reply. */
export function accountErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === "network") return LEDGER_UI_MESSAGES.accountNetwork;
  return writeErrorMessage(error, "Failed to create account");
}

/** A moment before the account was opened is answered 404 account_not_open_yet: said in local time. */
export function balanceLookupError(error: unknown, asOf: string, openedAt: string): string {
  if (error instanceof ApiError && error.code === "account_not_open_yet") {
    return `The account did not exist at ${formatDateTime(asOf)}: it was opened ${formatDateTime(openedAt)}.`;
  }
  return writeErrorMessage(error, LEDGER_UI_MESSAGES.balanceFailed);
}

/**
 * A ledger command's failure (docs/product/ledger-workspace.md#messages): 'Ledger command failed:
 * <reason>' as the server explains it, 'Not connected to ledger service' when no reply came, the
 * session messages as they are.
 */
export function commandErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === "network") return LEDGER_UI_MESSAGES.notConnected;
    if (error.kind === "no-token" || error.kind === "session-expired") return error.message;
    const reason =
      error.reason ??
      (error.kind === "server-message" && error.message !== LEDGER_UI_MESSAGES.commandFailed ? error.message : null);
    return reason ? `${LEDGER_UI_MESSAGES.commandFailed}: ${reason}` : LEDGER_UI_MESSAGES.commandFailed;
  }
  if (error instanceof TypeError) return LEDGER_UI_MESSAGES.notConnected;
  return LEDGER_UI_MESSAGES.commandFailed;
}
