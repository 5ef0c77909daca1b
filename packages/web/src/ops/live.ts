import { OPS_FEED_EVENTS, OpsRow, type OpsFeedEventName } from "@fintech/core/ops/model";
import { jsonObjectOf, type LiveStream } from "../live/feedClient";

/**
 * The ops feed's events as the browser reads them (the `ops` scope of the live stream): each is a
 * row of the console's tables, read with the server's own schema. The SSE name is the table.
 */
export const OPS_EVENT_NAMES = Object.keys(OPS_FEED_EVENTS) as OpsFeedEventName[];

export function parseOpsEvent(name: string, data: string): OpsRow | null {
  const payload = jsonObjectOf(data);
  if (!payload || !(OPS_EVENT_NAMES as string[]).includes(name)) return null;
  const parsed = OpsRow.safeParse({ ...payload, table: name });
  return parsed.success ? parsed.data : null;
}

export const OPS_STREAM: LiveStream<OpsRow> = {
  label: "Ops feed",
  eventNames: OPS_EVENT_NAMES,
  parse: parseOpsEvent,
};
