import type { CoreContext } from "../shared/context";
import { attemptDueDeliveries, forEachLimited } from "./deliveries";
import { dispatchOwner } from "./dispatcher";
import { ownersWithEnabledEndpoints } from "./endpoints";
import { userFeedReader } from "./events";
import { EVENT_FEEDS } from "./model";

/**
 * The dispatcher as one long-running loop (the embedded stack runs it; docs/webhooks.md#delivery):
 * every `pollMs`, and at once when this process commits to a feed it serves (commit hints,
 * FeedReader.onCommit), it dispatches every owner with an enabled endpoint, a few at a time, then
 * attempts the deliveries that are due. A failure of one owner or of one round is logged and the
 * loop goes on; it stops when `signal` aborts, after the round in progress.
 */

/** Deliveries attempted per round; a round that attempted this many is followed at once. */
const ATTEMPTS_PER_ROUND = 400;

export interface DispatcherTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: DispatcherTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface DispatcherOptions {
  signal: AbortSignal;
  /** How often to look for work without a hint (default 1 s). */
  pollMs?: number;
  timers?: DispatcherTimers;
  /** Owners dispatched at once (default 4). */
  concurrency?: number;
  /** The retry jitter's random source (tests fix it). */
  random?: () => number;
  /** Called after every round (tests wait on it). */
  onRound?: (round: { owners: number; recorded: number; attempted: number }) => void;
}

export async function runWebhookDispatcher(ctx: CoreContext, options: DispatcherOptions): Promise<void> {
  const { signal } = options;
  const pollMs = Math.max(10, options.pollMs ?? 1_000);
  const timers = options.timers ?? realTimers;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const hints = new Map<string, () => void>();
  let wake: (() => void) | null = null;
  let woken = false;
  const poke = () => {
    woken = true;
    wake?.();
  };
  const hintTimers = new Set<unknown>();

  /** Commit hints of the owners served now; each wakes the loop when the commit becomes readable. */
  const followOwners = (owners: readonly string[]) => {
    const current = new Set(owners);
    for (const [owner, stop] of hints) {
      if (!current.has(owner)) {
        stop();
        hints.delete(owner);
      }
    }
    for (const owner of owners) {
      if (hints.has(owner)) continue;
      const stops = EVENT_FEEDS.map((feed) => {
        const reader = userFeedReader(ctx, owner, feed);
        return reader.onCommit((committedMs) => {
          const handle = timers.setTimeout(
            () => {
              hintTimers.delete(handle);
              poke();
            },
            Math.max(0, reader.visibleFrom(committedMs) - ctx.clock().getTime()),
          );
          hintTimers.add(handle);
        });
      });
      hints.set(owner, () => {
        for (const stop of stops) stop();
      });
    }
  };

  const onAbort = () => poke();
  signal.addEventListener("abort", onAbort);
  try {
    while (!signal.aborted) {
      woken = false;
      let owners: string[] = [];
      let recorded = 0;
      let attempted = 0;
      try {
        owners = await ownersWithEnabledEndpoints(ctx);
        followOwners(owners);
        await forEachLimited(owners, concurrency, async (owner) => {
          try {
            recorded += (await dispatchOwner(ctx, owner)).recorded;
          } catch (error) {
            ctx.logger.error("webhook dispatch failed", { owner, error: String(error) });
          }
        });
        attempted = (
          await attemptDueDeliveries(ctx, {
            limit: ATTEMPTS_PER_ROUND,
            ...(options.random ? { random: options.random } : {}),
          })
        ).attempted;
        // A full batch: more may be due, so the next round starts at once.
        if (attempted >= ATTEMPTS_PER_ROUND) woken = true;
      } catch (error) {
        ctx.logger.error("webhook dispatcher round failed", { error: String(error) });
      }
      options.onRound?.({ owners: owners.length, recorded, attempted });
      if (signal.aborted || woken) continue;
      await new Promise<void>((resolve) => {
        const handle = timers.setTimeout(() => {
          wake = null;
          resolve();
        }, pollMs);
        wake = () => {
          wake = null;
          timers.clearTimeout(handle);
          resolve();
        };
      });
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    for (const stop of hints.values()) stop();
    for (const handle of hintTimers) timers.clearTimeout(handle);
  }
}
