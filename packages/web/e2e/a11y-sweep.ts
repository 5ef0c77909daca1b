import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  THEMES,
  VIEWPORTS,
  concretePath,
  launchBrowser,
  newContext,
  screenshot,
  seedRouteRecords,
  verifiedSession,
  type RouteRecords,
  type StoredSession,
} from "./harness";
import { routeTable } from "../src/routes/routeTable";
import { waitForScreenSettled } from "./settle";

/** The SPA's own route table, so a new route is checked without touching this file. */
const routes = routeTable.map(({ path, guarded }) => ({ path, guarded }));

let browser: Browser;
let session: StoredSession;
/** The user's own records, for routes that show one (/payments/:id is a payment of theirs). */
let records: RouteRecords;
beforeAll(async () => {
  browser = await launchBrowser();
  // One user for the file: registration is rate limited. Verified, so they can make the payment
  // that /payments/:id shows.
  session = await verifiedSession("a11y");
  records = await seedRouteRecords(session);
});
afterAll(async () => {
  await browser?.close();
});

async function expectNoBlockingViolations(page: Page, label: string) {
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `a11y-${label}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

/**
 * The axe sweep of every route at one viewport, in both themes. Each viewport has its own test
 * file (a11y.desktop.test.ts, a11y.mobile.test.ts), so the two halves run side by side instead of
 * one long file running alone at the end of the browser tests.
 */
export function sweepAccessibility(viewportName: keyof typeof VIEWPORTS): void {
  const viewport = VIEWPORTS[viewportName];
  for (const theme of THEMES) {
    describe(`${theme} theme at ${viewport.width} px`, () => {
      // One signed-out and one signed-in tab per theme and width, reused across the routes.
      // Reduced motion: the carousel does not rotate and nothing moves under axe's measurements.
      const tabs: {
        signedOut?: { context: BrowserContext; page: Page };
        signedIn?: { context: BrowserContext; page: Page };
      } = {};
      beforeAll(async () => {
        for (const which of ["signedOut", "signedIn"] as const) {
          const context = await newContext(browser, {
            viewport,
            theme,
            reducedMotion: "reduce",
            session: which === "signedIn" ? session : undefined,
          });
          tabs[which] = { context, page: await context.newPage() };
        }
      });
      afterAll(async () => {
        await tabs.signedOut?.context.close();
        await tabs.signedIn?.context.close();
      });

      for (const route of routes) {
        it(`${route.path}${route.guarded ? " (signed in)" : ""}`, async () => {
          const { page } = route.guarded ? tabs.signedIn! : tabs.signedOut!;
          await page.goto(concretePath(route.path, records));
          await waitForScreenSettled(page);
          expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
          await expectNoBlockingViolations(page, `${route.path} ${theme} ${viewportName}`);
        });
      }

      it("the sign-in guard with its toast and login dialog", async () => {
        const guarded = routes.find((route) => route.guarded);
        if (!guarded) return;
        const { page } = tabs.signedOut!;
        await page.goto(guarded.path);
        await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
        await page.getByText("Please login to access this feature").waitFor();
        await waitForScreenSettled(page);
        await expectNoBlockingViolations(page, `guard ${theme} ${viewportName}`);
      });
    });
  }
}
