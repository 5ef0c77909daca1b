import { createParser } from "eventsource-parser";

/** One server-sent event as the explorer shows it: its own `id:` (null without one), name and data. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export interface TryItRequest {
  method: string;
  /** Absolute, or same-origin ("/api/..."). */
  url: string;
  headers: Record<string, string>;
  body?: string;
  streaming: boolean;
}

export interface TryItReply {
  status: number;
  statusText: string;
  /** JSON and text replies: until the whole body was read. Streams: until the reply's headers arrived. */
  durationMs: number;
  contentType: string;
  /** The reply headers a developer acts on (request id, Retry-After, Idempotent-Replayed). */
  headers: [string, string][];
  kind: "json" | "text" | "events" | "empty";
  /** Pretty JSON or the text as received (cut at MAX_TEXT_CHARS). */
  text: string;
  events: SseEvent[];
  /** The body was longer than shown, or the stream was still open when reading stopped. */
  truncated: boolean;
}

export interface SendOptions {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  signal?: AbortSignal;
  /** Streams are read until this many events, this many bytes or this long, whichever comes first. */
  maxEvents?: number;
  maxStreamBytes?: number;
  streamWindowMs?: number;
}

export const MAX_STREAM_EVENTS = 5;
export const MAX_STREAM_BYTES = 64 * 1024;
export const STREAM_WINDOW_MS = 5000;
export const MAX_TEXT_CHARS = 100_000;
const SHOWN_HEADERS = ["x-request-id", "retry-after", "idempotent-replayed", "content-disposition"];

/**
 * Sends one Try It request and reads the reply, never without bound: a stream stops after its
 * first events (or a byte budget, or a few seconds) and is cancelled, so an open SSE connection
 * never outlives the read. `signal` cancels everything (a new send, leaving the page).
 */
export async function sendTryIt(request: TryItRequest, options: SendOptions): Promise<TryItReply> {
  const started = options.now();
  const response = await options.fetch(request.url, {
    method: request.method,
    headers: {
      Accept: request.streaming ? "text/event-stream" : "application/json",
      ...request.headers,
      ...(request.body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: request.body,
    signal: options.signal,
    cache: "no-store",
  });
  const contentType = response.headers.get("content-type") ?? "";
  const headers = SHOWN_HEADERS.flatMap((name) => {
    const value = response.headers.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
  const base = { status: response.status, statusText: response.statusText, contentType, headers };

  if (contentType.startsWith("text/event-stream") && response.body) {
    const durationMs = options.now() - started;
    const { events, truncated } = await readEvents(response.body, options);
    return { ...base, durationMs, kind: "events", text: "", events, truncated };
  }

  const raw = await response.text();
  const durationMs = options.now() - started;
  if (!raw) return { ...base, durationMs, kind: "empty", text: "", events: [], truncated: false };
  if (contentType.includes("json")) {
    try {
      return {
        ...base,
        durationMs,
        kind: "json",
        text: JSON.stringify(JSON.parse(raw), null, 2),
        events: [],
        truncated: false,
      };
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return {
    ...base,
    durationMs,
    kind: "text",
    text: raw.slice(0, MAX_TEXT_CHARS),
    events: [],
    truncated: raw.length > MAX_TEXT_CHARS,
  };
}

async function readEvents(
  body: ReadableStream<Uint8Array>,
  options: SendOptions,
): Promise<{ events: SseEvent[]; truncated: boolean }> {
  const maxEvents = options.maxEvents ?? MAX_STREAM_EVENTS;
  const maxBytes = options.maxStreamBytes ?? MAX_STREAM_BYTES;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      if (events.length < maxEvents)
        events.push({ id: message.id ?? null, event: message.event ?? "message", data: message.data });
    },
  });
  let bytes = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    void reader.cancel().catch(() => undefined);
  };
  options.signal?.addEventListener("abort", stop, { once: true });
  // A quiet stream sends nothing for a long while: reading stops after the window, whatever came.
  const deadline = setTimeout(stop, options.streamWindowMs ?? STREAM_WINDOW_MS);
  try {
    while (events.length < maxEvents && bytes < maxBytes && !stopped) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return { events, truncated: stopped };
      bytes += chunk.value.byteLength;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    return { events, truncated: true };
  } finally {
    clearTimeout(deadline);
    options.signal?.removeEventListener("abort", stop);
    stop();
  }
}
