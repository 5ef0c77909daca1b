import { reconcileNight } from "@fintech/core/reconciliation/service";
import type { CoreContext } from "@fintech/core/shared/context";
import { schedules } from "../resources/schedules";

/**
 * The embedded stack's nightly reconciliation (the cloud's EventBridge rule,
 * infra/resources/schedules.ts nightlyReconciliation): at 02:00 UTC, then every
 * localIntervalMs, the same reconcileNight the cloud's Lambda runs. Timers are unref'd: they never
 * keep the process alive. `stop()` waits for a run in progress.
 */
export class LocalSettlementNightly {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  start(core: CoreContext, now: Date = new Date()): this {
    const next = new Date(now);
    next.setUTCHours(2, 0, 0, 0);
    if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
    const run = () => {
      this.running = this.running
        .then(() => reconcileNight(core, core.clock()))
        .then(
          () => undefined,
          (error: unknown) => core.logger.error("nightly reconciliation failed", { error }),
        );
    };
    this.timer = setTimeout(() => {
      run();
      this.timer = setInterval(run, schedules.nightlyReconciliation.localIntervalMs);
      this.timer.unref();
    }, next.getTime() - now.getTime());
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }
}
