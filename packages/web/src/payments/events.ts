import { PAYMENT_EVENT_TYPES, PaymentEvent, type PaymentEventType } from "@fintech/core/payments/model";
import { jsonObjectOf, type LiveStream } from "../live/feedClient";

/**
 * The payment stream's events (docs/product/payments.md#payment-events: paymentInitiated, paymentStatusUpdate,
 * paymentCompleted, paymentError) as the /payments page reads them, and the page's event list:
 * newest first, capped at 50 entries (docs/product/payments.md#constants).
 */

/** docs/product/payments.md#constants: the event list keeps the 50 newest entries. */
export const EVENT_LIST_CAP = 50;

/** An event as core's model defines it: its type and its data (docs/product/payments.md#payment-events fields). */
export type PaymentLiveEvent = PaymentEvent;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isEventType = (name: string): name is PaymentEventType =>
  (PAYMENT_EVENT_TYPES as readonly string[]).includes(name);

/**
 * One SSE message as an event, or null when it is not one of the four with its fields. The server
 * wraps the fields as docs/product/payments.md#payment-events gives them, `{event: {<type>:
 * {...}}}`; the SSE name says the type, and an unnamed message takes it from the one key under
 * `event`. Flat data is read too.
 */
export function parsePaymentEvent(name: string, data: string): PaymentLiveEvent | null {
  const payload = jsonObjectOf(data);
  if (!payload) return null;
  const wrapped = isRecord(payload.event) ? payload.event : null;
  const type = isEventType(name) ? name : wrapped ? Object.keys(wrapped).find(isEventType) : undefined;
  if (!type) return null;
  const fields = wrapped && isRecord(wrapped[type]) ? wrapped[type] : payload;
  const parsed = PaymentEvent.safeParse({ type, data: fields });
  return parsed.success ? parsed.data : null;
}

/**
 * The payment stream on the shared feed client (live/feedClient.ts): the ledger and KYC streams'
 * reconnect rules (backoff with jitter, resume from the last event id, offline pause). "message"
 * is listened to as well, for a server that sends its events unnamed.
 */
export const PAYMENT_STREAM: LiveStream<PaymentLiveEvent> = {
  label: "Payment stream",
  eventNames: [...PAYMENT_EVENT_TYPES, "message"],
  parse: parsePaymentEvent,
};

export type EventTone = "info" | "success" | "error";

/** One line of the event list. */
export interface EventEntry {
  /** Unique per entry (the page numbers what it receives; the feed already drops replays). */
  key: string;
  type: PaymentEventType;
  title: string;
  detail: string;
  paymentId: string;
  tone: EventTone;
  /** When the page received it (ISO). */
  receivedAt: string;
}

const STATUS_WORDS: Record<string, string> = {
  pending: "Pending",
  processing: "Processing",
  completed: "Completed",
  failed: "Failed",
  parked: "Parked",
  held_for_review: "Held for review",
  awaiting_approval: "Awaiting approval",
};
export const statusWord = (status: string): string => STATUS_WORDS[status] ?? status;

/** What an event says, in words: "Payment Failed" with its errorMessage (docs/product/payments.md#messages). */
export function describeEvent(event: PaymentLiveEvent): Pick<EventEntry, "title" | "detail" | "tone"> {
  switch (event.type) {
    case "paymentInitiated": {
      const { amount, currency, selectedRail, estimatedFee, estimatedTime } = event.data;
      return {
        title: "Payment Initiated",
        detail: `${amount} ${currency} · via ${selectedRail} · fee ${estimatedFee} · about ${estimatedTime}`,
        tone: "info",
      };
    }
    case "paymentStatusUpdate": {
      const { status, message } = event.data;
      // A parked payment did not go through (its hold is released): said as plainly as a failure.
      return {
        title: `Status: ${statusWord(status)}`,
        detail: message,
        tone: status === "failed" || status === "parked" ? "error" : status === "completed" ? "success" : "info",
      };
    }
    case "paymentCompleted":
      return {
        title: "Payment Completed",
        detail: `${event.data.finalAmount} · via ${event.data.railUsed}`,
        tone: "success",
      };
    case "paymentError":
      return { title: "Payment Failed", detail: event.data.errorMessage, tone: "error" };
  }
}

export function eventEntry(event: PaymentLiveEvent, key: string, receivedAt: Date): EventEntry {
  return {
    key,
    type: event.type,
    paymentId: event.data.paymentId,
    receivedAt: receivedAt.toISOString(),
    ...describeEvent(event),
  };
}

/** The list with `entry` on top, the 50 newest kept; an entry whose key is already listed is not added twice. */
export function addEvent(list: readonly EventEntry[], entry: EventEntry, cap = EVENT_LIST_CAP): EventEntry[] {
  if (list.some((existing) => existing.key === entry.key)) return [...list];
  return [entry, ...list].slice(0, Math.max(0, cap));
}
