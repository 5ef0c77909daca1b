import { randomUUID } from "node:crypto";
import type { Logger } from "../shared/logger";
import { FLUSH_WINDOW_SECONDS, windowStartOf } from "./keys";
import { addSample, emptyAggregate, mergeInto, normalizeMethod, type Aggregate } from "./model";
import type { HourRollup } from "./response-times";
import { RouteLatencyHours } from "./route-latency";

/** One request as the HTTP layer saw it. */
export interface RequestSample {
  method: string;
  /** The matched route pattern ("/api/v1/ledger/accounts/:id/balance"), never the raw path. */
  route: string;
  status: number;
  durationMs: number;
}

/** Requests, 5xx and 4xx of one route pattern. */
export type RouteCounts = [requests: number, serverErrors: number, clientErrors: number];

/** One second of one instance. */
export interface SecondBucket extends Aggregate {
  second: number;
  routes: Map<string, RouteCounts>;
}

/** One instance's 10-second window, as flushed to the table and read back by every instance. */
export interface WindowAggregate extends Aggregate {
  instance_id: string;
  window_start: number;
  window_seconds: number;
  /** [epoch second, requests, 5xx, 4xx] for each second of the window that saw traffic. */
  per_second: [number, number, number, number][];
  routes: Record<string, RouteCounts>;
}

/**
 * Writes finished windows and the per-route latency hours that changed since their last write
 * (each replaces that instance's item of the hour).
 */
export type WindowSink = (windows: WindowAggregate[], hours: HourRollup[]) => Promise<void>;

export interface RequestMetricsOptions {
  clock: () => Date;
  /** Where complete windows go (the table); none keeps the figures in this process only. */
  sink?: WindowSink;
  logger?: Logger;
  instanceId?: string;
  /** Seconds kept in memory; the ring never grows past this many buckets. */
  ringSeconds?: number;
}

export const DEFAULT_RING_SECONDS = 120;
/** Distinct route patterns tallied per second; more (impossible with this app's routes) go to "(other)". */
export const MAX_ROUTES_PER_SECOND = 64;
export const OTHER_ROUTES = "(other)";
/** A timer flushes a finished window this long after it ends, if no request did it first. */
const FLUSH_DELAY_MS = 1000;

const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * Per-process request metrics: a fixed ring of per-second buckets (120 by default), each with
 * counts, a sparse latency histogram and per-route tallies, so memory is bounded whatever the
 * traffic. Recording is synchronous and O(1); nothing a request does waits on I/O.
 *
 * Every finished 10-second window is written to the sink once (one item per instance per
 * window that saw traffic: at most 6 a minute), fire-and-forget: a failure is logged and the
 * window retried on the next flush for as long as it is still in the ring. A flush happens on
 * the first request after a window ends, or on a timer shortly after it, whichever is first.
 */
export class RequestMetrics {
  readonly instanceId: string;
  readonly ringSeconds: number;
  private readonly clock: () => Date;
  private readonly sink: WindowSink | undefined;
  private readonly logger: Logger | undefined;
  private readonly slots: (SecondBucket | null)[];
  /** Per-route latency by hour, kept longer than the ring (for the typical response times). */
  private readonly routeLatency: RouteLatencyHours;
  /** Every window starting before this has been flushed (or had fallen out of the ring). */
  private flushedBefore: number;
  private inFlight: Promise<void> | null = null;
  /** A flush was asked for while one was writing: run another when it is done. */
  private flushAgain = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Writes a latency hour once it is due, when no window write carried it (a quiet instance). */
  private hourTimer: ReturnType<typeof setTimeout> | null = null;
  private lastFailureLogged = 0;
  /** After a failed write, no new attempt before this second (at most one write per window). */
  private retryAfter = 0;
  /** Requests recorded so far, and how many of them the table had after the last full write. */
  private recorded = 0;
  private recordedWhenSaved = 0;
  /** The window in which flushBeforeFreeze last wrote: it writes at most once per window. */
  private freezeWriteWindow = Number.NEGATIVE_INFINITY;

  constructor(options: RequestMetricsOptions) {
    this.clock = options.clock;
    this.sink = options.sink;
    this.logger = options.logger;
    this.instanceId = options.instanceId ?? randomUUID().replace(/-/g, "").slice(0, 16);
    this.ringSeconds = Math.max(FLUSH_WINDOW_SECONDS * 2, Math.ceil(options.ringSeconds ?? DEFAULT_RING_SECONDS));
    this.slots = Array.from({ length: this.ringSeconds }, () => null);
    this.routeLatency = new RouteLatencyHours(this.instanceId);
    this.flushedBefore = windowStartOf(this.nowSecond());
  }

  nowSecond(): number {
    return Math.floor(this.clock().getTime() / 1000);
  }

