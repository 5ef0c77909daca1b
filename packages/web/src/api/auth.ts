import { toSessionUser, type ServerUserFields, type SessionUser } from "../session/sessionUser";
import type { HttpClient, RequestOptions } from "./client";
import { API_MESSAGES, ApiError } from "./errors";
import type { ApiRequestBody } from "./schema";

export interface AuthResult {
  token: string;
  user: SessionUser;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function asServerUser(value: unknown): ServerUserFields | null {
  if (!isRecord(value)) return null;
  const { id, email, first_name, last_name, role } = value;
  if ((typeof id !== "string" && typeof id !== "number") || id === "") return null;
  if (typeof email !== "string" || !email) return null;
  const optionalText = (field: unknown) => (typeof field === "string" ? field : null);
  return {
    id,
    email,
    first_name: optionalText(first_name),
    last_name: optionalText(last_name),
    role: optionalText(role),
  };
}

/**
 * docs/product/backend-client.md#public-calls: the reply's data carries the token plus the user,
 * either nested (data.user) or as flat fields of data. Anything else is 'Invalid response format'.
 */
export function parseAuthReply(body: unknown): AuthResult {
  const data = isRecord(body) ? body.data : undefined;
  if (!isRecord(data) || typeof data.token !== "string" || !data.token) {
    throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response");
  }
  const user = asServerUser(data.user) ?? asServerUser(data);
  if (!user) throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response");
  return { token: data.token, user: toSessionUser(user) };
}

/** Request bodies as the API document declares them (generated from the schemas the server validates with). */
export type RegisterBody = ApiRequestBody<"/api/v1/auth/register", "post">;
export type LoginBody = ApiRequestBody<"/api/v1/auth/login", "post">;

export function authEndpoints(http: HttpClient) {
  return {
    /** POST /api/v1/auth/login, public; failures carry the server's message. */
    async login(body: LoginBody, options: RequestOptions = {}): Promise<AuthResult> {
      const reply = await http.publicCall<unknown>("POST", "/api/v1/auth/login", {
        ...options,
        body,
        serverMessages: true,
      });
      return parseAuthReply(reply);
    },
    /** POST /api/v1/auth/logout: ends the stored token's session on the server (it stops working everywhere). */
    async logout(options: RequestOptions = {}): Promise<void> {
      await http.authCall<unknown>("POST", "/api/v1/auth/logout", options);
    },
    /** POST /api/v1/auth/register, public; failures carry the server's message. */
    async register(body: RegisterBody, options: RequestOptions = {}): Promise<AuthResult> {
      const reply = await http.publicCall<unknown>("POST", "/api/v1/auth/register", {
        ...options,
        body,
        serverMessages: true,
      });
      return parseAuthReply(reply);
    },
  };
}
