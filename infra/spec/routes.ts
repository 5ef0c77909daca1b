/**
 * Path prefixes served by the API rather than the static SPA. CloudFront behaviours, the
 * local one-port server and the Vite dev proxy all read this list.
 */
export const apiPathPatterns = ["/api/*", "/v1/*", "/health"] as const;

/** Prefixes of the streaming (SSE) routes, served by the response-streaming function. */
export const feedPathPatterns = ["/api/grpc/*", "/v1/payments/stream"] as const;

/** True when a request path belongs to the API (used by the local server and Vite proxy). */
export function isApiPath(pathname: string): boolean {
  return apiPathPatterns.some((pattern) =>
    pattern.endsWith("/*") ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern,
  );
}
