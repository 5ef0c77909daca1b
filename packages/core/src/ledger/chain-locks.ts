import type { CoreContext } from "../shared/context";

/**
 * In-process queues per balance chain. Two writes of this process to one chain would otherwise
 * both read its head and race, and the loser's cancelled TransactWriteItems costs as much as a
 * successful one; queueing them here turns that wasted write into a short wait, after which the
 * head this process remembered (head-cache.ts) is exact. This is an optimisation only:
 * correctness still rests on the conditional Puts, which is what orders writers in different
 * processes. Chains are locked in sorted order, so two journals can never wait on each other.
 */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

function queuesOf(ctx: CoreContext): Map<string, Promise<void>> {
  let map = queues.get(ctx.db);
  if (!map) {
    map = new Map();
    queues.set(ctx.db, map);
  }
  return map;
}

/** Whether a write of this process holds or awaits the chain. */
export function chainBusy(ctx: CoreContext, chain: string): boolean {
  return queuesOf(ctx).has(chain);
}

/** Waits for this process's earlier writes to the chains; the returned function releases them. */
export async function lockChains(ctx: CoreContext, chains: string[]): Promise<() => void> {
  const map = queuesOf(ctx);
  const releases: (() => void)[] = [];
  for (const chain of [...new Set(chains)].sort()) {
    const previous = map.get(chain) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    map.set(chain, tail);
    releases.push(() => {
      release();
      if (map.get(chain) === tail) map.delete(chain);
    });
    await previous;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const release of releases) release();
  };
}
