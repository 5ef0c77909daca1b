import { createHash } from "node:crypto";

/**
 * The feeds (docs/feeds.md#event-ids). The name is part of every event id, so that the same
 * stream name in two feeds can never give two events one id.
 */
export const FEED_NAMES = ["ledger", "kyc", "payment", "ops"] as const;
export type FeedName = (typeof FEED_NAMES)[number];

/**
 * An event's stable id: the same on every SSE connection, in every webhook (`webhook-id`) and in
 * the events list, because it is derived from what makes the event unique, never from who reads
 * it or when: its feed, its stream, the item's sequence number in that stream and the event's
 * index among the item's events, plus the item's commit instant (immutable once written).
 *
 * `evt_` + the commit instant in milliseconds (9 base-36 digits) + 16 base-32 characters of a
 * SHA-256 of feed, stream and sequence + the index (2 base-36 digits). Ids therefore sort by
 * commit instant, and the events of one item stay in their order; the list pages by id
 * (`?after=<id>`) and finds where to start from the instant inside it.
 */
export const EVENT_ID_PATTERN = /^evt_[0-9a-z]{9}[0-9a-v]{16}[0-9a-z]{2}$/;
const INSTANT_DIGITS = 9;
const MAX_INDEX = 36 * 36 - 1;

export function eventId(feed: FeedName, stream: string, seq: number, index: number, committedMs: number): string {
  if (!Number.isSafeInteger(committedMs) || committedMs < 0) throw new RangeError(`bad commit instant ${committedMs}`);
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) throw new RangeError(`bad event index ${index}`);
  const digest = createHash("sha256").update(`${feed}\u0000${stream}\u0000${seq}`).digest();
  return `evt_${committedMs.toString(36).padStart(INSTANT_DIGITS, "0")}${base32hex(digest).slice(0, 16)}${index.toString(36).padStart(2, "0")}`;
}

/** The commit instant (ms) inside an event id; undefined when `id` is not one. */
export function eventIdInstant(id: string): number | undefined {
  if (!EVENT_ID_PATTERN.test(id)) return undefined;
  return Number.parseInt(id.slice(4, 4 + INSTANT_DIGITS), 36);
}

/** Base 32 with the "extended hex" alphabet (RFC 4648 section 7), whose order is the bytes' order. */
function base32hex(bytes: Uint8Array): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuv";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}
