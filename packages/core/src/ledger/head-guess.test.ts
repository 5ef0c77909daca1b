import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CoreContext } from "../shared/context";
import { cachedHead, learnHead, rememberHeads } from "./head-cache";
import type { VersionItem } from "./versions";

/**
 * When the write path guesses a chain's head instead of reading it (head-cache.ts, ChainActivity):
 * only while few other writers' versions are expected since the head was known. Pure process
 * state, so no table: a context is just the key the caches hang on, and the clock is faked.
 */

const instance = () => ({ db: {} }) as unknown as CoreContext;
const version = (chain: string, n: number) => ({ chain, version: n }) as VersionItem;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-26T08:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("guessing a chain's head", () => {
  it("a chain only this process writes: its last head is guessed however old (up to the cache's 5 s)", () => {
    const ctx = instance();
    for (let n = 1; n <= 4; n++) {
      rememberHeads(ctx, [version("A", n)]);
      vi.advanceTimersByTime(400);
    }
    vi.advanceTimersByTime(3_000);
    expect(cachedHead(ctx, "A")?.version).toBe(4);
    vi.advanceTimersByTime(2_000);
    expect(cachedHead(ctx, "A")).toBeUndefined();
  });

  it("a chain other writers move: a head is guessed only while under 1.5 foreign versions are expected", () => {
    const ctx = instance();
    rememberHeads(ctx, [version("B", 1)]);
    vi.advanceTimersByTime(2_000);
    // A lost race teaches the winner: versions 2 to 5 came from others in 2 s (2 per second).
    learnHead(ctx, version("B", 5));
    expect(cachedHead(ctx, "B")?.version).toBe(5);
    vi.advanceTimersByTime(700); // 1.4 expected
    expect(cachedHead(ctx, "B")?.version).toBe(5);
    vi.advanceTimersByTime(100); // 1.6 expected
    expect(cachedHead(ctx, "B")).toBeUndefined();
  });

  it("a chain watched too briefly to know its rate: only a head under 250 ms old is guessed", () => {
    const ctx = instance();
    rememberHeads(ctx, [version("C", 7)]);
    vi.advanceTimersByTime(249);
    expect(cachedHead(ctx, "C")?.version).toBe(7);
    vi.advanceTimersByTime(2);
    expect(cachedHead(ctx, "C")).toBeUndefined();
  });

  it("each process keeps its own view", () => {
    const one = instance();
    const two = instance();
    rememberHeads(one, [version("D", 1)]);
    expect(cachedHead(one, "D")?.version).toBe(1);
    expect(cachedHead(two, "D")).toBeUndefined();
  });
});
