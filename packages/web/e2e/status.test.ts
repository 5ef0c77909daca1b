import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MOBILE,
  launchBrowser,
  newContext,
  registerSession,
  screenshot,
  type ContextOptions,
  type StoredSession,
} from "./harness";
import { nextFrames, settleTasks } from "./settle";

let browser: Browser;
let session: StoredSession;

beforeAll(async () => {
  browser = await launchBrowser();
  // One registered user for the file: registering is rate limited per address.
  session = await registerSession("status");
});
afterAll(async () => {
  await browser?.close();
});

/** A context signed in the way the app stores a session (authToken + authUser in localStorage). */
async function signedIn(options: Omit<ContextOptions, "session"> = {}) {
  const context = await newContext(browser, { ...options, session });
  const page = await context.newPage();
  return { context, page };
}

async function openStatus(page: Page) {
  await page.goto("/status");
  await page.getByRole("heading", { level: 1, name: "System Status" }).waitFor();
}

const requestCount = async (page: Page) => Number(await page.getByTestId("metric-requests").getAttribute("data-value"));

async function waitForPanel(page: Page) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="metric-requests"]')?.getAttribute("data-value") !== "",
  );
  await page.getByTestId("metrics-sparkline").waitFor();
}

async function waitForOperationalCards(page: Page) {
  for (const id of ["api", "database", "storage", "auth"]) {
    await page.locator(`[data-testid="service-${id}"][data-status="operational"]`).waitFor();
  }
}

