import { QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { MAX_CURSOR_STREAMS, type FeedCursor } from "./cursor";
import { eventId, type FeedName } from "./event-id";

/**
 * One reader for every feed: the ledger's, KYC's and the payments' (docs/feeds.md#the-feeds). A
 * feed is the outbox items of one scope (an owner, or an admin scope) in the `gsi2` index, ordered
 * by commit position (`gsi2sk`, which starts with the commit instant), decoded into events. A scope
 * that every write of one kind would land on (the system accounts' feed: every deposit) is spread
 * over several index partitions, so that no one partition takes all of it in the cloud; the reader
 * merges them by position.
 *
 * Why not simply "items after the last position seen": positions come from each writer's clock
 * and are fixed before the write commits, so with several writers (separate Lambda instances)
 * an item can become visible after a reader has passed its position. Three things make resume
 * lossless and duplicate-free anyway:
 *
 * 1. Every outbox item belongs to a stream with gap-free sequence numbers written under
 *    optimistic concurrency (a balance chain's versions: n+1 is written only if absent, after n).
 *    The cursor keeps, per stream, the last delivered number: an item at or below it is a
 *    duplicate, and an item above it +1 means the ones between are fetched first from the base
 *    table (strongly consistent) and delivered in order. Within a stream, order is exact.
 * 2. Readers trail the newest commits by `settleMs`: writers whose clocks or commit latencies
 *    differ by less than that still come out in position order across streams.
 * 3. A rescan of the last `lookbackMs` before the position, every `lateScanMs`, finds items that
 *    showed up late on streams with no later item yet. Streams delivered within the lookback are
 *    in the cursor, so the rescan never repeats anything.
 *
 * Nothing is announced that is not committed: the items ARE the committed state changes.
 */
export interface OutboxItem {
  gsi2sk: string;
  committed_at: string;
  [attribute: string]: unknown;
}

export interface FeedSource<E> {
  /** Which feed this is: part of every event's stable id (event-id.ts). */
  feed: FeedName;
  /** The gsi2 partitions of this feed's scope (usually one; a spread scope's shards). */
  partitions: readonly string[];
  /** The stream an item belongs to and its gap-free sequence number in it. */
  streamOf(item: OutboxItem): { stream: string; seq: number };
  /** Items of a stream with from <= seq <= to, oldest first, strongly consistent. */
  range(stream: string, from: number, to: number): Promise<OutboxItem[]>;
  /** The events each item announces (possibly none), in order. */
  decode(items: OutboxItem[]): Promise<E[][]>;
}

export interface FeedSettings {
  settleMs: number;
  lookbackMs: number;
  lateScanMs: number;
  /** Items per read; a busier feed is read again at once. */
  pageSize: number;
}

export const feedSettings = (ctx: CoreContext): FeedSettings => ({
  settleMs: ctx.config.FEED_SETTLE_MS,
  lookbackMs: ctx.config.FEED_LOOKBACK_MS,
  lateScanMs: ctx.config.FEED_LATE_SCAN_MS,
  pageSize: 200,
});

export interface Delivery<E> {
  event: E;
  /** The event's stable id: the same for every reader, connection and webhook (event-id.ts). */
  id: string;
  /** When the item that announces it committed. */
  at: string;
  /** The cursor just after this event. */
  cursor: FeedCursor;
}

export interface FeedRead<E> {
  deliveries: Delivery<E>[];
  /** Where the reader stands after this read (also when nothing was delivered). */
  cursor: FeedCursor;
  /** More items are waiting: read again without pausing. */
  more: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
const positionMs = (position: string) => Date.parse(position.slice(0, 24));
/** Sorts after every item position committed in that millisecond ("~" > "#" and digits). */
const AFTER_MILLISECOND = "~";

const LATE_SCAN_ITEMS = 1_000;
const HORIZON_GRID_MS = 50;
const QUERY_SHARE_MS = 100;
const recentQueries = new Map<string, { at: number; result: Promise<{ items: OutboxItem[]; more: boolean }> }>();
/** In a cursor's stream entry: every event of that item has been delivered. */
const ALL_DELIVERED = -1;

/** A cursor for a reader that starts now: nothing already committed is announced. */
export function freshCursor(now: Date): FeedCursor {
  const start = iso(now.getTime());
  return { p: start, f: start, s: {} };
}

/**
 * Commit hints inside one process. A writer announces each outbox partition it committed to,
 * and readers of that partition in the same process read at once instead of at their next
 * poll. Only a shortcut: readers in other processes (other Lambda instances) find the same
 * items by polling, and a reader never trusts a hint for what to deliver, only for when to look.
 */
type CommitListener = (committedMs: number) => void;
const commitListeners = new Map<string, Set<CommitListener>>();
const hintKey = (ctx: CoreContext, partition: string) => `${ctx.db.table}\u0000${partition}`;

export function announceCommits(ctx: CoreContext, items: { gsi2pk: string; committed_at: string }[]): void {
  for (const item of items) {
    for (const listener of commitListeners.get(hintKey(ctx, item.gsi2pk)) ?? [])
      listener(Date.parse(item.committed_at));
  }
}

/** Calls `listener` with the commit time of every commit this process announces to `partition`. */
export function onCommit(ctx: CoreContext, partition: string, listener: CommitListener): () => void {
  const key = hintKey(ctx, partition);
  const set = commitListeners.get(key) ?? new Set<CommitListener>();
  set.add(listener);
  commitListeners.set(key, set);
  return () => {
    set.delete(listener);
    if (set.size === 0) commitListeners.delete(key);
  };
}

export class FeedReader<E> {
  private lastLateScanMs = 0;

  constructor(
    private readonly ctx: CoreContext,
    private readonly source: FeedSource<E>,
    readonly settings: FeedSettings,
  ) {}

  /**
   * The moment (ms) from which a read sees an item committed at `committedMs`: past the settle
   * window, on the horizon's grid, plus a margin (timers may fire a millisecond early).
   */
  visibleFrom(committedMs: number): number {
    return (Math.floor(committedMs / HORIZON_GRID_MS) + 1) * HORIZON_GRID_MS + this.settings.settleMs + 5;
  }

  /** Subscribes to this process's commit hints for the feed (see announceCommits). */
  onCommit(listener: CommitListener): () => void {
    const stops = this.source.partitions.map((partition) => onCommit(this.ctx, partition, listener));
    return () => {
      for (const stop of stops) stop();
    };
  }

  /**
   * The events committed after `cursor`, and the cursor after them. `hintedSinceMs`: the earliest
   * commit this process announced since the last read (see announceCommits); a commit that took
   * longer than the settle window to land sits behind the position, and is looked for there at
   * once rather than at the next rescan.
   */
  async read(start: FeedCursor, hintedSinceMs?: number): Promise<FeedRead<E>> {
    const cursor: FeedCursor = { p: start.p, f: start.f, s: { ...start.s } };
    const nowMs = this.ctx.clock().getTime();
    // On a grid, so readers of one feed in this process that wake together ask the same question.
    const horizon = iso(Math.floor((nowMs - this.settings.settleMs) / HORIZON_GRID_MS) * HORIZON_GRID_MS);
    const deliveries: Delivery<E>[] = [];

    const windowFrom = maxString(cursor.f, iso(positionMs(cursor.p) - this.settings.lookbackMs));
    const scanWindow = nowMs - this.lastLateScanMs >= this.settings.lateScanMs && windowFrom < cursor.p;
    const hintedFrom = hintedSinceMs === undefined ? undefined : maxString(windowFrom, iso(hintedSinceMs - 1));
    const lateFrom = scanWindow ? windowFrom : hintedFrom !== undefined && hintedFrom < cursor.p ? hintedFrom : null;
    const none = { items: [] as OutboxItem[], more: false };
    // A hint alone (no rescan due): one query from the hinted commit up to the horizon.
    const hintOnly = !scanWindow && lateFrom !== null;
    // The rescan reads newest first (late commits are most likely recent), at most LATE_SCAN_ITEMS.
    const late = lateFrom !== null && !hintOnly ? await this.query(lateFrom, cursor.p, LATE_SCAN_ITEMS, true) : none;
    if (scanWindow) this.lastLateScanMs = nowMs;
    const freshFrom = hintOnly ? lateFrom : cursor.p;
    const fresh = freshFrom < horizon ? await this.query(freshFrom, horizon, this.settings.pageSize) : none;

    const candidates = [
      ...late.items.filter((item) => lateFrom !== null && item.gsi2sk > lateFrom),
      ...fresh.items.filter((item) => item.gsi2sk > freshFrom),
    ];
    const found = await this.withMissingPredecessors(cursor, candidates, windowFrom);
    // Rescans meet items already delivered: drop them before decoding (which reads journals).
    const ordered = found.filter((item) => {
      const { stream, seq } = this.source.streamOf(item);
      const seen = cursor.s[stream];
      return !seen || seq > seen[0] || (seq === seen[0] && seen[1] !== ALL_DELIVERED);
    });
    const decoded = ordered.length > 0 ? await this.source.decode(ordered) : [];

    for (const [index, item] of ordered.entries()) {
      const { stream, seq } = this.source.streamOf(item);
      const seen = cursor.s[stream];
      const events = decoded[index] ?? [];
      // A reader cut off between two events of one item resumes inside it.
      const already = seen && seen[0] === seq ? seen[1] : -1;
      const itemMs = Date.parse(item.committed_at);
      if (events.length === 0) cursor.s[stream] = [seq, ALL_DELIVERED, itemMs];
      for (let eventIndex = already + 1; eventIndex < events.length; eventIndex++) {
        cursor.s[stream] = [seq, eventIndex === events.length - 1 ? ALL_DELIVERED : eventIndex, itemMs];
        if (item.gsi2sk > cursor.p) cursor.p = item.gsi2sk;
        deliveries.push({
          event: events[eventIndex]!,
          id: eventId(this.source.feed, stream, seq, eventIndex, itemMs),
          at: item.committed_at,
          cursor: snapshot(cursor),
        });
      }
    }
    // Everything up to the horizon was visible and handled, unless a page was left unread: then
    // up to the last item read (the rest is read next, at once).
    const lastRead = fresh.items[fresh.items.length - 1]?.gsi2sk;
    const reached = fresh.more ? lastRead : horizon;
    if (reached && reached > cursor.p) cursor.p = reached;
    prune(cursor, positionMs(cursor.p) - this.settings.lookbackMs);
    return { deliveries, cursor, more: fresh.more };
  }

  /**
   * Orders the candidates by position, dropping duplicates, and puts before each item of a stream
   * the items of that stream it depends on and that this reader has not delivered: the gap since
   * the cursor's number, or (for a stream the cursor does not hold) predecessors positioned
   * inside the lookback window, which therefore were never delivered.
   */
  private async withMissingPredecessors(
    cursor: FeedCursor,
    candidates: OutboxItem[],
    windowFrom: string,
  ): Promise<OutboxItem[]> {
    const unique = new Map<string, OutboxItem>();
    for (const item of candidates) unique.set(item.gsi2sk, item);
    const sorted = [...unique.values()].sort((a, b) => (a.gsi2sk < b.gsi2sk ? -1 : a.gsi2sk > b.gsi2sk ? 1 : 0));
    const expected = new Map<string, number>();
    for (const [stream, [seq]] of Object.entries(cursor.s)) expected.set(stream, seq + 1);
    const result: OutboxItem[] = [];
    for (const item of sorted) {
      const { stream, seq } = this.source.streamOf(item);
      const next = expected.get(stream);
      if (next !== undefined && seq < next - 1) continue;
      if (next !== undefined && seq > next) {
        result.push(...(await this.source.range(stream, next, seq - 1)));
      } else if (next === undefined && seq > 0) {
        const before: OutboxItem[] = [];
        let at = seq - 1;
        // Walk back while the predecessor is newer than anything this reader could have handled.
        while (at >= 0) {
          const [previous] = await this.source.range(stream, at, at);
          if (!previous || previous.gsi2sk <= windowFrom || previous.gsi2sk <= cursor.f) break;
          before.unshift(previous);
          at -= 1;
        }
        result.push(...before);
      }
      result.push(item);
      expected.set(stream, Math.max(next ?? 0, seq + 1));
    }
    return result;
  }

  /**
   * One range of the feed index. Readers of one feed in this process (several tabs of one user,
   * woken by the same commit) share a read of the same range made in the last moment: items are
   * immutable, and a range read QUERY_SHARE_MS ago is what a reader would have read then.
   */
  private query(after: string, before: string, limit: number, newestFirst = false) {
    const key = `${this.ctx.db.table}\u0000${this.source.partitions.join(",")}\u0000${after}\u0000${before}\u0000${limit}\u0000${newestFirst}`;
    const now = Date.now();
    const shared = recentQueries.get(key);
    if (shared && now - shared.at <= QUERY_SHARE_MS) return shared.result;
    const result = this.queryStore(after, before, limit, newestFirst);
    recentQueries.set(key, { at: now, result });
    result.catch(() => recentQueries.delete(key));
    if (recentQueries.size > 5_000)
      for (const [old, entry] of recentQueries) if (now - entry.at > QUERY_SHARE_MS) recentQueries.delete(old);
    return result;
  }

  /**
   * Merges the scope's partitions by position. Each partition's page is complete up to its last
   * item; of a partition with more items, nothing past its last item read is known yet. So the
   * merged page stops at the nearest such last item (and at `limit`), and says `more`.
   */
  private async queryStore(
    after: string,
    before: string,
    limit: number,
    newestFirst: boolean,
  ): Promise<{ items: OutboxItem[]; more: boolean }> {
    const pages = await Promise.all(
      this.source.partitions.map((partition) => this.queryPartition(partition, after, before, limit, newestFirst)),
    );
    if (pages.length === 1) return pages[0]!;
    const inOrder = (a: string, b: string) => (newestFirst ? a >= b : a <= b);
    const frontiers = pages.filter((page) => page.more).map((page) => page.items[page.items.length - 1]!.gsi2sk);
    const frontier = frontiers.reduce<string | undefined>(
      (nearest, position) => (nearest === undefined || inOrder(position, nearest) ? position : nearest),
      undefined,
    );
    const merged = pages
      .flatMap((page) => page.items)
      .filter((item) => frontier === undefined || inOrder(item.gsi2sk, frontier))
      .sort((a, b) => (a.gsi2sk === b.gsi2sk ? 0 : inOrder(a.gsi2sk, b.gsi2sk) ? -1 : 1));
    return { items: merged.slice(0, limit), more: frontier !== undefined || merged.length > limit };
  }

  private async queryPartition(partition: string, after: string, before: string, limit: number, newestFirst: boolean) {
    const items: OutboxItem[] = [];
    let exclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const reply: QueryCommandOutput = await this.ctx.db.doc.send(
        new QueryCommand({
          TableName: this.ctx.db.table,
          IndexName: "gsi2",
          KeyConditionExpression: "gsi2pk = :pk AND gsi2sk BETWEEN :after AND :before",
          ExpressionAttributeValues: { ":pk": partition, ":after": after, ":before": before },
          Limit: limit - items.length,
          ScanIndexForward: !newestFirst,
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      items.push(...((reply.Items ?? []) as OutboxItem[]));
      exclusiveStartKey = reply.LastEvaluatedKey;
    } while (exclusiveStartKey && items.length < limit);
    return { items, more: exclusiveStartKey !== undefined };
  }
}

const maxString = (a: string, b: string) => (a > b ? a : b);

function snapshot(cursor: FeedCursor): FeedCursor {
  return { p: cursor.p, f: cursor.f, s: { ...cursor.s } };
}

/**
 * Forgets streams last delivered before the lookback window (the rescan cannot meet their items
 * again). Past MAX_CURSOR_STREAMS the oldest are forgotten too, and the floor rises above them
 * so their items can never be announced twice.
 */
function prune(cursor: FeedCursor, oldestMs: number): void {
  for (const [stream, [, , committedMs]] of Object.entries(cursor.s))
    if (committedMs < oldestMs) delete cursor.s[stream];
  const entries = Object.entries(cursor.s);
  if (entries.length <= MAX_CURSOR_STREAMS) return;
  entries.sort((a, b) => a[1][2] - b[1][2]);
  const dropped = entries.slice(0, entries.length - MAX_CURSOR_STREAMS);
  for (const [stream] of dropped) delete cursor.s[stream];
  const floor = `${iso(dropped[dropped.length - 1]![1][2])}${AFTER_MILLISECOND}`;
  if (floor > cursor.f) cursor.f = floor;
}
