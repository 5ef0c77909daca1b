import { apiBaseUrl } from "../config";

/**
 * The real transport the demo pages name (docs/decisions/0006-sse-behind-grpc-urls.md): the URLs
 * read as gRPC names, the wire is Server-Sent Events carrying JSON.
 */
export const TRANSPORT_LABEL = "SSE · JSON";

/** The API's origin: the configured base address, or this page's own (the API is served beside the app). */
export function apiOrigin(): string {
  if (apiBaseUrl) {
    try {
      return new URL(apiBaseUrl, window.location.href).origin;
    } catch {
      return apiBaseUrl;
    }
  }
  return window.location.origin;
}
