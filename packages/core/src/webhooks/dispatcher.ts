import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import type { FeedCursor } from "../events/cursor";
import { type FeedReader, freshCursor } from "../events/feed";
import { cursorKey, cursorPartition } from "./delivery-keys";
import { forEachLimited, recordDelivery } from "./deliveries";
import { endpointsOf, type StoredEndpoint } from "./endpoints";
import { toPlatformEvent, userFeedReader } from "./events";
import { EVENTS_RETENTION_MS, type EventFeed, feedOfEventType } from "./model";

/**
 * The dispatcher (docs/webhooks.md#delivery): for each enabled endpoint of an owner and each feed
 * it subscribes to, it reads the owner's feed from the endpoint's durable cursor, records a
 * delivery for every event of a subscribed type, and only then moves the cursor. A process that
 * dies between the two reads the same events again and records them again, which writes nothing
 * new (one delivery per endpoint and event): nothing is lost, nothing is stored twice.
 *
 * The cursor (a FeedCursor, events/feed.ts) lives in one item per endpoint and feed with a
 * version; it is moved on the condition that the version is the one read, so two dispatchers
 * never both move it: the loser stops and the winner's next read carries on.
 *
 * Where a cursor starts: at the endpoint's creation for the feeds it subscribes to when the
 * dispatcher first sees it; at the endpoint's last change for a feed added later (its cursor is
 * deleted when the feed is dropped, so a feed subscribed again starts at that change, never
 * delivering what happened while it was not subscribed). A disabled endpoint's cursors stay where
 * they are: enabled again, it receives what happened meanwhile, as far back as EVENTS_RETENTION_MS.
 */

/** Reads of one feed per endpoint and dispatch, before the next endpoint gets its turn. */
const MAX_READS_PER_FEED = 20;
/** A cursor that moved but delivered nothing is written at most this often (its reads are cheap). */
const IDLE_CURSOR_WRITE_MS = 60_000;
const RECORD_CONCURRENCY = 16;

interface StoredCursor {
  feed: EventFeed;
  cursor: FeedCursor;
  version: number;
}

const isConditionFailure = (error: unknown) => isAwsError(error, "ConditionalCheckFailedException");
const positionMs = (position: string) => Date.parse(position.slice(0, 24));

/** The feeds an endpoint's event types belong to. */
export const feedsOf = (endpoint: Pick<StoredEndpoint, "event_types">): EventFeed[] => [
  ...new Set(endpoint.event_types.map(feedOfEventType)),
];

async function storedCursors(ctx: CoreContext, endpointId: string): Promise<StoredCursor[]> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": cursorPartition(endpointId) },
      ConsistentRead: true,
    }),
  );
  return (reply.Items ?? []).map((item) => ({
    feed: String(item.feed) as EventFeed,
    cursor: JSON.parse(String(item.cursor)) as FeedCursor,
    version: Number(item.version),
  }));
}

