/** One server-sent event as the explorer shows it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Splits text/event-stream text into complete events (the SSE wire format: fields per line, a
 * blank line ends an event, ":" lines are comments). Returns the events and the unfinished rest,
 * to be prefixed to the next chunk.
 */
export function parseSseChunk(text: string): { events: SseEvent[]; rest: string } {
  const normalized = text.replace(/\r\n?/g, "\n");
  const blocks = normalized.split("\n\n");
  const rest = blocks.pop() ?? "";
  const events: SseEvent[] = [];
  for (const block of blocks) {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    let hasData = false;
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") {
        data.push(value);
        hasData = true;
      } else if (field === "event") event = value;
      else if (field === "id") id = value;
    }
    if (hasData) events.push({ id, event, data: data.join("\n") });
  }
  return { events, rest };
}
