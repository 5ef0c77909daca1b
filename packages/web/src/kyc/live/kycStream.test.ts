import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FeedOptions } from "../../live/feedClient";
import { startTestFeed } from "../../live/testing";
import { KYC_STREAM, type KycLiveEvent } from "./events";

/** The KYC stream on the shared feed client (live/feedClient.test.ts), with the wizard's health check. */
const harness = (overrides: Partial<FeedOptions<KycLiveEvent>> = {}) =>
  startTestFeed(KYC_STREAM, "/api/grpc/kyc/stream", { healthy: async () => true, random: () => 0, ...overrides });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("KYC feed", () => {
  it("opens the stream with a ticket after the health check, and delivers parsed events once", async () => {
    const { streams, events, statuses, warnings, feed } = harness();
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.url).toBe("/api/grpc/kyc/stream?userId=u1&ticket=ticket-1");
    streams[0]!.open();
    expect(statuses.at(-1)).toBe("live");
    streams[0]!.send("documentVerified", "c1", { documentType: "passport", status: "VERIFIED" });
    streams[0]!.send("documentVerified", "c1", { documentType: "passport", status: "VERIFIED" });
    streams[0]!.send("documentUploaded", "c2", "{broken");
    expect(events).toEqual([{ type: "documentVerified", documentType: "passport", status: "VERIFIED" }]);
    expect(warnings).toEqual(["KYC stream: ignored a malformed documentUploaded event"]);
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
    streams[0]!.open();
    streams[0]!.send("verificationStarted", "cursor-7", { country: "IN" });
    streams[0]!.fail();
    expect(streams[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]!.url).toContain("lastEventId=cursor-7");
    streams[1]!.open();
    expect(resumed.count).toBe(1);
  });
});
