import { shellQuote } from "../../api/curl";
import type { Endpoint } from "./catalogue";
import { requestHeaders, type RequestDraft } from "./request";

/** The curl samples read the key from the environment: nothing secret is ever in copied text. */
export const API_KEY_VARIABLE = "FINTECH_API_KEY";

/**
 * A curl command for an endpoint as the Try It form stands: the filled path and query, the
 * bearer API key from $FINTECH_API_KEY (authenticated endpoints only), the Idempotency-Key of
 * writes, the JSON body, and -N for streams (print events as they come).
 */
export function explorerCurl(endpoint: Endpoint, draft: RequestDraft, baseUrl: string): string {
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (template, name: string) => {
    const value = (draft.path[name] ?? "").trim();
    return value ? encodeURIComponent(value) : template;
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(draft.query)) if (value.trim()) query.set(name, value.trim());
  const search = query.toString();
  const parts = [
    `curl${endpoint.streaming ? " -N" : ""} -X ${endpoint.method} ${shellQuote(`${baseUrl}${path}${search ? `?${search}` : ""}`)}`,
  ];
  // Double quotes so the shell expands the variable; the rest is single-quoted.
  if (endpoint.authenticated) parts.push(`-H "Authorization: Bearer $${API_KEY_VARIABLE}"`);
  if (endpoint.streaming) parts.push(`-H ${shellQuote("Accept: text/event-stream")}`);
  for (const [name, value] of Object.entries(requestHeaders(draft)))
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  const body = draft.body.trim();
  if (endpoint.hasRequestBody && endpoint.method !== "GET" && body) {
    parts.push(`-H ${shellQuote("Content-Type: application/json")}`);
    parts.push(`-d ${shellQuote(body)}`);
  }
  return parts.join(" \\\n  ");
}
