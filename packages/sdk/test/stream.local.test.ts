import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchFunction, StreamEvent, StreamEventOf } from "../src";
import { fundedAccounts, newDeveloper, startLocalApi, type LocalApi } from "./local-stack";

/**
 * fintech.stream against the real ledger feed: after a cut connection and after the server ends
 * the stream, the helper reconnects with Last-Event-ID and delivers every event exactly once,
 * including those committed while it was disconnected.
 */
const STREAM_PATH = "/api/grpc/ledger/stream";

/** Consumes a stream in the background; waits for events by condition, never by time. */
type LedgerEvent = StreamEventOf<typeof STREAM_PATH>;

function collect(stream: AsyncIterable<LedgerEvent>) {
  const events: LedgerEvent[] = [];
  const waiters = new Set<() => void>();
  let failure: unknown = null;
  const done = (async () => {
    try {
      for await (const event of stream) {
        events.push(event);
        for (const waiter of [...waiters]) waiter();
      }
    } catch (error) {
      failure = error;
      for (const waiter of [...waiters]) waiter();
    }
  })();
  const waitFor = (match: (event: LedgerEvent) => boolean) =>
    new Promise<LedgerEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(match);
        if (found) {
          waiters.delete(check);
          resolve(found);
        } else if (failure) {
          waiters.delete(check);
          reject(failure instanceof Error ? failure : new Error(String(failure)));
        }
      };
      waiters.add(check);
      check();
    });
  return { events, waitFor, done };
}

/** A deferred: a promise with its resolve at hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

interface Connection {
  lastEventId: string | null;
  /** Resolves once the server has answered (the stream's starting cursor is fixed by then). */
  answered: Promise<void>;
}

/**
 * Sees every stream connection; `hold(n)` keeps connection n from being sent until released, so a
 * test can commit writes while the client is provably disconnected; `cut()` drops the first
 * connection as a network failure would (its body errors; nothing is lost that was delivered).
 */
function streamWatcher() {
  const connections: Connection[] = [];
  const holds = new Map<number, Promise<void>>();
  const arrivals: (() => void)[] = [];
  let cutFirst: (() => void) | null = null;
  const fetch: FetchFunction = async (request) => {
    if (!request.url.includes(STREAM_PATH)) return globalThis.fetch(request);
    const number = connections.length + 1;
    const answered = gate();
    connections.push({ lastEventId: request.headers.get("Last-Event-ID"), answered: answered.opened });
    for (const arrived of arrivals.splice(0)) arrived();
    await holds.get(number);
    const response = await globalThis.fetch(request);
    answered.open();
    if (number > 1 || !response.body) return response;
    const reader = response.body.getReader();
    let dropped = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        cutFirst = () => {
          dropped = true;
          controller.error(new TypeError("terminated", { cause: new Error("other side closed") }));
          void reader.cancel();
        };
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (dropped) return;
        if (done) return controller.close();
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch,
    connections,
    /** Drops the first connection now. */
    cut() {
      if (!cutFirst) throw new Error("no first connection to cut");
      cutFirst();
    },
    hold(number: number) {
      const released = gate();
      holds.set(number, released.opened);
      return released.open;
    },
    /** Resolves when connection `number` has been asked for. */
    connectionAsked: (number: number) =>
      new Promise<void>((resolve) => {
        const check = () => (connections.length >= number ? resolve() : arrivals.push(check));
        check();
      }),
  };
}

const createdIds = (events: LedgerEvent[]) =>
  events.flatMap((event) => (event.event === "transactionCreated" ? [event.data.transactionId] : []));
const isCreated = (transactionId: string) => (event: LedgerEvent) =>
  event.event === "transactionCreated" && event.data.transactionId === transactionId;

function expectNoDuplicates(events: StreamEvent[]) {
  const ids = events.map((event) => event.id);
  expect(new Set(ids).size).toBe(ids.length);
}

describe("fintech.stream resumes with Last-Event-ID", () => {
  let api: LocalApi;
  beforeAll(async () => {
    api = await startLocalApi();
  });
  afterAll(async () => api.stop());

  it("after a dropped connection: no duplicate, no gap", async () => {
    const watcher = streamWatcher();
    const developer = await newDeveloper(api, watcher.fetch);
    const { from, to } = await fundedAccounts(developer.keyed);
    const transfer = async (amount: string) =>
      (
        await developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
          body: { from_account_id: from.id, to_account_id: to.id, amount, currency: "USD" },
        })
      ).data.data.id;

    const release = watcher.hold(2);
    const controller = new AbortController();
    const stream = collect(
      developer.keyed.stream(STREAM_PATH, { query: { userId: developer.userId }, signal: controller.signal }),
    );
    await watcher.connectionAsked(1);
    await watcher.connections[0]!.answered;

    const first = await transfer("1.00");
    await stream.waitFor(isCreated(first));
    // The connection drops; the reconnection is held while another transfer commits.
    watcher.cut();
    await watcher.connectionAsked(2);
    const second = await transfer("2.00");
    release();
    await stream.waitFor(isCreated(second));
    const third = await transfer("3.00");
    await stream.waitFor(isCreated(third));
    controller.abort();
    await stream.done;

    expect(createdIds(stream.events)).toEqual([first, second, third]);
    expectNoDuplicates(stream.events);
    expect(watcher.connections).toHaveLength(2);
    expect(watcher.connections[0]!.lastEventId).toBeNull();
    expect(watcher.connections[1]!.lastEventId).toEqual(expect.any(String));
    // Nor was any event delivered twice under another id: each (event, transaction, account, operation) once.
    const contents = stream.events.map((event) => {
      const data = event.data as { transactionId?: string; accountId?: string; operation?: string };
      return `${event.event}:${data.transactionId}:${data.accountId}:${data.operation}`;
    });
    expect(new Set(contents).size).toBe(contents.length);
  });
});

describe("fintech.stream when the server ends the stream", () => {
  let api: LocalApi;
  beforeAll(async () => {
    // Streams end after a second here (300 s by default): the client must come back by itself.
    api = await startLocalApi({ FEED_MAX_SECONDS: "1", FEED_RETRY_MS: "10" });
  });
  afterAll(async () => api.stop());

  it("reconnects after the server's end and delivers what was committed in between", async () => {
    const watcher = streamWatcher();
    const developer = await newDeveloper(api, watcher.fetch);
    const { from, to } = await fundedAccounts(developer.keyed);
    const transfer = async (amount: string) =>
      (
        await developer.keyed.api.POST("/api/v1/ledger/transactions/transfer", {
          body: { from_account_id: from.id, to_account_id: to.id, amount, currency: "USD" },
        })
      ).data.data.id;

    const release = watcher.hold(2);
    const controller = new AbortController();
    const stream = collect(
      developer.keyed.stream(STREAM_PATH, { query: { userId: developer.userId }, signal: controller.signal }),
    );
    await watcher.connectionAsked(1);
    await watcher.connections[0]!.answered;
    // The first transfer's events arrive on the first stream or, if the server ended it first,
    // through the resume: either way once. The reconnection is held while a second one commits.
    const first = await transfer("1.50");
    await watcher.connectionAsked(2);
    const second = await transfer("2.50");
    release();
    await stream.waitFor(isCreated(first));
    await stream.waitFor(isCreated(second));
    controller.abort();
    await stream.done;

    expect(createdIds(stream.events)).toEqual([first, second]);
    expectNoDuplicates(stream.events);
    expect(watcher.connections[1]!.lastEventId).toEqual(expect.any(String));
    // The server's `retry:` (10 ms here) is what the client waited before reconnecting.
    expect(api.waits).toContain(10);
  });
});
