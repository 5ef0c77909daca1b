import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { FeedReader, feedSettings, type FeedSource, type OutboxItem } from "../events/feed";
import { paymentFeedPartition } from "./keys";
import {
  PaymentCompletedData,
  PaymentErrorData,
  PaymentHistoryEntry,
  PaymentInitiatedData,
  PaymentStatus,
  PaymentStatusUpdateData,
  type PaymentEventType,
} from "./model";
import { historyRange } from "./store";

/**
 * The payment outbox, read side (the payment streams of docs/product/payments.md#payment-events). A
 * payment's history is its outbox: every committed change of the payment wrote its entries in the
 * same transaction, each in the payer's feed index (gsi2, FEED#payment#<user>) by commit time
 * (docs/payments-and-rails.md#the-payment-feeds). A payment is one stream of the feed and its
 * history seq the stream's gap-free sequence, so the common feed reader (events/feed.ts) resumes a
 * Last-Event-ID without loss or repetition, as the KYC feed does. Entries with an `event` become
 * stream events; the others are audit only.
 */

export interface PaymentFeedEvent {
  type: PaymentEventType;
  paymentId: string;
  seq: number;
  /** The payment's status after the change that announced this event (what status filters match). */
  status: PaymentStatus;
  payload: Record<string, unknown>;
}

/** The feed of one payer's payments; cursors of it are bound to this scope. */
export const paymentFeedScope = (userId: string) => `payment:${userId}`;

/** A history item as the payments store writes it (its entry is parsed where its fields are used). */
interface HistoryItem extends OutboxItem {
  payment_id: string;
  entry: { seq: number } & Record<string, unknown>;
}

/** An entry's stream event; its paymentId is always the payment's (whatever the entry's data says). */
export function paymentEventOf(item: OutboxItem): PaymentFeedEvent | null {
  const history = item as HistoryItem;
  const entry = PaymentHistoryEntry.parse(history.entry);
  if (!entry.event) return null;
  return {
    type: entry.event.type,
    paymentId: history.payment_id,
    seq: entry.seq,
    status: entry.status,
    payload: { ...entry.event.data, paymentId: history.payment_id },
  };
}

export function paymentFeedSource(ctx: CoreContext, userId: string): FeedSource<PaymentFeedEvent> {
  return {
    feed: "payment",
    partitions: [paymentFeedPartition(userId)],
    streamOf: (item) => ({ stream: (item as HistoryItem).payment_id, seq: (item as HistoryItem).entry.seq }),
    range: async (paymentId, from, to) => (await historyRange(ctx, paymentId, from, to)) as unknown as OutboxItem[],
    // History items carry their whole entry: decoding reads nothing more.
    decode: async (items) =>
      items.map((item) => {
        const event = paymentEventOf(item);
        return event ? [event] : [];
      }),
  };
}

export const paymentFeedReader = (ctx: CoreContext, userId: string) =>
  new FeedReader(ctx, paymentFeedSource(ctx, userId), feedSettings(ctx));

/* ---------- the stream's messages (documented in OpenAPI; built from the history entries) ---------- */

/** Each event's payload: the fields docs/product/payments.md#payment-events lists for it. */
export const PAYMENT_EVENT_PAYLOADS = {
  paymentInitiated: PaymentInitiatedData,
  paymentStatusUpdate: PaymentStatusUpdateData,
  paymentCompleted: PaymentCompletedData,
  paymentError: PaymentErrorData,
} satisfies Record<PaymentEventType, z.ZodObject>;

/**
 * One SSE message's data: `{event: {<type>: payload}}` as a client of
 * docs/product/payments.md#payment-events reads it, with the type, the payment, its status at the
 * event (lower case) and the commit time beside it.
 */
export function paymentStreamMessage(type: PaymentEventType) {
  return z.object({
    event: z.object({ [type]: PAYMENT_EVENT_PAYLOADS[type] }),
    type: z.literal(type),
    paymentId: z.string(),
    status: PaymentStatus.describe("The payment's status after the change that announced the event"),
    at: z.string(),
  });
}

export function presentPaymentEvent(event: PaymentFeedEvent, at: string) {
  return {
    event: { [event.type]: event.payload },
    type: event.type,
    paymentId: event.paymentId,
    status: event.status,
    at,
  };
}
