import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, DESKTOP, MOBILE, launchBrowser, newPage, screenshot } from "./harness";
import { nextFrames, scrollToAndWait, settleTasks, waitForAnimationsFinished } from "./settle";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const HOME_TITLE = "Build production-ready fintech applications";
const LANDING_TITLE = "The banking core your product deserves";
/** The fixed header is 64 px high; sections carry scroll-margin-top: 4rem. */
const HEADER_PX = 64;

type HealthReply = { status: string; message: string; database: { in_use: number; max_open_connections: number } };

const pathname = (page: Page) => new URL(page.url()).pathname;
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

async function openHome(page: Page) {
  await page.goto("/");
  await page.getByRole("heading", { level: 1, name: HOME_TITLE }).waitFor();
}

async function openLanding(page: Page) {
  await page.goto("/landing");
  await page.getByRole("heading", { level: 1, name: LANDING_TITLE }).waitFor();
}

/** Waits until the section's top edge sits just under the fixed header (smooth scroll done). */
async function waitForSectionAtTop(page: Page, id: string) {
  await page.waitForFunction(
    ({ id, header }) => {
      const top = document.getElementById(id)?.getBoundingClientRect().top;
      return top !== undefined && Math.abs(top - header) <= 2;
    },
    { id, header: HEADER_PX },
    { timeout: 10_000 },
  );
}

interface LayoutShifts {
  total: number;
  /** Shifts of elements inside the home hero. */
  hero: number;
  /** Shifts of elements inside <main> (the screen itself, not the layout around it). */
  main: number;
  entries: { value: number; nodes: string[] }[];
}

/** Init script: sums layout-shift entries (no recent input) by where the shifted nodes live. */
function recordLayoutShifts() {
  const record = { total: 0, hero: 0, main: 0, entries: [] as { value: number; nodes: string[] }[] };
  (window as unknown as { __shifts: typeof record }).__shifts = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    }[]) {
      if (entry.hadRecentInput) continue;
      const nodes = (entry.sources ?? [])
        .map((source) => source.node)
        .filter((node): node is Element => node instanceof Element);
      record.total += entry.value;
      if (nodes.some((node) => node.closest("[data-testid='home-hero'], [data-testid='landing-hero']")))
        record.hero += entry.value;
      if (nodes.some((node) => node.closest("main"))) record.main += entry.value;
      record.entries.push({
        value: entry.value,
        nodes: nodes.map((node) => `${node.tagName.toLowerCase()}.${node.className}`.slice(0, 60)),
      });
    }
  }).observe({ type: "layout-shift", buffered: true });
}

const readLayoutShifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shifts: LayoutShifts }).__shifts);

async function contextWith(options: {
  viewport?: { width: number; height: number };
  theme?: "light" | "dark";
  reducedMotion?: "reduce" | "no-preference";
}) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: options.viewport ?? DESKTOP,
    reducedMotion: options.reducedMotion ?? "no-preference",
  });
  if (options.theme) {
    await context.addInitScript((theme) => {
      if (!sessionStorage.getItem("theme-seeded")) {
        localStorage.setItem("theme", theme);
        sessionStorage.setItem("theme-seeded", "1");
      }
    }, options.theme);
  }
  const page = await context.newPage();
  return { context, page };
}

