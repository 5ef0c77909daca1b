import { retryDelayMs, type BackoffPolicy } from "./backoff";
import { FintechError, replyError } from "./errors";

export type FetchFunction = (request: Request) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchFunction;
  /**
   * The bearer credential (API key or session token); null for public calls, or when each request
   * sets its own Authorization.
   */
  credential: string | null;
  /** Time limit of each attempt; null for none (an app whose user cancels a call by leaving it). */
  timeoutMs: number | null;
  retries: number;
  backoff: BackoffPolicy;
  /**
   * Called when a call that carried a credential is refused 401 (the credential no longer holds),
   * before the FintechError is thrown: a web app signs out here. A 401 of a call without one
   * (a failed login) is only an error.
   */
  onUnauthorized?: (failure: FintechError) => void;
  /** Makes the Idempotency-Key of a write sent without one. Default crypto.randomUUID. */
  newIdempotencyKey?: () => string;
}

export interface SendOptions {
  /**
   * Read the whole reply body inside the attempt (so the timeout covers it and a cut body is
   * retried). Off for streams, whose body is read by the caller for as long as it lasts.
   */
  buffered: boolean;
}

/** Methods that change something: they always carry an Idempotency-Key. */
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

export const isWriteMethod = (method: string): boolean => WRITE_METHODS.has(method.toUpperCase());

/**
 * The Idempotency-Key rule: every write carries a key. The caller's own is kept (one key per user
 * action, reused on each retry of it, so the server applies the action once); a write sent without
 * one gets a fresh key, so the header is never missing. Reads carry none.
 */
export function withIdempotencyKey(
  headers: Headers,
  method: string,
  newKey: () => string = () => crypto.randomUUID(),
): Headers {
  if (isWriteMethod(method) && !headers.has(IDEMPOTENCY_KEY_HEADER)) headers.set(IDEMPOTENCY_KEY_HEADER, newKey());
  return headers;
}

/** The server's code for "a request with this Idempotency-Key is still running". */
export const IDEMPOTENCY_IN_PROGRESS = "idempotency_in_progress";

/**
 * Replies worth another attempt: overload, throttling and server faults, and the one 409 that is
 * transient: our own earlier attempt with the same Idempotency-Key is still running (after a
 * timeout, say), so a later attempt gets its stored reply. Never other 4xx.
 */
const isRetryable = (failure: FintechError) =>
  failure.status === 429 ||
  (failure.status !== null && failure.status >= 500) ||
  (failure.status === 409 && failure.apiCode === IDEMPOTENCY_IN_PROGRESS);

class AttemptTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`No reply within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The headers every attempt of a call sends: bearer auth and, on a write, one Idempotency-Key for all attempts. */
function callHeaders(request: Request, options: TransportOptions): Headers {
  const headers = new Headers(request.headers);
  if (options.credential && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${options.credential}`);
  return withIdempotencyKey(headers, request.method, options.newIdempotencyKey);
}

/**
 * The promise, or a rejection with the signal's reason as soon as it aborts. A fetch is meant to
 * honour its signal, but a custom fetch may not, and Node 20's Request follows a signal made by
 * AbortSignal.any only weakly (a collected follower never aborts): the timeout must not depend
 * on either.
 */
function settledOrAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

type Attempt = { response: Response; failure?: undefined } | { response?: undefined; failure: FintechError };

/**
 * The fetch the SDK hands openapi-fetch (and the stream helper), and the web app's HTTP client:
 * auth, Idempotency-Key, a timeout per attempt, retries with backoff on network errors, timeouts,
 * 5xx and 429 (honouring Retry-After), the 401 hook, and a FintechError for any reply that is not
 * 2xx in the end. The caller's own abort is passed through untouched and never retried.
 */
export function createTransport(options: TransportOptions) {
  async function attempt(
    request: Request,
    headers: Headers,
    body: ArrayBuffer | undefined,
    { buffered }: SendOptions,
  ): Promise<Attempt> {
    const { timeoutMs } = options;
    const timeout = new AbortController();
    const timer =
      timeoutMs === null ? undefined : setTimeout(() => timeout.abort(new AttemptTimeout(timeoutMs)), timeoutMs);
    const signal = timeoutMs === null ? request.signal : AbortSignal.any([request.signal, timeout.signal]);
    try {
      const response = await settledOrAborted(
        options.fetch(
          new Request(request.url, { method: request.method, headers, body, signal, redirect: request.redirect }),
        ),
        signal,
      );
      if (!buffered && response.ok) return { response };
      // Buffer inside the attempt so a body cut mid-way is a network failure of this attempt.
      const bytes = await settledOrAborted(response.arrayBuffer(), signal);
      return {
        response: new Response(bytes.byteLength === 0 ? null : bytes, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        }),
      };
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason ?? error;
      if (timeout.signal.aborted)
        return {
          failure: new FintechError({
            code: "TIMEOUT",
            message: `No reply from ${request.method} ${new URL(request.url).pathname} within ${timeoutMs} ms`,
            cause: error,
          }),
        };
      return {
        failure: new FintechError({
          code: "NETWORK_ERROR",
          message: `Network error on ${request.method} ${new URL(request.url).pathname}: ${describe(error)}`,
          cause: error,
        }),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  return async function send(request: Request, sendOptions: SendOptions = { buffered: true }): Promise<Response> {
    const headers = callHeaders(request, options);
    // Read once, sent by every attempt (a Request body can be read only once).
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(request, headers, body, sendOptions);
      const { response } = outcome;
      if (response?.ok) return response;

      let failure: FintechError;
      let retryAfterMs: number | null = null;
      if (response) {
        failure = replyError(response, await readBody(response));
        if (failure.status === 401 && headers.has("Authorization")) options.onUnauthorized?.(failure);
        if (!isRetryable(failure)) throw failure;
        if (failure.retryAfterSeconds !== null) retryAfterMs = failure.retryAfterSeconds * 1000;
      } else {
        failure = outcome.failure;
      }
      if (retry >= options.retries) throw failure;
      // Asked to wait longer than we are willing to: hand the decision back to the caller now.
      if (retryAfterMs !== null && retryAfterMs > options.backoff.maxRetryAfterMs) throw failure;
      // An abort during the wait rejects it with the caller's reason (and a sleep that ignored the
      // signal still ends in the next attempt's aborted fetch).
      await options.backoff.sleep(retryDelayMs(options.backoff, retry + 1, retryAfterMs), request.signal);
    }
  };
}

export type Transport = ReturnType<typeof createTransport>;
