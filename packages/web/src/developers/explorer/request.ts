import type { Endpoint } from "./catalogue";

/**
 * What Try It sends, as the form edits it: every value is text, prefilled from the document's
 * examples, except ids: those come from the caller's own data when signed in, and are left empty
 * (with a hint) otherwise. The same draft makes the curl command, so what is copied is what would
 * be sent.
 */
export interface RequestDraft {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The JSON body as typed ("" when the endpoint takes none). */
  body: string;
}

/** The caller's own ids, which replace the document's sample ids (those would only answer 404). */
export interface CallerIds {
  /** The signed-in user's id: the stream endpoints subscribe to the caller's own feed. */
  userId?: string | null;
  /** The caller's ledger accounts, oldest first: the source and destination of a transfer, the account of a deposit. */
  accountIds?: readonly string[];
}

export interface DraftContext extends CallerIds {
  /** A fresh Idempotency-Key for writes that take one. */
  newIdempotencyKey: () => string;
}

export const prettyJson = (value: unknown): string => (value === undefined ? "" : JSON.stringify(value, null, 2));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The document's example ids are made-up UUIDs: sent as they are, they name nothing of the caller's. */
export const isSampleId = (value: unknown): boolean => typeof value === "string" && UUID.test(value);

/** What an empty id field says to fill in. */
export const SAMPLE_ID_HINT =
  "Fill in an id of your own: the sample id (shown greyed) belongs to nobody and would answer 404.";

/**
 * The caller's own value for a field, by its name (user_id, userId, from_account_id, toAccountId,
 * and the {id} of an account path), or undefined when there is none to give.
 */
export function callerValueFor(name: string, endpointPath: string, ids: CallerIds): string | undefined {
  const key = name.toLowerCase().replace(/[^a-z]/g, "");
  const accounts = ids.accountIds ?? [];
  if (key === "userid") return ids.userId ?? undefined;
  if (key === "accountid" || key === "fromaccountid") return accounts[0];
  if (key === "toaccountid") return accounts[1];
  if (key === "id" && /\/accounts\/\{id\}/.test(endpointPath)) return accounts[0];
  return undefined;
}

/** The request body's example with sample ids replaced by the caller's (or emptied when there is none). */
function bodyFor(endpoint: Endpoint, ids: CallerIds): string {
  const example = endpoint.requestExample ?? {};
  if (typeof example !== "object" || example === null || Array.isArray(example)) return prettyJson(example);
  const body: Record<string, unknown> = { ...example };
  for (const [name, value] of Object.entries(body)) {
    const own = callerValueFor(name, endpoint.path, ids);
    if (own !== undefined && (isSampleId(value) || value === "")) body[name] = own;
    else if (isSampleId(value)) body[name] = "";
  }
  return prettyJson(body);
}

/** Top-level body fields that hold no id yet (emptied samples), for the hint under the body. */
export function emptyIdFields(endpoint: Endpoint, body: string): string[] {
  const example = endpoint.requestExample;
  if (typeof example !== "object" || example === null || Array.isArray(example)) return [];
  let current: unknown;
  try {
    current = JSON.parse(body);
  } catch {
    return [];
  }
  if (typeof current !== "object" || current === null || Array.isArray(current)) return [];
  const fields = current as Record<string, unknown>;
  return Object.entries(example as Record<string, unknown>)
    .filter(([name, value]) => isSampleId(value) && fields[name] === "")
    .map(([name]) => name);
}

/**
 * Fills the fields still empty with the caller's ids once they are known (the accounts load after
 * the endpoint opens); anything the user has typed stays as it is.
 */
export function withCallerIds(endpoint: Endpoint, draft: RequestDraft, ids: CallerIds): RequestDraft {
  const next: RequestDraft = { ...draft, path: { ...draft.path }, query: { ...draft.query } };
  for (const parameter of endpoint.parameters) {
    if (parameter.in === "header") continue;
    const own = callerValueFor(parameter.name, endpoint.path, ids);
    if (own !== undefined && (next[parameter.in][parameter.name] ?? "") === "")
      next[parameter.in][parameter.name] = own;
  }
  if (endpoint.hasRequestBody) {
    try {
      const body: unknown = JSON.parse(draft.body);
      if (typeof body === "object" && body !== null && !Array.isArray(body)) {
        const fields = { ...(body as Record<string, unknown>) };
        let changed = false;
        for (const [name, value] of Object.entries(fields)) {
          const own = callerValueFor(name, endpoint.path, ids);
          if (own !== undefined && value === "") {
            fields[name] = own;
            changed = true;
          }
        }
        if (changed) next.body = prettyJson(fields);
      }
    } catch {
      // Being edited: left alone.
    }
  }
  return next;
}

export function initialDraft(endpoint: Endpoint, context: DraftContext): RequestDraft {
  const draft: RequestDraft = {
    path: {},
    query: {},
    headers: {},
    body: endpoint.hasRequestBody ? bodyFor(endpoint, context) : "",
  };
  for (const parameter of endpoint.parameters) {
    let value = parameter.example;
    const own = parameter.in === "header" ? undefined : callerValueFor(parameter.name, endpoint.path, context);
    if (own !== undefined) value = own;
    else if (isSampleId(value)) value = "";
    if (parameter.in === "header" && parameter.name.toLowerCase() === "idempotency-key")
      value = context.newIdempotencyKey();
    // Optional query and header values start empty unless documented with an example: an
    // example of a filter is shown as the placeholder, not sent by surprise.
    if (parameter.in === "path") draft.path[parameter.name] = value;
    else if (parameter.in === "query")
      draft.query[parameter.name] = parameter.required || parameter.name === "userId" ? value : "";
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
    if (parameter.in === "query" && parameter.required && !(draft.query[parameter.name] ?? "").trim())
      missing.push(parameter.name);
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
  return Object.fromEntries(
    Object.entries(draft.headers)
      .filter(([, value]) => value.trim())
      .map(([name, value]) => [name, value.trim()]),
  );
}
