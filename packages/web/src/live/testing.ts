import type { ConnectionStatus } from "./feedState";
import { startFeed, type FeedOptions, type LiveStream } from "./feedClient";
import { feedStreamUrl } from "./feedState";
import { ANY_EVENT, type EventSourceLike, type StreamRefusal } from "./streamSource";

/** An EventSource the test drives: open, named messages with ids, errors. */
export class FakeStream implements EventSourceLike {
  closed = false;
  private listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  private fire(type: string, event: object) {
    for (const listener of this.listeners.get(type) ?? []) listener(event as Event);
  }
  open() {
    this.fire("open", {});
  }
  fail() {
    this.fire("error", { type: "error" });
  }
  /** The server answered without a stream (as a fetch stream reports it). */
  refuse(refusal: StreamRefusal) {
    this.fire("error", { type: "error", refusal });
  }
  send(name: string, id: string, data: unknown) {
    const event = { type: name, lastEventId: id, data: typeof data === "string" ? data : JSON.stringify(data) };
    this.fire(name, event);
    this.fire(ANY_EVENT, event);
  }
  get query() {
    return Object.fromEntries(new URL(this.url, "http://x").searchParams);
  }
}

/**
 * Runs a stream on the real feed client with fake effects: tickets ("ticket-1", …; the next
 * `ticketFailures.next` are refused), FakeStreams, and everything the feed reports, recorded.
 * User "u1"; the backoff's random part is 1 (the longest pause) unless overridden.
 */
export function startTestFeed<E>(stream: LiveStream<E>, path: string, overrides: Partial<FeedOptions<E>> = {}) {
  const streams: FakeStream[] = [];
  const events: E[] = [];
  const statuses: ConnectionStatus[] = [];
  const warnings: string[] = [];
  let tickets = 0;
  const resumed = { count: 0 };
  const ticketFailures = { next: 0 };
  const feed = startFeed<E>({
    ...stream,
    streamUrl: (resume) =>
      feedStreamUrl("", path, { userId: "u1", ticket: resume.credential, lastEventId: resume.lastEventId }),
    getCredential: async () => {
      if (ticketFailures.next > 0) {
        ticketFailures.next -= 1;
        throw new Error("HTTP error! status: 503");
      }
      tickets += 1;
      return `ticket-${tickets}`;
    },
    openStream: (url) => {
      const opened = new FakeStream(url);
      streams.push(opened);
      return opened;
    },
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    onResumed: () => (resumed.count += 1),
    warn: (message) => warnings.push(message),
    online: true,
    random: () => 1,
    ...overrides,
  });
  const latest = () => streams.at(-1)!;
  return { feed, streams, events, statuses, warnings, resumed, ticketFailures, latest };
}
