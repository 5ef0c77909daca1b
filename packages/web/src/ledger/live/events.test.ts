import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startTestFeed } from "../../live/testing";
import { LEDGER_EVENT_NAMES, LEDGER_STREAM, parseLedgerEvent } from "./events";

/** The ledger stream's own part: its events and how they are read (the shared client: live/feedClient.test.ts). */
const balance = {
  type: "balanceUpdate",
  accountId: "a1",
  accountName: "Everyday",
  balance: "500.00",
  available: "500.00",
  changeAmount: "500.00",
  changeType: "CREDIT",
  operation: "post",
  currency: "USD",
  transactionId: "t1",
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the ledger stream", () => {
  it("reads an event by its SSE name; data that is not JSON or lacks a field is null", () => {
    expect(parseLedgerEvent("balanceUpdate", JSON.stringify({ ...balance, type: "ignored" }))).toMatchObject({
      type: "balanceUpdate",
      accountId: "a1",
      balance: "500.00",
    });
    expect(parseLedgerEvent("balanceUpdate", "{not json")).toBeNull();
    expect(parseLedgerEvent("balanceUpdate", "[1]")).toBeNull();
    expect(parseLedgerEvent("lowBalanceAlert", JSON.stringify({ accountId: "a1" }))).toBeNull();
  });

  it("runs on the feed client: every named event is delivered, a malformed one logged and dropped", async () => {
    const { events, warnings, latest } = startTestFeed(LEDGER_STREAM, "/api/grpc/ledger/stream");
    await vi.advanceTimersByTimeAsync(0);
    expect(latest().url).toBe("/api/grpc/ledger/stream?userId=u1&ticket=ticket-1");
    latest().open();
    latest().send("balanceUpdate", "c1", balance);
    latest().send("accountLocked", "c2", {
      type: "accountLocked",
      accountId: "a1",
      accountName: "Everyday",
      reason: "Fraud review",
    });
    latest().send("lowBalanceAlert", "c3", { accountId: "a1" });
    latest().send("transactionStatusUpdate", "c4", {
      type: "transactionStatusUpdate",
      transactionId: "t1",
      status: "failed",
      message: "Insufficient funds",
    });
    expect(events.map((event) => event.type)).toEqual(["balanceUpdate", "accountLocked", "transactionStatusUpdate"]);
    expect(warnings).toEqual(["Ledger stream: ignored a malformed lowBalanceAlert event"]);
    expect(LEDGER_STREAM.eventNames).toEqual(LEDGER_EVENT_NAMES);
  });
});
