import type { HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment } from "./query";
import type { ApiKeyScope } from "@fintech/core/auth/model";
import type { ApiReply, ApiRequestBody } from "./schema";
import type { WriteOptions } from "./types";

/** A key as its owner sees it in lists: name and visible prefix, never the secret. */
export type ApiKey = ApiReply<"/api/v1/api-keys", "get">["data"][number];

/** The create reply: the key's view plus the secret itself, which no other reply ever carries. */
export type CreatedApiKey = ApiReply<"/api/v1/api-keys", "post">["data"];

/** The signed-in user's API keys (a session only: an API key itself is refused 403 session_required). */
export function apiKeyEndpoints(http: HttpClient) {
  return {
    /** GET /api/v1/api-keys -> {data: [key]}, newest first; revoked keys stay listed. */
    async list(signal?: AbortSignal): Promise<ApiKey[]> {
      return unwrapList<ApiKey>(await http.authCall<unknown>("GET", "/api/v1/api-keys", { signal }));
    },
    /**
     * POST /api/v1/api-keys {name, scopes?} -> 201 {data: {..., key, scopes}} (no scopes: every scope);
     * 409 api_key_limit past 20 active keys, 429 past the hourly creation limit.
     */
    async create(name: string, scopes?: readonly ApiKeyScope[], options: WriteOptions = {}): Promise<CreatedApiKey> {
      const body: ApiRequestBody<"/api/v1/api-keys", "post"> = scopes ? { name, scopes: [...scopes] } : { name };
      return unwrapData<CreatedApiKey>(await http.authCall<unknown>("POST", "/api/v1/api-keys", { ...options, body }));
    },
    /** DELETE /api/v1/api-keys/{id} -> {data: key} with revoked_at set; 404 for an unknown or foreign id. */
    async revoke(id: string, options: WriteOptions = {}): Promise<ApiKey> {
      return unwrapData<ApiKey>(await http.authCall<unknown>("DELETE", `/api/v1/api-keys/${segment(id)}`, options));
    },
  };
}
