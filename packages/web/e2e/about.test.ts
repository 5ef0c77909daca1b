import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  portfolioContact,
  portfolioExperience,
  portfolioPerson,
  portfolioSkills,
  portfolioSnippet,
} from "../src/portfolio/portfolioSeed";
import { blockingViolations, formatViolations } from "./axe";
import {
  DESKTOP,
  MOBILE,
  launchBrowser,
  newContext,
  pauseClockAhead,
  screenshot,
  type ContextOptions,
} from "./harness";
import { settleTasks } from "./settle";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A tab on /about that records every console error and uncaught exception. */
async function openAbout(options: ContextOptions = {}, beforeLoad?: (page: Page) => Promise<void>) {
  const context: BrowserContext = await newContext(browser, options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await beforeLoad?.(page);
  await page.goto("/about");
  await page.getByRole("heading", { level: 1, name: `About the Creator: ${portfolioPerson.name}` }).waitFor();
  return { context, page, errors };
}

const typed = (page: Page) => page.getByTestId("typed-snippet");
const shownCount = async (page: Page) => Number(await typed(page).getAttribute("data-shown"));
const BACKGROUND_CANVAS = "[data-testid='portfolio-background'] canvas";

/** Remembers the background canvas as it is now (in the page, so no megabytes cross the wire). */
async function rememberCanvas(page: Page) {
  await page.evaluate((selector) => {
    Object.assign(window, { canvasSnapshot: document.querySelector<HTMLCanvasElement>(selector)!.toDataURL() });
  }, BACKGROUND_CANVAS);
}

const canvasChanged = (page: Page) =>
  page.evaluate(
    (selector) =>
      document.querySelector<HTMLCanvasElement>(selector)!.toDataURL() !==
      (window as unknown as { canvasSnapshot: string }).canvasSnapshot,
    BACKGROUND_CANVAS,
  );

/** Lets the page render `count` frames (the background draws at most every other one). */
async function renderFrames(page: Page, count: number) {
  await page.evaluate(
    (frames) =>
      new Promise<void>((resolve) => {
        let seen = 0;
        const tick = () => (++seen >= frames ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    count,
  );
}

/** Makes the tab look hidden (or visible again) to the page, as switching tabs would. */
async function setTabHidden(page: Page, hidden: boolean) {
  await page.evaluate((value) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
    Object.defineProperty(document, "visibilityState", {
      configurable: true,
      get: () => (value ? "hidden" : "visible"),
    });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

describe("/about", () => {
  it("under reduced motion shows the whole snippet at once, a still background, and no console errors", async () => {
    const { context, page, errors } = await openAbout({ reducedMotion: "reduce" });
    expect(await typed(page).textContent()).toBe(portfolioSnippet);
    expect(await typed(page).getAttribute("data-phase")).toBe("paused");
    expect(await page.getByTestId("typing-cursor").getAttribute("data-visible")).toBe("true");

    // The background is decoration only: hidden from assistive technology, never in the way of a click.
    const background = page.getByTestId("portfolio-background");
    expect(await background.getAttribute("aria-hidden")).toBe("true");
    expect(await background.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe("none");

    // One still frame: many frames later the canvas holds the same picture, the snippet too.
    await page.locator(BACKGROUND_CANVAS).waitFor({ state: "attached" });
    await rememberCanvas(page);
    await renderFrames(page, 30);
    expect(await canvasChanged(page)).toBe(false);
    expect(await typed(page).textContent()).toBe(portfolioSnippet);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("types the snippet at 50 ms a character, holds it 2 s, restarts, blinks the cursor, and stops in a hidden tab", async () => {
    // A fake clock that runs on its own while the page loads (React reveals the lazy screen on a
    // timer), then stands still: from there on only runFor moves it.
    const { context, page, errors } = await openAbout({}, (tab) => tab.clock.install());
    await pauseClockAhead(page, 1_000);
    await settleTasks(page);
    const length = portfolioSnippet.length;
    const phase = () => typed(page).getAttribute("data-phase");
    const step = async (ms: number) => {
      await page.clock.runFor(ms);
      await settleTasks(page);
    };

    // Wherever the page got to while loading: finish that round, then step into the next one.
    if ((await phase()) === "typing") await step((length - (await shownCount(page))) * 50);
    expect(await phase()).toBe("paused");
    for (let guard = 0; (await phase()) !== "typing"; guard += 1) {
      expect(guard).toBeLessThan(21);
      await step(100);
    }
    expect(await shownCount(page)).toBeLessThanOrEqual(2);

    // One more character every 50 ms, each a prefix of the snippet.
    for (let i = 0; i < 10; i += 1) {
      const before = await shownCount(page);
      await step(50);
      expect(await shownCount(page)).toBe(before + 1);
      expect(await typed(page).textContent()).toBe(portfolioSnippet.slice(0, before + 1));
    }

    // The cursor changes every 530 ms.
    const cursor = () => page.getByTestId("typing-cursor").getAttribute("data-visible");
    const cursorBefore = await cursor();
    await step(530);
    expect(await cursor()).not.toBe(cursorBefore);
    await step(530);
    expect(await cursor()).toBe(cursorBefore);

    // A hidden tab does no work: time passes, nothing is typed.
    const shownBeforeHiding = await shownCount(page);
    await setTabHidden(page, true);
    await step(5000);
    expect(await shownCount(page)).toBe(shownBeforeHiding);
    await setTabHidden(page, false);
    await settleTasks(page);
    expect(await shownCount(page)).toBe(shownBeforeHiding);

    // Back in view it carries on from where it was to the whole snippet, holds it for 2000 ms
    // (the step into the pause landed somewhere within its first 50 ms), then starts again.
    await step((length - shownBeforeHiding) * 50);
    expect(await typed(page).textContent()).toBe(portfolioSnippet);
    expect(await phase()).toBe("paused");
    await step(1940);
    expect([await phase(), await shownCount(page)]).toEqual(["paused", length]);
    await step(60);
    expect([await phase(), await shownCount(page)]).toEqual(["typing", 0]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("animates the background with motion, and stops drawing while the tab is hidden", async () => {
    const { context, page, errors } = await openAbout();
    await page.locator(BACKGROUND_CANVAS).waitFor({ state: "attached" });
    await rememberCanvas(page);
    await page.waitForFunction(
      (selector) =>
        document.querySelector<HTMLCanvasElement>(selector)!.toDataURL() !==
        (window as unknown as { canvasSnapshot: string }).canvasSnapshot,
      BACKGROUND_CANVAS,
    );
    // Moving shapes behind the panels never cost the text its contrast (axe, as the sweep runs it).
    const violations = await blockingViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);

    await setTabHidden(page, true);
    await renderFrames(page, 2);
    await rememberCanvas(page);
    await renderFrames(page, 30);
    expect(await canvasChanged(page)).toBe(false);

    await setTabHidden(page, false);
    await page.waitForFunction(
      (selector) =>
        document.querySelector<HTMLCanvasElement>(selector)!.toDataURL() !==
        (window as unknown as { canvasSnapshot: string }).canvasSnapshot,
      BACKGROUND_CANVAS,
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it("has the contact links, a timeline alternating by index, five skill categories and a working call to action", async () => {
    const { context, page, errors } = await openAbout({ viewport: DESKTOP, reducedMotion: "reduce" });
    await screenshot(page, "about-desktop-hero");

    const contacts = page.getByTestId("contact-links");
    expect(await contacts.getByRole("link", { name: portfolioContact.email }).getAttribute("href")).toBe(
      `mailto:${portfolioContact.email}`,
    );
    const profile = contacts.getByRole("link", { name: /LinkedIn/ });
    expect(await profile.getAttribute("target")).toBe("_blank");
    expect((await profile.getAttribute("rel"))?.split(" ").sort()).toEqual(["noopener", "noreferrer"]);
    const resume = contacts.getByRole("link", { name: /Download resume/ });
    expect(await resume.getAttribute("download")).toBe(portfolioContact.resume.fileName);
    const paper = contacts.getByRole("link", { name: /Research paper/ });

    // The documents are real files, served as PDFs (not the SPA's index.html fallback).
    for (const link of [resume, paper]) {
      const href = (await link.getAttribute("href"))!;
      const reply = await page.request.get(href);
      expect(reply.status(), href).toBe(200);
      expect(reply.headers()["content-type"]).toMatch(/^application\/pdf/);
      expect((await reply.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    }

    // Professional Journey: three jobs, left, right, left, on either side of the middle.
    const items = page.getByTestId("experience-timeline").locator(":scope > li");
    expect(await items.count()).toBe(portfolioExperience.length);
    expect(await items.evaluateAll((all) => all.map((item) => item.getAttribute("data-side")))).toEqual([
      "left",
      "right",
      "left",
    ]);
    const boxes = await items
      .locator("article")
      .evaluateAll((all) => all.map((card) => card.getBoundingClientRect().toJSON() as DOMRect));
    const timeline = (await page.getByTestId("experience-timeline").boundingBox())!;
    const middle = timeline.x + timeline.width / 2;
    expect(boxes.map((box) => (box.right <= middle ? "left" : box.left >= middle ? "right" : "across"))).toEqual([
      "left",
      "right",
      "left",
    ]);
    await page.getByTestId("experience-timeline").scrollIntoViewIfNeeded();
    await screenshot(page, "about-desktop-timeline");
    for (const [index, job] of portfolioExperience.entries()) {
      const card = items.nth(index);
      for (const text of [job.title, job.company, job.duration, job.description])
        expect(await card.innerText()).toContain(text);
    }

    // Technical Expertise: the five categories in the order of
    // docs/product/portfolio.md#technical-expertise, each with its chips.
    const categories = page.getByTestId("skill-categories").locator(":scope > section");
    expect(await categories.locator("h3").allInnerTexts()).toEqual([
      "Programming & Core",
      "Database & Data",
      "Web & API",
      "Cloud & DevOps",
      "AI & Blockchain",
    ]);
    await page.getByTestId("about-cta").scrollIntoViewIfNeeded();
    await screenshot(page, "about-desktop-expertise");
    for (const [index, category] of portfolioSkills.entries()) {
      expect(await categories.nth(index).locator("li").allInnerTexts()).toEqual([...category.skills]);
    }

    // The call to action: Get in Touch writes an email, View Resume opens the resume PDF in a new tab.
    const cta = page.getByTestId("about-cta");
    await cta.getByRole("heading", { name: "Let's Build Something Impactful" }).waitFor();
    expect(await cta.getByRole("link", { name: "Get in Touch" }).getAttribute("href")).toBe(
      `mailto:${portfolioContact.email}`,
    );
    const viewResume = cta.getByRole("link", { name: /View Resume/ });
    const [popup] = await Promise.all([context.waitForEvent("page"), viewResume.click()]);
    await popup.waitForURL((url) => url.pathname === portfolioContact.resume.href);
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    const reply = await page.request.get(portfolioContact.resume.href);
    expect(reply.status()).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 390 px phone in both themes, the timeline in one column", async () => {
    for (const theme of ["light", "dark"] as const) {
      const { context, page, errors } = await openAbout({ viewport: MOBILE, theme, reducedMotion: "reduce" });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      const cards = page.getByTestId("experience-timeline").locator("article");
      const lefts = await cards.evaluateAll((all) => all.map((card) => Math.round(card.getBoundingClientRect().left)));
      expect(new Set(lefts).size).toBe(1);
      await screenshot(page, `about-mobile-${theme}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
