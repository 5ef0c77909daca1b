import {
  backoffPolicy,
  createTransport,
  IDEMPOTENCY_KEY_HEADER,
  isFintechError,
  type FetchFunction,
  type FintechError,
} from "@fintech/sdk";
import { randomId } from "../lib/uuid";
import { API_MESSAGES, ApiError, bodyCode, bodyMessage, bodyReason } from "./errors";
import type { DownloadedFile } from "./types";

export type { FetchFunction };

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What the client needs from the session: the token, and a way to drop it on a 401. */
export interface TokenSource {
  getToken(): string | null;
  clear(): void;
}

export interface RequestOptions {
  body?: unknown;
  /**
   * The user action's Idempotency-Key, reused when the same action is retried. A write without
   * one gets a fresh key (the SDK's rule, withIdempotencyKey), so the header is never missing.
   */
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
  fetch: FetchFunction;
  credentials: TokenSource;
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

/** A reply the transport refused (not 2xx): its status and parsed body. */
type Refusal = FintechError & { status: number };

const isRefusal = (error: unknown): error is Refusal => isFintechError(error) && error.status !== null;

/**
 * A non-OK reply as an error: the body's own message when the caller shows it, else
 * 'HTTP error! status: N'. A 503 (the server cannot reach its store) or a 5xx is a failure to
 * retry, never a sign-out.
 */
function replyError(refusal: Refusal, useBodyMessage: boolean): ApiError {
  const { body, status, retryAfterSeconds } = refusal;
  const message = useBodyMessage ? bodyMessage(body) : null;
  return message
    ? new ApiError(message, "server-message", status, bodyCode(body), retryAfterSeconds, bodyReason(body))
    : new ApiError(
        API_MESSAGES.httpStatus(status),
        "http-status",
        status,
        bodyCode(body),
        retryAfterSeconds,
        bodyReason(body),
      );
}

/** A failed authenticated reply: a 401 is the ended session (already cleared), anything else carries its message. */
const authFailure = (refusal: Refusal): ApiError =>
  refusal.status === 401
    ? new ApiError(API_MESSAGES.sessionExpired, "session-expired", 401, bodyCode(refusal.body))
    : replyError(refusal, true);

/**
 * The app's HTTP client, over the SDK's transport: it sends the Idempotency-Key of every write
 * and parses Retry-After, and its 401 hook ends the session. No retries and no time limit here:
 * react-query retries what a retry can fix (queryClient.ts), and a write is retried by its user
 * under the same key.
 */
export function createHttpClient(config: HttpClientConfig): HttpClient {
  const send = createTransport({
    fetch: config.fetch,
    // Each call sets its own Authorization: public calls send none.
    credential: null,
    timeoutMs: null,
    retries: 0,
    backoff: backoffPolicy(),
    newIdempotencyKey: randomId,
    // Only a 401 on a call that carried the token ends the session (docs/product/session.md#session).
    onUnauthorized: () => config.credentials.clear(),
  });

  /** The reply if 2xx, else the refusal; no reply at all is a network error, an abort passes through unchanged. */
  const exchange = async (
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    token: string | null,
  ): Promise<Response | Refusal> => {
    try {
      const headers = new Headers({ Accept: "application/json" });
      if (options.body !== undefined) headers.set("Content-Type", "application/json");
      if (options.idempotencyKey) headers.set(IDEMPOTENCY_KEY_HEADER, options.idempotencyKey);
      if (token) headers.set("Authorization", `Bearer ${token}`);
      return await send(
        // A same-origin base ("") leaves a path, which the browser resolves against the page.
        new Request(`${config.baseUrl}${path}`, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: options.signal,
        }),
      );
    } catch (error) {
      if (isRefusal(error)) return error;
      // An abort is the caller's own decision, not a network fault: let it through unchanged.
      if (options.signal?.aborted) throw error;
      throw new ApiError(API_MESSAGES.network, "network");
    }
  };

  const okBody = async <T>(response: Response): Promise<T> => {
    const { body, parsed } = await readBody(response);
    // An OK reply that is not JSON breaks the contract every endpoint here relies on.
    if (!parsed) throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response", response.status);
    return body as T;
  };

  const requireToken = () => {
    const token = config.credentials.getToken();
    if (!token) throw new ApiError(API_MESSAGES.noToken, "no-token");
    return token;
  };

  return {
    async raw(method, path, options = {}) {
      const reply = await exchange(method, path, options, null);
      if (reply instanceof Response) return { ok: true, status: reply.status, body: (await readBody(reply)).body };
      return { ok: false, status: reply.status, body: reply.body };
    },

    async publicCall<T>(method: HttpMethod, path: string, options: PublicRequestOptions = {}) {
      const reply = await exchange(method, path, options, null);
      if (!(reply instanceof Response)) throw replyError(reply, options.serverMessages ?? false);
      return okBody<T>(reply);
    },

    async authCall<T>(method: HttpMethod, path: string, options: RequestOptions = {}) {
      const reply = await exchange(method, path, options, requireToken());
      if (!(reply instanceof Response)) throw authFailure(reply);
      return okBody<T>(reply);
    },

    async authFile(path, signal) {
      const reply = await exchange("GET", path, { signal }, requireToken());
      if (!(reply instanceof Response)) throw authFailure(reply);
      return { blob: await reply.blob(), filename: filenameOf(reply.headers.get("Content-Disposition")) };
    },
  };
}

/**
 * Whether a signed-in health route answers OK (the stream services' health checks,
 * docs/product/backend-client.md#streams-and-commands): any refusal or no reply is false; only an
 * abort propagates, so a cancelled check stays silent.
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
