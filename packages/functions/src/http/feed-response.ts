import type { Context, MiddlewareHandler } from "hono";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import { z } from "zod";
import { redeemStreamTicket } from "@fintech/core/auth/stream-ticket";
import { assertCredentialActive } from "@fintech/core/auth/credentials";
import { joinCursors, splitCursors } from "@fintech/core/events/combined-cursor";
import { decodeCursor, encodeCursor, type FeedCursor } from "@fintech/core/events/cursor";
import { freshCursor, type Delivery, type FeedReader } from "@fintech/core/events/feed";
import {
  claimStreamLease,
  releaseStreamLease,
  renewStreamLease,
  STREAM_LEASE_RENEW_MS,
} from "@fintech/core/events/stream-leases";
import type { CoreContext } from "@fintech/core/shared/context";
import { forbidden, isAppError, isStoreUnavailable, unauthorized, type AppError } from "@fintech/core/shared/errors";
import type { AppEnv } from "./app-context";
import { requireAuth } from "./middleware";
import { assertRequestScope } from "./scopes";

/**
 * Serves every feed as server-sent events (ledger, KYC, payments, and the browser's one live
 * connection carrying several of them): the same code streams from Node locally and from the
 * Feeds Lambda (RESPONSE_STREAM) in the cloud.
 *
 * Wire format: first `retry:` and a `cursor` event carrying the starting `id:` (so even a stream
 * cut before its first event resumes where it began), then for each event `id:` (the resume
 * cursor), `event:` (its name) and `data:` (JSON). Every FEED_HEARTBEAT_MS of silence, a `:`
 * heartbeat comment keeps CloudFront (30 s idle limit) and proxies from closing the stream; it
 * comes with a `cursor` event, so a reader of a quiet feed still moves its resume point. (The
 * cursor moves in an event with data, not an id-only message, because SSE parsers other than
 * EventSource, eventsource-parser for one, drop messages without data.) After FEED_MAX_SECONDS
 * the stream ends cleanly, well inside Lambda's 15 minutes, and the client reconnects with
 * Last-Event-ID.
 *
 * Each open stream holds a Feeds execution, so streams are bounded per user (a lease per open
 * stream, events/stream-leases.ts: the sixth is a 429), and each one asks again now and then
 * whether its session or API key still holds, ending with an `unauthorized` event when not.
 */

/**
 * Non-browser clients authenticate with `Authorization: Bearer`; browsers, whose EventSource
 * cannot set headers, with `?ticket=` (see auth/stream-ticket.ts). Never a session token in a URL.
 */
export const requireFeedAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header("authorization")) return requireAuth(c, next);
  c.header("Cache-Control", "no-store");
  const ticket = c.req.query("ticket");
  if (!ticket) throw unauthorized("Authentication required: send a Bearer token or a stream ticket", "unauthorized");
  const redeemed = await redeemStreamTicket(c.get("core"), ticket);
  c.set("auth", {
    userId: redeemed.userId,
    role: redeemed.role,
    user: redeemed.user,
    ...(redeemed.credential.kind === "api_key" ? { apiKeyId: redeemed.credential.keyId } : {}),
    credential: redeemed.credential,
  });
  // An API key's ticket opens only what the key's scopes allow, as the key itself would.
  assertRequestScope(c);
  await next();
};

/** The owner whose feed is asked for: oneself, or anyone for an admin. */
export function feedOwner(c: Context<AppEnv>, requested: string | undefined): string {
  const auth = c.get("auth");
  const owner = requested ?? auth.userId;
  if (owner !== auth.userId && auth.role !== "admin") throw forbidden("You may only watch your own feed", "forbidden");
  return owner;
}

export interface FeedMessage {
  event: string;
  data: unknown;
}

export interface ServeFeedOptions<E> {
  /** Binds cursors to this feed: e.g. "ledger:<owner>". */
  scope: string;
  reader: FeedReader<E>;
  /**
   * The SSE message for an event, or null when the stream's filters leave it out. Its data carries
   * the event's stable id and commit instant (`delivery`) beside its own fields
   * (docs/webhooks.md#event-ids).
   */
  present: (event: E, delivery: Pick<Delivery<E>, "id" | "at">) => FeedMessage | null;
}

