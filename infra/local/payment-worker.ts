import { claimOverdueSteps } from "@fintech/core/payments/markers";
import { runPaymentStep } from "@fintech/core/payments/runner";
import type { PaymentScheduler } from "@fintech/core/payments/scheduler";
import type { CoreContext } from "@fintech/core/shared/context";
import { schedules } from "../resources/schedules";

/**
 * The embedded stack's payment worker (docs/payments-and-rails.md#who-advances-a-payment): the
 * local stand-in for the cloud's queue, worker and sweeper (stacks/PaymentWorker.ts), running
 * steps the same way: core's runPaymentStep, under a lease on the step's due marker, so two
 * processes over one table run a step once, and a step that keeps throwing is retried after a
 * growing wait and then parks its payment for review (payments/runner.ts).
 *
 * - As the context's PaymentScheduler it sets a timer per payment for its next step's due time
 *   (one timer per payment: the earliest asked for wins; a step asked for early is harmless,
 *   a run does nothing before it is due and says when to come back).
 * - Every `sweepIntervalMs` it claims the steps due for at least that long that no run holds and
 *   no sweep took recently (claimOverdueSteps, as the cloud's sweeper does). Timers live in this
 *   process only, so after a restart (or a crash) this sweep, which also runs at once on start,
 *   is what resumes every payment that was in flight: none stays in processing, and since steps
 *   are idempotent and decide outcomes deterministically, none completes twice.
 * - At most `concurrency` steps run at once, never two of one payment (a request for a payment
 *   that is running is remembered and run after it).
 */

/** Timers as the driver uses them; tests give a controlled set (see payment-worker.test.ts). */
export interface WorkerTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: WorkerTimers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface LocalPaymentWorkerOptions {
  /** How often the sweep runs (default: infra/resources/schedules.ts paymentSweeper.localIntervalMs). */
  sweepIntervalMs?: number;
  /**
   * Steps running at once. Each payment takes two steps or more, so the worker needs at least the
   * API's concurrency to keep up: with fewer, steps queue behind each other and the wait for a
   * payment's first step grows (docs/benchmarks.md#payments).
   */
  concurrency?: number;
  timers?: WorkerTimers;
}

export const DEFAULT_CONCURRENCY = 16;
/** Node's timers take at most 2^31-1 ms; a longer wait is re-armed when this one fires. */
const MAX_TIMER_MS = 60 * 60 * 1000;
/** Due steps one sweep takes; a bigger backlog is taken over the next sweeps. */
const SWEEP_LIMIT = 500;

export interface LocalPaymentWorkerStats {
  /** Step runs made. */
  steps: number;
  /** Step runs that failed (retried after a wait, or by a later sweep when not even that could be recorded). */
  failures: number;
  /** Step runs that found the step held by another run (and did nothing). */
  busy: number;
  /** Payments parked for review after their step kept failing. */
  parked: number;
  /** Due steps the sweeps found (after a restart, or a step whose timer was lost). */
  sweptSteps: number;
}

export class LocalPaymentWorker implements PaymentScheduler {
  private ctx: CoreContext | null = null;
  private stopped = false;
  private readonly timers: WorkerTimers;
  private readonly sweepIntervalMs: number;
  private readonly concurrency: number;
  private readonly armed = new Map<string, { dueMs: number; handle: unknown }>();
  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private sweeping: Promise<number> | null = null;
  private sweepHandle: unknown = null;
  private idleWaiters: (() => void)[] = [];
  readonly stats: LocalPaymentWorkerStats = { steps: 0, failures: 0, busy: 0, parked: 0, sweptSteps: 0 };

  constructor(options: LocalPaymentWorkerOptions = {}) {
    this.timers = options.timers ?? realTimers;
    this.sweepIntervalMs = options.sweepIntervalMs ?? schedules.paymentSweeper.localIntervalMs;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  }

  /**
   * Starts driving payments with this context (whose paymentScheduler is usually this worker:
   * the context is built with it, hence the two steps). Sweeps at once: a restart resumes here.
   */
  start(ctx: CoreContext): this {
    this.ctx = ctx;
    void this.sweep();
    this.armSweep();
    return this;
  }