describe("home hero", () => {
  it("Start Building scrolls to the features, View Documentation to the gallery", async () => {
    const { context, page } = await newPage(browser);
    await openHome(page);
    const hero = page.getByTestId("home-hero");
    await hero.getByRole("link", { name: "Start Building" }).click();
    await waitForSectionAtTop(page, "features");
    expect(pathname(page)).toBe("/");
    // Keyboard focus follows, so the next Tab starts in the section.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("features-title");

    await page.evaluate(() => window.scrollTo(0, 0));
    await hero.getByRole("link", { name: "View Documentation" }).click();
    await waitForSectionAtTop(page, "gallery");
    expect(pathname(page)).toBe("/");
    await context.close();
  });

  it("is keyboard reachable with a visible focus ring, and the tiles stay out of the tab order at the top", async () => {
    const { context, page } = await newPage(browser);
    await openHome(page);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return {
          text: el?.textContent?.trim() ?? "",
          tile: el?.hasAttribute("data-tile") ?? false,
          outline: el ? getComputedStyle(el).outlineStyle : "none",
        };
      });
    const seen: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press("Tab");
      const now = await focused();
      expect(now.tile).toBe(false);
      seen.push(now.text);
      if (now.text === "View Documentation") {
        expect(now.outline).not.toBe("none");
        break;
      }
    }
    expect(seen).toContain("Start Building");
    expect(seen.at(-1)).toBe("View Documentation");
    // Enter on the focused link scrolls to the gallery.
    await page.keyboard.press("Enter");
    await waitForSectionAtTop(page, "gallery");
    await context.close();
  });

  it("causes no layout shift", async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript(recordLayoutShifts);
    await openHome(page);
    // Everything that could move the page has happened: the health panel loaded, nothing is on
    // the wire, and every entrance animation has finished.
    await page.getByTestId("health-panel").and(page.locator("[data-tone='ok']")).waitFor();
    await page.waitForLoadState("networkidle");
    await waitForAnimationsFinished(page);
    const shifts = await readLayoutShifts(page);
    console.log(
      `home CLS: hero ${shifts.hero.toFixed(4)}, page content ${shifts.main.toFixed(4)}, whole page ${shifts.total.toFixed(4)}`,
      JSON.stringify(shifts.entries),
    );
    expect(shifts.hero).toBeLessThan(0.001);
    expect(shifts.main).toBeLessThan(0.001);
    await context.close();
  });

  it("tiles are inert until the page has scrolled past 40 px, then open their screen; none is marked planned", async () => {
    const { context, page } = await newPage(browser);
    await openHome(page);
    const tiles = page.locator("[data-tile]");
    expect(await tiles.evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual([
      "/ledger",
      "/payments",
      "/payment-rails",
      "/kyc",
      "/reconciliation",
      "/compliance",
      "/treasury",
      "/developers/webhooks",
      "/developers/api-explorer",
      "/ops",
      "/status",
      "/developers/docs#authentication",
      "/developers/quickstart",
      "/developers/docs",
    ]);
    // Every area has a screen now: no tile is badged planned.
    expect(await page.locator("[data-tile-planned]").count()).toBe(0);
    // Rows of 5: 5, 5, 4.
    expect(
      await page
        .locator("[role='group'][aria-label='Product areas'] > ul")
        .evaluateAll((rows) => rows.map((row) => row.children.length)),
    ).toEqual([5, 5, 4]);

    const ledger = page.locator("[data-tile='/ledger']");
    expect(await scrollY(page)).toBe(0);
    expect(await ledger.getAttribute("aria-disabled")).toBe("true");
    expect(await ledger.getAttribute("tabindex")).toBe("-1");
    expect(await ledger.evaluate((el) => getComputedStyle(el).cursor)).toBe("default");
    // A click (dispatched without scrolling the page first) does nothing.
    await ledger.evaluate((el) => (el as HTMLElement).click());
    // A smooth scroll, had the click started one, would have moved within two frames.
    await settleTasks(page);
    await nextFrames(page);
    expect(await scrollY(page)).toBe(0);
    expect(pathname(page)).toBe("/");

    // Exactly 40 px is not enough.
    await scrollToAndWait(page, 40);
    expect(await ledger.getAttribute("aria-disabled")).toBe("true");

    await scrollToAndWait(page, 41);
    await expect.poll(() => ledger.getAttribute("aria-disabled")).toBeNull();
    expect(await ledger.getAttribute("tabindex")).toBeNull();
    expect(await ledger.evaluate((el) => getComputedStyle(el).cursor)).toBe("pointer");

    // The grid is scroll-animated: halfway through its 600 px range the rows sit 24 px apart, alternately.
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect
      .poll(() =>
        page
          .locator("[role='group'][aria-label='Product areas'] > ul")
          .evaluateAll((rows) => rows.map((row) => Math.round(parseFloat(getComputedStyle(row).translate)))),
      )
      .toEqual([24, -24, 24]);

    await page.locator("[data-tile='/developers/quickstart']").click();
    await page.waitForURL((url) => url.pathname === "/developers/quickstart");
    await context.close();
  });

  it("at 390 px every tile is on the page, two to a row, none past the edge", async () => {
    const { context, page } = await newPage(browser, MOBILE);
    await openHome(page);
    const boxes = await page
      .locator("[role='group'][aria-label='Product areas'] li")
      .evaluateAll((items) =>
        items.map((item) => item.getBoundingClientRect()).map((box) => ({ left: box.left, right: box.right })),
      );
    expect(boxes).toHaveLength(14);
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(MOBILE.width);
    }
    expect(
      await page
        .locator("[role='group'][aria-label='Product areas'] > ul")
        .evaluateAll((rows) => rows.map((row) => row.children.length)),
    ).toEqual([2, 2, 2, 2, 2, 2, 2]);
    await context.close();
  });
});

