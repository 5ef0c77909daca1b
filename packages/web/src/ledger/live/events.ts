import { LEDGER_EVENT_NAMES, LedgerStreamEvent, type LedgerEventName } from "@fintech/core/ledger/model";
import { jsonObjectOf, type LiveStream } from "../../live/feedClient";

/**
 * The events of the ledger stream (docs/product/ledger-workspace.md#live-updates) as the browser
 * reads them: the schemas are the server's own (core's ledger model), so the two cannot drift. The
 * SSE `event:` name is the event's type; `data:` is JSON with its fields and `at`.
 */
export const LedgerLiveEvent = LedgerStreamEvent;
export type LedgerLiveEvent = LedgerStreamEvent;
export type { LedgerEventName };
/** Every `event:` name the stream sends; the client listens to each (EventSource needs the names). */
export { LEDGER_EVENT_NAMES };

/**
 * One SSE message as an event, or null when its data is not JSON or lacks a field. The SSE name
 * decides the type (the contract repeats it in the data; the name is what the client listened to).
 */
export function parseLedgerEvent(name: string, data: string): LedgerLiveEvent | null {
  const payload = jsonObjectOf(data);
  if (!payload) return null;
  const parsed = LedgerLiveEvent.safeParse({ ...payload, type: name });
  return parsed.success ? parsed.data : null;
}

/** The ledger stream as the shared feed client (live/feedClient.ts) runs it. */
export const LEDGER_STREAM: LiveStream<LedgerLiveEvent> = {
  label: "Ledger stream",
  eventNames: LEDGER_EVENT_NAMES,
  parse: parseLedgerEvent,
};
