/** Exact wording of docs/product/backend-client.md#errors; screens compare against these, so keep them in one place. */
export const API_MESSAGES = {
  noToken: "Authentication required. Please login first.",
  sessionExpired: "Authentication required. Please login again.",
  invalidResponse: "Invalid response format",
  network: "Network error. Please try again.",
  httpStatus: (status: number) => `HTTP error! status: ${status}`,
} as const;

/**
 * Where an error's message came from, so a screen can decide whether to show it as is:
 * - server-message: the reply's own message (e.g. 'Invalid email or password')
 * - http-status: a non-OK reply without a message ('HTTP error! status: 502')
 * - invalid-response: an OK reply that lacks what the contract promises
 * - network: no reply at all
 * - no-token / session-expired: the session is missing or was rejected (401)
 */
export type ApiErrorKind =
  | "server-message"
  | "http-status"
  | "invalid-response"
  | "network"
  | "no-token"
  | "session-expired";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    /** HTTP status, or null when no reply was received. */
    readonly status: number | null = null,
    /** The server's stable error code ({message, code}), when it sent one. */
    readonly code: string | null = null,
    /** Seconds the server asked to wait (Retry-After on a 429 or 503), when it said. */
    readonly retryAfterSeconds: number | null = null,
    /** The server's detail beside a generic message ({message: 'Ledger command failed', reason}). */
    readonly reason: string | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The message a reply body carries: `message`, else `error` (post/unpost replies use it). */
export function bodyMessage(body: unknown): string | null {
  if (!isRecord(body)) return null;
  for (const field of ["message", "error"]) {
    const value = body[field];
    if (typeof value === "string" && value.trim()) return value;
  }
  return null;
}

/** The `reason` a reply gives beside its message (ledger commands), when it gives one. */
export function bodyReason(body: unknown): string | null {
  return isRecord(body) && typeof body.reason === "string" && body.reason.trim() ? body.reason : null;
}

export function bodyCode(body: unknown): string | null {
  return isRecord(body) && typeof body.code === "string" ? body.code : null;
}

/** The text to show for any thrown value; non-API errors fall back to the caller's wording. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