describe("features", () => {
  it("the ten cards with actions navigate; the other two are inert", async () => {
    const { context, page } = await newPage(browser);
    await openHome(page);
    const features = page.locator("#features");
    expect(await features.locator("li").count()).toBe(12);
    const actions = features.locator("[data-feature-card='action']");
    expect(await actions.evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual([
      "/ledger",
      "/payment-rails",
      "/kyc",
      "/grpc-demo",
      "/developers/api-explorer",
      "/status",
      "/reconciliation",
      "/treasury",
      "/ops",
      "/compliance",
    ]);
    const inert = features.locator("[data-feature-card='inert']");
    expect(await inert.locator("h3").allTextContents()).toEqual(["Routing", "Setup"]);
    // Not links, not buttons, not focusable, no pointer.
    expect(
      await inert.evaluateAll((cards) =>
        cards.map((card) => [
          card.tagName,
          card.tabIndex,
          getComputedStyle(card).cursor,
          card.querySelectorAll("a,button,[tabindex]").length,
        ]),
      ),
    ).toEqual(Array(2).fill(["ARTICLE", -1, "default", 0]));
    await inert.filter({ hasText: "Routing" }).click();
    await settleTasks(page);
    await nextFrames(page);
    expect(pathname(page)).toBe("/");

    // A live screen's card names its action; a preview's card says what it is, never "Explore".
    expect(await features.getByRole("link", { name: "Open the ledger" }).getAttribute("href")).toBe("/ledger");
    expect(await features.getByRole("link", { name: "Explore the API" }).getAttribute("href")).toBe(
      "/developers/api-explorer",
    );
    await features.getByRole("link", { name: "Watch the stream" }).click();
    await page.waitForURL((url) => url.pathname === "/grpc-demo");
    await context.close();
  });
});

describe("galleries", () => {
  it("the showcase advances every 5 s; Pause stops it, Play resumes, hover holds it", async () => {
    const { context, page } = await newPage(browser);
    await page.clock.install();
    await openHome(page);
    // From here on, time moves only when the test says so.
    await page.clock.pauseAt(Date.now() + 60_000);
    const current = page.locator("#showcase [aria-roledescription='slide'][data-current='true']");
    const index = async () => Number((await current.getAttribute("aria-label"))!.split(" of ")[0]);
    const next = (i: number) => (i % 6) + 1;

    await page.mouse.move(5, 300);
    let at = await index();
    await page.clock.runFor(5000);
    await expect.poll(index).toBe(next(at));
    at = next(at);
    await page.clock.runFor(5000);
    await expect.poll(index).toBe(next(at));
    at = next(at);

    const pause = page.getByRole("button", { name: "Pause slideshow" });
    await pause.click();
    await page.getByRole("button", { name: "Play slideshow" }).waitFor();
    await page.mouse.move(5, 5);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(15_000);
    await settleTasks(page);
    expect(await index()).toBe(at);

    await page.getByRole("button", { name: "Play slideshow" }).click();
    await page.mouse.move(5, 5);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.clock.runFor(5000);
    await expect.poll(index).toBe(next(at));
    at = next(at);

    // Pointer over the carousel holds the rotation (WAI-ARIA carousel pattern).
    await page.locator("#showcase [data-testid='showcase-slides']").hover();
    await page.clock.runFor(12_000);
    await settleTasks(page);
    expect(await index()).toBe(at);
    await page.mouse.move(5, 5);
    await page.clock.runFor(5000);
    await expect.poll(index).toBe(next(at));
    await context.close();
  });

  it("does not autoplay under prefers-reduced-motion, and the tile grid does not move", async () => {
    const { context, page } = await contextWith({ reducedMotion: "reduce" });
    await page.clock.install();
    await openHome(page);
    await page.getByRole("button", { name: "Play slideshow" }).waitFor();
    await page.clock.runFor(12_000);
    await settleTasks(page);
    expect(await page.locator("#showcase [data-current='true']").getAttribute("aria-label")).toMatch(/^1 of 6/);
    const grid = page.locator("[role='group'][aria-label='Product areas']");
    await scrollToAndWait(page, 300);
    // No progress variable is written, so the grid stays flat and the rows stay put.
    expect(await grid.evaluate((el) => el.style.getPropertyValue("--tile-p"))).toBe("");
    expect(await grid.evaluate((el) => getComputedStyle(el).transform)).toMatch(/^(none|matrix\(1, 0, 0, 1, 0, 0\))$/);
    expect(await grid.locator("ul").evaluateAll((rows) => rows.map((row) => getComputedStyle(row).translate))).toEqual([
      "0px",
      "0px",
      "0px",
    ]);
    await context.close();
  });

  it("the demo gallery's arrows wrap around and its tabs jump", async () => {
    const { context, page } = await newPage(browser);
    await openHome(page);
    const gallery = page.locator("#gallery");
    const tabs = gallery.getByRole("tab");
    expect(await tabs.allTextContents()).toEqual([
      "gRPC Live Streaming",
      "KYC over 220+ countries",
      "Payment Orchestration Dashboard",
      "Core Ledger",
      "KYC & Compliance Dashboard",
      "Developer Console",
    ]);
    const selected = () => gallery.locator("[role='tab'][aria-selected='true']").textContent();
    const panelTitle = () => gallery.getByRole("tabpanel").locator("h3").textContent();
    expect(await selected()).toBe("gRPC Live Streaming");

    await gallery.getByRole("button", { name: "Previous demo" }).click();
    expect(await selected()).toBe("Developer Console");
    expect(await panelTitle()).toBe("Developer Console");
    await gallery.getByRole("button", { name: "Next demo" }).click();
    expect(await selected()).toBe("gRPC Live Streaming");

    await gallery.getByRole("tab", { name: "Core Ledger" }).click();
    expect(await selected()).toBe("Core Ledger");
    const panel = gallery.getByRole("tabpanel", { name: "Core Ledger" });
    await panel.getByRole("img").waitFor();
    expect(await panel.getByRole("listitem").allTextContents()).toEqual([
      "Double entry",
      "Multi-currency",
      "Idempotent posting",
    ]);
    expect(await panel.getByRole("link", { name: "Try Now" }).getAttribute("href")).toBe("/ledger");

    // Arrow keys move between tabs (automatic activation), Home/End jump.
    await page.keyboard.press("ArrowRight");
    expect(await selected()).toBe("KYC & Compliance Dashboard");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("KYC & Compliance Dashboard");
    await page.keyboard.press("End");
    expect(await selected()).toBe("Developer Console");
    await page.keyboard.press("ArrowRight");
    expect(await selected()).toBe("gRPC Live Streaming");

    // Every demo's screen is live: Live Demo and Try Now open it.
    await gallery.getByRole("tab", { name: "Developer Console" }).click();
    const live = gallery.getByRole("tabpanel", { name: "Developer Console" });
    expect(await live.getByRole("button", { name: "Live Demo" }).count()).toBe(1);
    expect(await live.getByRole("link", { name: "Try Now" }).getAttribute("href")).toBe("/developers/api-explorer");
    await gallery.getByRole("tab", { name: "gRPC Live Streaming" }).click();
    const streaming = gallery.getByRole("tabpanel", { name: "gRPC Live Streaming" });
    expect(await streaming.getByText("Coming soon", { exact: true }).count()).toBe(0);
    expect(await streaming.getByRole("link", { name: "Try Now" }).getAttribute("href")).toBe("/grpc-demo");
    await streaming.getByRole("button", { name: "Live Demo" }).click();
    await page.waitForURL((url) => url.pathname === "/grpc-demo");
    await page.getByRole("heading", { name: "Real-time Streaming Demo", level: 1 }).waitFor();
    await context.close();
  });
});

describe("analytics showcase", () => {
  it("shows the live /health figures of the running stack", async () => {
    const { context, page } = await newPage(browser);
    // The figures are live (other browser files use the stack meanwhile), so they are compared
    // with the replies this page itself got, not with a later fetch of ours.
    const replies: HealthReply[] = [];
    page.on("response", (response) => {
      // A refresh answered while the page closes has no body to read any more: nothing to compare.
      if (new URL(response.url()).pathname === "/health" && response.ok())
        response.json().then(
          (body: HealthReply) => replies.push(body),
          () => undefined,
        );
    });
    await openHome(page);
    const panel = page.getByTestId("health-panel");
    await panel.and(page.locator("[data-tone='ok']")).waitFor();
    await expect.poll(() => replies.length).toBeGreaterThan(0);
    const health = replies[replies.length - 1]!;
    expect(health.status).toBe("ok");
    expect(await panel.getByTestId("health-status").getAttribute("data-status")).toBe("ok");
    // People read a word, not the API's raw value.
    expect(await panel.getByTestId("health-status").textContent()).toBe("Healthy");
    expect(await panel.getByTestId("health-message").textContent()).toBe(health.message);
    expect(await panel.getByTestId("health-database").textContent()).toBe("Connected");
    const shownFigures = async () =>
      Object.fromEntries(
        await panel
          .locator("dl > div")
          .evaluateAll((rows) =>
            rows.map((row) => [row.querySelector("dt")?.textContent, row.querySelector("dd")?.textContent]),
          ),
      );
    const expectedFigures = (reply: HealthReply) => ({
      "Max connections": String(reply.database.max_open_connections),
      Utilization: `${Math.round((reply.database.in_use / reply.database.max_open_connections) * 100)}%`,
    });
    // A refresh may land between reading the reply and the screen: the screen shows the last one.
    await expect
      .poll(async () => {
        const figures = await shownFigures();
        const shown = { "Max connections": figures["Max connections"], Utilization: figures["Utilization"] };
        const expected = expectedFigures(replies[replies.length - 1]!);
        return JSON.stringify(shown) === JSON.stringify(expected) ? "as the last reply" : { shown, expected };
      })
      .toBe("as the last reply");

    // Sample parts: four transactions, 24 bars, inert period buttons.
    expect(
      await page
        .locator("#analytics")
        .getByRole("heading", { name: "Recent transactions" })
        .locator("xpath=../..")
        .getByRole("listitem")
        .count(),
    ).toBe(4);
    expect(await page.getByTestId("bar-chart").locator("[data-bar]").count()).toBe(24);
    const heights = await page
      .getByTestId("bar-chart")
      .locator("[data-bar]")
      .evaluateAll((bars) => bars.map((bar) => (bar as HTMLElement).style.height));
    for (const period of ["24H", "7D", "30D"]) {
      expect(await page.getByRole("button", { name: period, exact: true }).getAttribute("aria-disabled")).toBe("true");
    }
    await page.getByRole("button", { name: "7D", exact: true }).click({ force: true });
    await page.reload();
    await page.getByTestId("bar-chart").waitFor();
    // The "random" bars are seeded: the same after a reload.
    expect(
      await page
        .getByTestId("bar-chart")
        .locator("[data-bar]")
        .evaluateAll((bars) => bars.map((bar) => (bar as HTMLElement).style.height)),
    ).toEqual(heights);
    await context.close();
  });

  it("shows 'Unable to connect to backend' when /health fails", async () => {
    const { context, page } = await newPage(browser);
    await page.route("**/health", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "gone" }));
    await openHome(page);
    const panel = page.getByTestId("health-panel");
    await panel.and(page.locator("[data-tone='error']")).waitFor();
    expect(await panel.getByTestId("health-message").textContent()).toBe("Unable to connect to backend");
    expect(await panel.getByTestId("health-database").textContent()).toBe("Disconnected");
    await context.close();
  });
});

