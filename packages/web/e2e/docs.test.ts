import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOBILE, launchBrowser, newContext, screenshot } from "./harness";

/**
 * The developer hub, the documentation page (search, guides, copy) and the quickstart and
 * examples pages in real Chromium. That their code runs is infra/docs/guide-examples.test.ts.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const guideCards = (page: Page) => page.getByRole("list", { name: "Guides" }).getByRole("listitem");
const cardTitles = async (page: Page) =>
  (await guideCards(page).getByRole("heading").allTextContents()).map((title) => title.trim());

/** Waits until the page has scrolled the element's top into the viewport (smooth scrolling takes a moment). */
async function scrolledIntoView(page: Page, selector: string) {
  await page.waitForFunction((target) => {
    const top = document.querySelector(target)?.getBoundingClientRect().top;
    return top !== undefined && top >= 0 && top < window.innerHeight;
  }, selector);
}

async function search(page: Page, query: string) {
  await page.getByLabel("Search guides").fill(query);
}

describe("/developers/docs", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    page = await context.newPage();
    await page.goto("/developers/docs");
    await page.getByRole("heading", { level: 1, name: "Documentation" }).waitFor();
  });
  afterAll(async () => context?.close());

  it("lists the five guides and filters the cards by title or description, case-insensitively", async () => {
    expect(await cardTitles(page)).toEqual([
      "Getting Started",
      "Authentication",
      "Ledger API",
      "Payment Processing",
      "Real-time APIs",
    ]);

    await search(page, "LEDGER api");
    await page.getByRole("status").filter({ hasText: "1 of 5 guides" }).waitFor();
    expect(await cardTitles(page)).toEqual(["Ledger API"]);

    // Words of descriptions only: "stream tickets" (Authentication, Real-time APIs),
    // "idempotency-key" (Ledger API, Payment Processing).
    await search(page, "stream tickets");
    await page.getByRole("status").filter({ hasText: "2 of 5 guides" }).waitFor();
    expect(await cardTitles(page)).toEqual(["Authentication", "Real-time APIs"]);
    await search(page, "Idempotency-Key");
    await page.getByRole("status").filter({ hasText: "2 of 5 guides" }).waitFor();
    expect(await cardTitles(page)).toEqual(["Ledger API", "Payment Processing"]);

    await search(page, "kubernetes");
    await page.getByRole("status").filter({ hasText: 'No guides match "kubernetes".' }).waitFor();
    expect(await page.getByRole("list", { name: "Guides" }).count()).toBe(0);

    await search(page, "");
    await page.getByRole("status").filter({ hasText: "5 of 5 guides" }).waitFor();
  });

  it("opens a guide from its card: its anchor, headings and code", async () => {
    await search(page, "real-time");
    await guideCards(page).getByRole("link", { name: "Real-time APIs" }).click();
    await page.waitForURL((url) => url.hash === "#realtime");
    const guide = page.locator("section#realtime");
    const title = guide.getByRole("heading", { level: 2, name: "Real-time APIs" });
    await title.waitFor();
    await scrolledIntoView(page, "#realtime-title");
    expect(await guide.getByRole("heading", { level: 3 }).allTextContents()).toContain("Resume with Last-Event-ID");
    const code = await guide.locator("pre").allTextContents();
    expect(code.some((text) => text.includes('-H "Last-Event-ID: $LAST_EVENT_ID"'))).toBe(true);
    expect(code.some((text) => text.includes('fintech.stream("/api/grpc/ledger/stream"'))).toBe(true);
    // Browser-only code says so.
    await guide.getByText("Note: This runs in a web page").waitFor();
    await screenshot(page, "docs-realtime-guide");
  });

  it("copies a code block: the toast, the clipboard and the check mark", async () => {
    const ledger = page.locator("section#ledger");
    const firstShell = ledger.locator("figure[data-language='shell']").nth(1); // [0] is "Before you start"
    await firstShell.scrollIntoViewIfNeeded();
    const copy = firstShell.getByRole("button", { name: "Copy Shell code" });
    await copy.click();
    await page.getByText("Code copied to clipboard!").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await firstShell.locator("pre").innerText());
    expect(await copy.getAttribute("data-copied")).toBe("true");
  });

  it("opens a guide by its address: the payments guide creates a payment and follows it to completed", async () => {
    const other = await context.newPage();
    await other.goto("/developers/docs#payments");
    const guide = other.locator("section#payments");
    await guide.getByRole("heading", { level: 2, name: "Payment Processing" }).waitFor();
    for (const name of [
      "Create a payment",
      "The fee is held with the amount",
      "Follow it to completed",
      "The fee, the rail and the routing decision",
      "Paying another user, or an external beneficiary",
    ]) {
      await guide.getByRole("heading", { level: 3, name }).waitFor();
    }
    await guide.getByText("the hold is released and nothing is charged").waitFor();
    expect(await guide.getByText("not built").count()).toBe(0);
    const code = (await guide.locator("pre").allTextContents()).join("\n");
    for (const call of [
      "/api/v1/rails/quote",
      '-X POST "$BASE_URL/v1/payments"',
      "Idempotency-Key: monthly-savings-2026-11",
      '"$BASE_URL/v1/payments/$PAYMENT"',
      "forceRail",
      "toEmail",
      "beneficiary",
      '"/v1/payments/{id}"',
    ]) {
      expect(code).toContain(call);
    }
    await scrolledIntoView(other, "#payments-title");
    await other.close();
  });

  it("ends with developer support", async () => {
    const footer = page.getByRole("region", { name: "Developer support" });
    await footer.getByText("X-Request-Id").waitFor();
  });
});

