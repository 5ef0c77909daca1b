import { randomId } from "../lib/uuid";

/**
 * One Idempotency-Key per user action. The key is kept while the same request is retried (the
 * same body after a failure, or a second click while the first is in flight), so the server
 * applies it at most once; a different body, or a new action after a success, gets a new key.
 */
export interface ActionKey {
  key: string;
  /** The request the key was made for. */
  fingerprint: string;
  /** The request with this key succeeded: the next action is a new one. */
  done: boolean;
}

/** A stable text of a request body: keys sorted, so {a, b} and {b, a} are the same request. */
export function fingerprintOf(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
}

/** The key for sending `body` now: the previous one if it is a retry of the same unfinished request. */
export function keyFor(previous: ActionKey | null, body: unknown, makeKey: () => string = randomId): ActionKey {
  const fingerprint = fingerprintOf(body);
  if (previous && !previous.done && previous.fingerprint === fingerprint) return previous;
  return { key: makeKey(), fingerprint, done: false };
}

export const settled = (action: ActionKey): ActionKey => ({ ...action, done: true });
