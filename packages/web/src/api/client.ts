import { API_MESSAGES, ApiError, bodyCode, bodyMessage, bodyReason, retryAfterSeconds } from "./errors";
import type { DownloadedFile } from "./types";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What the client needs from the session: the token, and a way to drop it on a 401. */
export interface TokenSource {
  getToken(): string | null;
  clear(): void;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as Idempotency-Key so a retried write is applied once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface PublicRequestOptions extends RequestOptions {
  /** Use the reply's own message on failure (login and register show it to the user). */
  serverMessages?: boolean;
}

/** A reply as received: status plus the parsed JSON body (null when empty). */
export interface RawReply {
  ok: boolean;
  status: number;
  body: unknown;
}

export interface HttpClient {
  /** Sends without a token and maps no errors; for callers that read non-OK bodies (health). */
  raw(method: HttpMethod, path: string, options?: RequestOptions): Promise<RawReply>;
  /** A call without a token (health, login, register). */
  publicCall<T>(method: HttpMethod, path: string, options?: PublicRequestOptions): Promise<T>;
  /** A call with 'Authorization: Bearer'; fails before sending when no token is stored. */
  authCall<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** An authenticated GET whose OK reply is a file (the CSV export); failures map as authCall's. */
  authFile(path: string, signal?: AbortSignal): Promise<DownloadedFile>;
}

export interface HttpClientConfig {
  baseUrl: string;
  fetch: FetchLike;
  credentials: TokenSource;
}

function buildHeaders(options: RequestOptions, token: string | null): Headers {
  const headers = new Headers({ Accept: "application/json" });
  if (options.body !== undefined) headers.set("Content-Type", "application/json");
  if (options.idempotencyKey) headers.set("Idempotency-Key", options.idempotencyKey);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  return headers;
}

/** `attachment; filename="transactions-2026-03-14.csv"` (or RFC 5987 `filename*=`) -> the file name. */
export function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!.trim());
  } catch {
    return null;
  }
}

async function readBody(response: Response): Promise<{ body: unknown; parsed: boolean }> {
  const text = await response.text();
  if (!text) return { body: null, parsed: true };
  try {
    return { body: JSON.parse(text) as unknown, parsed: true };
  } catch {
    return { body: text, parsed: false };
  }
}

/**
 * A non-OK reply as an error: the body's own message when the caller shows it, else
 * 'HTTP error! status: N'. Only a 401 on an authenticated call ends the session (spec 000 §4);
 * a 503 (the server cannot reach its store) or a 5xx is a failure to retry, never a sign-out.
 */
function replyError(response: Response, body: unknown, useBodyMessage: boolean): ApiError {
  const message = useBodyMessage ? bodyMessage(body) : null;
  const retryAfter = retryAfterSeconds(response.headers.get("Retry-After"));
  return message
    ? new ApiError(message, "server-message", response.status, bodyCode(body), retryAfter, bodyReason(body))
    : new ApiError(
        API_MESSAGES.httpStatus(response.status),
        "http-status",
        response.status,
        bodyCode(body),
        retryAfter,
        bodyReason(body),
      );
}

export function createHttpClient(config: HttpClientConfig): HttpClient {
  const fetchReply = async (method: HttpMethod, path: string, options: RequestOptions, token: string | null) => {
    try {
      return await config.fetch(`${config.baseUrl}${path}`, {
        method,
        headers: buildHeaders(options, token),
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (error) {
      // An abort is the caller's own decision, not a network fault: let it through unchanged.
      if (error instanceof DOMException && error.name === "AbortError") throw error;
      throw new ApiError(API_MESSAGES.network, "network");
    }
  };

  const send = async (method: HttpMethod, path: string, options: RequestOptions, token: string | null) => {
    const response = await fetchReply(method, path, options, token);
    const { body, parsed } = await readBody(response);
    return { response, body, parsed };
  };

  const okBody = <T>(body: unknown, parsed: boolean, status: number): T => {
    // An OK reply that is not JSON breaks the contract every endpoint here relies on.
    if (!parsed) throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response", status);
    return body as T;
  };

  const requireToken = () => {
    const token = config.credentials.getToken();
    if (!token) throw new ApiError(API_MESSAGES.noToken, "no-token");
    return token;
  };

  /** A failed authenticated reply: a 401 ends the session, anything else carries its message. */
  const authFailure = (response: Response, body: unknown): ApiError => {
    if (response.status !== 401) return replyError(response, body, true);
    config.credentials.clear();
    return new ApiError(API_MESSAGES.sessionExpired, "session-expired", 401, bodyCode(body));
  };

  return {
    async raw(method, path, options = {}) {
      const { response, body } = await send(method, path, options, null);
      return { ok: response.ok, status: response.status, body };
    },

    async publicCall<T>(method: HttpMethod, path: string, options: PublicRequestOptions = {}) {
      const { response, body, parsed } = await send(method, path, options, null);
      if (!response.ok) throw replyError(response, body, options.serverMessages ?? false);
      return okBody<T>(body, parsed, response.status);
    },

    async authCall<T>(method: HttpMethod, path: string, options: RequestOptions = {}) {
      const { response, body, parsed } = await send(method, path, options, requireToken());
      if (!response.ok) throw authFailure(response, body);
      return okBody<T>(body, parsed, response.status);
    },

    async authFile(path, signal) {
      const response = await fetchReply("GET", path, { signal }, requireToken());
      if (!response.ok) throw authFailure(response, (await readBody(response)).body);
      return { blob: await response.blob(), filename: filenameOf(response.headers.get("Content-Disposition")) };
    },
  };
}

/**
 * Whether a signed-in health route answers OK (the stream services' health checks, spec 001 §7):
 * any refusal or no reply is false; only an abort propagates, so a cancelled check stays silent.
 */
export async function answersHealthCheck(
  http: Pick<HttpClient, "authCall">,
  path: string,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    await http.authCall<unknown>("GET", path, { signal });
    return true;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return false;
  }
}
