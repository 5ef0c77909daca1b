import { z } from "zod";

/**
 * The explorer's catalogue, read from the API's own OpenAPI document (GET /api/openapi.json):
 * categories are the document's tags in the fixed order of
 * docs/product/developer-tools.md#api-explorer, endpoints its operations. Only the parts the
 * explorer shows are parsed, loosely: an operation the explorer cannot read is left out rather than
 * breaking the page.
 */

/**
 * The six categories of docs/product/developer-tools.md#api-explorer, in this order (the document's
 * tags carry the same names).
 */
export const CATEGORY_NAMES = [
  "Authentication & Users",
  "Accounts & Banking",
  "KYC & Compliance",
  "Ledger & Double-Entry",
  "gRPC Streaming APIs",
  "System & Health",
] as const;

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = Uppercase<(typeof HTTP_METHODS)[number]>;

const Ref = z.looseObject({ $ref: z.string() });

const Parameter = z.looseObject({
  name: z.string(),
  in: z.enum(["path", "query", "header", "cookie"]),
  required: z.boolean().optional(),
  description: z.string().optional(),
  example: z.unknown().optional(),
  schema: z
    .looseObject({
      example: z.unknown().optional(),
      default: z.unknown().optional(),
      examples: z.array(z.unknown()).optional(),
    })
    .optional(),
});
type Parameter = z.infer<typeof Parameter>;

const MediaType = z.looseObject({ example: z.unknown().optional() });

