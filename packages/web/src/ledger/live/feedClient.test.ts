import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LedgerLiveEvent } from "./events";
import { startLedgerFeed, type EventSourceLike, type LedgerFeedOptions } from "./feedClient";
import type { ConnectionStatus } from "./feedState";

/** An EventSource the test drives: open, named messages with ids, errors. */
class FakeStream implements EventSourceLike {
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
    this.fire("error", {});
  }
  send(name: string, id: string, data: unknown) {
    this.fire(name, { lastEventId: id, data: typeof data === "string" ? data : JSON.stringify(data) });
  }
  get query() {
    return Object.fromEntries(new URL(this.url, "http://x").searchParams);
  }
}

const balance = { type: "balanceUpdate", accountId: "a1", accountName: "Everyday", balance: "500.00", available: "500.00", changeAmount: "500.00", changeType: "CREDIT", operation: "post", currency: "USD", transactionId: "t1" };

function setup(overrides: Partial<LedgerFeedOptions> = {}) {
  const streams: FakeStream[] = [];
  const events: LedgerLiveEvent[] = [];
  const statuses: ConnectionStatus[] = [];
  const warnings: string[] = [];
  let tickets = 0;
  const resumed = { count: 0 };
  const ticketFailures = { next: 0 };
  const feed = startLedgerFeed({
    userId: "u1",
    baseUrl: "",
    streamPath: "/api/grpc/ledger/stream",
    getTicket: async () => {
      if (ticketFailures.next > 0) {
        ticketFailures.next -= 1;
        throw new Error("HTTP error! status: 503");
      }
      tickets += 1;
      return `ticket-${tickets}`;
    },
    openStream: (url) => {
      const stream = new FakeStream(url);
      streams.push(stream);
      return stream;
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

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the ledger feed client", () => {
  it("opens with a ticket, delivers every named event, and reports Live", async () => {
    const { streams, events, statuses, latest } = setup();
    await vi.advanceTimersByTimeAsync(0);
    expect(streams).toHaveLength(1);
    expect(latest().query).toEqual({ userId: "u1", ticket: "ticket-1" });
    latest().open();
    latest().send("balanceUpdate", "c1", balance);
    latest().send("accountLocked", "c2", { type: "accountLocked", accountId: "a1", accountName: "Everyday", reason: "Fraud review" });
    expect(events.map((event) => event.type)).toEqual(["balanceUpdate", "accountLocked"]);
    expect(statuses).toEqual(["connecting", "live"]);
  });

  it("on an error closes the stream, backs off, and resumes with a NEW ticket from the last id", async () => {
    const { streams, statuses, resumed, latest, warnings } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("balanceUpdate", "c7", balance);
    const first = latest();
    first.fail();
    expect(first.closed).toBe(true);
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(warnings).toHaveLength(1);
    // Not before the 0.5 s backoff.
    await vi.advanceTimersByTimeAsync(499);
    expect(streams).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(streams).toHaveLength(2);
    expect(latest().query).toEqual({ userId: "u1", ticket: "ticket-2", lastEventId: "c7" });
    latest().open();
    expect(statuses.at(-1)).toBe("live");
    expect(resumed.count).toBe(1);
  });

  it("doubles the pause while the server keeps failing, and starts over after an open", async () => {
    const { streams, latest } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().fail();
    await vi.advanceTimersByTimeAsync(500);
    latest().fail();
    await vi.advanceTimersByTimeAsync(999);
    expect(streams).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(streams).toHaveLength(3);
    latest().open();
    latest().fail();
    await vi.advanceTimersByTimeAsync(500);
    expect(streams).toHaveLength(4);
  });

  it("treats a failed ticket request like a failed connection", async () => {
    const { streams, ticketFailures, statuses, warnings } = setup();
    await vi.advanceTimersByTimeAsync(0);
    streams[0]!.fail();
    // The next two tickets are refused.
    ticketFailures.next = 2;
    await vi.advanceTimersByTimeAsync(500); // retry 1: ticket fails
    await vi.advanceTimersByTimeAsync(1000); // retry 2: ticket fails
    expect(streams).toHaveLength(1);
    expect(warnings.filter((message) => message.includes("ticket"))).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000); // retry 3 gets a ticket
    expect(streams).toHaveLength(2);
    expect(statuses.at(-1)).toBe("reconnecting");
  });

  it("resumes from the server's cursor message when the stream broke before any event", async () => {
    const { latest, events } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("cursor", "start-1", { at: "2026-03-14T12:00:00Z" });
    latest().fail();
    await vi.advanceTimersByTimeAsync(500);
    expect(latest().query.lastEventId).toBe("start-1");
    expect(events).toEqual([]);
  });

  it("drops a repeated event and logs a malformed one without stopping", async () => {
    const { events, warnings, latest } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("balanceUpdate", "c1", balance);
    latest().send("balanceUpdate", "c1", balance);
    latest().send("balanceUpdate", "c2", "{not json");
    latest().send("lowBalanceAlert", "c3", { accountId: "a1" });
    latest().send("transactionStatusUpdate", "c4", { type: "transactionStatusUpdate", transactionId: "t1", status: "failed", message: "Insufficient funds" });
    expect(events.map((event) => event.type)).toEqual(["balanceUpdate", "transactionStatusUpdate"]);
    expect(warnings).toHaveLength(2);
  });

  it("pauses while offline and reconnects at once when back online", async () => {
    const { feed, streams, statuses, latest } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("balanceUpdate", "c3", balance);
    feed.setOnline(false);
    expect(streams[0]!.closed).toBe(true);
    expect(statuses.at(-1)).toBe("offline");
    // The browser's own error after going offline must not schedule a retry.
    streams[0]!.fail();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(streams).toHaveLength(1);
    feed.setOnline(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(streams).toHaveLength(2);
    expect(latest().query.lastEventId).toBe("c3");
    expect(statuses.slice(-1)).toEqual(["reconnecting"]);
  });

  it("starts offline without a request and connects when the network returns", async () => {
    const { feed, streams, statuses } = setup({ online: false });
    await vi.advanceTimersByTimeAsync(1000);
    expect(streams).toHaveLength(0);
    expect(statuses).toEqual(["offline"]);
    feed.setOnline(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(streams).toHaveLength(1);
  });

  it("stops for good: the stream closes, a pending retry and a late ticket open nothing", async () => {
    const stopped = setup();
    await vi.advanceTimersByTimeAsync(0);
    stopped.latest().fail();
    stopped.feed.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(stopped.streams).toHaveLength(1);

    // Stopped while the ticket is still on its way.
    const early = setup();
    early.feed.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(early.streams).toHaveLength(0);
  });
});