/** What one read of a channel yields: each event as its message (null: filtered out) and the cursor just after it. */
interface ChannelRead {
  messages: { message: FeedMessage | null; cursor: FeedCursor }[];
  cursor: FeedCursor;
  more: boolean;
}

/** One feed of a stream with its event type put away, so that one stream can carry several feeds. */
export interface FeedChannel {
  scope: string;
  read(cursor: FeedCursor, hintedSinceMs: number | undefined): Promise<ChannelRead>;
  onCommit(listener: (committedMs: number) => void): () => void;
  visibleFrom(committedMs: number): number;
}

export function feedChannel<E>({ scope, reader, present }: ServeFeedOptions<E>): FeedChannel {
  return {
    scope,
    read: async (cursor, hintedSinceMs) => {
      const read = await reader.read(cursor, hintedSinceMs);
      return {
        messages: read.deliveries.map((delivery) => ({
          message: present(delivery.event, delivery),
          cursor: delivery.cursor,
        })),
        cursor: read.cursor,
        more: read.more,
      };
    },
    onCommit: (listener) => reader.onCommit(listener),
    visibleFrom: (committedMs) => reader.visibleFrom(committedMs),
  };
}

/** How a stream's resume id (its `id:`, sent back as Last-Event-ID) holds the signed cursor of each of its channels. */
export interface ResumeIds {
  /**
   * Each channel's signed cursor in a given id (undefined: that channel starts from now). Throws
   * the 400 of a bad id.
   */
  split(given: string): (string | undefined)[];
  join(signed: readonly string[]): string;
}

/** A stream of one feed: its id is that feed's cursor. */
const SINGLE_FEED_IDS: ResumeIds = { split: (given) => [given], join: (signed) => signed[0]! };

/**
 * A stream of several feeds, named `names` in order: its id carries each feed's cursor by name
 * (events/combined-cursor.ts). An id may name any of `accepted` (the feeds such a stream can
 * carry): a feed the id names but the stream no longer carries is dropped, a feed it does not
 * name starts from now.
 */
export function combinedFeedIds(names: readonly string[], accepted: readonly string[]): ResumeIds {
  return {
    split: (given) => {
      const parts = splitCursors(given, accepted);
      return names.map((name) => parts.get(name));
    },
    join: (signed) => joinCursors(names.map((name, index) => [name, signed[index]!] as const)),
  };
}

export const CURSOR_EVENT = "cursor";
/**
 * The last message of a stream whose session was signed out or whose API key was revoked while
 * it was open: data `{message, code}` as the 401 reply would carry. A client must not reconnect
 * with the same credential.
 */
export const UNAUTHORIZED_EVENT = "unauthorized";

/** The OpenAPI entry of the cursor event, for the `x-sse-events` of every feed route. */
export const FEED_CURSOR_EVENTS = {
  [CURSOR_EVENT]: {
    name: "StreamCursorEvent",
    schema: z
      .object({ at: z.string() })
      .describe("Moves the resume point (its id) without an event: at the start, with heartbeats and at the end"),
  },
};

/** The OpenAPI entry of the unauthorized event, for the `x-sse-events` of every feed route. */
export const FEED_END_EVENTS = {
  [UNAUTHORIZED_EVENT]: {
    name: "StreamUnauthorizedEvent",
    schema: z
      .object({ message: z.string(), code: z.string() })
      .describe(
        "The stream's last message when its session was signed out or its API key revoked (re-checked every minute): do not reconnect with the same credential",
      ),
  },
};

const MAX_READ_FAILURES = 4;
const READ_RETRY_BASE_MS = 250;
const READ_RETRY_MAX_MS = 4_000;

const frame = (fields: [string, string][]) =>
  `${fields.map(([name, value]) => (name ? `${name}: ${value}` : `: ${value}`)).join("\n")}\n\n`;

const signCursor = (core: CoreContext, scope: string, cursor: FeedCursor) =>
  encodeCursor(core.config.CURSOR_KEYS, scope, cursor);
const readCursor = (core: CoreContext, scope: string, text: string) =>
  decodeCursor(core.config.CURSOR_KEYS, scope, text);

/**
 * The resume point: Last-Event-ID (what EventSource sends), else `?lastEventId=`. Bad ids are a
 * 400 before the stream starts.
 */