describe("footer", () => {
  it("has four link columns, four named social anchors, four badges and an honest newsletter box", async () => {
    const { context, page } = await newPage(browser);
    await openHome(page);
    const footer = page.locator("footer");
    expect(await footer.locator("nav h2").allTextContents()).toEqual(["Platform", "Resources", "Company", "Legal"]);
    expect(
      await footer
        .getByRole("list", { name: "Social media" })
        .getByRole("link")
        .evaluateAll((links) => links.map((link) => link.getAttribute("aria-label"))),
    ).toEqual(["GitHub (coming soon)", "LinkedIn (coming soon)", "X (coming soon)", "YouTube (coming soon)"]);
    expect(await footer.getByText("ISO 27001").count()).toBe(1);
    // No link leaves the site.
    expect(await footer.locator("a[href^='http']").count()).toBe(0);

    const email = footer.getByLabel("Product updates by email");
    await email.fill("not-an-address");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    expect(await footer.getByRole("alert").textContent()).toContain("Enter a valid email address");
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    await email.fill("ada@example.com");
    expect(await email.getAttribute("aria-invalid")).toBeNull();
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Newsletters are not sent yet").waitFor();
    expect(await email.inputValue()).toBe("");

    // A Platform link from another page opens the home section.
    await page.goto("/about");
    await page.locator("footer").getByRole("link", { name: "Demo gallery" }).click();
    // The link moves within the app (no document load to wait for); the section check waits for the page.
    await page.waitForURL((url) => url.pathname === "/" && url.hash === "#gallery", { waitUntil: "commit" });
    await waitForSectionAtTop(page, "gallery");
    await context.close();
  });
});

