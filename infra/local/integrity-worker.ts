import { unfinishedIntegrityJobId } from "@fintech/core/ledger/integrity-jobs";
import type { IntegrityJobQueue } from "@fintech/core/ledger/integrity-queue";
import {
  INTEGRITY_STEP_LIMITS,
  runIntegrityStep,
  type IntegrityStepLimits,
} from "@fintech/core/ledger/integrity-steps";
import type { CoreContext } from "@fintech/core/shared/context";

/**
 * The embedded stack's integrity worker: the local stand-in for the cloud's IntegrityJobs queue
 * and worker function (stacks/IntegrityJobs.ts), running the same runIntegrityStep.
 *
 * - As the context's IntegrityJobQueue it runs a started job's steps one after the other in this
 *   process, yielding to the event loop between steps so the API keeps answering.
 * - A failed step is run again after the delay the step asked for (a timer).
 * - On start it resumes the job that holds the ledger, if any: after a restart or a crash the job
 *   goes on from its last committed step (steps are idempotent, so a step that was cut short is
 *   simply run again).
 */

export interface LocalIntegrityWorkerOptions {
  /** Page sizes of each step (tests make them tiny). */
  limits?: IntegrityStepLimits;
}

/** A store failure outside a step (reading the job) is retried after this long. */
const READ_RETRY_MS = 2_000;

export interface LocalIntegrityWorkerStats {
  /** runIntegrityStep calls made. */
  steps: number;
  /** Steps that failed and were (or will be) run again. */
  retries: number;
}

export class LocalIntegrityWorker implements IntegrityJobQueue {
  private ctx: CoreContext | null = null;
  private stopped = false;
  private readonly limits: IntegrityStepLimits;
  private readonly running = new Map<string, Promise<void>>();
  private readonly retries = new Map<string, ReturnType<typeof setTimeout>>();
  private resuming: Promise<void> | null = null;
  private idleWaiters: (() => void)[] = [];
  readonly stats: LocalIntegrityWorkerStats = { steps: 0, retries: 0 };

  constructor(options: LocalIntegrityWorkerOptions = {}) {
    this.limits = options.limits ?? INTEGRITY_STEP_LIMITS;
  }

  /**
   * Starts driving jobs with this context (usually built with this worker as its queue, hence two
   * steps); resumes an unfinished job.
   */
  start(ctx: CoreContext): this {
    this.ctx = ctx;
    this.resuming = unfinishedIntegrityJobId(ctx)
      .then((jobId) => {
        if (jobId) this.drive(jobId);
      })
      .catch((error: unknown) => ctx.logger.warn("integrity worker: could not look for an unfinished job", { error }))
      .finally(() => {
        this.resuming = null;
        this.notifyIfIdle();
      });
    return this;
  }

  async enqueue(jobId: string): Promise<void> {
    this.drive(jobId);
  }

  /** Resolves once no job runs, waits for a retry or is being looked for. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops taking steps and waits for the one running; the job stays where it is, for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const handle of this.retries.values()) clearTimeout(handle);
    this.retries.clear();
    await Promise.all([...this.running.values(), this.resuming]);
    this.notifyIfIdle();
  }

  private drive(jobId: string): void {
    if (this.stopped || !this.ctx || this.running.has(jobId)) return;
    const pending = this.retries.get(jobId);
    if (pending) {
      clearTimeout(pending);
      this.retries.delete(jobId);
    }
    const loop = this.run(this.ctx, jobId).finally(() => {
      this.running.delete(jobId);
      this.notifyIfIdle();
    });
    this.running.set(jobId, loop);
  }

  private async run(ctx: CoreContext, jobId: string): Promise<void> {
    while (!this.stopped) {
      let delayMs: number;
      try {
        this.stats.steps += 1;
        const outcome = await runIntegrityStep(ctx, jobId, this.limits);
        if (outcome.state === "continue") {
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        if (outcome.state !== "retry") return;
        delayMs = outcome.delayMs;
      } catch (error) {
        ctx.logger.warn("integrity worker: the job could not be read; trying again", { error, jobId });
        delayMs = READ_RETRY_MS;
      }
      this.stats.retries += 1;
      this.retryAfter(jobId, delayMs);
      return;
    }
  }

  private retryAfter(jobId: string, delayMs: number): void {
    if (this.stopped) return;
    const handle = setTimeout(() => {
      this.retries.delete(jobId);
      this.drive(jobId);
      this.notifyIfIdle();
    }, delayMs);
    handle.unref();
    this.retries.set(jobId, handle);
  }

  private isIdle(): boolean {
    return this.running.size === 0 && this.retries.size === 0 && this.resuming === null;
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
