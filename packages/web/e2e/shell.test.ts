import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DESKTOP,
  MOBILE,
  launchBrowser,
  newContext,
  newPage,
  pauseClockAhead,
  registerSession,
  screenshot,
  type StoredSession,
} from "./harness";
import { waitForAnimationsFinished } from "./settle";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const path = (url: string) => new URL(url).pathname;

/** One user for the file, registered on first use: registration is rate limited. */
let registered: Promise<StoredSession> | null = null;
const fileUser = () => (registered ??= registerSession("shell", { first: "Shell", last: "Tester" }));

describe("routes", () => {
  it("a guarded route while signed out shows the guard, the toast and the login dialog", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/ledger");
    await page.getByRole("heading", { name: "Authentication Required" }).waitFor();
    await page.getByText("Please login to access this feature").waitFor();
    const dialog = page.getByRole("dialog", { name: "Welcome back" });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-email");
    await screenshot(page, "guard");
    // The dialog switches to registration and back.
    await dialog.getByRole("button", { name: "Sign up" }).click();
    await page.getByRole("dialog", { name: "Create your account" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("register-first-name");
    await page.getByRole("dialog").getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
    await context.close();
  });

  it("signing in from the guard closes the login-required toast at once", async () => {
    const user = await fileUser();
    const { context, page } = await newPage(browser);
    // The page's clock stands still, so the toast cannot have timed out by itself (3 s).
    await page.clock.install();
    await page.goto("/ledger");
    await pauseClockAhead(page, 1_000);
    const toast = page.getByText("Please login to access this feature");
    await toast.waitFor();
    const dialog = page.getByRole("dialog", { name: "Welcome back" });
    await dialog.getByLabel("Email").fill((JSON.parse(user.user) as { email: string }).email);
    await dialog.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
    await dialog.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("heading", { name: "Authentication Required" }).waitFor({ state: "detached" });
    // A dismissed toast leaves after its 1 s exit; well short of its own 3 s.
    await page.clock.runFor(1_000);
    await toast.waitFor({ state: "detached" });
    await context.close();
  });

  it("on a phone the login-required toast stays clear of the login dialog; on desktop it sits top right", async () => {
    const boxes = async (viewport: { width: number; height: number }) => {
      const { context, page } = await newPage(browser, viewport);
      // The page's clock stands still: on a busy machine the 3 s toast must not time out before it is measured.
      await page.clock.install();
      await page.goto("/ledger");
      await pauseClockAhead(page, 1_000);
      const dialog = page.getByRole("dialog", { name: "Welcome back" });
      const toast = page.getByRole("status").filter({ hasText: "Please login to access this feature" });
      await dialog.waitFor();
      await toast.waitFor();
      await waitForAnimationsFinished(page);
      const result = { dialog: (await dialog.boundingBox())!, toast: (await toast.boundingBox())! };
      if (viewport === MOBILE) await screenshot(page, "guard-mobile-toast");
      await context.close();
      return result;
    };
    const overlap = (a: Box, b: Box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

    const phone = await boxes(MOBILE);
    expect(overlap(phone.dialog, phone.toast), JSON.stringify(phone)).toBe(false);
    expect(phone.toast.y + phone.toast.height).toBeLessThanOrEqual(MOBILE.height);

    const desktop = await boxes(DESKTOP);
    expect(desktop.toast.y).toBeLessThan(DESKTOP.height / 2);
    expect(desktop.toast.x + desktop.toast.width).toBeGreaterThan(DESKTOP.width / 2);
  });

  it("/payments is guarded and has no layout", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/payments");
    await page.getByRole("heading", { name: "Authentication Required" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    await context.close();
  });

  it("an unknown path redirects to / replacing history", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/about");
    await page.getByRole("heading", { name: "About the creator" }).waitFor();
    await page.goto("/no/such/page");
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { level: 1, name: "Build production-ready fintech applications" }).waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/about");
    expect(path(page.url())).toBe("/about");
    await context.close();
  });

  it("/landing has the header but no footer", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/landing");
    await page.getByRole("heading", { level: 1, name: "The banking core your product deserves" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(1);
    expect(await page.locator("footer").count()).toBe(0);
    await context.close();
  });
});

describe("theme", () => {
  it("defaults to dark and persists a switch to light across reload", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
    await page.reload();
    await page.getByRole("button", { name: "Switch to dark theme" }).waitFor();
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    await screenshot(page, "home-light");
    await context.close();
  });
});

describe("navigation", () => {
  it("opens one dropdown at a time; a document click and Escape close it", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/");
    const platform = page.getByRole("button", { name: "Platform" });
    const developers = page.getByRole("button", { name: "Developers" });
    await platform.click();
    expect(await platform.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("menuitem", { name: /KYC & Compliance/ }).click();
    await page.getByRole("menuitem", { name: "KYC Dashboard" }).waitFor();
    // Built screens are links, never "Coming soon": Analytics opens the ledger's Analytics tab.
    const analytics = page.getByRole("menuitem", { name: /Analytics & Insights/ });
    expect(await analytics.getAttribute("href")).toBe("/ledger?tab=analytics");
    expect(await analytics.getAttribute("aria-disabled")).toBeNull();
    await screenshot(page, "platform-menu");
    await developers.click();
    expect(await platform.getAttribute("aria-expanded")).toBe("false");
    expect(await developers.getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByRole("menuitem", { name: /Quick Start/ }).getAttribute("href")).toBe(
      "/developers/quickstart",
    );
    expect(await page.locator("[role='menu'] [aria-disabled='true']").count()).toBe(0);
    expect(await page.locator("[role='menu']").getByText("Coming soon").count()).toBe(0);
    await page.mouse.click(640, 600);
    expect(await developers.getAttribute("aria-expanded")).toBe("false");

    await developers.focus();
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Explore API");
    await page.keyboard.press("Escape");
    expect(await developers.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("nav-developers-trigger");
    await context.close();
  });

  it("Analytics & Insights opens the ledger on its Analytics tab, also from the ledger itself", async () => {
    const user = await fileUser();
    const context = await newContext(browser, { session: user });
    const page = await context.newPage();
    await page.goto("/ledger");
    await page.getByRole("tab", { name: "Overview", selected: true }).waitFor();
    await page.getByRole("button", { name: "Platform" }).click();
    await page.getByRole("menuitem", { name: /Analytics & Insights/ }).click();
    await page.waitForURL((url) => url.pathname === "/ledger" && url.search === "?tab=analytics");
    await page.getByRole("tab", { name: "Analytics", selected: true }).waitFor();
    await page.getByRole("tab", { name: "Overview" }).click();
    // The same link again, from the open workspace, selects the tab again.
    await page.getByRole("button", { name: "Platform" }).click();
    await page.getByRole("menuitem", { name: /Analytics & Insights/ }).click();
    await page.getByRole("tab", { name: "Analytics", selected: true }).waitFor();
    await context.close();
  });

  it("navigates from a menu item and scrolls to the top", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/about");
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.getByRole("button", { name: "Developers" }).click();
    await page.getByRole("menuitem", { name: /View Documentation/ }).click();
    await page.waitForURL((url) => url.pathname === "/developers/docs");
    // React Router runs a navigation as a transition: the old screen, still scrolled, stays until
    // the new one (its chunk may still be loading on a busy machine) commits with the scroll reset.
    await page.getByRole("heading", { level: 1, name: "Documentation" }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  it("the dialog traps focus, closes on Escape and returns focus to its opener", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/");
    const login = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" });
    await login.click();
    const dialog = page.getByRole("dialog", { name: "Welcome back" });
    await dialog.waitFor();
    expect(await dialog.getAttribute("aria-modal")).toBe("true");
    // Focus starts on the email field; the close button is the first stop, "Sign up" the last.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("login-email");
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Close dialog");
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Sign up");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Close dialog");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Login");
    await context.close();
  });

  it("has a mobile menu below md", async () => {
    const { context, page } = await newPage(browser, MOBILE);
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Open menu" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    const close = page.getByRole("button", { name: "Close menu" });
    expect(await close.getAttribute("aria-expanded")).toBe("true");
    await page.locator("#mobile-menu").getByRole("button", { name: "Developers" }).click();
    expect(await page.locator("#mobile-menu").getByRole("link", { name: "Quick Start" }).getAttribute("href")).toBe(
      "/developers/quickstart",
    );
    expect(await page.locator("#mobile-menu").getByText("Coming soon").count()).toBe(0);
    await page.locator("#mobile-menu").getByRole("button", { name: "Platform" }).click();
    expect(
      await page.locator("#mobile-menu").getByRole("link", { name: "Analytics & Insights" }).getAttribute("href"),
    ).toBe("/ledger?tab=analytics");
    await screenshot(page, "mobile-menu");
    await page.locator("#mobile-menu").getByRole("link", { name: "Core Ledger" }).click();
    await page.getByRole("heading", { name: "Authentication Required" }).waitFor();
    expect(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
    await context.close();
  });
});
