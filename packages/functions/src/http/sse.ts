import type { Context, MiddlewareHandler } from "hono";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import { redeemStreamTicket } from "@fintech/core/auth/stream-ticket";
import { decodeCursor, encodeCursor, type FeedCursor } from "@fintech/core/events/cursor";
import { freshCursor, type FeedReader } from "@fintech/core/events/feed";
import { forbidden, isStoreUnavailable, unauthorized } from "@fintech/core/shared/errors";
import type { AppEnv } from "./env";
import { requireAuth } from "./middleware";

/**
 * Serves every feed as server-sent events (ledger now; KYC and payments next): the same code
 * streams from Node locally and from the Feeds Lambda (RESPONSE_STREAM) in the cloud.
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
 */

/**
 * Non-browser clients authenticate with `Authorization: Bearer`; browsers, whose EventSource
 * cannot set headers, with `?ticket=` (see auth/stream-ticket.ts). Never a session token in a URL.
 */
export const requireStreamAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header("authorization")) return requireAuth(c, next);
  c.header("Cache-Control", "no-store");
  const ticket = c.req.query("ticket");
  if (!ticket) throw unauthorized("Authentication required: send a Bearer token or a stream ticket", "unauthorized");
  const session = await redeemStreamTicket(c.get("core"), ticket);
  c.set("auth", { userId: session.sub, role: session.role, user: session.user });
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
  /** The SSE message for an event, or null when the stream's filters leave it out. */
  present: (event: E, at: string) => FeedMessage | null;
}

/** The resume point: Last-Event-ID (what EventSource sends), else `?lastEventId=`. Bad ids are a 400 before the stream starts. */
function startingCursor(c: Context<AppEnv>, scope: string): FeedCursor {
  const core = c.get("core");
  const given = c.req.header("last-event-id") || c.req.query("lastEventId");
  return given ? decodeCursor(core.config.JWT_SECRET, scope, given) : freshCursor(core.clock());
}

export const CURSOR_EVENT = "cursor";
const MAX_READ_FAILURES = 4;
const READ_RETRY_BASE_MS = 250;
const READ_RETRY_MAX_MS = 4_000;

const frame = (fields: [string, string][]) => `${fields.map(([name, value]) => (name ? `${name}: ${value}` : `: ${value}`)).join("\n")}\n\n`;

export function serveFeed<E>(c: Context<AppEnv>, options: ServeFeedOptions<E>): Response {
  const core = c.get("core");
  const config = core.config;
  const secret = config.JWT_SECRET;
  let cursor = startingCursor(c, options.scope);
  const logger = c.get("logger");

  return streamSSE(
    c,
    async (stream: SSEStreamingApi) => {
      let open = true;
      // Set while the loop waits: ends the wait early (a hint, or the viewer leaving).
      let wake: (() => void) | null = null;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      const started = Date.now();
      const endAt = started + config.FEED_MAX_SECONDS * 1000;
      let lastWrite = started;
      let interval = config.FEED_POLL_MIN_MS;
      const write = async (text: string) => {
        await stream.write(text);
        lastWrite = Date.now();
      };
      const cursorFrame = (comment: string | null) =>
        frame([
          ...(comment ? ([["", comment]] as [string, string][]) : []),
          ["id", encodeCursor(secret, options.scope, cursor)],
          ["event", CURSOR_EVENT],
          ["data", JSON.stringify({ at: core.clock().toISOString() })],
        ]);
      await write(`retry: ${config.FEED_RETRY_MS}
${cursorFrame(null)}`);

      // A commit in this process to this feed wakes the loop once the item is past the settle window.
      // A hint that arrives while a read is under way is kept (`due`) and answered by the next one.
      let due = false;
      let hintedSinceMs: number | undefined;
      const wakeTimers = new Set<ReturnType<typeof setTimeout>>();
      const stopHints = options.reader.onCommit((committedMs) => {
        hintedSinceMs = Math.min(hintedSinceMs ?? committedMs, committedMs);
        const timer = setTimeout(() => {
          wakeTimers.delete(timer);
          due = true;
          wake?.();
        }, Math.max(0, options.reader.visibleFrom(committedMs) - core.clock().getTime()));
        wakeTimers.add(timer);
      });
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
      try {
        while (open && Date.now() < endAt) {
          let read: Awaited<ReturnType<typeof options.reader.read>>;
          const since = hintedSinceMs;
          due = false;
          try {
            hintedSinceMs = undefined;
            read = await options.reader.read(cursor, since);
            failures = 0;
          } catch (error) {
            if (since !== undefined) hintedSinceMs = Math.min(hintedSinceMs ?? since, since);
            // A stalled or throttled store: retry the read with backoff instead of dropping the
            // stream; after a few failures in a row, end it (the client resumes after `retry`).
            if (!isStoreUnavailable(error) || ++failures > MAX_READ_FAILURES) throw error;
            logger.warn("feed read failed, retrying", { error, scope: options.scope, failures });
            await stream.sleep(Math.min(READ_RETRY_MAX_MS, READ_RETRY_BASE_MS * 2 ** failures));
            continue;
          }
          for (const delivery of read.deliveries) {
            const message = options.present(delivery.event, delivery.at);
            if (!message) continue;
            await write(frame([["id", encodeCursor(secret, options.scope, delivery.cursor)], ["event", message.event], ["data", JSON.stringify(message.data)]]));
          }
          cursor = read.cursor;
          if (Date.now() - lastWrite >= config.FEED_HEARTBEAT_MS) await write(cursorFrame("heartbeat"));
          if (read.more) continue;
          // Adaptive polling: fast while events flow, slower (up to the maximum) when idle.
          interval = read.deliveries.length > 0 ? config.FEED_POLL_MIN_MS : Math.min(config.FEED_POLL_MAX_MS, Math.ceil(interval * 1.5));
          const untilHeartbeat = lastWrite + config.FEED_HEARTBEAT_MS - Date.now();
          const untilEnd = endAt - Date.now();
          await pause(Math.max(1, Math.min(interval, untilHeartbeat, untilEnd)));
        }
      } finally {
        stopHints();
        for (const timer of wakeTimers) clearTimeout(timer);
      }
      if (open) await write(cursorFrame("end of stream: reconnect with Last-Event-ID"));
    },
    async (error, stream) => {
      // Logged and dropped: the client reconnects after `retry` and resumes from its last id.
      logger.warn("feed stream failed", { error, scope: options.scope });
      await stream.close();
    },
  );
}