function startingCursors(c: Context<AppEnv>, channels: readonly FeedChannel[], ids: ResumeIds): FeedCursor[] {
  const core = c.get("core");
  const given = c.req.header("last-event-id") || c.req.query("lastEventId");
  const parts = given ? ids.split(given) : channels.map(() => undefined);
  return channels.map((channel, index) => {
    const part = parts[index];
    return part ? readCursor(core, channel.scope, part) : freshCursor(core.clock());
  });
}

/** Serves one feed (see serveFeeds). */
export function serveFeed<E>(c: Context<AppEnv>, options: ServeFeedOptions<E>): Promise<Response> {
  return serveFeeds(c, [feedChannel(options)], SINGLE_FEED_IDS);
}

/**
 * Serves feeds as one SSE stream. Before it starts: a bad resume id is a 400, and a caller who
 * already holds FEED_STREAMS_PER_USER open streams (whatever the credential) a 429 with
 * Retry-After. While it runs it holds one of the caller's stream leases, and asks every
 * FEED_AUTH_RECHECK_MS whether the caller's session or API key still holds: when not, it sends
 * the `unauthorized` event and ends.
 */
export async function serveFeeds(
  c: Context<AppEnv>,
  channels: readonly FeedChannel[],
  ids: ResumeIds,
): Promise<Response> {
  const core = c.get("core");
  const config = core.config;
  const logger = c.get("logger");
  const auth = c.get("auth");
  const scopes = channels.map((channel) => channel.scope);
  const states = startingCursors(c, channels, ids).map((cursor, index) => {
    const channel = channels[index]!;
    return { channel, cursor, signed: null as string | null, hintedSinceMs: undefined as number | undefined };
  });
  const lease = await claimStreamLease(core, auth.userId, config.FEED_STREAMS_PER_USER);

  // Cursors are signed when an id is written, not each time a read moves them.
  const moveTo = (state: (typeof states)[number], cursor: FeedCursor) => {
    state.cursor = cursor;
    state.signed = null;
  };
  const currentId = () =>
    ids.join(states.map((state) => (state.signed ??= signCursor(core, state.channel.scope, state.cursor))));

  /** The 401 that ends the stream when the credential no longer holds; null while it does (or cannot be asked now). */
  const credentialRefusal = async (): Promise<AppError | null> => {
    try {
      await assertCredentialActive(core, auth.credential);
      return null;
    } catch (error) {
      if (isAppError(error) && error.status === 401) return error;
      if (!isStoreUnavailable(error)) throw error;
      logger.warn("stream credential re-check failed, retrying", { error, scopes });
      return null;
    }
  };

  return streamSSE(
    c,
    async (stream: SSEStreamingApi) => {
      try {
        await run(stream);
      } finally {
        // Before the stream closes, so a client that saw it end may open another at once.
        await releaseStreamLease(core, lease).catch((error: unknown) =>
          logger.warn("stream lease release failed; it expires by itself", { error, scopes }),
        );
      }
    },
    async (error, stream) => {
      // Logged and dropped: the client reconnects after `retry` and resumes from its last id.
      logger.warn("feed stream failed", { error, scopes });
      await stream.close();
    },
  );

  async function run(stream: SSEStreamingApi) {
    let open = true;
    // Set while the loop waits: ends the wait early (a hint, or the viewer leaving).
    let wake: (() => void) | null = null;
    stream.onAbort(() => {
      open = false;
      wake?.();
    });
    const started = Date.now();
    const endAt = started + config.FEED_MAX_SECONDS * 1000;
    let nextAuthCheck = started + config.FEED_AUTH_RECHECK_MS;
    let nextRenewal = started + STREAM_LEASE_RENEW_MS;
    let lastWrite = started;
    let interval = config.FEED_POLL_MIN_MS;
    const write = async (text: string) => {
      await stream.write(text);
      lastWrite = Date.now();
    };
    const cursorFrame = (comment: string | null) =>
      frame([
        ...(comment ? ([["", comment]] as [string, string][]) : []),
        ["id", currentId()],
        ["event", CURSOR_EVENT],
        ["data", JSON.stringify({ at: core.clock().toISOString() })],
      ]);
    await write(`retry: ${config.FEED_RETRY_MS}
${cursorFrame(null)}`);

    // A commit in this process to one of the feeds wakes the loop once the item is past the settle
    // window. A hint that arrives while a read is under way is kept (`due`) and answered by the next one.
    let due = false;
    const wakeTimers = new Set<ReturnType<typeof setTimeout>>();
    const stopHints = states.map((state) =>
      state.channel.onCommit((committedMs) => {
        state.hintedSinceMs = Math.min(state.hintedSinceMs ?? committedMs, committedMs);
        const timer = setTimeout(
          () => {
            wakeTimers.delete(timer);
            due = true;
            wake?.();
          },
          Math.max(0, state.channel.visibleFrom(committedMs) - core.clock().getTime()),
        );
        wakeTimers.add(timer);
      }),
    );
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        if (due || !open) return resolve();
        const done = () => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
      });

    let failures = 0;
    /** Why the stream ends before its time: the frame that says so instead of the usual end. */
    let ending: string | null = null;
    try {
      while (open && Date.now() < endAt) {
        if (Date.now() >= nextAuthCheck) {
          const refusal = await credentialRefusal();
          if (refusal) {
            logger.info("stream ended: its credential no longer holds", { scopes, code: refusal.code });
            ending = frame([
              ["", "credential no longer valid: do not reconnect with it"],
              ["event", UNAUTHORIZED_EVENT],
              ["data", JSON.stringify({ message: refusal.message, code: refusal.code })],
            ]);
            break;
          }
          nextAuthCheck = Date.now() + config.FEED_AUTH_RECHECK_MS;
        }
        if (Date.now() >= nextRenewal) {
          try {
            if (!(await renewStreamLease(core, lease))) {
              logger.warn("stream lease lost: ending the stream", { scopes });
              ending = cursorFrame("stream slot lost: reconnect with Last-Event-ID");
              break;
            }
            nextRenewal = Date.now() + STREAM_LEASE_RENEW_MS;
          } catch (error) {
            if (!isStoreUnavailable(error)) throw error;
            logger.warn("stream lease renewal failed, retrying", { error, scopes });
            nextRenewal = Date.now() + READ_RETRY_MAX_MS;
          }
        }

        due = false;
        let more = false;
        let delivered = 0;
        let readFailed = false;
        for (const state of states) {
          const since = state.hintedSinceMs;
          let read: ChannelRead;
          try {
            state.hintedSinceMs = undefined;
            read = await state.channel.read(state.cursor, since);
            failures = 0;
          } catch (error) {
            if (since !== undefined) state.hintedSinceMs = Math.min(state.hintedSinceMs ?? since, since);
            // A stalled or throttled store: retry the read with backoff instead of dropping the
            // stream; after a few failures in a row, end it (the client resumes after `retry`).
            if (!isStoreUnavailable(error) || ++failures > MAX_READ_FAILURES) throw error;
            logger.warn("feed read failed, retrying", { error, scope: state.channel.scope, failures });
            await stream.sleep(Math.min(READ_RETRY_MAX_MS, READ_RETRY_BASE_MS * 2 ** failures));
            readFailed = true;
            break;
          }
          for (const { message, cursor } of read.messages) {
            if (!message) continue;
            moveTo(state, cursor);
            await write(
              frame([
                ["id", currentId()],
                ["event", message.event],
                ["data", JSON.stringify(message.data)],
              ]),
            );
            delivered += 1;
          }
          moveTo(state, read.cursor);
          more ||= read.more;
        }
        if (readFailed) continue;
        if (Date.now() - lastWrite >= config.FEED_HEARTBEAT_MS) await write(cursorFrame("heartbeat"));
        if (more) continue;
        // Adaptive polling: fast while events flow, slower (up to the maximum) when idle.
        interval =
          delivered > 0 ? config.FEED_POLL_MIN_MS : Math.min(config.FEED_POLL_MAX_MS, Math.ceil(interval * 1.5));
        const now = Date.now();
        await pause(
          Math.max(
            1,
            Math.min(
              interval,
              lastWrite + config.FEED_HEARTBEAT_MS - now,
              endAt - now,
              nextAuthCheck - now,
              nextRenewal - now,
            ),
          ),
        );
      }
    } finally {
      for (const stop of stopHints) stop();
      for (const timer of wakeTimers) clearTimeout(timer);
    }
    if (open) await write(ending ?? cursorFrame("end of stream: reconnect with Last-Event-ID"));
  }
}
