/** Trailing slashes are dropped so paths can always be appended as "/api/...". */
export function normalizeBaseUrl(value: string | undefined): string {
  return (value ?? "").trim().replace(/\/+$/, "");
}

/**
 * Base address of the API. Empty means same origin: the local one-port server and CloudFront
 * both serve the API next to the SPA, so the browser needs no CORS in either place.
 */
export const apiBaseUrl = normalizeBaseUrl(import.meta.env.VITE_API_URL);
