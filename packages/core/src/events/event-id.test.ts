import { describe, expect, it } from "vitest";
import { EVENT_ID_PATTERN, eventId, eventIdInstant } from "./event-id";

/** Stable event ids (docs/webhooks.md#event-ids): derived from the event alone, sortable by commit instant. */

const AT = Date.parse("2026-01-15T10:00:00.100Z");

describe("eventId", () => {
  it("is the same for the same event, whoever computes it", () => {
    expect(eventId("ledger", "chain-1", 4, 0, AT)).toBe(eventId("ledger", "chain-1", 4, 0, AT));
  });

  it("differs by feed, stream, sequence and index", () => {
    const ids = new Set([
      eventId("ledger", "s", 1, 0, AT),
      eventId("kyc", "s", 1, 0, AT),
      eventId("ledger", "t", 1, 0, AT),
      eventId("ledger", "s", 2, 0, AT),
      eventId("ledger", "s", 1, 1, AT),
    ]);
    expect(ids.size).toBe(5);
  });

  it("matches the published pattern and carries its commit instant", () => {
    for (const at of [0, AT, Date.parse("2100-01-01T00:00:00.000Z")]) {
      const id = eventId("payment", "pay-1", 0, 3, at);
      expect(id).toMatch(EVENT_ID_PATTERN);
      expect(eventIdInstant(id)).toBe(at);
    }
  });

  it("sorts by commit instant, then keeps an item's events in their order", () => {
    const earlier = eventId("ledger", "zzz", 99, 5, AT);
    const later = eventId("ledger", "aaa", 0, 0, AT + 1);
    expect(earlier < later).toBe(true);
    const events = [0, 1, 2, 10, 35, 36, 100].map((index) => eventId("kyc", "sub-1", 7, index, AT));
    expect([...events].sort()).toEqual(events);
  });

  it("refuses what cannot be an event", () => {
    expect(() => eventId("ledger", "s", 0, -1, AT)).toThrow(RangeError);
    expect(() => eventId("ledger", "s", 0, 36 * 36, AT)).toThrow(RangeError);
    expect(() => eventId("ledger", "s", 0, 0, -1)).toThrow(RangeError);
    expect(() => eventId("ledger", "s", 0, 0, 1.5)).toThrow(RangeError);
  });
});

describe("eventIdInstant", () => {
  it("is undefined for anything that is not an event id", () => {
    const id = eventId("ledger", "s", 0, 0, AT);
    for (const bad of ["", "evt_", id.toUpperCase(), `${id}0`, id.slice(0, -1), `evt_${"w".repeat(27)}`, `x${id}`])
      expect(eventIdInstant(bad)).toBeUndefined();
  });
});
