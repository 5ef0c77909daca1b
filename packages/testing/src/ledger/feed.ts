/**
 * The ledger property tests' feed check: a client follows an owner's ledger feed (reading while
 * the run writes, dropping the connection now and then and resuming from the last event's signed
 * id, as the SSE client does), and after the run its deliveries are compared with every committed
 * balance version of the owner's chains (the base table, strongly consistent): each expected event
 * exactly once, nothing else, in version order per chain (and an item's events in their order).
 * An account with several chains (credit shards) is several streams; its balanceUpdate events
 * carry the account-wide figures as of the version's commit instant (docs/feeds.md).
 */
import { decodeCursor, encodeCursor, type FeedCursor } from "@fintech/core/events/cursor";
import { FeedReader, feedSettings, freshCursor, type FeedSource } from "@fintech/core/events/feed";
import { eventsOf, ledgerFeedSource, type LedgerFeedEvent } from "@fintech/core/ledger/events";
import { unfoldVersion } from "@fintech/core/ledger/folded-versions";
import type { VersionItem } from "@fintech/core/ledger/versions";
import type { CoreContext } from "@fintech/core/shared/context";
import { isDeepStrictEqual } from "node:util";
import type { snapshot } from "./invariants";

/** An event with where it comes from: chain (stream), version (seq), index among the item's events. */
interface Tagged {
  stream: string;
  seq: number;
  index: number;
  event: LedgerFeedEvent;
}
const keyOf = (tagged: Tagged) => `${tagged.stream}@${tagged.seq}.${tagged.index}`;

/** The ledger's own feed source; only labels each decoded event with its item (no logic changed). */
function labelled(source: FeedSource<LedgerFeedEvent>): FeedSource<Tagged> {
  return {
    ...source,
    decode: async (items) =>
      (await source.decode(items)).map((events, at) => {
        const { stream, seq } = source.streamOf(items[at]!);
        return events.map((event, index) => ({ stream, seq, index, event }));
      }),
  };
}

/** One client of one owner's ledger feed, from a moment before the run on. */
export class FeedFollower {
  private readonly delivered: Tagged[] = [];
  private cursor: FeedCursor;
  private lastReceived: FeedCursor;
  private reader: FeedReader<Tagged>;
  reconnects = 0;

  constructor(
    private readonly ctx: CoreContext,
    readonly owner: string,
    start: Date,
  ) {
    this.cursor = freshCursor(start);
    this.lastReceived = this.cursor;
    this.reader = this.connect(ctx);
  }

  private connect(ctx: CoreContext): FeedReader<Tagged> {
    return new FeedReader(ctx, labelled(ledgerFeedSource(ctx, this.owner)), feedSettings(ctx));
  }

  /** The connection drops: a new reader resumes from the last event the client received (its signed id). */
  private resume(ctx: CoreContext): void {
    const scope = `ledger:${this.owner}`;
    const secret = ctx.config.CURSOR_KEYS;
    this.cursor = decodeCursor(secret, scope, encodeCursor(secret, scope, this.lastReceived));
    this.reader = this.connect(ctx);
    this.reconnects += 1;
  }

  /**
   * Reads what is there now (all pages). `dropAfter`: the connection drops right after the
   * client received that many events of this poll (the rest of that read is lost with it).
   */
  async poll(dropAfter?: number, ctx = this.ctx): Promise<void> {
    let received = 0;
    for (;;) {
      const read = await this.reader.read(this.cursor);
      for (const delivery of read.deliveries) {
        this.delivered.push(delivery.event);
        this.lastReceived = delivery.cursor;
        received += 1;
        if (received === dropAfter) {
          this.resume(ctx);
          return;
        }
      }
      this.cursor = read.cursor;
      if (!read.more) return;
    }
  }

