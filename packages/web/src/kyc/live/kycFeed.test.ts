import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConnectionStatus } from "../../ledger/live/feedState";
import type { KycLiveEvent } from "./events";
import { startKycFeed, type KycFeedOptions } from "./kycFeed";

/** A stand-in EventSource the test drives by hand. */
class FakeStream {
  listeners = new Map<string, ((event: Event) => void)[]>();
  closed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data = "", lastEventId = "") {
    for (const listener of this.listeners.get(type) ?? []) listener({ data, lastEventId } as unknown as Event);
  }
}

function harness(overrides: Partial<KycFeedOptions> = {}) {
  const streams: FakeStream[] = [];
  const events: KycLiveEvent[] = [];
  const statuses: ConnectionStatus[] = [];
  const resumed: number[] = [];
  const feed = startKycFeed({
    userId: "user-1",
    baseUrl: "",
    streamPath: "/api/grpc/kyc/stream",
    healthy: async () => true,
    getTicket: async () => `ticket-${streams.length + 1}`,
    openStream: (url) => {
      const stream = new FakeStream(url);
      streams.push(stream);
      return stream;
    },
    onEvent: (event) => events.push(event),
    onStatus: (status) => statuses.push(status),
    onResumed: () => resumed.push(1),
    warn: () => {},
    online: true,
    random: () => 0,
    ...overrides,
  });
  return { feed, streams, events, statuses, resumed };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("KYC feed", () => {
  it("opens the stream with a ticket after the health check, and delivers parsed events once", async () => {
    const { streams, events, statuses, feed } = harness();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.url).toBe("/api/grpc/kyc/stream?userId=user-1&ticket=ticket-1");
    streams[0]!.emit("open");
    expect(statuses.at(-1)).toBe("live");
    streams[0]!.emit("documentVerified", JSON.stringify({ documentType: "passport", status: "VERIFIED" }), "c1");
    streams[0]!.emit("documentVerified", JSON.stringify({ documentType: "passport", status: "VERIFIED" }), "c1");
    streams[0]!.emit("complianceAlert", "{broken", "c2");
    expect(events).toEqual([{ type: "documentVerified", documentType: "passport", status: "VERIFIED" }]);
    feed.stop();
    expect(streams[0]!.closed).toBe(true);
  });

  it("stays on REST while the service is unhealthy, and keeps trying", async () => {
    let healthy = false;
    const { streams, statuses } = harness({ healthy: async () => healthy });
    await vi.waitFor(() => expect(statuses.at(-1)).toBe("reconnecting"));
    expect(streams).toHaveLength(0);
    healthy = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
  });

  it("reconnects after a dropped stream, resumes from the last event id and asks for a refresh", async () => {
    const { streams, resumed } = harness();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.emit("open");
    streams[0]!.emit("riskAssessmentUpdate", JSON.stringify({ riskScore: 10 }), "cursor-7");
    streams[0]!.emit("error");
    expect(streams[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]!.url).toContain("lastEventId=cursor-7");
    streams[1]!.emit("open");
    expect(resumed).toHaveLength(1);
  });
});
