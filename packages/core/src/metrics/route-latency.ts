import { hourStartOf } from "./keys";
import { ROUTE_LATENCY_HOUR_SECONDS, bucketIndex } from "./model";
import type { HourRollup, RouteLatency } from "./response-times";

/** Route names kept per hour; more (impossible with this app's routes) go to "(other)". */
export const MAX_ROUTES_PER_HOUR = 128;
/** The hour filling now and the one before it (its last requests may still be unwritten). */
export const HOURS_IN_MEMORY = 2;
export const OTHER_ROUTE_LATENCY = "(other)";
/**
 * A filling hour is written this long after its first request, then at most this often (its item
 * holds a histogram per route, many times a window's item, so writing it with every 10 s window, or
 * every Lambda invocation, would cost far more than the windows themselves). A finished hour is
 * written once more, complete. The price: an instance that is reaped loses at most this much of its
 * per-route latency, never its request counts.
 */
export const HOUR_WRITE_INTERVAL_SECONDS = 60;

/**
 * Per-route latency of this instance, by hour. Bounded whatever the traffic: at most two hours,
 * each at most MAX_ROUTES_PER_HOUR routes of at most HISTOGRAM_BUCKETS counts, so a stored
 * hour item stays far below DynamoDB's 400 KB item limit. Each hour counts its changes, so only
 * hours that changed since their last successful write are written again, and a filling hour
 * no more often than HOUR_WRITE_INTERVAL_SECONDS.
 */
export class RouteLatencyHours {
  private readonly hours = new Map<
    number,
    { rollup: HourRollup; version: number; savedVersion: number; savedAt: number }
  >();

  constructor(private readonly instanceId: string) {}

  /** One successful reply of `name` ("METHOD /pattern") that took `ms`. */
  add(second: number, name: string, ms: number): void {
    const hourStart = hourStartOf(second);
    let hour = this.hours.get(hourStart);
    if (!hour) {
      const newest = Math.max(hourStart, ...this.hours.keys());
      // A clock that stepped back more than an hour: nothing to keep it in.
      if (hourStart < newest - (HOURS_IN_MEMORY - 1) * 3600) return;
      hour = {
        rollup: { instance_id: this.instanceId, hour_start: hourStart, routes: {} },
        version: 0,
        savedVersion: 0,
        savedAt: second,
      };
      this.hours.set(hourStart, hour);
      for (const start of [...this.hours.keys()])
        if (start <= newest - HOURS_IN_MEMORY * 3600) this.hours.delete(start);
    }
    const routes = hour.rollup.routes;
    const key = routes[name] || Object.keys(routes).length < MAX_ROUTES_PER_HOUR ? name : OTHER_ROUTE_LATENCY;
    routes[key] ??= { requests: 0, max_ms: 0, histogram: {} };
    const latency: RouteLatency = routes[key];
    latency.requests += 1;
    if (ms > latency.max_ms) latency.max_ms = ms;
    const bucket = String(bucketIndex(ms));
    latency.histogram[bucket] = (latency.histogram[bucket] ?? 0) + 1;
    hour.version += 1;
  }

  /** Copies of the hours in memory, oldest first (for reports: never mutated by later requests). */
  snapshot(): HourRollup[] {
    return [...this.hours.values()]
      .sort((a, b) => a.rollup.hour_start - b.rollup.hour_start)
      .map(({ rollup }) => structuredClone(rollup));
  }

  /**
   * Hours to write at second `now`: changed since their last write, and either finished or not
   * written for HOUR_WRITE_INTERVAL_SECONDS; each with the version it was taken at.
   */
  due(now: number): { rollup: HourRollup; version: number }[] {
    return [...this.hours.values()]
      .filter((hour) => hour.version > hour.savedVersion)
      .filter(
        (hour) =>
          hour.rollup.hour_start + ROUTE_LATENCY_HOUR_SECONDS <= now ||
          now - hour.savedAt >= HOUR_WRITE_INTERVAL_SECONDS,
      )
      .map((hour) => ({ rollup: structuredClone(hour.rollup), version: hour.version }));
  }

  /** The second the first changed hour becomes due; null when every hour is written. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const hour of this.hours.values()) {
      if (hour.version <= hour.savedVersion) continue;
      const due = Math.min(
        hour.rollup.hour_start + ROUTE_LATENCY_HOUR_SECONDS,
        hour.savedAt + HOUR_WRITE_INTERVAL_SECONDS,
      );
      next = next === null ? due : Math.min(next, due);
    }
    return next;
  }

  /** After a successful write, at second `now`, of hours `due()` gave. */
  markSaved(saved: { rollup: HourRollup; version: number }[], now: number): void {
    for (const { rollup, version } of saved) {
      const hour = this.hours.get(rollup.hour_start);
      if (!hour) continue;
      if (version > hour.savedVersion) hour.savedVersion = version;
      hour.savedAt = now;
    }
  }
}
