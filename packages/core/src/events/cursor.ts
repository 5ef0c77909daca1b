import { createHmac, timingSafeEqual } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { z } from "zod";
import { badRequest } from "../shared/errors";
import type { Keyring, KeyVersion } from "../shared/keyring";

/**
 * Where a reader of a feed stands (see feed.ts). Sent to the client as the SSE `id:` of every
 * event and handed back as Last-Event-ID on reconnect.
 *
 * - `p`: the feed position up to which every visible outbox item has been handled;
 * - `f`: the floor, the moment the reader first connected: nothing older is ever announced;
 * - `s`: per stream (e.g. a balance chain) the last delivered sequence number, how many of that
 *   item's events were delivered, and its commit time in ms. Only streams delivered within the
 *   lookback window are kept, so the cursor stays small.
 */
export interface FeedCursor {
  p: string;
  f: string;
  s: Record<string, [seq: number, eventIndex: number, committedMs: number]>;
}

const POSITION = z.string().min(1).max(200);
const CursorShape = z.object({
  p: POSITION,
  f: POSITION,
  s: z.record(
    z.string().min(1).max(100),
    z.tuple([z.number().int().nonnegative(), z.number().int().min(-1), z.number().int().nonnegative()]),
  ),
});

/** A reader of one owner's feed follows at most this many streams within the lookback window. */
export const MAX_CURSOR_STREAMS = 200;
/** EventSource sends the id back as a header; CloudFront and Lambda URLs take 8 KB comfortably. */
export const MAX_CURSOR_LENGTH = 8_000;

/** The MAC key's label within CURSOR_KEYS (keyring.ts): never the key of a paging cursor or a ticket. */
const LABEL = "fintech/feed-cursor/v1";

/** Signed with the feed's name and scope: a cursor of another user's feed is refused. */
const mac = (version: KeyVersion, scope: string, payload: string) =>
  createHmac("sha256", version.key(LABEL)).update(`${scope}\n${payload}`).digest().subarray(0, 18);

/**
 * The payload is deflated JSON after a `z`: stream names repeat most of their text (an account's
 * credit shards are `<account>#S0` … `#S31`), so MAX_CURSOR_STREAMS streams fit MAX_CURSOR_LENGTH.
 * A payload without the `z` is plain JSON (base64url of `{...}` starts with `e`), as cursors were
 * first written, and is still read so that an open stream resumes across a deployment.
 */
const COMPRESSED = "z";
/** Inflating stops here: a forged payload cannot make the decoder allocate more. */
const MAX_CURSOR_JSON_BYTES = 64 * 1024;

function payloadOf(cursor: FeedCursor): string {
  return COMPRESSED + deflateRawSync(Buffer.from(JSON.stringify(cursor))).toString("base64url");
}

function jsonOf(payload: string): string {
  if (!payload.startsWith(COMPRESSED)) return Buffer.from(payload, "base64url").toString("utf8");
  const bytes = Buffer.from(payload.slice(COMPRESSED.length), "base64url");
  return inflateRawSync(bytes, { maxOutputLength: MAX_CURSOR_JSON_BYTES }).toString("utf8");
}

/** Signed with the newest key; accepted under any retained one, so a rotation does not cut a resume. */
export function encodeCursor(keys: Keyring, scope: string, cursor: FeedCursor): string {
  const payload = payloadOf(cursor);
  return `${payload}.${mac(keys.current, scope, payload).toString("base64url")}`;
}

const invalid = () => badRequest("Invalid Last-Event-ID: reconnect without one to start from now", "invalid_event_id");

export function decodeCursor(keys: Keyring, scope: string, text: string): FeedCursor {
  if (text.length > MAX_CURSOR_LENGTH) throw invalid();
  const [payload, signature, ...rest] = text.split(".");
  if (!payload || !signature || rest.length > 0) throw invalid();
  const given = Buffer.from(signature, "base64url");
  const signedHere = keys.versions.some((version) => {
    const expected = mac(version, scope, payload);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!signedHere) throw invalid();
  try {
    const parsed = CursorShape.safeParse(JSON.parse(jsonOf(payload)));
    if (!parsed.success || Object.keys(parsed.data.s).length > MAX_CURSOR_STREAMS) throw invalid();
    return parsed.data;
  } catch {
    throw invalid();
  }
}
