import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { Hono } from "hono";
import { z } from "zod";
import type { RequestMetrics } from "@fintech/core/metrics/recorder";
import { RESPONSE_TIMES_WINDOW, ResponseTimesQuery, ResponseTimesReport } from "@fintech/core/metrics/response-times";
import { loadSharedHours, responseTimesFrom, type SharedHours } from "@fintech/core/metrics/service";
import type { AppEnv } from "../http/app-context";
import { corsPolicy } from "../http/cors";
import { errors, jsonBody, jsonReply, publicAccess, queryParameters, TAGS } from "../http/openapi";
import { jsonBody as readBody, queryWith } from "../http/validate";

/** Where app.ts mounts these routes. */
export const DEVELOPERS_PREFIX = "/api/v1/developers";

/**
 * The explorer asks for the response times on every visit; a reply this fresh is good enough
 * for a "typical" figure and spares the table a read of up to a day of items per visit.
 */
export const RESPONSE_TIMES_CACHE_SECONDS = 30;

const example: ResponseTimesReport = {
  window_hours: 24,
  since: "2026-01-01T00:00:00.000Z",
  routes: [
    { method: "GET", path: "/api/v1/ledger/accounts/{id}/balance", requests: 1840, typical_ms: 11.31, p95_ms: 26.91 },
    { method: "GET", path: "/health", requests: 2880, typical_ms: 3.36, p95_ms: 6.73 },
  ],
  instances: 3,
  merged: true,
  as_of: "2026-01-01T23:59:30.000Z",
};

export const listResponseTimesRoute = createRoute({
  method: "get",
  path: "/response-times",
  operationId: "listResponseTimes",
  tags: [TAGS.system],
  summary: "Typical response time per route",
  description:
    "Median (`typical_ms`) and 95th percentile (`p95_ms`) latency of every route that served replies (status below 400) in the " +
    "last `hours` whole hours (default 24, the current hour included), merged over every API instance from the real request " +
    "metrics. Paths are in OpenAPI form. Figures are within about 19 % (one latency bucket). Replies are cached for " +
    `${RESPONSE_TIMES_CACHE_SECONDS} s. Public: the API explorer shows them next to each endpoint.`,
  security: publicAccess,
  "x-stability": "beta",
  "x-complexity": "medium",
  parameters: queryParameters(ResponseTimesQuery, {
    hours: `Whole hours to cover, ${RESPONSE_TIMES_WINDOW.min} to ${RESPONSE_TIMES_WINDOW.max} (default ${RESPONSE_TIMES_WINDOW.default}).`,
  }),
  responses: {
    200: jsonReply(
      "Response times per route, by path then method.",
      "ResponseTimesReport",
      ResponseTimesReport,
      example,
    ),
    ...errors({ 400: ["validation_error"] }),
  },
});

/* ---------- the CORS check ---------- */

const MAX_ORIGIN_LENGTH = 2_048;
const MAX_CHECKED_HEADERS = 16;
const MAX_HEADER_NAME_LENGTH = 64;
/** A header name as HTTP defines it (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `scheme://host[:port]` and nothing else: what a browser sends as Origin. */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
}

export const CorsCheckInput = z.object({
  origin: z
    .string({ error: "origin is required" })
    .max(MAX_ORIGIN_LENGTH, `origin must be at most ${MAX_ORIGIN_LENGTH} characters`)
    .refine(isOrigin, "origin must be an http(s) origin such as https://app.example.com (no path)"),
  method: z
    .enum(["GET", "POST", "PUT", "PATCH", "DELETE"], { error: "method must be GET, POST, PUT, PATCH or DELETE" })
    .default("POST"),
  headers: z
    .array(
      z
        .string()
        .max(MAX_HEADER_NAME_LENGTH, `a header name must be at most ${MAX_HEADER_NAME_LENGTH} characters`)
        .regex(HEADER_NAME, "headers must be header names such as Content-Type"),
      { error: "headers must be a list of header names" },
    )
    .max(MAX_CHECKED_HEADERS, `at most ${MAX_CHECKED_HEADERS} headers`)
    .default([]),
});
export type CorsCheckInput = z.infer<typeof CorsCheckInput>;

export const CorsCheckReply = z.object({
  origin: z.string().describe("The origin the preflight was sent as"),
  method: z.string(),
  request_headers: z.array(z.string()),
  status: z.number().int().describe("The preflight's status code"),
  allow_origin: z.string().nullable().describe("Access-Control-Allow-Origin; null: this origin is not allowed"),
  allow_methods: z.string().nullable().describe("Access-Control-Allow-Methods"),
  allow_headers: z.string().nullable().describe("Access-Control-Allow-Headers"),
  max_age_seconds: z.number().int().nullable().describe("Access-Control-Max-Age"),
});
export type CorsCheckReply = z.infer<typeof CorsCheckReply>;