describe("/developers hub", () => {
  it("links to each developer screen", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/developers");
    await page.getByRole("heading", { level: 1, name: "Developer hub" }).waitFor();
    const tools = page.getByRole("list", { name: "Developer tools" });
    for (const [name, path, heading] of [
      ["Quickstart", "/developers/quickstart", "Quickstart"],
      ["Documentation", "/developers/docs", "Documentation"],
      ["Examples", "/developers/examples", "Examples"],
      ["API Explorer", "/developers/api-explorer", "API Explorer"],
    ] as const) {
      await tools.getByRole("link", { name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await page.goBack();
      await page.getByRole("heading", { level: 1, name: "Developer hub" }).waitFor();
    }
    expect(await tools.getByRole("link", { name: "API keys", exact: true }).getAttribute("href")).toBe(
      "/developers/api-keys",
    );
    await context.close();
  });
});

describe("/developers/quickstart and /developers/examples", () => {
  it("the quickstart takes the reader from sign-up to a first transfer, with curl and TypeScript", async () => {
    const context = await newContext(browser, { viewport: MOBILE });
    const page = await context.newPage();
    await page.goto("/developers/quickstart");
    await page.getByRole("heading", { level: 1, name: "Quickstart" }).waitFor();
    const steps = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(steps).toEqual(
      expect.arrayContaining([
        "2. Sign up",
        "3. Create an API key",
        "6. Make your first transfer",
        "7. Read the balances",
        "The same in TypeScript",
      ]),
    );
    await page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "6. Make your first transfer" })
      .click();
    await page.waitForURL((url) => url.hash === "#transfer");
    const code = await page.locator("pre").allTextContents();
    expect(code.some((text) => text.includes("Idempotency-Key: quickstart-transfer-1"))).toBe(true);
    expect(code.some((text) => text.includes('import { createFintechClient } from "@fintech/sdk"'))).toBe(true);
    await screenshot(page, "quickstart-mobile");
    await context.close();
  });

  it("the examples page lists its examples and their code", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/developers/examples");
    await page.getByRole("heading", { level: 1, name: "Examples" }).waitFor();
    const toc = await page.getByRole("navigation", { name: "On this page" }).getByRole("link").allTextContents();
    expect(toc).toEqual([
      "Setup: two accounts",
      "Transfers with idempotent retry",
      "Paging through history",
      "CSV export",
      "Streaming with resume",
      "Error handling",
    ]);
    expect(await page.locator("figure[data-language='typescript']").count()).toBeGreaterThanOrEqual(5);
    await context.close();
  });
});
