import type { CoreContext } from "@fintech/core/shared/context";
import { type DispatcherOptions, runWebhookDispatcher } from "@fintech/core/webhooks/dispatcher-loop";
import { schedules } from "../resources/schedules";

/**
 * The embedded stack's webhook dispatcher (docs/webhooks.md#running-the-dispatcher): the local
 * stand-in for the cloud's stream fanout, queue, dispatcher and sweeper (stacks/Webhooks.ts). It
 * runs core's dispatcher loop in this process: at once on a commit hint from the API beside it,
 * otherwise every `pollMs`, recording deliveries from the endpoints' durable cursors and making
 * the due attempts. What is delivered is decided by those cursors and the deliveries' claims in
 * the table, so a restart (or a second process over the same table) loses and repeats nothing.
 */

export interface LocalWebhookDispatcherOptions {
  /** How often to look for work without a hint (default: schedules.webhookSweeper.localIntervalMs). */
  pollMs?: number;
  /**
   * The dispatcher's clock, when it differs from the context's: the webhooks benchmark moves it
   * forward to bring retries scheduled minutes or hours ahead due without waiting for them.
   */
  clock?: () => Date;
  timers?: DispatcherOptions["timers"];
  random?: DispatcherOptions["random"];
}

export interface DispatcherRound {
  owners: number;
  recorded: number;
  attempted: number;
}

export class LocalWebhookDispatcher {
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;
  private roundWaiters: ((round: DispatcherRound) => void)[] = [];
  /** Rounds completed since start, and what they did. */
  readonly stats = { rounds: 0, recorded: 0, attempted: 0 };

  constructor(private readonly options: LocalWebhookDispatcherOptions = {}) {}

  start(ctx: CoreContext): this {
    if (this.running) return this;
    const controller = new AbortController();
    this.controller = controller;
    const dispatcherContext = this.options.clock ? { ...ctx, clock: this.options.clock } : ctx;
    this.running = runWebhookDispatcher(dispatcherContext, {
      signal: controller.signal,
      pollMs: this.options.pollMs ?? schedules.webhookSweeper.localIntervalMs,
      ...(this.options.timers ? { timers: this.options.timers } : {}),
      ...(this.options.random ? { random: this.options.random } : {}),
      onRound: (round) => this.onRound(round),
    }).catch((error: unknown) => {
      ctx.logger.error("webhook dispatcher stopped", { error: String(error) });
    });
    return this;
  }

  /** Resolves after the next round that ends (the one in progress, or the next one). */
  nextRound(): Promise<DispatcherRound> {
    return new Promise((resolve) => this.roundWaiters.push(resolve));
  }

  /** Stops the loop and waits for the round in progress. */
  async stop(): Promise<void> {
    this.controller?.abort();
    await this.running;
    this.running = null;
    this.controller = null;
  }

  private onRound(round: DispatcherRound): void {
    this.stats.rounds += 1;
    this.stats.recorded += round.recorded;
    this.stats.attempted += round.attempted;
    const waiters = this.roundWaiters;
    this.roundWaiters = [];
    for (const resolve of waiters) resolve(round);
  }
}
