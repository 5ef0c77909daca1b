import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./errors";

const MAX_RETRIES = 2;
/** A server asking for a longer pause than this is better answered by the error on screen. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * Retry only what a retry can fix: network faults, 5xx, and a 429 that says when to come back.
 * A 4xx, a missing token or a rejected session will fail the same way again.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!(error instanceof ApiError)) return true;
  if (error.kind === "no-token" || error.kind === "session-expired" || error.kind === "invalid-response") return false;
  if (error.status === 429)
    return error.retryAfterSeconds !== null && error.retryAfterSeconds * 1000 <= MAX_RETRY_AFTER_MS;
  return error.status === null || error.status >= 500;
}

/** The server's Retry-After when it sent one (429, 503), else react-query's doubling from 1 s. */
export function retryDelay(failureCount: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== null) {
    return Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  }
  return Math.min(1000 * 2 ** failureCount, MAX_RETRY_AFTER_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
