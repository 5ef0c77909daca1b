import { QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { badRequest } from "../shared/errors";
import { EVENT_ID_PATTERN, eventId, eventIdInstant } from "../events/event-id";
import { FeedReader, feedSettings, type Delivery, type FeedSource, type OutboxItem } from "../events/feed";
import { ledgerFeedSource, presentLedgerEvent, type LedgerFeedEvent } from "../ledger/events";
import { kycFeedSource, presentKycEvent, type KycFeedEvent } from "../kyc/events";
import { paymentFeedSource, presentPaymentEvent, type PaymentFeedEvent } from "../payments/events";
import {
  EVENT_FEEDS,
  EVENT_TYPES,
  EVENTS_RETENTION_MS,
  feedOfEventType,
  type EventFeed,
  type EventsPage,
  type EventType,
  type PlatformEvent,
} from "./model";

/**
 * A user's events wherever they are delivered (docs/webhooks.md#event-ids): on the SSE streams,
 * in the events list and in webhooks. Each feed's own presenter builds an event's data (ledger,
 * KYC and payment events.ts); every channel adds the event's stable id and commit instant to it
 * here, so a client can match one event across connections, webhooks and the list.
 */

/** What names a delivered event: its stable id and its item's commit instant. */
export type EventIdentity = Pick<Delivery<unknown>, "id" | "at">;

/** An event's data as every channel carries it: its feed's presentation, plus `id` and `created_at`. */
export function withEventIdentity<T extends object>(
  data: T,
  identity: EventIdentity,
): T & { id: string; created_at: string } {
  return { ...data, id: identity.id, created_at: identity.at };
}

interface UserFeedEvents {
  ledger: LedgerFeedEvent;
  kyc: KycFeedEvent;
  payment: PaymentFeedEvent;
}

interface UserFeed<F extends EventFeed> {
  source(ctx: CoreContext, ownerId: string): FeedSource<UserFeedEvents[F]>;
  name(event: UserFeedEvents[F]): string;
  present(event: UserFeedEvents[F], at: string): object;
}

/** The owner reads their own feeds: the KYC feed with the applicant's audience (no risk signal). */
const USER_FEEDS: { [F in EventFeed]: UserFeed<F> } = {
  ledger: { source: ledgerFeedSource, name: (entry) => entry.event.type, present: presentLedgerEvent },
  kyc: {
    source: (ctx, ownerId) => kycFeedSource(ctx, ownerId, "applicant"),
    name: (event) => event.type,
    present: (event, at) => presentKycEvent(event, at, "applicant"),
  },
  payment: { source: paymentFeedSource, name: (event) => event.type, present: presentPaymentEvent },
};

/** The owner's feed as the owner reads it (KYC with the applicant's audience). */
export function userFeedReader(ctx: CoreContext, ownerId: string, feed: EventFeed): FeedReader<unknown> {
  return new FeedReader<unknown>(ctx, userFeedSource(ctx, ownerId, feed), feedSettings(ctx));
}

function userFeedSource(ctx: CoreContext, ownerId: string, feed: EventFeed): FeedSource<unknown> {
  return USER_FEEDS[feed].source(ctx, ownerId) as FeedSource<unknown>;
}

/**
 * A delivery of userFeedReader(…, feed) as a platform event: `<feed>.<name>`, its stable id and
 * commit instant, and its data exactly as the feed's SSE stream sends it.
 */
export function toPlatformEvent(
  feed: EventFeed,
  delivery: Pick<Delivery<unknown>, "event" | "id" | "at">,
): PlatformEvent {
  const user = USER_FEEDS[feed] as UserFeed<EventFeed>;
  const event = delivery.event as UserFeedEvents[EventFeed];
  return {
    id: delivery.id,
    type: `${feed}.${user.name(event)}`,
    created_at: delivery.at,
    data: withEventIdentity(user.present(event, delivery.at), delivery) as Record<string, unknown>,
  };
}

/* ---------- the events list ---------- */

export const EVENTS_PAGE_MAX = 100;
export const EVENTS_PAGE_DEFAULT = 50;
/** Items read from a feed partition per query. */
const SCAN_PAGE_ITEMS = 200;
/**
 * Items one request reads at most before it answers with what it has (a narrow type filter over
 * a busy feed): the page is then shorter than asked, with `has_more` and a `next_after` past what
 * was read.
 */
const SCAN_MAX_ITEMS = 2_000;
/** Sorts after every id of its millisecond: see idAfterInstant. */
const LAST_OF_MILLISECOND = `${"v".repeat(16)}zz`;

const iso = (ms: number) => new Date(ms).toISOString();

/** An id that sorts after every event committed in millisecond `ms` and before any later one. */
function idAfterInstant(ms: number): string {
  return `evt_${ms.toString(36).padStart(9, "0")}${LAST_OF_MILLISECOND}`;
}

export interface ListEventsQuery {
  /** Only these types (none: every type of the user's feeds). */
  types: readonly EventType[];
  /** An event id: list what follows it. */
  after?: string;
  limit: number;
}

/** One feed partition being read in position order (= commit instant order). */
interface PartitionScan {
  feed: EventFeed;
  source: FeedSource<unknown>;
  partition: string;
  startKey: Record<string, unknown> | undefined;
  /** Every item committed up to this instant (ms) has been read. */
  readThroughMs: number;
  done: boolean;
}

/**
 * The owner's events of the last EVENTS_RETENTION_MS after `after`, oldest first (by id, which
 * sorts by commit instant), across the feeds the type filter touches. Items are immutable and the
 * list stops short of the feed readers' settle window (FEED_SETTLE_MS), so a page, once listed,
 * never changes and a later page never holds an event that sorts before it.
 */
export async function listEvents(ctx: CoreContext, ownerId: string, query: ListEventsQuery): Promise<EventsPage> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > EVENTS_PAGE_MAX)
    throw badRequest(`limit must be a whole number from 1 to ${EVENTS_PAGE_MAX}`, "validation_error");
  if (query.after !== undefined && !EVENT_ID_PATTERN.test(query.after))
    throw badRequest("after must be an event id (evt_…)", "invalid_after");
  const nowMs = ctx.clock().getTime();
  const windowStartMs = nowMs - EVENTS_RETENTION_MS;
  const afterMs = query.after === undefined ? undefined : eventIdInstant(query.after)!;
  const fromMs = Math.max(windowStartMs, afterMs ?? windowStartMs);
  const horizonMs = nowMs - ctx.config.FEED_SETTLE_MS;
  const after = query.after ?? "";
  const wanted = new Set<string>(query.types);
  const feeds = query.types.length === 0 ? EVENT_FEEDS : EVENT_FEEDS.filter((feed) => hasTypeOf(query.types, feed));

  const scans: PartitionScan[] = feeds.flatMap((feed) => {
    const source = userFeedSource(ctx, ownerId, feed);
    return source.partitions.map((partition) => ({
      feed,
      source,
      partition,
      startKey: undefined,
      readThroughMs: fromMs - 1,
      done: fromMs > horizonMs,
    }));
  });
  const found: PlatformEvent[] = [];
  let scanned = 0;
  for (;;) {
    const open = scans.filter((scan) => !scan.done);
    // Every event up to this instant is known: those after it may still be unread.
    const knownThroughMs = open.length === 0 ? horizonMs : Math.min(...open.map((scan) => scan.readThroughMs));
    const known = found
      .filter((event) => Date.parse(event.created_at) <= knownThroughMs)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const full = known.length > query.limit;
    // Only once the answer moves the client on: its next_after must sort after the `after` it sent.
    const outOfBudget = scanned >= SCAN_MAX_ITEMS && knownThroughMs >= fromMs && idAfterInstant(knownThroughMs) > after;
    if (open.length === 0 || full || outOfBudget) {
      const data = known.slice(0, query.limit);
      const hasMore = full || open.length > 0;
      const last = data[data.length - 1]?.id;
      const nextAfter = hasMore && !full ? idAfterInstant(knownThroughMs) : (last ?? query.after ?? null);
      return { data, has_more: hasMore, next_after: nextAfter };
    }
    const behind = open.reduce((least, scan) => (scan.readThroughMs < least.readThroughMs ? scan : least));
    const items = await readPage(ctx, behind, iso(fromMs), `${iso(horizonMs)}~`);
    scanned += items.length;
    const decoded = items.length > 0 ? await behind.source.decode(items) : [];
    for (const [index, item] of items.entries()) {
      const { stream, seq } = behind.source.streamOf(item);
      const committedMs = Date.parse(item.committed_at);
      for (const [eventIndex, event] of (decoded[index] ?? []).entries()) {
        const delivery = {
          event,
          id: eventId(behind.feed, stream, seq, eventIndex, committedMs),
          at: item.committed_at,
        };
        if (delivery.id <= after) continue;
        const platformEvent = toPlatformEvent(behind.feed, delivery);
        if (wanted.size === 0 || wanted.has(platformEvent.type)) found.push(platformEvent);
      }
    }
    if (behind.done || items.length === 0) continue;
    // A page may end inside a millisecond: only the milliseconds before its last item are complete.
    const lastMs = Date.parse(items[items.length - 1]!.committed_at);
    behind.readThroughMs = Math.max(behind.readThroughMs, lastMs - 1);
  }
}

