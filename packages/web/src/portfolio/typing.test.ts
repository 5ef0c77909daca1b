import { describe, expect, it } from "vitest";
import {
  CURSOR_BLINK_MS,
  PORTFOLIO_TYPING,
  stillTypingFrame,
  TYPING_CHAR_MS,
  TYPING_PAUSE_MS,
  typingCycleMs,
  typingFrame,
} from "./typing";

const LENGTH = 10;

/** Walks the animation the way the hook does: jump to each next change, record what is shown. */
function walk(untilMs: number, length = LENGTH) {
  const steps: { at: number; shown: number; phase: string; cursor: boolean }[] = [];
  let at = 0;
  while (at <= untilMs) {
    const frame = typingFrame(at, length);
    steps.push({ at, shown: frame.shown, phase: frame.phase, cursor: frame.cursorVisible });
    at += frame.msUntilChange;
  }
  return steps;
}

describe("typing animation", () => {
  it("uses the documented timing: 50 ms a character, a 2000 ms pause, a 530 ms cursor blink", () => {
    expect(PORTFOLIO_TYPING).toEqual({ charMs: 50, pauseMs: 2000, blinkMs: 530 });
    expect([TYPING_CHAR_MS, TYPING_PAUSE_MS, CURSOR_BLINK_MS]).toEqual([50, 2000, 530]);
  });

  it("types one character every 50 ms from an empty start", () => {
    expect(typingFrame(0, LENGTH)).toMatchObject({ phase: "typing", shown: 0 });
    expect(typingFrame(49, LENGTH).shown).toBe(0);
    expect(typingFrame(50, LENGTH).shown).toBe(1);
    expect(typingFrame(275, LENGTH).shown).toBe(5);
    expect(typingFrame(499, LENGTH)).toMatchObject({ phase: "typing", shown: 9 });
  });

  it("holds the whole snippet for 2000 ms, then restarts from nothing", () => {
    expect(typingFrame(500, LENGTH)).toMatchObject({ phase: "paused", shown: LENGTH });
    expect(typingFrame(2499, LENGTH)).toMatchObject({ phase: "paused", shown: LENGTH });
    expect(typingCycleMs(LENGTH)).toBe(2500);
    expect(typingFrame(2500, LENGTH)).toMatchObject({ phase: "typing", shown: 0 });
    expect(typingFrame(2550, LENGTH).shown).toBe(1);
    // Many rounds later it is still in step.
    expect(typingFrame(2500 * 40 + 125, LENGTH).shown).toBe(2);
  });

  it("blinks the cursor: 530 ms on, 530 ms off", () => {
    expect(typingFrame(0, LENGTH).cursorVisible).toBe(true);
    expect(typingFrame(529, LENGTH).cursorVisible).toBe(true);
    expect(typingFrame(530, LENGTH).cursorVisible).toBe(false);
    expect(typingFrame(1059, LENGTH).cursorVisible).toBe(false);
    expect(typingFrame(1060, LENGTH).cursorVisible).toBe(true);
  });

  it("says when the next change is due, so nothing is shown late and no time is spent on idle ticks", () => {
    const steps = walk(2 * typingCycleMs(LENGTH));
    // Every step shows something new: no wasted wake-ups.
    for (let i = 1; i < steps.length; i += 1) {
      const [before, after] = [steps[i - 1]!, steps[i]!];
      expect(before.shown !== after.shown || before.cursor !== after.cursor || before.phase !== after.phase).toBe(true);
    }
    // Every character and every cursor change is visited at its exact instant.
    const typed = steps.filter((step) => step.at < 500).map((step) => step.shown);
    expect(new Set(typed)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(steps.filter((step) => step.at % 530 === 0 && step.at > 0).length).toBeGreaterThan(0);
    expect(steps.find((step) => step.at === 2500)).toMatchObject({ shown: 0, phase: "typing" });
    expect(steps.every((step) => typingFrame(step.at, LENGTH).msUntilChange > 0)).toBe(true);
  });

  it("an empty snippet only pauses and blinks", () => {
    expect(typingFrame(0, 0)).toMatchObject({ phase: "paused", shown: 0 });
    expect(typingFrame(1234, 0).shown).toBe(0);
  });

  it("under reduced motion shows the whole snippet with a steady cursor and never changes", () => {
    expect(stillTypingFrame(LENGTH)).toEqual({
      phase: "paused",
      shown: LENGTH,
      cursorVisible: true,
      msUntilChange: Number.POSITIVE_INFINITY,
    });
  });
});