const corsCheckExample: CorsCheckReply = {
  origin: "https://app.example.com",
  method: "POST",
  request_headers: ["Content-Type", "Authorization"],
  status: 204,
  allow_origin: "https://app.example.com",
  allow_methods: "GET,POST,PUT,PATCH,DELETE,OPTIONS",
  allow_headers: "Content-Type,Authorization,Idempotency-Key,X-Request-Id,Last-Event-ID",
  max_age_seconds: 600,
};

export const corsCheckRoute = createRoute({
  method: "post",
  path: "/cors-check",
  operationId: "checkCors",
  tags: [TAGS.system],
  summary: "What the API answers a CORS preflight",
  description:
    "Runs a real preflight (OPTIONS with Origin, Access-Control-Request-Method and -Headers) through the API's own CORS " +
    "middleware and returns the Access-Control-Allow-* values it answered. A browser can neither send nor read a " +
    "preflight itself, so the streaming demo's Connection Test asks here. `allow_origin` is null for an origin the API " +
    "does not allow. Public; nothing is stored.",
  security: publicAccess,
  "x-stability": "beta",
  "x-complexity": "low",
  request: {
    body: jsonBody("CorsCheckInput", CorsCheckInput, {
      origin: "https://app.example.com",
      method: "POST",
      headers: ["Content-Type", "Authorization"],
    }),
  },
  responses: {
    200: jsonReply("The preflight's answer", "CorsCheckReply", CorsCheckReply, corsCheckExample),
    ...errors({ 400: ["validation_error", "invalid_json"], 413: ["payload_too_large"] }),
  },
});

/** Sends the preflight through the API's CORS policy, in process: the answer any browser at `origin` gets. */
export async function checkCors(config: { CORS_ORIGINS: string[] }, input: CorsCheckInput): Promise<CorsCheckReply> {
  const probe = new Hono().use(corsPolicy(config)).all("*", (c) => c.body(null, 204));
  const reply = await probe.request("/api/health", {
    method: "OPTIONS",
    headers: {
      Origin: input.origin,
      "Access-Control-Request-Method": input.method,
      ...(input.headers.length > 0 ? { "Access-Control-Request-Headers": input.headers.join(",") } : {}),
    },
  });
  const maxAge = reply.headers.get("access-control-max-age");
  return {
    origin: input.origin,
    method: input.method,
    request_headers: input.headers,
    status: reply.status,
    allow_origin: reply.headers.get("access-control-allow-origin"),
    allow_methods: reply.headers.get("access-control-allow-methods"),
    allow_headers: reply.headers.get("access-control-allow-headers"),
    max_age_seconds: maxAge !== null && /^\d{1,9}$/.test(maxAge) ? Number(maxAge) : null,
  };
}

/**
 * GET /response-times (public): what the API explorer shows as each endpoint's typical response
 * time. Every instance's stored hours of the longest window are read at most once per
 * RESPONSE_TIMES_CACHE_SECONDS, whatever `hours` callers ask for; each window length's reply
 * is kept for the same time.
 */
export function developerRoutes(metrics: RequestMetrics) {
  let cache: { until: number; shared: Promise<SharedHours>; replies: Map<number, ResponseTimesReport> } | null = null;
  return new OpenAPIHono<AppEnv>()
    .openapi(corsCheckRoute, async (c) => {
      const input = await readBody(c, CorsCheckInput);
      return c.json(await checkCors(c.get("core").config, input), 200);
    })
    .openapi(listResponseTimesRoute, async (c) => {
      // The declaration documents the query; core's schema validates it (a bad value is the API's {message, code} 400).
      const { hours } = queryWith(c, ResponseTimesQuery);
      const core = c.get("core");
      const now = core.clock().getTime();
      if (!cache || cache.until <= now) {
        cache = {
          until: now + RESPONSE_TIMES_CACHE_SECONDS * 1000,
          shared: loadSharedHours(core, metrics.nowSecond()),
          replies: new Map(),
        };
      }
      const current = cache;
      let reply = current.replies.get(hours);
      if (!reply) {
        reply = responseTimesFrom(core, metrics, hours, await current.shared);
        current.replies.set(hours, reply);
      }
      return c.json(reply, 200);
    });
}
