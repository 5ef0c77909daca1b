/**
 * When to wait and how long between attempts: exponential backoff with jitter, or the server's
 * Retry-After when it gave one. Everything is injectable so tests never wait on a clock.
 */
export interface BackoffOptions {
  /** Ceiling of the first wait; doubles each retry. Default 500 ms. */
  baseMs?: number;
  /** Largest backoff wait. Default 8000 ms. */
  maxMs?: number;
  /**
   * A Retry-After longer than this is not waited for: the call fails at once with
   * retryAfterSeconds set. Default 60000 ms.
   */
  maxRetryAfterMs?: number;
  /** Waits `ms`, ending early (rejecting) when `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
}

export type BackoffPolicy = Required<BackoffOptions>;

export const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000 } as const;

/** A timer that an abort ends at once (with the signal's reason), so a cancelled call never lingers. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function backoffPolicy(options: BackoffOptions = {}): BackoffPolicy {
  return {
    baseMs: options.baseMs ?? DEFAULT_BACKOFF.baseMs,
    maxMs: options.maxMs ?? DEFAULT_BACKOFF.maxMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_BACKOFF.maxRetryAfterMs,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
  };
}

/**
 * The wait before retry number `retry` (1 for the first retry): "equal jitter", a random time
 * between half and all of min(maxMs, baseMs * 2^(retry-1)), so clients that failed together do
 * not come back together. A Retry-After (ms) replaces it when longer.
 */
export function retryDelayMs(policy: BackoffPolicy, retry: number, retryAfterMs: number | null): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const backoff = Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
  return retryAfterMs === null ? backoff : Math.max(retryAfterMs, backoff);
}
