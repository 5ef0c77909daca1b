import { describe, expect, it } from "vitest";
import type { CoreContext } from "../shared/context";
import { paymentEventOf, paymentFeedSource, paymentStreamMessage, presentPaymentEvent } from "./events";
import { paymentHistoryFeedIndex, paymentHistoryKey } from "./keys";
import type { PaymentHistoryEntry } from "./model";

/**
 * The payment feed's decoding of history items (docs/payments-and-rails.md#the-payment-feeds) into
 * stream events and messages.
 */

const paymentId = "5c1d9e2a-0b3f-4a6c-8d7e-1f2a3b4c5d6e";
const userId = "user-1";
const at = "2026-05-01T10:00:00.000Z";

function item(entry: PaymentHistoryEntry): Record<string, unknown> & { gsi2sk: string; committed_at: string } {
  return {
    ...paymentHistoryKey(paymentId, entry.seq),
    ...paymentHistoryFeedIndex(userId, at, paymentId, entry.seq),
    entity: "payment_history",
    payment_id: paymentId,
    user_id: userId,
    committed_at: at,
    entry,
  };
}

describe("payment feed decoding", () => {
  it("makes an entry's event a stream event of its payment, with the payment's status at the event", () => {
    const entry: PaymentHistoryEntry = {
      seq: 2,
      at,
      status: "processing",
      event: {
        type: "paymentStatusUpdate",
        data: { paymentId: "someone-else", status: "processing", message: "Sent on Card" },
      },
    };
    const event = paymentEventOf(item(entry));
    // The paymentId is always the item's, whatever the entry's data says.
    expect(event).toEqual({
      type: "paymentStatusUpdate",
      paymentId,
      seq: 2,
      status: "processing",
      payload: { paymentId, status: "processing", message: "Sent on Card" },
    });
    const message = presentPaymentEvent(event!, at);
    expect(message).toEqual({
      event: { paymentStatusUpdate: { paymentId, status: "processing", message: "Sent on Card" } },
      type: "paymentStatusUpdate",
      paymentId,
      status: "processing",
      at,
    });
    expect(() => paymentStreamMessage("paymentStatusUpdate").strict().parse(message)).not.toThrow();
  });

  it("announces nothing for an audit-only entry, and refuses a malformed one", () => {
    expect(
      paymentEventOf(item({ seq: 3, at, status: "processing", event: null, note: "attempt 2 on ACH" })),
    ).toBeNull();
    expect(() =>
      paymentEventOf({
        ...item({ seq: 4, at, status: "processing", event: null }),
        entry: { seq: 4, status: "settled" },
      }),
    ).toThrow();
  });

  it("puts each payment in its own stream, numbered by the history seq, in the payer's feed partition", async () => {
    const source = paymentFeedSource({} as CoreContext, userId);
    expect(source.partitions).toEqual([`FEED#payment#${userId}`]);
    expect(source.streamOf(item({ seq: 7, at, status: "completed", event: null }))).toEqual({
      stream: paymentId,
      seq: 7,
    });
    const decoded = await source.decode([
      item({ seq: 1, at, status: "pending", event: null }),
      item({
        seq: 2,
        at,
        status: "failed",
        event: { type: "paymentError", data: { paymentId, errorMessage: "The receiving account is closed" } },
      }),
    ]);
    expect(decoded.map((events) => events.map((event) => event.type))).toEqual([[], ["paymentError"]]);
  });
});
