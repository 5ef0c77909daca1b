/**
 * Path prefixes served by the API rather than the static SPA. CloudFront behaviours, the
 * local one-port server and the Vite dev proxy all read this list.
 */
export const apiPathPatterns = ["/api/*", "/v1/*", "/health"] as const;

/**
 * The streaming (SSE) routes, served by the response-streaming function (whose role only reads).
 * Only the streams themselves: the commands beside them (/api/grpc/ledger/command) write, and
 * go to the API function with the rest of /api/*.
 */
export const feedPathPatterns = ["/api/grpc/*/stream", "/v1/payments/stream"] as const;

/** True when a request path belongs to the API (used by the local server and Vite proxy). */
export function isApiPath(pathname: string): boolean {
  return apiPathPatterns.some((pattern) =>
    pattern.endsWith("/*") ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern,
  );
}
