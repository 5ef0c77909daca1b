import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PAYMENT_STREAM_PATH } from "../api/payments";
import { startTestFeed } from "../live/testing";
import { PAYMENT_STREAM } from "./events";

/** The payment stream on the shared feed client (live/feedClient.test.ts), with the page's health check. */
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const initiated = {
  event: {
    paymentInitiated: {
      paymentId: "p1",
      amount: "1.00",
      currency: "USD",
      selectedRail: "ACH",
      estimatedFee: "0.25",
      estimatedTime: "1.2 s",
      fxRate: 1,
      message: "Payment initiated",
      initiatedAt: "2026-11-26T04:00:00.000Z",
    },
  },
};

describe("payment feed", () => {
  it("opens /api/grpc/payment/stream with a ticket after the health check; named and unnamed events arrive once", async () => {
    const { streams, events, warnings, feed } = startTestFeed(PAYMENT_STREAM, PAYMENT_STREAM_PATH, {
      healthy: async () => true,
      random: () => 0,
    });
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.url).toBe("/api/grpc/payment/stream?userId=u1&ticket=ticket-1");
    streams[0]!.open();
    streams[0]!.send("paymentInitiated", "c1", initiated);
    streams[0]!.send("paymentInitiated", "c1", initiated);
    streams[0]!.send("message", "c2", {
      event: {
        paymentCompleted: {
          paymentId: "p1",
          completedAt: "2026-11-26T04:00:01.000Z",
          finalAmount: "1.00",
          railUsed: "ACH",
        },
      },
    });
    streams[0]!.send("paymentError", "c3", "{broken");
    expect(events.map((event) => event.type)).toEqual(["paymentInitiated", "paymentCompleted"]);
    expect(warnings).toEqual(["Payment stream: ignored a malformed paymentError event"]);
    feed.stop();
    expect(streams[0]!.closed).toBe(true);
  });

  it("reconnects after a drop and resumes from the last event id", async () => {
    const { streams } = startTestFeed(PAYMENT_STREAM, PAYMENT_STREAM_PATH, {
      healthy: async () => true,
      random: () => 0,
    });
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.open();
    streams[0]!.send("paymentStatusUpdate", "cursor-4", { paymentId: "p1", status: "processing", message: "On ACH" });
    streams[0]!.fail();
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]!.url).toContain("lastEventId=cursor-4");
  });
});