/** A `type` filter may name at most this many entries (every type and every `<feed>.*` fit). */
export const MAX_TYPE_FILTER_ENTRIES = 50;
const MAX_TYPE_ENTRY_LENGTH = 64;

/**
 * The event types a `type` filter names: each entry an event type (`payment.paymentCompleted`)
 * or `<feed>.*`. An unknown entry is a 400 `invalid_event_type` naming it; no entry is no filter.
 */
export function eventTypesOfFilter(entries: readonly string[]): EventType[] {
  if (entries.length > MAX_TYPE_FILTER_ENTRIES)
    throw badRequest(`type may name at most ${MAX_TYPE_FILTER_ENTRIES} event types`, "invalid_event_type");
  const types = new Set<EventType>();
  for (const entry of entries) {
    const feed = entry.endsWith(".*") ? EVENT_FEEDS.find((name) => `${name}.*` === entry) : undefined;
    if (feed) {
      for (const type of EVENT_TYPES) if (feedOfEventType(type) === feed) types.add(type);
      continue;
    }
    if (!(EVENT_TYPES as readonly string[]).includes(entry)) {
      const shown = entry.length > MAX_TYPE_ENTRY_LENGTH ? `${entry.slice(0, MAX_TYPE_ENTRY_LENGTH)}…` : entry;
      throw badRequest(
        `Unknown event type "${shown}": use an event type (e.g. payment.paymentCompleted) or <feed>.* with a feed of ${EVENT_FEEDS.join(", ")}`,
        "invalid_event_type",
      );
    }
    types.add(entry as EventType);
  }
  return [...types];
}

const hasTypeOf = (types: readonly EventType[], feed: EventFeed) =>
  types.some((type) => feedOfEventType(type) === feed);

/** The scan's next page of items committed from `from` to `to`; marks it done at the end. */
async function readPage(ctx: CoreContext, scan: PartitionScan, from: string, to: string): Promise<OutboxItem[]> {
  const reply: QueryCommandOutput = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      IndexName: "gsi2",
      KeyConditionExpression: "gsi2pk = :pk AND gsi2sk BETWEEN :from AND :to",
      ExpressionAttributeValues: { ":pk": scan.partition, ":from": from, ":to": to },
      Limit: SCAN_PAGE_ITEMS,
      ExclusiveStartKey: scan.startKey,
    }),
  );
  scan.startKey = reply.LastEvaluatedKey;
  if (!scan.startKey) scan.done = true;
  return (reply.Items ?? []) as OutboxItem[];
}