describe("/status", () => {
  it("shows the real overall status, four operational services and live figures (desktop)", async () => {
    const { context, page } = await signedIn();
    await openStatus(page);
    await page.getByRole("heading", { name: "All Systems Operational" }).waitFor();
    expect(await page.getByTestId("status-banner").getAttribute("data-status")).toBe("ok");
    await waitForOperationalCards(page);
    const cards = page
      .getByRole("list")
      .filter({ has: page.getByTestId("service-api") })
      .getByRole("listitem");
    expect(await cards.count()).toBe(4);
    for (const name of ["API", "Database", "Object Storage", "Authentication"]) {
      await page.getByRole("heading", { level: 3, name, exact: true }).waitFor();
    }
    await expect(page.getByTestId("service-auth").textContent()).resolves.toContain("Token signed and verified");
    await waitForPanel(page);
    expect(await requestCount(page)).toBeGreaterThan(0);
    // p50 and p99 are real numbers, p50 ≤ p99.
    const p50 = Number(await page.getByTestId("metric-p50").getAttribute("data-value"));
    const p99 = Number(await page.getByTestId("metric-p99").getAttribute("data-value"));
    expect(p50).toBeGreaterThan(0);
    expect(p50).toBeLessThanOrEqual(p99);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "status-desktop");
    await page.getByTestId("topology").scrollIntoViewIfNeeded();
    await screenshot(page, "status-desktop-topology");
    await context.close();
  });

  it("counts the API calls made, polling the metrics once per 2 s of clock time", async () => {
    const { context, page } = await signedIn();
    const isPoll = (url: string) => new URL(url).pathname === "/api/v1/status/metrics";
    let polls = 0;
    let pollsDone = 0;
    page.on("request", (request) => {
      if (isPoll(request.url())) polls += 1;
    });
    const onPollDone = (request: Request) => {
      if (isPoll(request.url())) pollsDone += 1;
    };
    page.on("requestfinished", onPollDone);
    page.on("requestfailed", onPollDone);
    /** No poll in flight and the app has taken the last reply (a poll in flight absorbs a tick). */
    const pollsIdle = async () => {
      await expect.poll(() => pollsDone === polls).toBe(true);
      await settleTasks(page);
    };
    // The page's timers run on a clock the test controls; time flows normally until paused.
    await page.clock.install();
    await openStatus(page);
    await waitForPanel(page);
    // Counted over the last hour: over a minute, earlier tests' requests on this shared stack
    // slide out of the window while the test waits, and the count can fall as it rises.
    await page.getByLabel("Window").selectOption("3600");
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="metrics-sparkline"]')?.getAttribute("aria-label")?.includes("last hour"),
    );
    const before = await requestCount(page);
    const firstAsOf = await page.getByTestId("performance-panel").getAttribute("data-as-of");

    const statuses = await page.evaluate(async () => {
      const replies = [];
      for (let i = 0; i < 15; i += 1) replies.push((await fetch("/health")).status);
      for (let i = 0; i < 5; i += 1) replies.push((await fetch("/api/v1/no-such-route")).status);
      return replies;
    });
    expect(statuses.filter((status) => status === 200)).toHaveLength(15);
    expect(statuses.filter((status) => status === 404)).toHaveLength(5);

    await page.waitForFunction(
      (minimum) =>
        Number(document.querySelector('[data-testid="metric-requests"]')?.getAttribute("data-value")) >= minimum,
      before + 20,
    );
    expect(await page.getByTestId("performance-panel").getAttribute("data-as-of")).not.toBe(firstAsOf);
    // 4xx are counted apart from the 5xx error rate.
    expect(Number(await page.getByTestId("metric-error-rate").getAttribute("data-value"))).toBe(0);
    await expect(page.getByTestId("performance-panel").textContent()).resolves.toMatch(/4xx \d+\.\d\d%/);

    // Stop the clock and let the poll in flight land; then each 2 s of clock time polls once.
    await page.clock.pauseAt(Date.now() + 10_000);
    await pollsIdle();
    const from = polls;
    for (let step = 1; step <= 3; step += 1) {
      const polled = page.waitForRequest((request) => isPoll(request.url()));
      await page.clock.runFor(2000);
      await polled;
      await pollsIdle();
      expect(polls).toBe(from + step);
    }
    await page.clock.runFor(1000);
    await settleTasks(page);
    expect(polls).toBe(from + 3);
    await context.close();
  });

  it("Refresh spins for one second and refetches everything", async () => {
    const { context, page } = await signedIn();
    await page.clock.install();
    await openStatus(page);
    await waitForOperationalCards(page);
    await waitForPanel(page);
    const refresh = page.getByRole("main").getByRole("button", { name: "Refresh" });
    expect(await refresh.getAttribute("data-spinning")).toBe("false");
    await page.clock.pauseAt(Date.now() + 10_000);

    const refetched = ["/health", "/api/v1/status/services", "/api/v1/status/metrics"].map((path) =>
      page.waitForRequest((request) => new URL(request.url()).pathname === path),
    );
    await refresh.click();
    expect(await refresh.getAttribute("data-spinning")).toBe("true");
    expect(await page.getByTestId("refresh-icon").getAttribute("class")).toContain("animate-spin");
    await Promise.all(refetched);
    // The spin lasts one second of clock time: still on just before it, off at it.
    await page.clock.runFor(999);
    await settleTasks(page);
    expect(await refresh.getAttribute("data-spinning")).toBe("true");
    await page.clock.runFor(1);
    await page.locator('[data-testid="refresh"][data-spinning="false"]').waitFor();
    expect((await page.getByTestId("refresh-icon").getAttribute("class")) ?? "").not.toContain("animate-spin");
    await context.close();
  });

  it("Subscribe is inert and says why, also by keyboard", async () => {
    const { context, page } = await signedIn();
    await openStatus(page);
    // The page's own Subscribe (the footer has a newsletter one).
    const subscribe = page.getByRole("main").getByRole("button", { name: "Subscribe" });
    expect(await subscribe.getAttribute("aria-disabled")).toBe("true");
    const tooltip = page.getByRole("main").getByRole("tooltip");
    expect(await tooltip.textContent()).toBe("Status notifications are not available yet");
    expect(await subscribe.getAttribute("aria-describedby")).toBe(await tooltip.getAttribute("id"));
    // Keyboard: Tab from Refresh reaches Subscribe, and focus shows the tooltip.
    await page.getByRole("main").getByRole("button", { name: "Refresh" }).focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("subscribe");
    await page.waitForFunction(() => getComputedStyle(document.getElementById("subscribe-tooltip")!).opacity === "1");
    // Playwright will not click an aria-disabled control on its own; a user still can.
    await page.keyboard.press("Enter");
    await subscribe.click({ force: true });
    expect(new URL(page.url()).pathname).toBe("/status");
    expect(await page.getByRole("dialog").count()).toBe(0);
    await context.close();
  });

  it("the topology's flow pauses and resumes", async () => {
    const { context, page } = await signedIn();
    await openStatus(page);
    const svg = page.getByTestId("topology");
    await svg.waitFor();
    expect(await svg.getAttribute("data-orientation")).toBe("horizontal");
    expect(await svg.locator("[data-flow-dot]").count()).toBeGreaterThan(0);
    await page.getByRole("img", { name: /Stream topology/ }).waitFor();
    const clock = () =>
      svg.evaluate((element) => ({
        paused: (element as SVGSVGElement).animationsPaused(),
        time: (element as SVGSVGElement).getCurrentTime(),
      }));

    expect(await svg.getAttribute("data-flow")).toBe("running");
    const running1 = await clock();
    expect(running1.paused).toBe(false);
    // The flow's own timeline moves on.
    await svg.evaluate(
      (element, from) =>
        new Promise<void>((resolve) => {
          const check = () =>
            (element as SVGSVGElement).getCurrentTime() > from ? resolve() : requestAnimationFrame(check);
          check();
        }),
      running1.time,
    );

    const toggle = page.getByTestId("topology-toggle");
    expect(await toggle.textContent()).toBe("Pause flow");
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await toggle.textContent()).toBe("Resume flow");
    expect(await svg.getAttribute("data-flow")).toBe("paused");
    const paused1 = await clock();
    // Frames go by (a running flow advances on every one), and the paused one stays put.
    await nextFrames(page);
    await nextFrames(page);
    const paused2 = await clock();
    expect(paused1.paused).toBe(true);
    expect(paused2.time).toBe(paused1.time);

    // Keyboard resumes it.
    await toggle.focus();
    await page.keyboard.press("Enter");
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await svg.getAttribute("data-flow")).toBe("running");
    expect((await clock()).paused).toBe(false);
    await context.close();
  });

  it("with reduced motion nothing moves, and the button still works", async () => {
    const { context, page } = await signedIn({ reducedMotion: "reduce" });
    await openStatus(page);
    const svg = page.getByTestId("topology");
    await svg.waitFor();
    expect(await svg.getAttribute("data-motion")).toBe("reduced");
    expect(await svg.locator("[data-flow-dot]").count()).toBe(0);
    expect(await svg.evaluate((element) => (element as SVGSVGElement).animationsPaused())).toBe(true);
    await page.getByText("Flow animation is off because your system asks for reduced motion.").waitFor();
    const toggle = page.getByTestId("topology-toggle");
    await toggle.click();
    expect(await svg.getAttribute("data-flow")).toBe("paused");
    await toggle.click();
    expect(await svg.getAttribute("data-flow")).toBe("running");
    await context.close();
  });

  it("fits a phone, with the topology top to bottom (mobile screenshot)", async () => {
    const { context, page } = await signedIn({ viewport: MOBILE });
    await openStatus(page);
    await page.getByRole("heading", { name: "All Systems Operational" }).waitFor();
    await waitForOperationalCards(page);
    await waitForPanel(page);
    expect(await page.getByTestId("topology").getAttribute("data-orientation")).toBe("vertical");
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "status-mobile");
    await page.getByTestId("performance-panel").scrollIntoViewIfNeeded();
    await screenshot(page, "status-mobile-performance");
    await page.getByTestId("topology").scrollIntoViewIfNeeded();
    await screenshot(page, "status-mobile-topology");
    await context.close();
  });

  it("reads well in the light theme", async () => {
    const { context, page } = await signedIn({ theme: "light" });
    await openStatus(page);
    await page.getByRole("heading", { name: "All Systems Operational" }).waitFor();
    await waitForOperationalCards(page);
    await waitForPanel(page);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "status-light");
    await page.getByTestId("performance-panel").scrollIntoViewIfNeeded();
    await screenshot(page, "status-light-performance");
    await context.close();
  });
});
