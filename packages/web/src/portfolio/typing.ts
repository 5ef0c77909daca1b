/**
 * The portfolio's typing animation (docs/product/portfolio.md#typing-animation) as a pure function
 * of elapsed time: the snippet appears one character every 50 ms, stays whole for 2000 ms, then
 * starts again from nothing; the cursor is on for 530 ms and off for 530 ms. No clock in here: the
 * caller adds the milliseconds it saw (and stops adding while the tab is hidden), and tests step
 * time by hand.
 */

export const TYPING_CHAR_MS = 50;
export const TYPING_PAUSE_MS = 2000;
export const CURSOR_BLINK_MS = 530;

export interface TypingTiming {
  charMs: number;
  pauseMs: number;
  blinkMs: number;
}

export const PORTFOLIO_TYPING: TypingTiming = {
  charMs: TYPING_CHAR_MS,
  pauseMs: TYPING_PAUSE_MS,
  blinkMs: CURSOR_BLINK_MS,
};

export type TypingPhase = "typing" | "paused";

export interface TypingFrame {
  phase: TypingPhase;
  /** Characters of the snippet on screen. */
  shown: number;
  cursorVisible: boolean;
  /** Milliseconds until the next change of `shown`, `phase` or the cursor (always > 0). */
  msUntilChange: number;
}

/** One full round: typing every character, then the pause. */
export function typingCycleMs(length: number, timing: TypingTiming = PORTFOLIO_TYPING): number {
  return length * timing.charMs + timing.pauseMs;
}

/** What the animation shows after `elapsedMs` of (visible) running time. */
export function typingFrame(elapsedMs: number, length: number, timing: TypingTiming = PORTFOLIO_TYPING): TypingFrame {
  const elapsed = Math.max(0, elapsedMs);
  const typingMs = length * timing.charMs;
  const inCycle = elapsed % typingCycleMs(length, timing);
  const typing = inCycle < typingMs;
  const shown = typing ? Math.floor(inCycle / timing.charMs) : length;
  const untilText = typing ? timing.charMs - (inCycle % timing.charMs) : typingCycleMs(length, timing) - inCycle;
  const inBlink = elapsed % (timing.blinkMs * 2);
  const cursorVisible = inBlink < timing.blinkMs;
  const untilBlink = cursorVisible ? timing.blinkMs - inBlink : timing.blinkMs * 2 - inBlink;
  return { phase: typing ? "typing" : "paused", shown, cursorVisible, msUntilChange: Math.min(untilText, untilBlink) };
}

/** The still picture for visitors who prefer reduced motion: the whole snippet, a steady cursor. */
export function stillTypingFrame(length: number): TypingFrame {
  return { phase: "paused", shown: length, cursorVisible: true, msUntilChange: Number.POSITIVE_INFINITY };
}
