/**
 * An error a client caused or may see. The HTTP layer turns it into {message, code} with its
 * status; anything else is a bug and becomes a generic 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 423 | 429 | 503,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, code = "validation_error") => new AppError(400, code, message);
export const unauthorized = (message = "Authentication required", code = "unauthorized") =>
  new AppError(401, code, message);
export const forbidden = (message = "You do not have permission to do this", code = "forbidden") =>
  new AppError(403, code, message);
export const notFound = (message = "Not found", code = "not_found") => new AppError(404, code, message);
export const conflict = (message: string, code = "conflict") => new AppError(409, code, message);
export const unprocessable = (message: string, code = "unprocessable") => new AppError(422, code, message);
export const locked = (message: string, code = "locked") => new AppError(423, code, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, "rate_limited", "Too many attempts. Please try again later.", {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** How long a client is asked to wait when a store we depend on is unreachable, slow or throttling. */
export const SERVICE_UNAVAILABLE_RETRY_SECONDS = 5;

export const serviceUnavailable = (
  message = "The service is temporarily unavailable. Please try again shortly.",
  retryAfterSeconds = SERVICE_UNAVAILABLE_RETRY_SECONDS,
) =>
  new AppError(503, "service_unavailable", message, {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** AWS error names meaning "the service is busy or failed, try again": throttling and server faults. */
const TRANSIENT_AWS_ERRORS = new Set([
  "TimeoutError",
  "RequestTimeout",
  "RequestTimeoutException",
  "ThrottlingException",
  "Throttling",
  "ProvisionedThroughputExceededException",
  "RequestLimitExceeded",
  "TooManyRequestsException",
  "SlowDown",
  "ServiceUnavailable",
  "ServiceUnavailableException",
  "InternalServerError",
  "InternalFailure",
]);

/** Socket-level failures: nothing answered, or the connection broke before a reply. */
const NETWORK_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_SOCKET_CONNECTION_TIMEOUT",
]);

/**
 * Whether an error thrown by the AWS SDK (after its own retries) means the store is unreachable,
 * too slow or throttling, as opposed to a bug or a refused request. Such failures are answered
 * with 503 and Retry-After: they are nobody's fault and must never read as "invalid token".
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 3) return false;
  const { name, code, $metadata, cause } = error as {
    name?: unknown;
    code?: unknown;
    $metadata?: { httpStatusCode?: unknown };
    cause?: unknown;
  };
  if (typeof name === "string" && TRANSIENT_AWS_ERRORS.has(name)) return true;
  if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return true;
  const status = $metadata?.httpStatusCode;
  if (typeof status === "number" && status >= 500) return true;
  return isStoreUnavailable(cause, depth + 1);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
