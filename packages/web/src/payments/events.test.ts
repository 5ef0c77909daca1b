import { describe, expect, it } from "vitest";
import { addEvent, EVENT_LIST_CAP, eventEntry, parsePaymentEvent, type EventEntry } from "./events";

const at = new Date("2026-11-26T04:00:00.000Z");

describe("payment stream events", () => {
  it("reads the server's wrapping {event: {<type>: data}} by the SSE name, and flat data too", () => {
    const wire = {
      event: {
        paymentInitiated: {
          paymentId: "p1",
          amount: "1.00",
          currency: "USD",
          selectedRail: "ACH",
          estimatedFee: "0.05",
          estimatedTime: "1.2 s",
          fxRate: 1,
          message: "Payment initiated on ACH",
          initiatedAt: "2026-11-26T04:00:00.000Z",
        },
      },
      type: "paymentInitiated",
    };
    expect(parsePaymentEvent("paymentInitiated", JSON.stringify(wire))).toEqual({
      type: "paymentInitiated",
      data: wire.event.paymentInitiated,
    });
    expect(
      parsePaymentEvent(
        "paymentCompleted",
        JSON.stringify({ paymentId: "p1", completedAt: "2026-11-26T04:00:01Z", finalAmount: "1.00", railUsed: "ACH" }),
      ),
    ).toMatchObject({ type: "paymentCompleted", data: { railUsed: "ACH" } });
  });

  it("an unnamed message takes its type from the one key under event", () => {
    const wire = { event: { paymentError: { paymentId: "p2", errorMessage: "Insufficient funds" } } };
    expect(parsePaymentEvent("message", JSON.stringify(wire))).toEqual({
      type: "paymentError",
      data: { paymentId: "p2", errorMessage: "Insufficient funds" },
    });
  });

  it("status is lower case, as the contract says", () => {
    expect(
      parsePaymentEvent(
        "paymentStatusUpdate",
        JSON.stringify({ paymentId: "p1", status: "processing", message: "On ACH" }),
      ),
    ).toEqual({ type: "paymentStatusUpdate", data: { paymentId: "p1", status: "processing", message: "On ACH" } });
    expect(
      parsePaymentEvent("paymentStatusUpdate", JSON.stringify({ paymentId: "p1", status: "sideways", message: "?" })),
    ).toBeNull();
  });

  it("drops malformed data, unknown names and events missing their fields", () => {
    expect(parsePaymentEvent("paymentError", "{broken")).toBeNull();
    expect(parsePaymentEvent("paymentError", JSON.stringify({ paymentId: "p1" }))).toBeNull();
    expect(parsePaymentEvent("somethingElse", JSON.stringify({ paymentId: "p1" }))).toBeNull();
    expect(parsePaymentEvent("message", JSON.stringify({ paymentId: "p1" }))).toBeNull();
    expect(parsePaymentEvent("paymentCompleted", JSON.stringify([1]))).toBeNull();
  });

  it("a payment error reads 'Payment Failed' with its errorMessage (docs/product/payments.md#messages)", () => {
    const entry = eventEntry(
      { type: "paymentError", data: { paymentId: "p9", errorMessage: "Rail timed out" } },
      "k1",
      at,
    );
    expect(entry).toEqual({
      key: "k1",
      type: "paymentError",
      paymentId: "p9",
      title: "Payment Failed",
      detail: "Rail timed out",
      tone: "error",
      receivedAt: at.toISOString(),
    });
  });

  it("describes the other three in words", () => {
    expect(
      eventEntry(
        {
          type: "paymentInitiated",
          data: {
            paymentId: "p",
            amount: "1.00",
            currency: "USD",
            selectedRail: "SEPA",
            estimatedFee: "0.52",
            estimatedTime: "1 s",
            fxRate: 1,
            message: "",
            initiatedAt: "",
          },
        },
        "a",
        at,
      ),
    ).toMatchObject({
      title: "Payment Initiated",
      detail: "1.00 USD · via SEPA · fee 0.52 · about 1 s",
      tone: "info",
    });
    expect(
      eventEntry(
        { type: "paymentStatusUpdate", data: { paymentId: "p", status: "processing", message: "Attempt 1 on SEPA" } },
        "b",
        at,
      ),
    ).toMatchObject({ title: "Status: Processing", detail: "Attempt 1 on SEPA", tone: "info" });
    expect(
      eventEntry(
        { type: "paymentStatusUpdate", data: { paymentId: "p", status: "failed", message: "No rail succeeded" } },
        "c",
        at,
      ).tone,
    ).toBe("error");
    // A payment parked for review reads as such, with its reason, in the failure's colour.
    const parked = parsePaymentEvent(
      "paymentStatusUpdate",
      JSON.stringify({
        event: {
          paymentStatusUpdate: { paymentId: "p", status: "parked", message: "Held for review: nothing was paid" },
        },
      }),
    );
    expect(eventEntry(parked!, "p1", at)).toMatchObject({
      title: "Status: Parked",
      detail: "Held for review: nothing was paid",
      tone: "error",
    });
    const held = parsePaymentEvent(
      "paymentStatusUpdate",
      JSON.stringify({
        event: {
          paymentStatusUpdate: { paymentId: "p", status: "held_for_review", message: "Held for a compliance review" },
        },
      }),
    );
    expect(eventEntry(held!, "p2", at)).toMatchObject({ title: "Status: Held for review", tone: "info" });
    const awaiting = parsePaymentEvent(
      "paymentStatusUpdate",
      JSON.stringify({
        event: { paymentStatusUpdate: { paymentId: "p", status: "awaiting_approval", message: "Awaiting approval" } },
      }),
    );
    expect(eventEntry(awaiting!, "p3", at)).toMatchObject({ title: "Status: Awaiting approval", tone: "info" });
    expect(
      eventEntry(
        { type: "paymentCompleted", data: { paymentId: "p", completedAt: "", finalAmount: "1.00", railUsed: "SEPA" } },
        "d",
        at,
      ),
    ).toMatchObject({ title: "Payment Completed", detail: "1.00 · via SEPA", tone: "success" });
  });
});

describe("the event list", () => {
  const entry = (key: string): EventEntry =>
    eventEntry({ type: "paymentStatusUpdate", data: { paymentId: key, status: "pending", message: "" } }, key, at);

  it("puts the newest first and keeps the 50 newest (docs/product/payments.md#constants)", () => {
    let list: EventEntry[] = [];
    for (let index = 1; index <= 60; index += 1) list = addEvent(list, entry(`e${index}`));
    expect(EVENT_LIST_CAP).toBe(50);
    expect(list).toHaveLength(50);
    expect(list[0]!.key).toBe("e60");
    expect(list.at(-1)!.key).toBe("e11");
  });

  it("does not list the same entry twice", () => {
    const list = addEvent(addEvent([], entry("a")), entry("a"));
    expect(list.map((item) => item.key)).toEqual(["a"]);
  });
});
