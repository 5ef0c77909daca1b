import type { Page } from "playwright-core";

/**
 * Waits on conditions, never on the wall clock: what the page has finished (animations, queued
 * tasks, scroll events, loading), so the tests are as fast as the machine and never flaky on a
 * slow one.
 */

/** Words the screens use while something is still loading (PageLoading, spinners, checks). */
const LOADING_TEXT = /\b(Loading|Checking)\b/;

/** Resolves once every finite animation and transition has finished; endless ones (spinners) do not count. */
export async function waitForAnimationsFinished(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
}

/**
 * Waits until the screen has settled: its main landmark and h1 are visible, nothing is busy or
 * loading, and every finite animation or transition (toasts, fades) has finished.
 */
export async function waitForScreenSettled(page: Page): Promise<void> {
  await page.locator("main h1").first().waitFor();
  await page.waitForFunction((loadingSource) => {
    const main = document.querySelector("main");
    return !!main && !document.querySelector("[aria-busy='true']") && !new RegExp(loadingSource).test(main.innerText);
  }, LOADING_TEXT.source);
  await waitForAnimationsFinished(page);
}

/**
 * Lets the tasks the page has already queued run (React's scheduler queues its renders as
 * MessageChannel messages, which arrive in order), so a state change a click or a timer caused is
 * on screen. Works under page.clock, which fakes timers and frames but not message channels.
 */
export async function settleTasks(page: Page): Promise<void> {
  for (let round = 0; round < 2; round += 1) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
  }
}

/** Scrolls the window to y, waits for the scroll event (if it moved), then for the page's reaction. */
export async function scrollToAndWait(page: Page, y: number): Promise<void> {
  await page.evaluate(
    (target) =>
      new Promise<void>((resolve) => {
        if (Math.round(window.scrollY) === target) return resolve();
        window.addEventListener("scroll", () => resolve(), { once: true });
        window.scrollTo({ top: target, behavior: "instant" });
      }),
    y,
  );
  await settleTasks(page);
}

/** Waits for the page to render two more frames (real frames: not for pages under page.clock). */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}
