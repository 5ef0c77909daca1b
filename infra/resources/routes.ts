import { FEED_PATH_PATTERNS } from "@fintech/core/events/feed-paths";

/**
 * Path prefixes served by the API rather than the static SPA. CloudFront behaviours, the
 * local one-port server and the Vite dev proxy all read this list.
 */
export const apiPathPatterns = ["/api/*", "/v1/*", "/health"] as const;

/**
 * The live event feeds (server-sent events), served by the response-streaming function (whose role
 * only reads). Their paths are written once, in packages/core/src/events/feed-paths.ts.
 */
export const feedPathPatterns = FEED_PATH_PATTERNS;

/** True when a request path belongs to the API (used by the local server and Vite proxy). */
export function isApiPath(pathname: string): boolean {
  return apiPathPatterns.some((pattern) =>
    pattern.endsWith("/*") ? pathname.startsWith(pattern.slice(0, -1)) : pathname === pattern,
  );
}
