import { z } from "zod";
import { WINDOW_HOURS, type LimitWindow } from "./model";

/**
 * Rolling totals from buckets: what a user moved, per hour (for the 24-hour window) and per day
 * (for the 30-day window), UTC. A bucket counts while any part of it lies inside the window, so
 * an amount is counted for at least the window and at most one bucket longer (24 to 25 hours,
 * 30 to 31 days): the totals never undercount. Buckets that can no longer count are dropped on
 * the next write, so the item holds at most 25 hourly and 31 daily buckets per movement.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export const UsageBuckets = z.object({
  /** "2026-03-02T09" -> minor units moved in that hour. */
  hours: z.record(z.string(), z.number().int().nonnegative()).default({}),
  /** "2026-03-02" -> minor units moved that day. */
  days: z.record(z.string(), z.number().int().nonnegative()).default({}),
});
export type UsageBuckets = z.infer<typeof UsageBuckets>;

export const emptyBuckets = (): UsageBuckets => ({ hours: {}, days: {} });

const hourOf = (at: Date) => at.toISOString().slice(0, 13);
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const hourStart = (bucket: string) => Date.parse(`${bucket}:00:00.000Z`);
const dayStart = (bucket: string) => Date.parse(`${bucket}T00:00:00.000Z`);

/** Whether a bucket starting at `start` and lasting `length` ms still overlaps the window ending at `now`. */
const inWindow = (start: number, length: number, window: LimitWindow, now: Date) =>
  start + length > now.getTime() - WINDOW_HOURS[window] * HOUR_MS;

/** What the window ending at `now` counts. */
export function usedInWindow(buckets: UsageBuckets, window: LimitWindow, now: Date): number {
  const [entries, start, length] =
    window === "day" ? [buckets.hours, hourStart, HOUR_MS] : [buckets.days, dayStart, DAY_MS];
  let used = 0;
  for (const [bucket, amount] of Object.entries(entries))
    if (inWindow(start(bucket), length, window, now)) used += amount;
  return used;
}

/** The buckets with `amount` moved at `now`, and without buckets no window counts any more. */
export function withMovement(buckets: UsageBuckets, amount: number, now: Date): UsageBuckets {
  const hours: Record<string, number> = {};
  for (const [bucket, moved] of Object.entries(buckets.hours))
    if (inWindow(hourStart(bucket), HOUR_MS, "day", now)) hours[bucket] = moved;
  const days: Record<string, number> = {};
  for (const [bucket, moved] of Object.entries(buckets.days))
    if (inWindow(dayStart(bucket), DAY_MS, "month", now)) days[bucket] = moved;
  const hour = hourOf(now);
  const day = dayOf(now);
  hours[hour] = (hours[hour] ?? 0) + amount;
  days[day] = (days[day] ?? 0) + amount;
  return { hours, days };
}
