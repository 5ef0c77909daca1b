import { parseRetryAfter } from "@fintech/sdk";
import { createParser } from "eventsource-parser";
import {
  ANY_EVENT,
  type EventSourceLike,
  type StreamErrorEvent,
  type StreamMessageEvent,
  type StreamRefusal,
} from "./streamSource";

/**
 * A server-sent event stream read with fetch and eventsource-parser, behind the part of the
 * EventSource interface the feed client uses. Unlike EventSource it can send headers (the bearer
 * token and Last-Event-ID, so neither sits in a URL) and it sees why a stream was refused: the
 * status, the error code and Retry-After ride on the `error` event, so the client can wait as
 * long as a 429 asks, start afresh after a 400 on its resume id, and stop for good on a 401.
 *
 * Events: `open`; each message under its `event:` name (and under ANY_EVENT), as
 * `{type, data, lastEventId}` where lastEventId is the last id seen so far, as EventSource keeps
 * it; `error` when the stream is refused, breaks or ends (a refusal carries `refusal`). Nothing
 * is dispatched after close().
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** A refusal's body is a small JSON error; more than this is not read. */
const MAX_REFUSAL_BODY_CHARS = 4_096;

async function refusalOf(response: Response): Promise<StreamRefusal> {
  let code: string | null = null;
  try {
    const body = JSON.parse((await response.text()).slice(0, MAX_REFUSAL_BODY_CHARS)) as unknown;
    const given = typeof body === "object" && body !== null ? (body as { code?: unknown }).code : undefined;
    if (typeof given === "string") code = given;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const seconds = parseRetryAfter(response.headers.get("retry-after"));
  return { status: response.status, code, retryAfterMs: seconds === null ? null : seconds * 1000 };
}

export function openFetchStream(
  url: string,
  headers: Record<string, string>,
  fetchStream: FetchLike = (input, init) => globalThis.fetch(input, init),
): EventSourceLike {
  const listeners = new Map<string, ((event: Event) => void)[]>();
  const abort = new AbortController();
  let closed = false;
  const fire = (type: string, event: object) => {
    if (closed) return;
    for (const listener of listeners.get(type) ?? []) listener(event as Event);
  };
  const fail = (refusal?: StreamRefusal) => {
    const event: StreamErrorEvent = refusal ? { type: "error", refusal } : { type: "error" };
    fire("error", event);
    closed = true;
    abort.abort();
  };

  void (async () => {
    let response: Response;
    try {
      response = await fetchStream(url, {
        headers: { Accept: "text/event-stream", ...headers },
        signal: abort.signal,
        cache: "no-store",
      });
    } catch {
      return fail();
    }
    if (!response.ok || !response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
      return fail(await refusalOf(response).catch(() => ({ status: response.status, code: null, retryAfterMs: null })));
    }
    fire("open", { type: "open" });
    let lastEventId = "";
    const parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) lastEventId = message.id;
        const type = message.event ?? "message";
        const event: StreamMessageEvent = { type, data: message.data, lastEventId };
        fire(type, event);
        fire(ANY_EVENT, event);
      },
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // The connection broke (or close() aborted it): reported below as the stream's end.
    }
    fail();
  })();

  return {
    addEventListener(type, listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    close() {
      closed = true;
      abort.abort();
    },
  };
}