  /**
   * After the run: a reader whose clock is past the settle window of every commit (the writes are
   * done, so everything committed is visible) resumes from the last event received and reads to
   * the end, then once more (nothing more may come).
   */
  async finish(): Promise<void> {
    const settled: CoreContext = {
      ...this.ctx,
      clock: () => new Date(Date.now() + this.ctx.config.FEED_SETTLE_MS + 1_000),
    };
    this.resume(settled);
    await this.poll(undefined, settled);
    await this.poll(undefined, settled);
  }

  /** What is wrong with the deliveries, against the committed versions of the owner's chains. */
  problems(table: Awaited<ReturnType<typeof snapshot>>): string[] {
    const expected = committedEvents(table, this.owner);
    const problems: string[] = [];
    const wanted = new Map(expected.map((tagged) => [keyOf(tagged), tagged]));
    const times = new Map<string, number>();
    for (const tagged of this.delivered) {
      const key = keyOf(tagged);
      times.set(key, (times.get(key) ?? 0) + 1);
      const want = wanted.get(key);
      if (!want) problems.push(`feed of ${this.owner}: unexpected ${key} ${JSON.stringify(tagged.event.event)}`);
      else if (!isDeepStrictEqual(want.event, tagged.event))
        problems.push(
          `feed of ${this.owner}: ${key} is ${JSON.stringify(tagged.event.event)}, the committed item says ${JSON.stringify(want.event.event)}`,
        );
    }
    for (const [key, count] of times)
      if (count > 1) problems.push(`feed of ${this.owner}: ${key} delivered ${count} times`);
    for (const key of wanted.keys()) if (!times.has(key)) problems.push(`feed of ${this.owner}: lost ${key}`);
    const lastOfStream = new Map<string, Tagged>();
    for (const tagged of this.delivered) {
      const last = lastOfStream.get(tagged.stream);
      if (last && (tagged.seq < last.seq || (tagged.seq === last.seq && tagged.index <= last.index)))
        problems.push(`feed of ${this.owner}: out of order in ${tagged.stream}: ${keyOf(tagged)} after ${keyOf(last)}`);
      lastOfStream.set(tagged.stream, tagged);
    }
    if (!table.accounts.some((account) => account.owner_id === this.owner))
      problems.push(`feed of ${this.owner}: the owner has no account (the check saw nothing)`);
    return problems;
  }

  get count(): number {
    return this.delivered.length;
  }
}

/**
 * Every event the owner's chains announce, in version order per chain: eventsOf over each
 * version (each folded leg), with a sharded account's figures made account-wide: the version's
 * own plus every other chain of the account as of the version's commit instant.
 */
function committedEvents(table: Awaited<ReturnType<typeof snapshot>>, owner: string): Tagged[] {
  const { accounts, journals, chains } = table;
  const journalById = new Map(journals.map((journal) => [journal.id, journal]));
  const expected: Tagged[] = [];
  for (const account of accounts) {
    if (account.owner_id !== owner) continue;
    const own = [...chains.values()].filter((versions) => versions[0]!.account_id === account.id);
    for (const versions of own) {
      const others = own.filter((other) => other !== versions);
      for (const item of versions) {
        const elsewhere = { balance: 0, available: 0 };
        for (const other of others) {
          let found: VersionItem | undefined;
          for (const candidate of other) if (candidate.committed_at <= item.committed_at) found = candidate;
          elsewhere.balance += found?.balance ?? 0;
          elsewhere.available += found?.available ?? 0;
        }
        // A version of a sharded account (a shard's, or the main chain's from the conversion on)
        // announces the account's figures as of its commit instant: after the whole version.
        const accountWide = item.chain !== item.account_id || (item.credit_shards ?? 0) > 0;
        const figures = accountWide
          ? { balance: item.balance + elsewhere.balance, available: item.available + elsewhere.available }
          : {};
        const events = unfoldVersion(item).flatMap((view) =>
          eventsOf({ ...view, ...figures }, view.tx_id ? journalById.get(view.tx_id) : undefined, account.name),
        );
        for (const [index, event] of events.entries())
          expected.push({ stream: item.chain, seq: item.version, index, event });
      }
    }
  }
  return expected;
}
