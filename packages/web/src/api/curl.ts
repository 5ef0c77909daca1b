import { apiBaseUrl } from "../config";

/** POSIX single-quote escaping: close the quote, add an escaped quote, reopen. */
export const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

function defaultBaseUrl(): string {
  if (apiBaseUrl) return apiBaseUrl;
  return typeof window === "undefined" ? "" : window.location.origin;
}

/**
 * A curl command equivalent to a call of this client, for the developer screens and for
 * reproducing a request in a terminal. The token is only included when given.
 */
export function buildCurl(
  method: string,
  path: string,
  body?: unknown,
  token?: string | null,
  baseUrl: string = defaultBaseUrl(),
): string {
  const parts = [
    `curl -X ${method.toUpperCase()} ${shellQuote(`${baseUrl}${path}`)}`,
    `-H ${shellQuote("Content-Type: application/json")}`,
  ];
  if (token) parts.push(`-H ${shellQuote(`Authorization: Bearer ${token}`)}`);
  if (body !== undefined && body !== null) {
    parts.push(`-d ${shellQuote(typeof body === "string" ? body : JSON.stringify(body))}`);
  }
  return parts.join(" \\\n  ");
}
