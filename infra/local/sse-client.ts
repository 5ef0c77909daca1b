import { createParser, type EventSourceMessage } from "eventsource-parser";

/**
 * Reads a server-sent event stream (a fetch or app.request body) for tests and benchmarks:
 * every message, comment and retry hint, with a way to wait for the one you need.
 */
export interface SseStream {
  messages: EventSourceMessage[];
  comments: string[];
  retry: number | null;
  /** The id of the last message with one: what a client sends back as Last-Event-ID. */
  lastEventId(): string | undefined;
  /** Resolves with the first message (from `from` on) that matches; rejects if the stream ends first. */
  waitFor(match: (message: EventSourceMessage) => boolean, from?: number): Promise<EventSourceMessage>;
  /** Resolves when a comment matching arrives. */
  waitForComment(match: (comment: string) => boolean): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): Promise<void>;
}

export function readSse(body: ReadableStream<Uint8Array>): SseStream {
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  let retry: number | null = null;
  let finished = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const parser = createParser({
    onEvent: (message) => {
      messages.push(message);
      wake();
    },
    onComment: (comment) => {
      comments.push(comment.trim());
      wake();
    },
    onRetry: (ms) => {
      retry = ms;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Cancelled by close(), or the connection dropped: either way the stream is over.
    } finally {
      finished = true;
      wake();
    }
  })();

  function until<T>(check: () => T | undefined, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const found = check();
        if (found !== undefined) {
          waiters.delete(attempt);
          resolve(found);
        } else if (finished) {
          waiters.delete(attempt);
          reject(new Error(`Stream ended before ${what}`));
        }
      };
      waiters.add(attempt);
      attempt();
    });
  }

  return {
    messages,
    comments,
    get retry() {
      return retry;
    },
    lastEventId: () => [...messages].reverse().find((message) => message.id)?.id,
    waitFor: (match, from = 0) => until(() => messages.slice(from).find(match), "the expected message"),
    waitForComment: (match) => until(() => comments.find(match), "the expected comment"),
    ended,
    close: async () => {
      await reader.cancel().catch(() => undefined);
      await ended;
    },
  };
}
