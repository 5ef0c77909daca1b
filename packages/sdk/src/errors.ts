/**
 * The one error the SDK throws: for a non-2xx reply (after retries) and for a call that got no
 * reply at all. `code` is the SDK's stable name for the kind of failure; `apiCode` and `message`
 * are the server's own words when it sent them ({message, code}).
 */
export const FINTECH_ERROR_CODES = [
  "VALIDATION_ERROR",
  "INVALID_API_KEY",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "LOCKED",
  "RATE_LIMITED",
  "SERVER_ERROR",
  "HTTP_ERROR",
  "NETWORK_ERROR",
  "TIMEOUT",
] as const;
export type FintechErrorCode = (typeof FINTECH_ERROR_CODES)[number];

export interface FintechErrorDetails {
  code: FintechErrorCode;
  message: string;
  /** HTTP status of the reply; null when none was received. */
  status?: number | null;
  /** The server's own error code (`code` of its {message, code} body). */
  apiCode?: string | null;
  /** X-Request-Id of the reply, to quote when asking for support. */
  requestId?: string | null;
  /** Seconds the server asked to wait (Retry-After of a 429 or 503). */
  retryAfterSeconds?: number | null;
  /** The parsed reply body, for fields beyond message and code (reason, field, ...). */
  body?: unknown;
  cause?: unknown;
}

export class FintechError extends Error {
  readonly code: FintechErrorCode;
  readonly status: number | null;
  readonly apiCode: string | null;
  readonly requestId: string | null;
  readonly retryAfterSeconds: number | null;
  readonly body: unknown;

  constructor(details: FintechErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "FintechError";
    this.code = details.code;
    this.status = details.status ?? null;
    this.apiCode = details.apiCode ?? null;
    this.requestId = details.requestId ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
    this.body = details.body;
  }
}

export function isFintechError(error: unknown): error is FintechError {
  return error instanceof FintechError;
}

/** The SDK code of a non-2xx status. */
export function codeForStatus(status: number): FintechErrorCode {
  if (status === 400 || status === 413 || status === 415 || status === 422) return "VALIDATION_ERROR";
  if (status === 401) return "INVALID_API_KEY";
  if (status === 403) return "FORBIDDEN";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status === 423) return "LOCKED";
  if (status === 429) return "RATE_LIMITED";
  if (status >= 500) return "SERVER_ERROR";
  return "HTTP_ERROR";
}

/** Retry-After in whole seconds: delta-seconds, or an HTTP date counted from `now`. Null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (value === "") return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const textField = (body: unknown, field: string): string | null => {
  if (!isRecord(body)) return null;
  const value = body[field];
  return typeof value === "string" && value.trim() !== "" ? value : null;
};

/** The error for a reply the SDK will not retry (any more): the server's message and code when it sent them. */
export function replyError(response: Response, body: unknown): FintechError {
  const code = codeForStatus(response.status);
  return new FintechError({
    code,
    status: response.status,
    message:
      textField(body, "message") ??
      textField(body, "error") ??
      `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
    apiCode: textField(body, "code"),
    requestId: response.headers.get("X-Request-Id"),
    retryAfterSeconds: parseRetryAfter(response.headers.get("Retry-After")),
    body,
  });
}
