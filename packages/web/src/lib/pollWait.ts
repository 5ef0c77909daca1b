/**
 * How an upload waits for the server's verdict on what it sent: the status is asked every
 * `intervalMs`, at most `attempts` times. `delay` is the pause between asks (tests pass one that
 * does not wait).
 */
export interface PollWait {
  intervalMs: number;
  attempts: number;
  delay: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const uploadCancelled = () => new DOMException("The upload was cancelled", "AbortError");

/** A pause of `ms` that a cancelled upload ends at once, with an AbortError. */
export function delayUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(uploadCancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(uploadCancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
