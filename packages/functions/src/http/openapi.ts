import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import { PAYMENT_REST_FEED_PATH } from "@fintech/core/events/feed-paths";
import type { AppEnv } from "./app-context";

/**
 * The building blocks every route declaration uses (see routes/*.ts): the six tags, the error
 * shape, bearer security, the Idempotency-Key and Last-Event-ID parameters, pagination, SSE, and
 * the conversion of the app's zod schemas into the document's JSON Schemas.
 *
 * Why the schemas go in as JSON Schema and not as zod objects: @hono/zod-openapi validates every
 * zod schema a route declares in `request` (its own 400s, a 415 media-type gate, its own
 * malformed-JSON error). The app already validates each request once, in core, with the very same
 * zod objects (parseWith: the messages of the docs/product pages, the JSON depth guard, rate
 * limits counted before validation). So a declaration hands the wrapper the JSON Schema that zod
 * itself derives from those objects (z.toJSONSchema, io "input" for requests, "output" for
 * replies): documented from the same source, parsed once, and no reply of the API changes. See
 * docs/api.md#the-openapi-contract.
 */

/**
 * The explorer's six categories (docs/product/developer-tools.md#api-explorer), in this order;
 * every operation has exactly one.
 */
export const TAGS = {
  auth: "Authentication & Users",
  accounts: "Accounts & Banking",
  kyc: "KYC & Compliance",
  ledger: "Ledger & Double-Entry",
  streaming: "gRPC Streaming APIs",
  system: "System & Health",
} as const;
export type Tag = (typeof TAGS)[keyof typeof TAGS];

export const TAG_DESCRIPTIONS: Record<Tag, string> = {
  [TAGS.auth]: "Registration, sign-in, the signed-in user's profile and API keys.",
  [TAGS.accounts]: "The signed-in user's ledger accounts with their balances (/api/v1/accounts).",
  [TAGS.kyc]:
    "Identity verification: the applicant's steps (countries, start, Aadhaar and PAN, document uploads with content and image checks, status), profiles, and the reviewer back office (admin: submissions, decisions with an audit trail, stats, export, risk rule sets and watchlists).",
  [TAGS.ledger]:
    "Double-entry ledger: accounts, transfers, deposits, posting, history, exports and reports (/api/v1/ledger).",
  [TAGS.streaming]: `Live event streams (server-sent events) of the ledger, KYC verifications and payments, and their gRPC-style commands (/api/grpc/*, ${PAYMENT_REST_FEED_PATH}).`,
  [TAGS.system]: "Liveness, service status, request metrics and this document.",
};

export const API_DESCRIPTION = [
  "The fintech platform's HTTP API, generated from the zod schemas that validate each route.",
  "",
  "**Authentication.** Send `Authorization: Bearer <token>` with a session token from login or registration, or with an API key (`fpk_...`), which acts for its owner (never as an administrator) within its scopes: each operation's `x-required-scope` names the scope a key needs (403 `insufficient_scope` with the missing `scope` otherwise), and `x-session-only` marks the account changes no key may make (403 `session_required`).",
  "",
  "**Errors.** Every error reply is JSON `{message, code}` (see the `Error` schema); the codes of each operation are listed under its responses. 429 and 503 replies carry `Retry-After` (seconds). Any request may also meet 404 `not_found` (no such route), 413 `payload_too_large` (a body over 1 MB) and, for a bug, 500 `internal_error` with the `request_id` to quote; requests that reach the API other than through its CDN are 403 `origin_proof_required`.",
  "",
  "**Idempotency.** Writes that take an `Idempotency-Key` header store their reply: a retry with the same key and body replays it byte for byte (`Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`, and while the first request is still running a 409 `idempotency_in_progress`.",
  "",
  "**Extensions.** `x-stability` is `stable` or `beta` (deprecated operations also carry `deprecated: true`). `x-complexity` says what an operation costs: `low` is one read; `medium` is a write or several reads; `high` is a stream, an export or a batch/report scan.",
].join("\n");

export type Stability = "stable" | "beta";
export type Complexity = "low" | "medium" | "high";

/* ---------- zod -> JSON Schema ---------- */

type JsonSchema = Record<string, unknown>;
type ResponseObject = Exclude<RouteConfig["responses"][string], { $ref: string }>;
/** Response headers as OpenAPI objects (never zod: nothing here is validated by the wrapper). */
export type ResponseHeaders = Exclude<NonNullable<ResponseObject["headers"]>, z.ZodType>;
type ParameterObject = Exclude<NonNullable<RouteConfig["parameters"]>[number], { $ref: string }>;
type Io = "input" | "output";

/** The JSON Schema (2020-12, OpenAPI 3.1's dialect) zod derives from a schema, as seen by a client. */
export function jsonSchemaOf(schema: z.ZodType, io: Io): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
    reused: "inline",
  }) as JsonSchema;
  return rest;
}

/**
 * Named component schemas, converted and registered on the document by registerComponents().
 * Converting is left to the document: route modules declare their schemas when a function starts,
 * and only the document request needs them as JSON Schema.
 */