/** Creates the cursor of a feed if none exists; the one stored when another dispatcher was first. */
async function createCursor(ctx: CoreContext, endpointId: string, feed: EventFeed, startsAt: Date): Promise<void> {
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: {
          ...cursorKey(endpointId, feed),
          entity: "webhook_cursor",
          endpoint_id: endpointId,
          feed,
          cursor: JSON.stringify(freshCursor(startsAt)),
          version: 1,
          started_at: startsAt.toISOString(),
        },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Moves a cursor on the condition that it is still at `version`; false when another moved it. */
async function moveCursor(
  ctx: CoreContext,
  endpointId: string,
  feed: EventFeed,
  version: number,
  cursor: FeedCursor,
): Promise<boolean> {
  try {
    await ctx.db.doc.send(
      new UpdateCommand({
        TableName: ctx.db.table,
        Key: cursorKey(endpointId, feed),
        UpdateExpression: "SET #cursor = :cursor, version = :next",
        ConditionExpression: "version = :version",
        ExpressionAttributeNames: { "#cursor": "cursor" },
        ExpressionAttributeValues: { ":cursor": JSON.stringify(cursor), ":next": version + 1, ":version": version },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function dropCursor(ctx: CoreContext, endpointId: string, stored: StoredCursor): Promise<void> {
  try {
    await ctx.db.doc.send(
      new DeleteCommand({
        TableName: ctx.db.table,
        Key: cursorKey(endpointId, stored.feed),
        ConditionExpression: "version = :version",
        ExpressionAttributeValues: { ":version": stored.version },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * The endpoint's cursors for the feeds it subscribes to now: missing ones created (see above),
 * those of feeds it dropped deleted.
 */
async function cursorsFor(ctx: CoreContext, endpoint: StoredEndpoint): Promise<StoredCursor[]> {
  const wanted = feedsOf(endpoint);
  let stored = await storedCursors(ctx, endpoint.id);
  const missing = wanted.filter((feed) => !stored.some((entry) => entry.feed === feed));
  if (missing.length > 0) {
    const startsAt = new Date(stored.length === 0 ? endpoint.created_at : endpoint.updated_at);
    for (const feed of missing) await createCursor(ctx, endpoint.id, feed, startsAt);
    stored = await storedCursors(ctx, endpoint.id);
  }
  for (const entry of stored) if (!wanted.includes(entry.feed)) await dropCursor(ctx, endpoint.id, entry);
  return stored.filter((entry) => wanted.includes(entry.feed));
}

/**
 * Readers kept between dispatches of one process, per endpoint and feed: a reader remembers when
 * it last rescanned for late commits, so a long-running dispatcher does not rescan on every poll.
 */
const readers = new WeakMap<CoreContext, Map<string, FeedReader<unknown>>>();
const MAX_CACHED_READERS = 10_000;

function readerFor(ctx: CoreContext, ownerId: string, endpointId: string, feed: EventFeed): FeedReader<unknown> {
  const cache = readers.get(ctx) ?? new Map<string, FeedReader<unknown>>();
  readers.set(ctx, cache);
  const key = `${endpointId}\u0000${feed}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (cache.size >= MAX_CACHED_READERS) cache.delete(cache.keys().next().value!);
  const reader = userFeedReader(ctx, ownerId, feed);
  cache.set(key, reader);
  return reader;
}

/** Reads one feed for one endpoint from its cursor, records the subscribed events, moves the cursor. */
async function dispatchFeed(ctx: CoreContext, endpoint: StoredEndpoint, stored: StoredCursor): Promise<number> {
  const reader = readerFor(ctx, endpoint.owner_id, endpoint.id, stored.feed);
  const subscribed = new Set<string>(endpoint.event_types);
  let { cursor, version } = stored;
  const oldest = ctx.clock().getTime() - EVENTS_RETENTION_MS;
  if (positionMs(cursor.p) < oldest) cursor = freshCursor(new Date(oldest));
  let recorded = 0;
  for (let round = 0; round < MAX_READS_PER_FEED; round += 1) {
    const read = await reader.read(cursor);
    const events = read.deliveries
      .map((delivery) => toPlatformEvent(stored.feed, delivery))
      .filter((event) => subscribed.has(event.type));
    await forEachLimited(events, RECORD_CONCURRENCY, async (event) => {
      if (await recordDelivery(ctx, endpoint, event)) recorded += 1;
    });
    const idle =
      read.deliveries.length === 0 && positionMs(read.cursor.p) - positionMs(stored.cursor.p) < IDLE_CURSOR_WRITE_MS;
    if (idle && cursor === stored.cursor) break;
    if (!(await moveCursor(ctx, endpoint.id, stored.feed, version, read.cursor))) break;
    version += 1;
    cursor = read.cursor;
    if (!read.more) break;
  }
  return recorded;
}

/**
 * For each enabled endpoint of the owner: reads its subscribed feeds from its durable cursors,
 * records a delivery per subscribed event (idempotent per endpoint and event id), then advances
 * the cursors. A disabled endpoint records nothing and its cursors stay. An endpoint whose
 * dispatch fails does not hold up the others; the failure is thrown after them.
 */
export async function dispatchOwner(ctx: CoreContext, ownerId: string): Promise<{ recorded: number }> {
  const endpoints = (await endpointsOf(ctx, ownerId)).filter((endpoint) => endpoint.status === "enabled");
  let recorded = 0;
  const failures: unknown[] = [];
  for (const endpoint of endpoints) {
    try {
      for (const stored of await cursorsFor(ctx, endpoint)) recorded += await dispatchFeed(ctx, endpoint, stored);
    } catch (error) {
      // The other endpoints still get their events; the caller learns of the failure (a queue retries it).
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `dispatch failed for ${failures.length} endpoints`);
  return { recorded };
}