describe("landing", () => {
  it("hero links lead to /ledger and the documentation; Schedule Demo is inert; footer entries for built screens are links", async () => {
    const { context, page } = await newPage(browser);
    await openLanding(page);
    const hero = page.getByTestId("landing-hero");
    expect(await hero.getByRole("link", { name: "Try Live Demo" }).getAttribute("href")).toBe("/ledger");
    expect(await hero.getByRole("link", { name: "Start Building Now" }).getAttribute("href")).toBe("/ledger");
    expect(await hero.getByRole("link", { name: "View Documentation" }).getAttribute("href")).toBe("/developers/docs");
    const schedule = hero.getByRole("button", { name: "Schedule Demo" });
    expect(await schedule.getAttribute("aria-disabled")).toBe("true");
    await schedule.click({ force: true });
    await settleTasks(page);
    expect(pathname(page)).toBe("/landing");
    expect(await page.locator("dl dd").allTextContents()).toEqual(["10M+", "500+", "99.99%", "50+"]);
    expect(await page.locator("main h3").allTextContents()).toEqual([
      "Bank-grade security",
      "Real-time analytics",
      "Payment processing",
      "Core banking",
      "Global reach",
      "User management",
    ]);
    const landingFooter = page.getByRole("group", { name: "Landing page footer" });
    expect(
      await landingFooter
        .getByRole("link")
        .evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute("href")])),
    ).toEqual([
      ["Core Banking", "/ledger"],
      ["Payments", "/payments"],
      ["KYC", "/kyc"],
      ["Analytics", "/ledger?tab=analytics"],
      ["Documentation", "/developers/docs"],
      ["API Reference", "/developers/api-explorer"],
      ["SDKs", "/developers/docs#getting-started"],
      ["Status", "/status"],
      ["About", "/about"],
    ]);
    // Pages that do not exist are plain text, not links or buttons that do nothing.
    for (const name of ["Careers", "Contact", "Press"])
      expect(await landingFooter.getByText(name, { exact: true }).evaluate((el) => el.closest("a, button"))).toBeNull();
    expect(await landingFooter.locator("button").count()).toBe(0);

    await hero.getByRole("link", { name: "Try Live Demo" }).click();
    await page.waitForURL((url) => url.pathname === "/ledger");
    await context.close();
  });

  it("causes no layout shift", async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript(recordLayoutShifts);
    await openLanding(page);
    await page.waitForLoadState("networkidle");
    await waitForAnimationsFinished(page);
    const shifts = await readLayoutShifts(page);
    console.log(`landing CLS: whole page ${shifts.total.toFixed(4)}`);
    expect(shifts.total).toBeLessThan(0.001);
    await context.close();
  });
});

