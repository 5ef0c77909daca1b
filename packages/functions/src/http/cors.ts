import { cors } from "hono/cors";
import type { AppConfig } from "@fintech/core/shared/config";

/** The request headers a browser may send cross-origin, and the methods, as the API answers a preflight. */
export const CORS_ALLOW_HEADERS = ["Content-Type", "Authorization", "Idempotency-Key", "X-Request-Id", "Last-Event-ID"];
export const CORS_ALLOW_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * The API's CORS answer: configured origins only. One definition, used by every app composeApp
 * builds and by the public CORS check (routes/developers.ts), which runs a real preflight through it.
 */
export function corsPolicy(config: Pick<AppConfig, "CORS_ORIGINS">) {
  return cors({
    origin: (origin) => (config.CORS_ORIGINS.includes(origin) ? origin : null),
    allowHeaders: CORS_ALLOW_HEADERS,
    allowMethods: CORS_ALLOW_METHODS,
    exposeHeaders: ["X-Request-Id", "Retry-After", "Idempotent-Replayed"],
    maxAge: 600,
  });
}
