import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "@fintech/core/auth/model";
import { routeTable } from "../src/routes/routeTable";
import {
  baseUrl,
  closeSignedInTab,
  concretePath,
  launchBrowser,
  MOBILE,
  newContext,
  screenshot,
  seedRouteRecords,
  verifiedSession,
  type RouteRecords,
  type SignedInTab,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * No screen is wider than a 390 px phone: every route of the SPA's own route table (so a new route
 * is checked without touching this file), visited signed in, in one tab. Code blocks and tables
 * scroll inside their own region; the page itself never scrolls sideways.
 */

const tab: Partial<SignedInTab> = {};
/** The signed-in user's own records, for routes that show one (/payments/:id). */
let records: RouteRecords;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${tab.session!.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  if (!reply.ok) throw new Error(`${method} ${path}: HTTP ${reply.status} ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  tab.browser = await launchBrowser();
  // Verified, with two funded accounts, a payment and an API key: the screens show real rows, not empty states.
  tab.session = await verifiedSession("mobile", { first: "Mobile", last: "Visitor" });
  tab.context = await newContext(tab.browser, { viewport: MOBILE, session: tab.session, reducedMotion: "reduce" });
  tab.page = await tab.context.newPage();

  records = await seedRouteRecords(tab.session, { spending: "Phone spending", savings: "Phone savings" });
  // A key with a long name and every scope: the keys table at its widest.
  await call("POST", "/api/v1/api-keys", {
    name: "Nightly reconciliation script for the treasury team",
    scopes: [...API_KEY_SCOPES],
  });
});

afterAll(async () => {
  await closeSignedInTab(tab);
});

interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** The outermost elements reaching past the right edge, to say what widened the page. */
  culprits: string[];
}

async function measureOverflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : "";
      const classes =
        typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).slice(0, 4).join(".")}` : "";
      return `${element.tagName.toLowerCase()}${id}${classes} (${Math.round(element.getBoundingClientRect().right)} px)`;
    };
    // Content inside a region that scrolls or clips sideways within the screen (a code block, a
    // table) does not widen the page.
    const clipped = (element: Element) => {
      // An absolutely positioned box escapes every clipping ancestor below its containing block (a
      // screen-reader-only label in a scrolled table).
      const absolute = element instanceof HTMLElement && getComputedStyle(element).position === "absolute";
      const first = absolute ? (element as HTMLElement).offsetParent : element.parentElement;
      for (let parent = first; parent && parent !== document.body; parent = parent.parentElement) {
        if (
          getComputedStyle(parent).overflowX !== "visible" &&
          parent.getBoundingClientRect().right <= innerWidth + 0.5
        )
          return true;
      }
      return false;
    };
    const wide = Array.from(document.body.querySelectorAll("*")).filter(
      (element) =>
        getComputedStyle(element).position !== "fixed" &&
        element.getBoundingClientRect().right > innerWidth + 0.5 &&
        !clipped(element),
    );
    // Only the outermost: a wide table's cells say nothing more than the table.
    const culprits = wide
      .filter((element) => !wide.some((other) => other !== element && other.contains(element)))
      .slice(0, 5)
      .map(describe);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, culprits };
  });
}

describe(`every route at ${MOBILE.width} px, signed in`, () => {
  for (const route of routeTable) {
    it(route.path, async () => {
      const page = tab.page!;
      await page.goto(concretePath(route.path, records));
      await waitForScreenSettled(page);
      const overflow = await measureOverflow(page);
      expect(overflow.innerWidth).toBe(MOBILE.width);
      if (overflow.scrollWidth > overflow.innerWidth)
        await screenshot(page, `overflow-${route.path.replace(/[^a-z0-9]+/gi, "-")}`);
      expect(
        overflow.scrollWidth,
        `${route.path} is ${overflow.scrollWidth} px wide; widened by: ${overflow.culprits.join(", ")}`,
      ).toBeLessThanOrEqual(overflow.innerWidth);
    });
  }
});