const componentSchemas = new Map<string, { schema: z.ZodType; io: Io }[]>();

/** A component schema from a zod schema, returned as a $ref. The same name must mean the same schema. */
export function schemaRef(name: string, schema: z.ZodType, io: Io): { $ref: string } {
  const uses = componentSchemas.get(name) ?? [];
  if (!uses.some((use) => use.schema === schema && use.io === io))
    componentSchemas.set(name, [...uses, { schema, io }]);
  return { $ref: `#/components/schemas/${name}` };
}

/* ---------- errors ---------- */

/** The one error shape of the API; the optional fields are the ones some replies really carry. */
export const ErrorReply = z.object({
  message: z.string().describe("What went wrong, in words a person can act on"),
  code: z.string().describe("Stable machine-readable code, e.g. validation_error, unauthorized, not_found"),
  error: z
    .string()
    .optional()
    .describe(
      "Post and unpost replies repeat the message here (the web client reads it: docs/product/backend-client.md#errors)",
    ),
  reason: z.string().optional().describe("Ledger command failures: the underlying refusal's message"),
  request_id: z.string().optional().describe("On 500 replies: the request id to quote when reporting the problem"),
  scope: z.string().optional().describe("On 403 insufficient_scope: the API-key scope the request needs"),
});
const errorRef = () => schemaRef("Error", ErrorReply, "output");

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 423 | 429 | 500 | 503;

const ERROR_TITLES: Record<ErrorStatus, string> = {
  400: "Bad request",
  401: "Not authenticated",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable",
  423: "Locked",
  429: "Too many requests",
  500: "Internal error",
  503: "Service unavailable",
};

export const RETRY_AFTER: ResponseHeaders = {
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer", minimum: 1 } },
};

/** Codes a status can carry on most routes, used when a route lists a status without its own codes. */
const DEFAULT_CODES: Partial<Record<ErrorStatus, string[]>> = {
  401: ["unauthorized", "invalid_token", "invalid_api_key"],
  429: ["rate_limited"],
  503: ["service_unavailable"],
};

const DEFAULT_MESSAGES: Record<string, string> = {
  unauthorized: "Authentication required",
  invalid_token: "Invalid or expired token",
  invalid_api_key: "Invalid or revoked API key",
  rate_limited: "Too many attempts. Please try again later.",
  service_unavailable: "The service is temporarily unavailable. Please try again shortly.",
  forbidden: "You do not have permission to do this",
  not_found: "Not found",
  validation_error: "Request body must be a JSON object",
};

/**
 * Error responses: status -> the codes this operation can answer with it (the first code is the
 * example). 429 and 503 carry Retry-After.
 */
export function errors(spec: Partial<Record<ErrorStatus, readonly string[] | true>>): RouteConfig["responses"] {
  const responses: RouteConfig["responses"] = {};
  for (const [key, given] of Object.entries(spec)) {
    const status = Number(key) as ErrorStatus;
    const codes = given === true ? (DEFAULT_CODES[status] ?? []) : (given ?? []);
    const first = codes[0] ?? "error";
    responses[status] = {
      description: `${ERROR_TITLES[status]}. Codes: ${codes.map((code) => `\`${code}\``).join(", ") || "see message"}.`,
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      content: {
        "application/json": {
          schema: errorRef(),
          example: { message: DEFAULT_MESSAGES[first] ?? ERROR_TITLES[status], code: first },
        },
      },
    };
  }
  return responses;
}

/* ---------- security ---------- */

export const BEARER_AUTH = "bearerAuth";
export const SECURITY_SCHEME = {
  type: "http",
  scheme: "bearer",
  description:
    "A session token from POST /api/v1/auth/login or /register, or an API key (`fpk_...`, from POST /api/v1/api-keys) sent the same way: `Authorization: Bearer fpk_...`. API keys act for their owner as a user, never as an administrator, and cannot manage API keys.",
} as const;
export const authenticated = [{ [BEARER_AUTH]: [] }];

/** Streams also open with `?ticket=` (POST /api/v1/auth/stream-ticket): EventSource cannot send headers. */
export const STREAM_TICKET_SCHEME = "streamTicket";
const STREAM_TICKET = {
  type: "apiKey",
  in: "query",
  name: "ticket",
  description:
    "A stream ticket from POST /api/v1/auth/stream-ticket, for browsers (EventSource cannot send Authorization). Opens streams only; never a session token in a URL.",
} as const;
export const publicAccess: [] = [];

/* ---------- parameters ---------- */

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
/** The Idempotency-Key header: 1 to 255 visible ASCII characters (checked by http/idempotency.ts). */
export const IdempotencyKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN);

const componentParameters = new Map<string, ParameterObject>();

function parameterRef(name: string, parameter: ParameterObject) {
  componentParameters.set(name, parameter);
  return { $ref: `#/components/parameters/${name}` };
}

