import { describe, expect, it } from "vitest";
import { autoplayRunning, carouselReducer, initialCarousel, tabKeyTarget, wrapIndex } from "./carousel";

describe("wrapIndex", () => {
  it("wraps both ways", () => {
    expect(wrapIndex(6, 6)).toBe(0);
    expect(wrapIndex(-1, 6)).toBe(5);
    expect(wrapIndex(-7, 6)).toBe(5);
    expect(wrapIndex(13, 6)).toBe(1);
    expect(wrapIndex(3, 0)).toBe(0);
  });
});

describe("carouselReducer", () => {
  const start = initialCarousel(6, true);

  it("next and prev wrap around", () => {
    expect(carouselReducer(start, { type: "prev" }).index).toBe(5);
    const last = carouselReducer(start, { type: "go", index: 5 });
    expect(carouselReducer(last, { type: "next" }).index).toBe(0);
  });

  it("go jumps to a slide and keeps the state object when nothing changes", () => {
    expect(carouselReducer(start, { type: "go", index: 3 }).index).toBe(3);
    expect(carouselReducer(start, { type: "go", index: 0 })).toBe(start);
  });

  it("a tick advances only while playing", () => {
    const once = carouselReducer(start, { type: "tick" });
    expect(once.index).toBe(1);
    const paused = carouselReducer(once, { type: "toggle" });
    expect(paused.playing).toBe(false);
    expect(carouselReducer(paused, { type: "tick" })).toBe(paused);
    expect(carouselReducer(paused, { type: "toggle" }).playing).toBe(true);
  });

  it("six ticks come back to the first slide", () => {
    let state = start;
    for (let i = 0; i < 6; i += 1) state = carouselReducer(state, { type: "tick" });
    expect(state.index).toBe(0);
  });

  it("pause is idempotent", () => {
    const paused = carouselReducer(start, { type: "pause" });
    expect(paused.playing).toBe(false);
    expect(carouselReducer(paused, { type: "pause" })).toBe(paused);
  });

  it("starts paused when asked (reduced motion)", () => {
    expect(initialCarousel(6, false)).toEqual({ index: 0, count: 6, playing: false });
  });
});

describe("autoplayRunning", () => {
  const base = { playing: true, held: false, hidden: false, count: 6 };
  it("runs only when playing, not held, visible and with more than one slide", () => {
    expect(autoplayRunning(base)).toBe(true);
    expect(autoplayRunning({ ...base, playing: false })).toBe(false);
    expect(autoplayRunning({ ...base, held: true })).toBe(false);
    expect(autoplayRunning({ ...base, hidden: true })).toBe(false);
    expect(autoplayRunning({ ...base, count: 1 })).toBe(false);
  });
});

describe("tabKeyTarget", () => {
  it("moves with arrows (wrapping), Home and End", () => {
    expect(tabKeyTarget("ArrowRight", 5, 6)).toBe(0);
    expect(tabKeyTarget("ArrowLeft", 0, 6)).toBe(5);
    expect(tabKeyTarget("Home", 4, 6)).toBe(0);
    expect(tabKeyTarget("End", 1, 6)).toBe(5);
    expect(tabKeyTarget("Enter", 1, 6)).toBeNull();
  });
});
