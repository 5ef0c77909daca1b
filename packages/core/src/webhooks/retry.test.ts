import { describe, expect, it } from "vitest";
import { deliveryIdOf, deliverySortFrom, DELIVERY_SORT_PREFIX, isDeliveryIdOf } from "./delivery-keys";
import { keptAttempts, MAX_MANUAL_ATTEMPTS_KEPT } from "./deliveries";
import { MAX_AUTOMATIC_ATTEMPTS, RETRY_SCHEDULE_MS, type DeliveryAttempt } from "./model";
import { JITTER, nextRetryDelayMs } from "./retry";

describe("the retry schedule", () => {
  it("waits the published schedule, spread by at most 10 % either way, then stops", () => {
    for (let made = 1; made < MAX_AUTOMATIC_ATTEMPTS; made += 1) {
      const base = RETRY_SCHEDULE_MS[made - 1]!;
      expect(nextRetryDelayMs(made, () => 0.5)).toBe(base);
      expect(nextRetryDelayMs(made, () => 0)).toBe(Math.round(base * (1 - JITTER)));
      expect(nextRetryDelayMs(made, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * (1 + JITTER)));
      // A random source out of range is held to the bounds.
      expect(nextRetryDelayMs(made, () => 7)).toBe(Math.round(base * (1 + JITTER)));
      expect(nextRetryDelayMs(made, () => -1)).toBe(Math.round(base * (1 - JITTER)));
    }
    expect(nextRetryDelayMs(0)).toBeNull();
    expect(nextRetryDelayMs(MAX_AUTOMATIC_ATTEMPTS)).toBeNull();
    expect(RETRY_SCHEDULE_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });
});

describe("delivery ids", () => {
  const event = "evt_0mx1onjee8suthpfnaijh181u00";
  it("are the same for one endpoint and event, differ between endpoints, and sort by the event's instant", () => {
    const id = deliveryIdOf("we_a", event);
    expect(deliveryIdOf("we_a", event)).toBe(id);
    expect(deliveryIdOf("we_b", event)).not.toBe(id);
    expect(isDeliveryIdOf("we_a", id)).toBe(true);
    expect(isDeliveryIdOf("we_b", id)).toBe(false);
    expect(isDeliveryIdOf("we_a", `${id}0`)).toBe(false);
    expect(isDeliveryIdOf("we_a", "wd_")).toBe(false);
    expect(() => deliveryIdOf("we_a", "evt_short")).toThrow(RangeError);
    const instant = Number.parseInt(event.slice(4, 13), 36);
    expect(`${DELIVERY_SORT_PREFIX}${id}` >= deliverySortFrom(instant)).toBe(true);
    expect(`${DELIVERY_SORT_PREFIX}${id}` < deliverySortFrom(instant + 1)).toBe(true);
  });
});

describe("the attempts a delivery keeps", () => {
  const attempt = (trigger: DeliveryAttempt["trigger"], index: number): DeliveryAttempt => ({
    at: new Date(index * 1000).toISOString(),
    trigger,
    status_code: 500,
    latency_ms: 1,
    error: null,
    response_excerpt: "",
  });
  it("keeps every automatic attempt and the latest manual ones", () => {
    const automatic = Array.from({ length: MAX_AUTOMATIC_ATTEMPTS }, (_, index) => attempt("automatic", index));
    const manual = Array.from({ length: MAX_MANUAL_ATTEMPTS_KEPT + 5 }, (_, index) => attempt("replay", 100 + index));
    const kept = keptAttempts([...automatic.slice(0, 2), ...manual, ...automatic.slice(2)]);
    expect(kept.filter((entry) => entry.trigger === "automatic")).toEqual(automatic);
    expect(kept.filter((entry) => entry.trigger === "replay")).toEqual(manual.slice(5));
  });
});
