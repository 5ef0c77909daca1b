import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { authenticateApiKey, isApiKey } from "@fintech/core/auth/api-keys";
import { authenticate } from "@fintech/core/auth/service";
import type { CoreContext } from "@fintech/core/shared/context";
import {
  forbidden,
  isAppError,
  isStoreUnavailable,
  serviceUnavailable,
  unauthorized,
  type AppError,
} from "@fintech/core/shared/errors";
import type { AppEnv } from "./app-context";
import { assertRequestScope, isInsufficientScope } from "./scopes";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Puts the core context, a request id and a request-scoped logger on every request; logs one line per request. */
export function requestContext(core: CoreContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const logger = core.logger.child({ request_id: requestId });
    c.set("core", core);
    c.set("requestId", requestId);
    c.set("logger", logger);
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await next();
    logger.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      user_id: c.get("auth")?.userId,
    });
  };
}

/**
 * RFC 6750: a 401 names the scheme it wants, and says when the token itself was the problem,
 * so a client can tell "sign in" from "your token is no good".
 */
function bearerChallenge(error: AppError): string {
  return error.code === "invalid_token" ? 'Bearer error="invalid_token"' : "Bearer";
}

function appErrorReply(error: AppError, c: Context<AppEnv>) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  if (error.status === 401) c.header("WWW-Authenticate", bearerChallenge(error));
  // A missing scope is named in a field too, so a client can tell which one to ask for.
  return c.json(
    { message: error.message, code: error.code, ...(isInsufficientScope(error) ? { scope: error.scope } : {}) },
    error.status,
  );
}

/**
 * Every error becomes JSON {message, code}. A store that is unreachable, stalled or throttling
 * (after the SDK's retries) is a 503 with Retry-After; only bugs are 500s, logged with the
 * request id.
 */
export function errorReply(error: Error, c: Context<AppEnv>) {
  if (isAppError(error)) return appErrorReply(error, c);
  if (error instanceof HTTPException) {
    const status = error.status;
    const message = status === 413 ? "Request body is too large" : error.message || "Request could not be processed";
    return c.json({ message, code: status === 413 ? "payload_too_large" : "bad_request" }, status);
  }
  if (isStoreUnavailable(error)) {
    c.get("logger")?.warn("store unavailable", { error });
    return appErrorReply(serviceUnavailable(), c);
  }
  c.get("logger")?.error("unhandled error", { error });
  return c.json({ message: "Internal server error", code: "internal_error", request_id: c.get("requestId") }, 500);
}

/**
 * Bearer token required; the resolved user is on c.get("auth"). An API key must hold the scope
 * the request needs (scopes.ts decides, for every route). Every authenticated reply, errors
 * included, is marked no-store: it is one user's data and no cache may keep it.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header("Cache-Control", "no-store");
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized("Authentication required", "unauthorized");
  const bearer = match[1].trim();
  if (isApiKey(bearer)) {
    const key = await authenticateApiKey(c.get("core"), bearer);
    c.set("auth", {
      userId: key.sub,
      role: key.role,
      user: key.user,
      apiKeyId: key.apiKeyId,
      credential: { kind: "api_key", userId: key.sub, keyId: key.apiKeyId, scopes: key.scopes },
    });
  } else {
    const session = await authenticate(c.get("core"), bearer);
    c.set("auth", {
      userId: session.sub,
      role: session.role,
      user: session.user,
      sessionExpiresAt: session.exp,
      credential: { kind: "session", userId: session.sub, sessionId: session.sid },
    });
  }
  assertRequestScope(c);
  await next();
  // Again on the way out: a route may answer with a Response it built itself.
  c.res.headers.set("Cache-Control", "no-store");
};

/** A signed-in session, not an API key; `message` says what an API key may not do here. */
export const sessionOnly =
  (message: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (c.get("auth")?.credential.kind !== "session") throw forbidden(message, "session_required");
    await next();
  };

/** API keys may not mint or revoke keys. */
export const requireSession = sessionOnly("API keys cannot manage API keys: sign in");

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("auth")?.role !== "admin") throw forbidden("Administrator role required", "admin_required");
  await next();
};
