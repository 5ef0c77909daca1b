import { MAX_AUTOMATIC_ATTEMPTS, RETRY_SCHEDULE_MS } from "./model";

/**
 * The retry schedule with jitter (docs/webhooks.md#retries): after the n-th automatic attempt
 * failed, the next one waits RETRY_SCHEDULE_MS[n-1], spread by up to JITTER either way so that
 * the deliveries of one outage do not all come back in the same second. `random` is in [0, 1).
 */
export const JITTER = 0.1;

/** The wait before the next automatic attempt, or null when `attemptsMade` used the schedule up. */
export function nextRetryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (attemptsMade < 1 || attemptsMade >= MAX_AUTOMATIC_ATTEMPTS) return null;
  const base = RETRY_SCHEDULE_MS[attemptsMade - 1]!;
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.round(base * (1 - JITTER + 2 * JITTER * unit));
}
