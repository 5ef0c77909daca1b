import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { ACCOUNT_CHANGE_LIMITS } from "@fintech/core/auth/account-limits";
import { API_KEY_SCOPES, CreateApiKeyInput } from "@fintech/core/auth/model";
import { createApiKey, listApiKeys, revokeApiKey } from "@fintech/core/auth/api-keys";
import type { AppEnv } from "../http/app-context";
import { requireAuth, requireSession } from "../http/middleware";
import { authenticated, errors, jsonBody, jsonReply, pathParameter, TAGS } from "../http/openapi";
import {
  apiKeyExample,
  ApiKeyCreatedReply,
  ApiKeyListReply,
  ApiKeyRevokedReply,
  EXAMPLE_IDS,
} from "../http/reply-schemas";
import { readJson } from "../http/validate";

const SESSION_ONLY = "Needs a signed-in session: an API key cannot manage API keys (403 `session_required`).";

const listApiKeysRoute = createRoute({
  method: "get",
  path: "/",
  operationId: "listApiKeys",
  summary: "List API keys",
  description: `The signed-in user's API keys, revoked ones included (with \`revoked_at\`); never the secrets. ${SESSION_ONLY}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  responses: {
    200: jsonReply("The keys", "ApiKeyListReply", ApiKeyListReply, {
      data: [{ ...apiKeyExample, last_used_at: "2026-01-15T10:12:00.000Z" }],
    }),
    ...errors({ 401: true, 403: ["session_required"], 503: true }),
  },
});

const createApiKeyRoute = createRoute({
  method: "post",
  path: "/",
  operationId: "createApiKey",
  summary: "Create an API key",
  description: `A new key for scripts and servers, sent as \`Authorization: Bearer fpk_...\`; it acts for its owner as a user, never as an administrator, and only within its \`scopes\` (${API_KEY_SCOPES.map((scope) => `\`${scope}\``).join(", ")}; every scope when none are given). No scope lets a key change the sign-in email, the password or keys. The reply is the only time the key is shown; only a hash is stored. At most ${ACCOUNT_CHANGE_LIMITS.apiKeyCreation.limit} attempts per hour (429 with Retry-After). ${SESSION_ONLY}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: authenticated,
  request: {
    body: jsonBody("CreateApiKeyInput", CreateApiKeyInput, {
      name: "Reconciliation script",
      scopes: ["ledger:read", "payments:read"],
    }),
  },
  responses: {
    201: jsonReply("The key, shown once", "ApiKeyCreatedReply", ApiKeyCreatedReply, {
      message: "API key created: copy it now, it is not shown again",
      data: { ...apiKeyExample, key: "fpk_3xQ9aB7cK2mN8pR4sT6vW1yZ5bD7fH9j" },
    }),
    ...errors({
      400: ["validation_error", "invalid_json"],
      401: true,
      403: ["session_required"],
      409: ["api_key_limit"],
      413: ["payload_too_large"],
      429: true,
      503: true,
    }),
  },
});

const revokeApiKeyRoute = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "revokeApiKey",
  summary: "Revoke an API key",
  description: `Revokes one of the signed-in user's keys at once: later requests with it are 401. Revoking a revoked key answers it as it is. ${SESSION_ONLY}`,
  tags: [TAGS.auth],
  "x-stability": "stable",
  "x-complexity": "medium",
  security: authenticated,
  parameters: [pathParameter("id", "The key's id (from the list)", EXAMPLE_IDS.apiKey)],
  responses: {
    200: jsonReply("The revoked key", "ApiKeyRevokedReply", ApiKeyRevokedReply, {
      message: "API key revoked",
      data: { ...apiKeyExample, revoked_at: "2026-01-16T08:00:00.000Z" },
    }),
    ...errors({ 401: true, 403: ["session_required"], 404: ["api_key_not_found"], 503: true }),
  },
});

/** The signed-in user's API keys (create, list, revoke); managed from a session only. */
export const apiKeyRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth, requireSession))
  .openapi(listApiKeysRoute, async (c) => c.json({ data: await listApiKeys(c.get("core"), c.get("auth").userId) }, 200))
  // The reply is the only time the key itself is shown.
  .openapi(createApiKeyRoute, async (c) =>
    c.json(
      {
        message: "API key created: copy it now, it is not shown again",
        data: await createApiKey(c.get("core"), c.get("auth").userId, await readJson(c)),
      },
      201,
    ),
  )
  .openapi(revokeApiKeyRoute, async (c) =>
    c.json(
      { message: "API key revoked", data: await revokeApiKey(c.get("core"), c.get("auth").userId, c.req.param("id")) },
      200,
    ),
  );
