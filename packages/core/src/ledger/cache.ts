import type { CoreContext } from "../shared/context";

/**
 * A small per-process cache, one per table client (so test tables and bench tables never share
 * entries), with a time limit and a size cap (oldest entry out first). Only for values that are
 * safe to serve stale within the limit; see its two uses: accounts.ts and head-cache.ts.
 */
export class ProcessCache<V> {
  private readonly byDatabase = new WeakMap<object, Map<string, { value: V; at: number }>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  private entries(ctx: CoreContext): Map<string, { value: V; at: number }> {
    let entries = this.byDatabase.get(ctx.db);
    if (!entries) {
      entries = new Map();
      this.byDatabase.set(ctx.db, entries);
    }
    return entries;
  }

  get(ctx: CoreContext, key: string): V | undefined {
    const entries = this.entries(ctx);
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.ttlMs) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(ctx: CoreContext, key: string, value: V): void {
    const entries = this.entries(ctx);
    entries.delete(key);
    if (entries.size >= this.maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, { value, at: Date.now() });
  }

  delete(ctx: CoreContext, key: string): void {
    this.entries(ctx).delete(key);
  }
}
