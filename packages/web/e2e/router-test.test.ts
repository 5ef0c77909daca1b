import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOBILE, launchBrowser, newContext, registerSession, screenshot, type StoredSession } from "./harness";

let browser: Browser;
let session: StoredSession;
beforeAll(async () => {
  browser = await launchBrowser();
  // Signed in, so /status shows the status page rather than the sign-in guard. One user per file:
  // registration is rate limited.
  session = await registerSession("router-test");
});
afterAll(async () => {
  await browser?.close();
});

const shown = (page: Page, field: "path" | "query" | "hash" | "key") =>
  page.getByTestId(`location-${field}`).innerText();

/** Waits until the page shows this location; the router renders it after the URL changes. */
async function waitForLocation(page: Page, expected: { path: string; query: string; hash: string }) {
  await page.waitForFunction(
    (want) =>
      document.querySelector("[data-testid='location-path']")?.textContent === want.path &&
      document.querySelector("[data-testid='location-query']")?.textContent === want.query &&
      document.querySelector("[data-testid='location-hash']")?.textContent === want.hash,
    expected,
  );
}

const first = { path: "/router-test", query: "?x=1", hash: "#frag" };
const second = { path: "/router-test", query: "?y=2", hash: "#other" };

describe("/router-test", () => {
  it("shows path, query and hash; navigates away and back, forward, and reloads", async () => {
    const context = await newContext(browser, { session });
    const page = await context.newPage();
    await page.goto("/router-test?x=1#frag");
    await page.getByRole("heading", { level: 1, name: "Router test" }).waitFor();
    await waitForLocation(page, first);
    expect([await shown(page, "path"), await shown(page, "query"), await shown(page, "hash")]).toEqual([
      "/router-test",
      "?x=1",
      "#frag",
    ]);
    const firstKey = await shown(page, "key");

    // Away to /status with a button, back with the browser: the same history entry, same key.
    await page.getByRole("button", { name: "/status", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/status");
    await page.getByRole("heading", { level: 1, name: "System Status" }).waitFor();
    await page.goBack();
    await waitForLocation(page, first);
    expect(await shown(page, "key")).toBe(firstKey);

    // The page's Forward returns to /status.
    await page.getByRole("button", { name: "Forward", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/status");
    await page.getByRole("heading", { level: 1, name: "System Status" }).waitFor();
    await page.goBack();
    await waitForLocation(page, first);

    // A path of one's own, then the page's Back and Forward between the two entries.
    await page.getByLabel("Path", { exact: true }).fill("/router-test?y=2#other");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await waitForLocation(page, second);
    expect(new URL(page.url()).search).toBe("?y=2");
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await waitForLocation(page, first);
    expect(await shown(page, "key")).toBe(firstKey);
    await page.getByRole("button", { name: "Forward", exact: true }).click();
    await waitForLocation(page, second);

    // Reload is a full page load: a marker on window is gone afterwards, the location stays.
    await page.evaluate(() => Object.assign(window, { routerTestMarker: true }));
    await page.getByRole("button", { name: "Reload", exact: true }).click();
    await page.waitForFunction(
      () => !("routerTestMarker" in window) && document.querySelector("[data-testid='location-path']") !== null,
    );
    await waitForLocation(page, second);
    await context.close();
  });

  it("refuses a path to another host and stays put", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/router-test");
    await waitForLocation(page, { path: "/router-test", query: "none", hash: "none" });
    const field = page.getByLabel("Path", { exact: true });
    await field.fill("//example.com/phish");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Only paths on this site can be opened here." }).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(new URL(page.url()).pathname).toBe("/router-test");
    await field.fill("ledger");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "starts with /" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/router-test");
    await context.close();
  });

  it("fits a 390 px phone in both themes, with all nine buttons on screen width", async () => {
    for (const theme of ["light", "dark"] as const) {
      const context = await newContext(browser, { viewport: MOBILE, theme });
      const page = await context.newPage();
      await page.goto("/router-test?x=1#frag");
      await waitForLocation(page, first);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
      const buttons = page.locator("main button");
      const names = await buttons.allInnerTexts();
      for (const name of ["/", "/ledger", "/kyc", "/developers", "/grpc-demo", "/status", "Back", "Forward", "Reload"])
        expect(names).toContain(name);
      for (const right of await buttons.evaluateAll((all) =>
        all.map((button) => button.getBoundingClientRect().right),
      )) {
        expect(right).toBeLessThanOrEqual(MOBILE.width);
      }
      await screenshot(page, `router-test-mobile-${theme}`);
      await context.close();
    }
  });
});