  /** Records one request. Never throws, never waits. */
  record(sample: RequestSample): void {
    const second = this.nowSecond();
    const bucket = this.bucketFor(second);
    if (!bucket) return;
    // Rounded once, here: live seconds and flushed windows then carry the same figures, so every
    // instance computes the same percentiles from the same merged data.
    const ms = roundMs(sample.durationMs);
    addSample(bucket, sample.status, ms);
    bucket.duration_sum_ms = roundMs(bucket.duration_sum_ms);
    const name = `${normalizeMethod(sample.method)} ${sample.route}`;
    const key = bucket.routes.has(name) || bucket.routes.size < MAX_ROUTES_PER_SECOND ? name : OTHER_ROUTES;
    const counts = bucket.routes.get(key) ?? [0, 0, 0];
    counts[0] += 1;
    if (sample.status >= 500) counts[1] += 1;
    else if (sample.status >= 400) counts[2] += 1;
    bucket.routes.set(key, counts);
    // Typical response time means a served reply: errors (a 401 at the door, a 404) are faster
    // or slower for reasons that say nothing about the route.
    if (sample.status < 400) this.routeLatency.add(second, name, Number.isFinite(ms) && ms > 0 ? ms : 0);
    this.recorded += 1;
    this.afterRecord(second);
  }

  private bucketFor(second: number): SecondBucket | null {
    const index = ((second % this.ringSeconds) + this.ringSeconds) % this.ringSeconds;
    const current = this.slots[index];
    if (current && current.second === second) return current;
    // A clock that stepped back past the ring: the slot holds a newer second, keep it.
    if (current && current.second > second) return null;
    const fresh: SecondBucket = { second, ...emptyAggregate(), routes: new Map() };
    this.slots[index] = fresh;
    return fresh;
  }

  /** The first second whose bucket can still be in the ring. */
  private oldestSecond(now: number): number {
    return now - this.ringSeconds + 1;
  }

  /** The first window that lies wholly inside the ring: older windows are only in the table. */
  coverageStart(now = this.nowSecond()): number {
    const oldest = this.oldestSecond(now);
    const start = windowStartOf(oldest);
    return start === oldest ? start : start + FLUSH_WINDOW_SECONDS;
  }

  /** This instance's seconds in [from, to] that saw traffic, oldest first. */
  seconds(from: number, to: number, now = this.nowSecond()): SecondBucket[] {
    const low = Math.max(from, this.oldestSecond(now));
    return this.slots
      .filter(
        (slot): slot is SecondBucket => slot !== null && slot.second >= low && slot.second <= to && slot.requests > 0,
      )
      .sort((a, b) => a.second - b.second);
  }

  /** This instance's per-route latency hours held in memory (copies), oldest first. */
  routeLatencyHours(): HourRollup[] {
    return this.routeLatency.snapshot();
  }

  /** Buckets currently held (≤ ringSeconds), for the bounded-memory figures. */
  secondsInMemory(): number {
    return this.slots.reduce((count, slot) => count + (slot ? 1 : 0), 0);
  }

  /** This instance's aggregate of one window, from the ring; null when it saw no traffic. */
  windowAggregate(windowStart: number, now = this.nowSecond()): WindowAggregate | null {
    const seconds = this.seconds(windowStart, windowStart + FLUSH_WINDOW_SECONDS - 1, now);
    if (seconds.length === 0) return null;
    const total = emptyAggregate();
    const routes: Record<string, RouteCounts> = {};
    for (const bucket of seconds) {
      mergeInto(total, bucket);
      for (const [route, counts] of bucket.routes) {
        routes[route] ??= [0, 0, 0];
        const into = routes[route];
        into[0] += counts[0];
        into[1] += counts[1];
        into[2] += counts[2];
      }
    }
    return {
      instance_id: this.instanceId,
      window_start: windowStart,
      window_seconds: FLUSH_WINDOW_SECONDS,
      ...total,
      duration_sum_ms: roundMs(total.duration_sum_ms),
      max_ms: roundMs(total.max_ms),
      per_second: seconds.map((bucket) => [bucket.second, bucket.requests, bucket.server_errors, bucket.client_errors]),
      routes,
    };
  }

  /** Finished windows with traffic that the table does not have yet. */
  pendingWindows(now = this.nowSecond()): WindowAggregate[] {
    const current = windowStartOf(now);
    const pending: WindowAggregate[] = [];
    for (
      let start = Math.max(this.flushedBefore, this.coverageStart(now));
      start < current;
      start += FLUSH_WINDOW_SECONDS
    ) {
      const window = this.windowAggregate(start, now);
      if (window) pending.push(window);
    }
    return pending;
  }

