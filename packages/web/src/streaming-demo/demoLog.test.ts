import { describe, expect, it } from "vitest";
import type { Classified } from "./demoEvents";
import { addArrival, DEMO_LOG_CAP, demoCounters, emptyDemoState, latencyOf, percentile, type Arrival } from "./demoLog";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");

const arrival = (
  key: string,
  classified: Partial<Classified>,
  receivedAtMs = T0,
  createdAt: string | null = null,
): Arrival => ({
  key,
  id: key,
  source: "payment.paymentCompleted",
  classified: { type: "payment", status: "info", title: "t", detail: "d", ...classified },
  createdAt,
  receivedAtMs,
});

describe("the demo's log and counters", () => {
  it("counts nothing before anything arrived: no rate, no latency", () => {
    expect(demoCounters(emptyDemoState(), T0)).toEqual({
      total: 0,
      byType: { payment: 0, risk: 0, reconciliation: 0, webhook: 0 },
      paymentsCompleted: 0,
      paymentsFailed: 0,
      successRate: null,
      eventsPerMinute: 0,
      duplicates: 0,
      latency: null,
    });
  });

  it("counts per type, payments by how they ended (once per payment), and drops a repeated id as a duplicate", () => {
    let state = emptyDemoState();
    state = addArrival(state, arrival("a", { payment: { id: "p1", outcome: null } }));
    state = addArrival(state, arrival("b", { status: "success", payment: { id: "p1", outcome: "completed" } }));
    // paymentCompleted and the completed status update are two events about one payment.
    state = addArrival(state, arrival("c", { status: "success", payment: { id: "p1", outcome: "completed" } }));
    state = addArrival(state, arrival("d", { status: "error", payment: { id: "p2", outcome: "failed" } }));
    state = addArrival(state, arrival("e", { type: "risk" }));
    state = addArrival(state, arrival("f", { type: "reconciliation" }));
    state = addArrival(state, arrival("g", { type: "webhook" }));
    state = addArrival(state, arrival("b", { status: "success", payment: { id: "p1", outcome: "completed" } }));
    const counters = demoCounters(state, T0);
    expect(counters).toMatchObject({
      total: 7,
      byType: { payment: 4, risk: 1, reconciliation: 1, webhook: 1 },
      paymentsCompleted: 1,
      paymentsFailed: 1,
      successRate: 50,
      duplicates: 1,
    });
    expect(state.entries.map((entry) => entry.key)).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
  });

  it("keeps the newest 50 entries in the log while counting every arrival", () => {
    let state = emptyDemoState();
    for (let i = 0; i < DEMO_LOG_CAP + 5; i += 1) state = addArrival(state, arrival(`k${i}`, {}));
    expect(state.entries).toHaveLength(DEMO_LOG_CAP);
    expect(state.entries[0]!.key).toBe("k5");
    expect(state.entries.at(-1)!.key).toBe(`k${DEMO_LOG_CAP + 4}`);
    expect(demoCounters(state, T0).total).toBe(DEMO_LOG_CAP + 5);
  });

  it("events per minute counts the arrivals of the last minute only", () => {
    let state = emptyDemoState();
    state = addArrival(state, arrival("old", {}, T0));
    state = addArrival(state, arrival("new1", {}, T0 + 30_000));
    state = addArrival(state, arrival("new2", {}, T0 + 61_000));
    expect(demoCounters(state, T0 + 61_000).eventsPerMinute).toBe(2);
    expect(demoCounters(state, T0 + 59_000).eventsPerMinute).toBe(2);
    expect(demoCounters(state, T0 + 200_000).eventsPerMinute).toBe(0);
  });

  it("latency is arrival minus commit: p50 by nearest rank and the max; a clock behind the server reads 0", () => {
    expect(latencyOf(null, T0)).toBeNull();
    expect(latencyOf("not a date", T0)).toBeNull();
    expect(latencyOf("2026-01-01T00:00:00.000Z", T0 + 120)).toBe(120);
    expect(latencyOf("2026-01-01T00:00:01.000Z", T0)).toBe(0);
    let state = emptyDemoState();
    const committed = "2026-01-01T00:00:00.000Z";
    for (const [key, delay] of [
      ["a", 10],
      ["b", 40],
      ["c", 20],
      ["d", 300],
    ] as const)
      state = addArrival(state, arrival(key, {}, T0 + delay, committed));
    state = addArrival(state, arrival("no-time", {}, T0 + 5, null));
    expect(demoCounters(state, T0).latency).toEqual({ p50: 20, max: 300, samples: 4 });
    expect(state.entries.find((entry) => entry.key === "b")!.latencyMs).toBe(40);
  });

  it("percentile by nearest rank", () => {
    expect(percentile([5], 50)).toBe(5);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([4, 3, 2, 1, 100], 99)).toBe(100);
  });
});
