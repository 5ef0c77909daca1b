import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonObjectOf, type FeedOptions, type LiveStream } from "./feedClient";
import { type FakeStream, startTestFeed } from "./testing";

/**
 * The shared client, on a stream made up for the test (each real stream's events and specifics are
 * tested beside it: ledger/live/events.test.ts, kyc/live/kycStream.test.ts).
 */
type Note = { type: "noted" | "cleared"; text: string };
const NOTES: LiveStream<Note> = {
  label: "Notes stream",
  eventNames: ["noted", "cleared"],
  parse: (name, data) => {
    const text = jsonObjectOf(data)?.text;
    return (name === "noted" || name === "cleared") && typeof text === "string" ? { type: name, text } : null;
  },
};
const note = { text: "hello" };

const setup = (overrides: Partial<FeedOptions<Note>> = {}) => startTestFeed(NOTES, "/api/grpc/notes/stream", overrides);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the live feed client", () => {
  it("opens with a ticket, delivers every named event, and reports Live", async () => {
    const { streams, events, statuses, latest } = setup();
    await vi.advanceTimersByTimeAsync(0);
    expect(streams).toHaveLength(1);
    expect(latest().query).toEqual({ userId: "u1", ticket: "ticket-1" });
    latest().open();
    latest().send("noted", "c1", note);
    latest().send("cleared", "c2", { text: "bye" });
    expect(events).toEqual([
      { type: "noted", text: "hello" },
      { type: "cleared", text: "bye" },
    ]);
    expect(statuses).toEqual(["connecting", "live"]);
  });

  it("on an error closes the stream, backs off, and resumes with a NEW ticket from the last id", async () => {
    const { streams, statuses, resumed, latest, warnings } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("noted", "c7", note);
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
    expect(warnings.filter((message) => message.includes("credential"))).toHaveLength(2);
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
    latest().send("noted", "c1", note);
    latest().send("noted", "c1", note);
    latest().send("noted", "c2", "{not json");
    latest().send("cleared", "c3", { at: "2026-03-14T12:00:00Z" });
    latest().send("cleared", "c4", { text: "bye" });
    expect(events.map((event) => event.type)).toEqual(["noted", "cleared"]);
    expect(warnings).toEqual([
      "Notes stream: ignored a malformed noted event",
      "Notes stream: ignored a malformed cleared event",
    ]);
  });

  it("pauses while offline and reconnects at once when back online", async () => {
    const { feed, streams, statuses, latest } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("noted", "c3", note);
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

  it("with a health check, asks it before every ticket: a refusal or a throw is a failed attempt, retried after the backoff", async () => {
    let answer: boolean | Error = false;
    const asked: number[] = [];
    const healthy = async () => {
      asked.push(1);
      if (answer instanceof Error) throw answer;
      return answer;
    };
    const { streams, statuses, warnings, latest } = setup({ healthy });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toHaveLength(1);
    expect(streams).toHaveLength(0);
    expect(statuses).toEqual(["connecting", "reconnecting"]);
    answer = new Error("network");
    await vi.advanceTimersByTimeAsync(500);
    expect(asked).toHaveLength(2);
    expect(streams).toHaveLength(0);
    expect(warnings).toEqual([
      "Notes stream: the service's health check failed; retrying",
      "Notes stream: the service's health check failed; retrying",
    ]);
    answer = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(asked).toHaveLength(3);
    expect(streams).toHaveLength(1);
    expect(latest().query).toEqual({ userId: "u1", ticket: "ticket-1" });
    latest().open();
    expect(statuses.at(-1)).toBe("live");
  });

  it("a stop while the health check is pending asks for no ticket", async () => {
    let tickets = 0;
    const { feed, streams } = setup({ healthy: async () => true, getCredential: async () => `ticket-${++tickets}` });
    feed.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(tickets).toBe(0);
    expect(streams).toHaveLength(0);
  });

  it("waits at least as long as a refusal's Retry-After before trying again", async () => {
    const { streams, latest, statuses } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().refuse({ status: 429, code: "too_many_streams", retryAfterMs: 30_000 });
    expect(statuses.at(-1)).toBe("reconnecting");
    await vi.advanceTimersByTimeAsync(29_999);
    expect(streams).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(streams).toHaveLength(2);
  });

  it("starts afresh at once when the server cannot read the resume point", async () => {
    const { latest, streams } = setup();
    await vi.advanceTimersByTimeAsync(0);
    latest().open();
    latest().send("noted", "c1", note);
    latest().fail();
    await vi.advanceTimersByTimeAsync(500);
    expect(latest().query.lastEventId).toBe("c1");
    latest().refuse({ status: 400, code: "invalid_event_id", retryAfterMs: null });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(streams).toHaveLength(3);
    expect(latest().query.lastEventId).toBeUndefined();
  });

  it("stops for good when the credential is refused (a 401, or the stream's unauthorized event), and says so once", async () => {
    for (const refuse of [
      (stream: FakeStream) => stream.refuse({ status: 401, code: "invalid_token", retryAfterMs: null }),
      (stream: FakeStream) => stream.send("unauthorized", "", { code: "invalid_api_key" }),
    ]) {
      let refusals = 0;
      const { latest, streams, statuses, events } = setup({ onUnauthorized: () => (refusals += 1) });
      await vi.advanceTimersByTimeAsync(0);
      latest().open();
      refuse(latest());
      expect(latest().closed).toBe(true);
      expect(statuses.at(-1)).toBe("offline");
      expect(events).toEqual([]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(streams).toHaveLength(1);
      expect(refusals).toBe(1);
    }
  });

  it("takes over from another connection's resume point and reports each move of it", async () => {
    const moves: string[] = [];
    const { latest } = setup({ lastEventId: "handed-over", onResumePoint: (id) => moves.push(id) });
    await vi.advanceTimersByTimeAsync(0);
    expect(latest().query.lastEventId).toBe("handed-over");
    latest().open();
    latest().send("cursor", "c1", {});
    latest().send("noted", "c2", note);
    expect(moves).toEqual(["c1", "c2"]);
  });
});