  /** Arms the payment's timer (`step` is for drivers that can deliver late; one timer per payment needs none). */
  async schedule(paymentId: string, dueAt: Date, _step?: string): Promise<void> {
    if (this.stopped || !this.ctx) return;
    const dueMs = dueAt.getTime();
    const current = this.armed.get(paymentId);
    if (current && current.dueMs <= dueMs) return;
    if (current) this.timers.clear(current.handle);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, dueMs - this.ctx.clock().getTime()));
    const handle = this.timers.set(() => {
      if (this.armed.get(paymentId)?.handle !== handle) return;
      this.armed.delete(paymentId);
      this.enqueue(paymentId);
    }, delay);
    this.armed.set(paymentId, { dueMs, handle });
  }

  /**
   * One sweep now: every step due for at least a sweep interval that is free to run is run.
   * Resolves with how many it took.
   */
  sweep(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    const ctx = this.ctx;
    if (!ctx || this.stopped) return Promise.resolve(0);
    this.sweeping = (async () => {
      try {
        // Steps due within the last interval are their timers' (claiming them too would only add writes).
        const dueBefore = new Date(ctx.clock().getTime() - this.sweepIntervalMs);
        const claimed = await claimOverdueSteps(ctx, { dueBefore, limit: SWEEP_LIMIT });
        for (const step of claimed) this.enqueue(step.paymentId);
        this.stats.sweptSteps += claimed.length;
        return claimed.length;
      } catch (error) {
        ctx.logger.warn("payment sweep failed; the next one retries", { error });
        return 0;
      } finally {
        this.sweeping = null;
        this.notifyIfIdle();
      }
    })();
    return this.sweeping;
  }

  /** The due times (ms) of the armed timers, earliest first: what a test's controlled clock moves to next. */
  armedDueMs(): number[] {
    return [...this.armed.values()].map((timer) => timer.dueMs).sort((a, b) => a - b);
  }

  /** Resolves once nothing runs or waits to run (armed timers for later steps do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops the timers and the sweep, then waits for the steps already running. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepHandle !== null) this.timers.clear(this.sweepHandle);
    for (const { handle } of this.armed.values()) this.timers.clear(handle);
    this.armed.clear();
    this.waiting.length = 0;
    this.queued.clear();
    this.again.clear();
    this.notifyIfIdle();
    await this.idle();
  }

  private armSweep(): void {
    if (this.stopped) return;
    this.sweepHandle = this.timers.set(() => {
      void this.sweep().finally(() => this.armSweep());
    }, this.sweepIntervalMs);
  }

  private enqueue(paymentId: string): void {
    if (this.stopped) return;
    if (this.running.has(paymentId)) {
      this.again.add(paymentId);
      return;
    }
    if (this.queued.has(paymentId)) return;
    this.queued.add(paymentId);
    this.waiting.push(paymentId);
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.waiting.length > 0) {
      const paymentId = this.waiting.shift()!;
      this.queued.delete(paymentId);
      void this.run(paymentId);
    }
  }

  private async run(paymentId: string): Promise<void> {
    const ctx = this.ctx!;
    this.running.add(paymentId);
    try {
      this.stats.steps += 1;
      const run = await runPaymentStep(ctx, paymentId);
      if (run.outcome === "failed") this.stats.failures += 1;
      if (run.outcome === "busy") this.stats.busy += 1;
      if (run.outcome === "parked") this.stats.parked += 1;
      if (run.runAt) await this.schedule(paymentId, new Date(run.runAt));
    } catch (error) {
      // Not even recorded on the step: the due marker stays, and the next sweep runs it again.
      this.stats.failures += 1;
      ctx.logger.warn("payment step failed; the next sweep retries it", { error, paymentId });
    } finally {
      this.running.delete(paymentId);
      if (this.again.delete(paymentId)) this.enqueue(paymentId);
      this.pump();
      this.notifyIfIdle();
    }
  }

  private isIdle(): boolean {
    return this.running.size === 0 && this.waiting.length === 0 && this.sweeping === null;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