export const idempotencyKeyParameter = () =>
  parameterRef("IdempotencyKey", {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes the write safe to retry: the same key with the same body replays the stored reply (`Idempotent-Replayed: true`); with another body it is a 422 `idempotency_key_reused`; while the first request with the key is still running, a 409 `idempotency_in_progress`. 1 to 255 visible ASCII characters (else 400 `invalid_idempotency_key`).",
    schema: jsonSchemaOf(IdempotencyKey, "input"),
    example: "4f9c2a1e-7b3d-4c56-9a0e-1d2f3b4c5d6e",
  });

export const lastEventIdParameter = () =>
  parameterRef("LastEventId", {
    name: "Last-Event-ID",
    in: "header",
    required: false,
    description:
      "Resume point: the `id:` of the last event received (EventSource sends it on reconnect). An id that is not this stream's is a 400 `invalid_event_id`.",
    schema: { type: "string" },
  });

/** A query parameter the handler reads by hand (no zod object parses it). */
export const queryParameter = (name: string, description: string, schema: JsonSchema, example?: unknown) => ({
  name,
  in: "query" as const,
  required: false,
  description,
  schema,
  ...(example === undefined ? {} : { example }),
});

/** A path parameter, e.g. `{id}`. */
export const pathParameter = (name: string, description: string, example: string) => ({
  name,
  in: "path" as const,
  required: true,
  description,
  schema: { type: "string" as const },
  example,
});

/**
 * Query parameters, one per property of the zod object the handler parses the query with
 * (queryWith / parseWith in the route): the input side, so defaults and limits show.
 */
export function queryParameters(schema: z.ZodObject, descriptions: Record<string, string> = {}) {
  const converted = jsonSchemaOf(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(converted.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema & { description?: string };
    return {
      name,
      in: "query" as const,
      required: converted.required?.includes(name) ?? false,
      ...((descriptions[name] ?? description) ? { description: descriptions[name] ?? description } : {}),
      // Lists are read from one comma-separated value (a,b), not from repeated parameters.
      ...(rest.type === "array" ? { style: "form" as const, explode: false } : {}),
      schema: rest,
    };
  });
}

/* ---------- bodies and replies ---------- */

/** A JSON request body documented from the zod schema core parses it with (never validated twice). */
export function jsonBody(name: string, schema: z.ZodType, example: unknown, description?: string) {
  return {
    required: true,
    ...(description ? { description } : {}),
    content: { "application/json": { schema: schemaRef(name, schema, "input"), example } },
  };
}

/** A JSON reply with its schema (a named component) and an example. */
export function jsonReply(
  description: string,
  name: string,
  schema: z.ZodType,
  example: unknown,
  headers?: ResponseHeaders,
): ResponseObject {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/json": { schema: schemaRef(name, schema, "output"), example } },
  };
}

export const REPLAYED_HEADER: ResponseHeaders = {
  "Idempotent-Replayed": {
    description: "`true` when this reply is the stored reply of an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};

/**
 * A server-sent events reply: `text/event-stream` whose description names the events and whose
 * `x-sse-events` maps each event name to the schema of its `data:` JSON.
 */
export function sseReply(
  description: string,
  events: Record<string, { name: string; schema: z.ZodType }>,
  example: string,
): ResponseObject {
  const names = Object.keys(events);
  // The generator copies a response's extra keys as they are; the type just does not list x- keys.
  const reply = {
    description: `${description} Events: ${names.map((name) => `\`${name}\``).join(", ")}.`,
    "x-sse-events": Object.fromEntries(
      Object.entries(events).map(([event, { name, schema }]) => [event, schemaRef(name, schema, "output")]),
    ),
    content: { "text/event-stream": { schema: { type: "string" as const }, example } },
  };
  return reply;
}

/** Pagination of list replies: offset or cursor (signed, bound to the query) paging. */
export const PaginationReply = z.object({
  limit: z.number().int().describe("Page size used"),
  offset: z.number().int().nullable().describe("Offset used; null when paging by cursor"),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  has_more: z.boolean(),
});

/* ---------- the document ---------- */

const byName = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Puts the shared components (schemas, parameters, bearer scheme) on an app's registry, by name:
 * the route modules declare them as they load, and the document must not depend on that order.
 */
export function registerComponents(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_AUTH, SECURITY_SCHEME);
  app.openAPIRegistry.registerComponent("securitySchemes", STREAM_TICKET_SCHEME, STREAM_TICKET);
  for (const [name, uses] of [...componentSchemas].sort(byName)) {
    const [converted, ...others] = uses.map(({ schema, io }) => jsonSchemaOf(schema, io));
    if (others.some((other) => JSON.stringify(other) !== JSON.stringify(converted)))
      throw new Error(`Two different schemas are named ${name}`);
    app.openAPIRegistry.registerComponent("schemas", name, converted!);
  }
  for (const [name, parameter] of [...componentParameters].sort(byName))
    app.openAPIRegistry.registerComponent("parameters", name, parameter);
}

export const DOCUMENT_CONFIG = {
  openapi: "3.1.0",
  info: { title: "Fintech Platform API", version: "1.0.0", description: API_DESCRIPTION },
  tags: (Object.values(TAGS) as Tag[]).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
};
