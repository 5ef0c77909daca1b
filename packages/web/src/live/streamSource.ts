/**
 * What the feed client (feedClient.ts) reads a stream through, and what a fetch stream
 * (fetchStream.ts) dispatches: the part of the EventSource interface the feed uses, and the
 * events on it. Tests hand the feed client a fake of it (testing.ts).
 */

/** The part of EventSource the feed uses, so tests can hand it a fake. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: Event) => void): void;
  close(): void;
}

/** Listeners under this name get every named message; its `type` says which. */
export const ANY_EVENT = "*";

export interface StreamRefusal {
  status: number;
  code: string | null;
  retryAfterMs: number | null;
}

/** The `error` event: a refusal when the server answered without a stream, else a broken or ended stream. */
export interface StreamErrorEvent {
  type: "error";
  refusal?: StreamRefusal;
}

export interface StreamMessageEvent {
  type: string;
  data: string;
  lastEventId: string;
}