  private afterRecord(second: number): void {
    if (!this.sink) return;
    if (windowStartOf(second) > this.flushedBefore) void this.flush();
    this.scheduleHourWrite();
    if (this.timer === null) {
      const windowEnd = (windowStartOf(second) + FLUSH_WINDOW_SECONDS) * 1000;
      const delay = Math.max(0, windowEnd - this.clock().getTime()) + FLUSH_DELAY_MS;
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, delay);
      // Never keeps a process (or a test run) alive on its own.
      this.timer.unref?.();
    }
  }

  /**
   * Writes every finished window not yet written; with includeCurrent also the window still
   * filling (it is written again, complete, once it ends: a put of the same key replaces it).
   * Resolves when written; never rejects (failures are logged and retried on the next flush).
   */
  flush(options: { includeCurrent?: boolean } = {}): Promise<void> {
    if (!this.sink) return Promise.resolve();
    if (this.inFlight) {
      // One write at a time. A window may have ended since the running write took its list,
      // so flush once more when it is done instead of leaving that window to the timer.
      if (options.includeCurrent) return this.inFlight.then(() => this.flush(options));
      this.flushAgain = true;
      return this.idle();
    }
    const now = this.nowSecond();
    if (!options.includeCurrent && now < this.retryAfter) return Promise.resolve();
    const current = windowStartOf(now);
    const dropped = this.flushedBefore < this.coverageStart(now);
    const windows = this.pendingWindows(now);
    if (options.includeCurrent) {
      const partial = this.windowAggregate(current, now);
      if (partial) windows.push(partial);
    }
    if (dropped) {
      this.logger?.warn("metrics windows fell out of the ring before they could be written", {
        instance_id: this.instanceId,
      });
      this.flushedBefore = this.coverageStart(now);
    }
    // Latency hours go when due (see route-latency.ts), with the windows or on their own.
    const hours = this.routeLatency.due(now);
    if (windows.length === 0 && hours.length === 0) {
      if (this.flushedBefore < current) this.flushedBefore = current;
      return Promise.resolve();
    }
    const sink = this.sink;
    const recorded = this.recorded;
    this.inFlight = (async () => {
      try {
        await sink(
          windows,
          hours.map((hour) => hour.rollup),
        );
        this.routeLatency.markSaved(hours, now);
        if (current > this.flushedBefore) this.flushedBefore = current;
        if (options.includeCurrent) this.recordedWhenSaved = recorded;
      } catch (error) {
        this.retryAfter = now + FLUSH_WINDOW_SECONDS;
        // At most one log line per 10 s: a table outage must not flood the logs either.
        const nowMs = this.clock().getTime();
        if (nowMs - this.lastFailureLogged >= FLUSH_WINDOW_SECONDS * 1000) {
          this.lastFailureLogged = nowMs;
          this.logger?.error("metrics flush failed", { error, instance_id: this.instanceId, windows: windows.length });
        }
      } finally {
        this.inFlight = null;
        if (this.flushAgain) {
          this.flushAgain = false;
          void this.flush();
        }
      }
    })();
    return this.inFlight;
  }

  /**
   * For Lambda, awaited at the end of an invocation: a frozen instance runs no timers and may be
   * reaped without being thawed again, so what it recorded has to reach the table from inside an
   * invocation. The first invocation of each window that recorded something writes the finished
   * windows and the current one; later invocations of the same window write nothing, so a busy
   * instance puts at most one item per window (6 a minute) into the metrics partition instead of
   * one per request. The price: an instance reaped for good loses the requests it recorded after
   * its last write, at most one window's tail. Nothing is written for idle and metrics-only
   * invocations, nor during the back-off after a failed write (an outage must not add a failing
   * write to every request). A current window written early is written again, complete, later.
   */
  async flushBeforeFreeze(): Promise<void> {
    if (!this.sink || this.recorded === this.recordedWhenSaved) return;
    const now = this.nowSecond();
    if (now < this.retryAfter) return;
    const window = windowStartOf(now);
    if (window <= this.freezeWriteWindow) return;
    this.freezeWriteWindow = window;
    await this.flush({ includeCurrent: true });
  }

  /** Resolves when no write is running, including the follow-up a flush asked for meanwhile. */
  idle(): Promise<void> {
    const running = this.inFlight;
    return running ? running.then(() => this.idle()) : Promise.resolve();
  }

  /** Windows this instance holds that the table does not have yet (finished or filling). */
  unflushedWindows(now = this.nowSecond()): number {
    const current = windowStartOf(now);
    return this.pendingWindows(now).length + (this.windowAggregate(current, now) ? 1 : 0);
  }

  /** Stops the flush timer (tests, shutdown). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.hourTimer) clearTimeout(this.hourTimer);
    this.timer = null;
    this.hourTimer = null;
  }

  /** While a latency hour has unwritten changes, one timer waits until it is due, flushes, and looks again. */
  private scheduleHourWrite(): void {
    if (this.hourTimer !== null) return;
    const due = this.routeLatency.nextDue();
    if (due === null) return;
    const delay = Math.max(0, due * 1000 - this.clock().getTime()) + FLUSH_DELAY_MS;
    this.hourTimer = setTimeout(() => {
      this.hourTimer = null;
      void this.flush().then(() => this.scheduleHourWrite());
    }, delay);
    this.hourTimer.unref?.();
  }
}