describe("theme and mobile", () => {
  it("the theme toggle works on Home and Landing and persists", async () => {
    const { context, page } = await newPage(browser);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    await openLanding(page);
    expect(await isDark()).toBe(true);
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    expect(await isDark()).toBe(false);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: LANDING_TITLE }).waitFor();
    expect(await isDark()).toBe(false);

    await openHome(page);
    expect(await isDark()).toBe(false);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    expect(await isDark()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: HOME_TITLE }).waitFor();
    expect(await isDark()).toBe(true);
    await context.close();
  });

  for (const [name, open] of [
    ["Home", openHome],
    ["Landing", openLanding],
  ] as const) {
    it(`the mobile menu opens on ${name} and its links work`, async () => {
      const { context, page } = await newPage(browser, MOBILE);
      await open(page);
      await page.getByRole("button", { name: "Open menu" }).click();
      const menu = page.locator("#mobile-menu");
      await menu.getByRole("link", { name: "About the Creator" }).click();
      await page.waitForURL((url) => url.pathname === "/about");
      expect(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
      await context.close();
    });
  }
});

describe("screenshots", () => {
  const cases: [string, (page: Page) => Promise<void>][] = [
    ["home", openHome],
    ["landing", openLanding],
  ];
  for (const [name, open] of cases) {
    for (const [viewportName, viewport] of [
      ["desktop", DESKTOP],
      ["mobile", MOBILE],
    ] as const) {
      for (const theme of ["dark", "light"] as const) {
        it(`${name}-${viewportName}-${theme}`, async () => {
          let context: BrowserContext | undefined;
          try {
            const opened = await contextWith({ viewport, theme });
            context = opened.context;
            const { page } = opened;
            await open(page);
            expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(
              theme === "dark",
            );
            await waitForAnimationsFinished(page);
            await screenshot(page, `${name}-${viewportName}-${theme}`);
            if (name === "home") {
              for (const section of ["features", "showcase", "gallery", "analytics"]) {
                await page.evaluate((id) => document.getElementById(id)?.scrollIntoView(), section);
                await waitForAnimationsFinished(page);
                await screenshot(page, `home-${section}-${viewportName}-${theme}`);
              }
              await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
              await waitForAnimationsFinished(page);
              await screenshot(page, `home-footer-${viewportName}-${theme}`);
            } else {
              await scrollToAndWait(page, 900);
              await waitForAnimationsFinished(page);
              await screenshot(page, `landing-blocks-${viewportName}-${theme}`);
            }
          } finally {
            await context?.close();
          }
        });
      }
    }
  }
});
