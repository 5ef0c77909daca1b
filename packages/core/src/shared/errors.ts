/**
 * An error a client caused or may see. The HTTP layer turns it into {message, code} with its
 * status; anything else is a bug and becomes a generic 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503,
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
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, "rate_limited", "Too many attempts. Please try again later.", {
    "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
