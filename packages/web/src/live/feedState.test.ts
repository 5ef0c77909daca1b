import { describe, expect, it } from "vitest";
import {
  connectionStatus,
  feedReducer,
  initialFeedState,
  isDuplicate,
  feedStreamUrl,
  RECENT_IDS_KEPT,
  reconnectDelayMs,
  type FeedAction,
  type FeedState,
} from "./feedState";

const run = (state: FeedState, ...actions: FeedAction[]) => actions.reduce(feedReducer, state);

describe("the feed's connection state", () => {
  it("connects at once when online, waits when offline", () => {
    expect(initialFeedState(true)).toMatchObject({ phase: "connecting", attempt: 1 });
    expect(connectionStatus(initialFeedState(true))).toBe("connecting");
    expect(initialFeedState(false).phase).toBe("offline");
    expect(connectionStatus(initialFeedState(false))).toBe("offline");
  });

  it("is live once open, and counts failures until an open resets them", () => {
    const open = run(initialFeedState(true), { type: "opened", attempt: 1 });
    expect(connectionStatus(open)).toBe("live");
    const failedTwice = run(
      open,
      { type: "failed", attempt: 1, stage: "stream" },
      { type: "retry" },
      { type: "failed", attempt: 2, stage: "stream" },
    );
    expect(failedTwice).toMatchObject({ phase: "waiting", failures: 2, attempt: 2 });
    expect(connectionStatus(failedTwice)).toBe("reconnecting");
    const reopened = run(failedTwice, { type: "retry" }, { type: "opened", attempt: 3 });
    expect(reopened).toMatchObject({ phase: "open", failures: 0, everOpened: true });
  });

  it("says reconnecting, not connecting, after a first attempt failed", () => {
    const state = run(initialFeedState(true), { type: "failed", attempt: 1, stage: "stream" }, { type: "retry" });
    expect(state.phase).toBe("connecting");
    expect(connectionStatus(state)).toBe("reconnecting");
  });

  it("ignores callbacks of a superseded attempt", () => {
    const state = run(initialFeedState(true), { type: "failed", attempt: 1, stage: "stream" }, { type: "retry" });
    expect(run(state, { type: "opened", attempt: 1 })).toBe(state);
    expect(run(state, { type: "failed", attempt: 1, stage: "stream" })).toBe(state);
    // A second error of the same connection after the first one scheduled the retry changes nothing.
    const waiting = run(initialFeedState(true), { type: "failed", attempt: 1, stage: "stream" });
    expect(run(waiting, { type: "failed", attempt: 1, stage: "stream" })).toBe(waiting);
  });

  it("pauses offline, and going online reconnects at once with a clean failure count", () => {
    const waiting = run(
      initialFeedState(true),
      { type: "opened", attempt: 1 },
      { type: "failed", attempt: 1, stage: "stream" },
    );
    const offline = run(waiting, { type: "offline" });
    expect(offline.phase).toBe("offline");
    expect(run(offline, { type: "retry" })).toBe(offline);
    const back = run(offline, { type: "online" });
    expect(back).toMatchObject({ phase: "connecting", failures: 0 });
    expect(back.attempt).toBeGreaterThan(offline.attempt);
    // Online while already connected is nothing new.
    const open = run(back, { type: "opened", attempt: back.attempt });
    expect(run(open, { type: "online" })).toBe(open);
  });

  it("keeps the last event id across reconnects and remembers recent ids", () => {
    const state = run(
      initialFeedState(true),
      { type: "opened", attempt: 1 },
      { type: "received", id: "c-1" },
      { type: "received", id: null },
      { type: "failed", attempt: 1, stage: "stream" },
      { type: "retry" },
    );
    expect(state.lastEventId).toBe("c-1");
    expect(isDuplicate(state, "c-1")).toBe(true);
    expect(isDuplicate(state, "c-2")).toBe(false);
    expect(isDuplicate(state, null)).toBe(false);
  });

  it("remembers a bounded number of ids", () => {
    let state = initialFeedState(true);
    for (let index = 0; index < RECENT_IDS_KEPT + 50; index += 1)
      state = feedReducer(state, { type: "received", id: `c-${index}` });
    expect(state.recentIds).toHaveLength(RECENT_IDS_KEPT);
    expect(isDuplicate(state, "c-0")).toBe(false);
    expect(isDuplicate(state, `c-${RECENT_IDS_KEPT + 49}`)).toBe(true);
  });

  it("stays stopped whatever comes after", () => {
    const stopped = run(initialFeedState(true), { type: "stop" });
    for (const action of [
      { type: "online" },
      { type: "retry" },
      { type: "opened", attempt: stopped.attempt },
      { type: "received", id: "x" },
    ] as FeedAction[]) {
      expect(feedReducer(stopped, action)).toBe(stopped);
    }
    expect(connectionStatus(stopped)).toBe("offline");
  });
});

describe("resume points", () => {
  it("follows the server's cursor messages without counting them as events", () => {
    const state = run(initialFeedState(true), { type: "opened", attempt: 1 }, { type: "moved", id: "start" });
    expect(state.lastEventId).toBe("start");
    expect(isDuplicate(state, "start")).toBe(false);
    expect(run(state, { type: "received", id: "e1" }, { type: "moved", id: "beat" }).lastEventId).toBe("beat");
    expect(run(state, { type: "moved", id: null })).toBe(state);
  });

  it("starts afresh after three streams in a row were refused before opening (a resume point the server cannot read)", () => {
    let state = run(
      initialFeedState(true),
      { type: "opened", attempt: 1 },
      { type: "received", id: "bad" },
      { type: "failed", attempt: 1, stage: "stream" },
    );
    for (let refusal = 1; refusal <= 2; refusal += 1) {
      state = run(state, { type: "retry" }, { type: "failed", attempt: state.attempt + 1, stage: "stream" });
      expect(state.lastEventId).toBe("bad");
    }
    state = run(state, { type: "retry" }, { type: "failed", attempt: state.attempt + 1, stage: "stream" });
    expect(state.lastEventId).toBeNull();
  });

  it("keeps the resume point while only the ticket fails (the server or the network is down)", () => {
    let state = run(
      initialFeedState(true),
      { type: "opened", attempt: 1 },
      { type: "received", id: "c9" },
      { type: "failed", attempt: 1, stage: "stream" },
    );
    for (let failure = 0; failure < 10; failure += 1)
      state = run(state, { type: "retry" }, { type: "failed", attempt: state.attempt + 1, stage: "credential" });
    expect(state.lastEventId).toBe("c9");
  });
});

describe("reconnect backoff", () => {
  const top = () => 1;
  it("starts at 0.5 s and doubles to at most 15 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((failures) => reconnectDelayMs(failures, top))).toEqual([
      500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000,
    ]);
  });
  it("randomises the lower half so tabs do not reconnect in step", () => {
    expect(reconnectDelayMs(1, () => 0)).toBe(250);
    expect(reconnectDelayMs(6, () => 0)).toBe(7500);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(1500);
  });
});

describe("the stream's address", () => {
  it("carries the user and the ticket, and the resume point only when there is one", () => {
    expect(feedStreamUrl("", "/api/grpc/ledger/stream", { userId: "u 1", ticket: "t+/=", lastEventId: null })).toBe(
      "/api/grpc/ledger/stream?userId=u+1&ticket=t%2B%2F%3D",
    );
    const url = new URL(
      feedStreamUrl("https://api.example.com", "/api/grpc/ledger/stream", {
        userId: "u1",
        ticket: "t",
        lastEventId: "2026|3",
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({ userId: "u1", ticket: "t", lastEventId: "2026|3" });
  });
});
