import { EventSourceParserStream } from "eventsource-parser/stream";
import type { BackoffPolicy } from "./backoff";
import { FintechError } from "./errors";
import type { Transport } from "./transport";

/**
 * One server-sent event: `id` is the resume cursor, `event` the name, `data` the parsed JSON (the
 * raw text when it is not JSON).
 */
export interface StreamEvent<Data = unknown, Name extends string = string> {
  id: string | undefined;
  event: Name;
  data: Data;
}

export type StreamQueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;

export interface StreamOptions<Query = Record<string, StreamQueryValue>> {
  /** The endpoint's query parameters (filters); lists are sent comma-separated. */
  query?: Query;
  /** Resume after this event id (e.g. one saved by an earlier run). */
  lastEventId?: string;
  /** Abort to stop: the loop ends without an error. */
  signal?: AbortSignal;
  /**
   * Reconnect when nothing (not even a heartbeat) arrives for this long. The server sends a
   * heartbeat every 15 s; default 45000 ms.
   */
  idleTimeoutMs?: number;
}

/** The server's keep-alive event: it only moves the resume point, so it is not yielded. */
export const CURSOR_EVENT = "cursor";
/** Wait before reconnecting until the server has said otherwise with `retry:`. */
const DEFAULT_RECONNECT_MS = 1_000;
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

class StreamIdle extends Error {
  constructor(ms: number) {
    super(`No data on the stream for ${ms} ms`);
    this.name = "StreamIdle";
  }
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function streamUrl(baseUrl: string, path: string, query: object | undefined): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}${path}`);
  for (const [name, value] of Object.entries(query ?? {}) as [string, StreamQueryValue][]) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
  }
  return url.toString();
}

interface StreamDependencies {
  baseUrl: string;
  send: Transport;
  backoff: BackoffPolicy;
}

/**
 * Server-sent events as an async iterable. Each connection goes through the transport (auth,
 * timeout and retries while connecting; a non-stream reply throws FintechError). When the
 * connection drops, goes quiet, or the server ends it (feeds end every few minutes by design),
 * the helper waits the server's `retry:` interval and reconnects with Last-Event-ID = the id of
 * the last event seen, so nothing is skipped and nothing repeats. Aborting `signal` ends the loop.
 */
export function createStreamReader({ baseUrl, send, backoff }: StreamDependencies) {
  return async function* stream(
    path: string,
    options: StreamOptions<object> = {},
  ): AsyncGenerator<StreamEvent, void, undefined> {
    const { signal } = options;
    const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const url = streamUrl(baseUrl, path, options.query);
    let lastEventId = options.lastEventId;
    let reconnectMs = DEFAULT_RECONNECT_MS;

    while (!signal?.aborted) {
      const connection = new AbortController();
      const connectionSignal = signal ? AbortSignal.any([signal, connection.signal]) : connection.signal;
      const headers = new Headers({ Accept: "text/event-stream" });
      if (lastEventId) headers.set("Last-Event-ID", lastEventId);

      let response: Response;
      try {
        response = await send(new Request(url, { headers, signal: connectionSignal }), { buffered: false });
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      if (!response.body || !(response.headers.get("Content-Type") ?? "").includes("text/event-stream")) {
        connection.abort();
        throw new FintechError({
          code: "HTTP_ERROR",
          status: response.status,
          message: `${path} did not answer with an event stream`,
          requestId: response.headers.get("X-Request-Id"),
        });
      }

      const events = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream({ onRetry: (ms) => (reconnectMs = ms) }))
        .getReader();
      // Ends a pending read at once, even with a fetch that does not tie its body to the signal.
      const hangUp = (reason: unknown) => {
        connection.abort(reason);
        events.cancel(reason).catch(() => undefined);
      };
      const onAbort = () => hangUp(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        for (;;) {
          const idle = setTimeout(() => hangUp(new StreamIdle(idleTimeoutMs)), idleTimeoutMs);
          let next: ReadableStreamReadResult<{ id?: string | undefined; event?: string | undefined; data: string }>;
          try {
            next = await events.read();
          } finally {
            clearTimeout(idle);
          }
          if (signal?.aborted) return;
          if (next.done) break;
          const message = next.value;
          if (message.id !== undefined) lastEventId = message.id;
          if (message.event === CURSOR_EVENT) continue;
          yield { id: message.id, event: message.event ?? "message", data: parseData(message.data) };
        }
      } catch {
        if (signal?.aborted) return;
        // A dropped or stalled connection: reconnect below from the last id seen.
      } finally {
        signal?.removeEventListener("abort", onAbort);
        // Also runs when the consumer stops early: release the connection.
        hangUp(undefined);
      }

      try {
        await backoff.sleep(reconnectMs, signal);
      } catch {
        return;
      }
    }
  };
}