const Operation = z.looseObject({
  operationId: z.string().optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  deprecated: z.boolean().optional(),
  "x-stability": z.string().optional(),
  "x-complexity": z.string().optional(),
  "x-required-scope": z.string().optional(),
  "x-scope-note": z.string().optional(),
  "x-session-only": z.boolean().optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z.array(z.unknown()).optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), MediaType).optional() }).optional(),
  responses: z
    .record(
      z.string(),
      z.looseObject({
        description: z.string().optional(),
        content: z.record(z.string(), MediaType).optional(),
        "x-sse-events": z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
});

export const OpenApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
  tags: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })).optional(),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({ parameters: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;

export type Stability = "stable" | "beta" | "deprecated";
export type Complexity = "low" | "medium" | "high";

export interface EndpointParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  /** The documented example (or default) as text, "" when there is none. */
  example: string;
}

export interface Endpoint {
  /** operationId: stable and unique, used for DOM ids and selection. */
  key: string;
  method: HttpMethod;
  /** OpenAPI form: /api/v1/ledger/accounts/{id}/balance. */
  path: string;
  summary: string;
  description: string;
  category: string;
  stability: Stability;
  complexity: Complexity | null;
  /** Needs `Authorization: Bearer` (a session token or an API key). */
  authenticated: boolean;
  /** The scope an API key needs to call it (`x-required-scope`), null when any key may (or none). */
  scope: string | null;
  /** What more some calls need (`x-scope-note`): a writing command, the live stream's feeds. */
  scopeNote: string | null;
  /** No API key may call it, whatever its scopes: a signed-in session only (`x-session-only`). */
  sessionOnly: boolean;
  parameters: EndpointParameter[];
  /** The request body's example, when the operation takes a JSON body. */
  requestExample: unknown;
  hasRequestBody: boolean;
  /** The first success reply: its status and example. */
  responseStatus: string | null;
  responseExample: unknown;
  /** A text/event-stream reply (the stream endpoints), with its event names. */
  streaming: boolean;
  sseEvents: string[];
  /** Declares the Idempotency-Key header (a write that is safe to retry). */
  idempotent: boolean;
}

export interface Category {
  name: string;
  description: string;
  /** For the section's DOM id. */
  slug: string;
  endpoints: Endpoint[];
}

export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const exampleText = (value: unknown): string => {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
};

function resolveParameter(raw: unknown, document: OpenApiDocument): Parameter | null {
  const ref = Ref.safeParse(raw);
  if (ref.success) {
    const name = /^#\/components\/parameters\/(.+)$/.exec(ref.data.$ref)?.[1];
    raw = name ? document.components?.parameters?.[name] : undefined;
  }
  const parsed = Parameter.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

function toParameter(parameter: Parameter): EndpointParameter | null {
  if (parameter.in === "cookie") return null;
  const example =
    parameter.example ?? parameter.schema?.example ?? parameter.schema?.examples?.[0] ?? parameter.schema?.default;
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === "path" ? true : (parameter.required ?? false),
    description: parameter.description ?? "",
    example: exampleText(example),
  };
}

function stabilityOf(operation: z.infer<typeof Operation>): Stability {
  if (operation.deprecated) return "deprecated";
  return operation["x-stability"] === "beta" ? "beta" : "stable";
}

function complexityOf(value: string | undefined): Complexity | null {
  return value === "low" || value === "medium" || value === "high" ? value : null;
}

function toEndpoint(
  path: string,
  method: (typeof HTTP_METHODS)[number],
  raw: unknown,
  document: OpenApiDocument,
): Endpoint | null {
  const parsed = Operation.safeParse(raw);
  if (!parsed.success) return null;
  const operation = parsed.data;
  const security = operation.security ?? document.security ?? [];
  const parameters = (operation.parameters ?? [])
    .map((parameter) => resolveParameter(parameter, document))
    .filter((parameter): parameter is Parameter => parameter !== null)
    .map(toParameter)
    .filter((parameter): parameter is EndpointParameter => parameter !== null);
  // Path parameters the template names but the operation does not declare still need a field.
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (name && !parameters.some((parameter) => parameter.in === "path" && parameter.name === name)) {
      parameters.unshift({ name, in: "path", required: true, description: "", example: "" });
    }
  }
  const body = operation.requestBody?.content?.["application/json"];
  const success = Object.entries(operation.responses ?? {})
    .filter(([status]) => /^2\d\d$/.test(status))
    .sort(([a], [b]) => a.localeCompare(b))[0];
  const reply = success?.[1];
  const stream = reply?.content?.["text/event-stream"];
  const json = reply?.content?.["application/json"] ?? Object.values(reply?.content ?? {})[0];
  return {
    key: operation.operationId ?? `${method}-${path}`,
    method: method.toUpperCase() as HttpMethod,
    path,
    summary: operation.summary ?? "",
    description: operation.description ?? "",
    category: operation.tags?.[0] ?? "",
    stability: stabilityOf(operation),
    complexity: complexityOf(operation["x-complexity"]),
    authenticated: security.some((requirement) => Object.keys(requirement).length > 0),
    scope: operation["x-required-scope"] ?? null,
    scopeNote: operation["x-scope-note"] ?? null,
    sessionOnly: operation["x-session-only"] === true,
    parameters,
    requestExample: body?.example,
    hasRequestBody: body !== undefined,
    responseStatus: success?.[0] ?? null,
    responseExample: (stream ?? json)?.example,
    streaming: stream !== undefined,
    sseEvents: Object.keys(reply?.["x-sse-events"] ?? {}),
    idempotent: parameters.some(
      (parameter) => parameter.in === "header" && parameter.name.toLowerCase() === "idempotency-key",
    ),
  };
}

/**
 * The six categories in the order of docs/product/developer-tools.md#api-explorer, each with its
 * operations in document order; a tag outside the six gets its own category after them, so no
 * operation is ever hidden.
 */
export function buildCatalogue(document: OpenApiDocument): Category[] {
  const descriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? ""]));
  const categories = new Map<string, Category>(
    CATEGORY_NAMES.map((name) => [
      name,
      { name, description: descriptions.get(name) ?? "", slug: slugOf(name), endpoints: [] },
    ]),
  );
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      if (item[method] === undefined) continue;
      const endpoint = toEndpoint(path, method, item[method], document);
      if (!endpoint) continue;
      const name = endpoint.category || "Other";
      let category = categories.get(name);
      if (!category) {
        category = { name, description: descriptions.get(name) ?? "", slug: slugOf(name), endpoints: [] };
        categories.set(name, category);
      }
      category.endpoints.push(endpoint);
    }
  }
  return [...categories.values()];
}

export const isWrite = (method: HttpMethod) => method !== "GET";
