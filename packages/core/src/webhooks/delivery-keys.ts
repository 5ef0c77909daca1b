import { createHash } from "node:crypto";
import { EVENT_ID_PATTERN } from "../events/event-id";

/**
 * Key formats of webhook delivery (docs/webhooks.md#delivery); nothing else builds these keys.
 *
 * - Cursors: `WHCUR#<endpoint>` / `FEED#<feed>`, one per endpoint and feed it subscribes to.
 * - Deliveries: `WHDLV#<endpoint>` / `DLV#<delivery id>`. A delivery id is derived from the event
 *   id and the endpoint, so recording one event for one endpoint twice writes one item, and the
 *   log's sort order is the events' (ids sort by commit instant).
 * - The due index: gsi3 `WHDUE#<shard>` / `<next attempt at>#<delivery id>`, present only while a
 *   delivery waits for an attempt (a sparse index), spread over DUE_SHARDS partitions.
 */

export const WEBHOOK_CURSOR_PREFIX = "WHCUR#";
export const cursorPartition = (endpointId: string) => `${WEBHOOK_CURSOR_PREFIX}${endpointId}`;
export const cursorKey = (endpointId: string, feed: string) => ({
  pk: cursorPartition(endpointId),
  sk: `FEED#${feed}`,
});

export const WEBHOOK_DELIVERY_PREFIX = "WHDLV#";
export const DELIVERY_SORT_PREFIX = "DLV#";
export const deliveryPartition = (endpointId: string) => `${WEBHOOK_DELIVERY_PREFIX}${endpointId}`;
export const deliveryKey = (endpointId: string, deliveryId: string) => ({
  pk: deliveryPartition(endpointId),
  sk: `${DELIVERY_SORT_PREFIX}${deliveryId}`,
});

/** The body of an event id (after `evt_`): 9 instant digits, 16 hash characters, 2 index digits. */
const EVENT_ID_BODY = 27;
const ENDPOINT_TAG = 6;
export const DELIVERY_ID_PATTERN = /^wd_[0-9a-z]{9}[0-9a-v]{16}[0-9a-z]{2}[0-9a-v]{6}$/;

const endpointTag = (endpointId: string) => {
  const digest = createHash("sha256").update(endpointId).digest();
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  return Array.from(digest.subarray(0, ENDPOINT_TAG), (byte) => alphabet[byte & 31]).join("");
};

/** The delivery of `eventId` to `endpointId`: the same every time it is recorded. */
export function deliveryIdOf(endpointId: string, eventId: string): string {
  if (!EVENT_ID_PATTERN.test(eventId)) throw new RangeError(`not an event id: ${eventId.slice(0, 40)}`);
  return `wd_${eventId.slice(4, 4 + EVENT_ID_BODY)}${endpointTag(endpointId)}`;
}

/** Whether `deliveryId` is well formed and belongs to `endpointId` (checked before it nears a key). */
export const isDeliveryIdOf = (endpointId: string, deliveryId: string): boolean =>
  deliveryId.length === 3 + EVENT_ID_BODY + ENDPOINT_TAG &&
  DELIVERY_ID_PATTERN.test(deliveryId) &&
  deliveryId.endsWith(endpointTag(endpointId));

/** The first delivery sort key of events committed at or after `ms` (for ranges by time). */
export const deliverySortFrom = (ms: number) => `${DELIVERY_SORT_PREFIX}wd_${ms.toString(36).padStart(9, "0")}`;

export const DUE_SHARDS = 8;
export const WEBHOOK_DUE_PREFIX = "WHDUE#";
export const dueShardOf = (deliveryId: string) => createHash("sha256").update(deliveryId).digest()[0]! % DUE_SHARDS;
export const duePartition = (shard: number) => `${WEBHOOK_DUE_PREFIX}${shard}`;
export const dueIndex = (deliveryId: string, nextAttemptAt: string) => ({
  gsi3pk: duePartition(dueShardOf(deliveryId)),
  gsi3sk: `${nextAttemptAt}#${deliveryId}`,
});
