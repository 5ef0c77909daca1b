import type { Endpoint } from "./catalogue";

/**
 * What Try It sends, as the form edits it: every value is text, prefilled from the document's
 * examples. The same draft makes the curl command, so what is copied is what would be sent.
 */
export interface RequestDraft {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The JSON body as typed ("" when the endpoint takes none). */
  body: string;
}

export interface DraftContext {
  /** The signed-in user's id: the stream endpoints subscribe to the caller's own feed. */
  userId?: string | null;
  /** A fresh Idempotency-Key for writes that take one. */
  newIdempotencyKey: () => string;
}

export const prettyJson = (value: unknown): string => (value === undefined ? "" : JSON.stringify(value, null, 2));

export function initialDraft(endpoint: Endpoint, context: DraftContext): RequestDraft {
  const draft: RequestDraft = { path: {}, query: {}, headers: {}, body: endpoint.hasRequestBody ? prettyJson(endpoint.requestExample ?? {}) : "" };
  for (const parameter of endpoint.parameters) {
    let value = parameter.example;
    if (parameter.name === "userId" && context.userId) value = context.userId;
    if (parameter.in === "header" && parameter.name.toLowerCase() === "idempotency-key") value = context.newIdempotencyKey();
    // Optional query and header values start empty unless documented with an example: an
    // example of a filter is shown as the placeholder, not sent by surprise.
    if (parameter.in === "path") draft.path[parameter.name] = value;
    else if (parameter.in === "query") draft.query[parameter.name] = parameter.required || parameter.name === "userId" ? value : "";
    else draft.headers[parameter.name] = parameter.name.toLowerCase() === "idempotency-key" ? value : "";
  }
  return draft;
}

export type Built<T> = { ok: true; value: T } | { ok: false; message: string };

/** The path with its parameters filled in (URL-encoded) and the non-empty query appended. */
export function requestTarget(endpoint: Endpoint, draft: RequestDraft): Built<string> {
  const missing: string[] = [];
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = (draft.path[name] ?? "").trim();
    if (!value) missing.push(name);
    return encodeURIComponent(value);
  });
  for (const parameter of endpoint.parameters) {
    if (parameter.in === "query" && parameter.required && !(draft.query[parameter.name] ?? "").trim()) missing.push(parameter.name);
  }
  if (missing.length > 0) return { ok: false, message: `Fill in ${missing.join(", ")}` };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(draft.query)) if (value.trim()) query.set(name, value.trim());
  const search = query.toString();
  return { ok: true, value: search ? `${path}?${search}` : path };
}

/** The body as JSON text to send (undefined when none); invalid JSON is refused before sending. */
export function requestBody(endpoint: Endpoint, draft: RequestDraft): Built<string | undefined> {
  if (!endpoint.hasRequestBody || endpoint.method === "GET") return { ok: true, value: undefined };
  const text = draft.body.trim();
  if (!text) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.stringify(JSON.parse(text)) };
  } catch {
    return { ok: false, message: "The request body is not valid JSON" };
  }
}

/** Header parameters with a value (Idempotency-Key, Last-Event-ID). */
export function requestHeaders(draft: RequestDraft): Record<string, string> {
  return Object.fromEntries(Object.entries(draft.headers).filter(([, value]) => value.trim()).map(([name, value]) => [name, value.trim()]));
}
