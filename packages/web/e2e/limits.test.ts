import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  baseUrl,
  launchBrowser,
  MOBILE,
  newContext,
  registerSession,
  screenshot,
  setVerificationLevel,
  THEMES,
  VIEWPORTS,
  type StoredSession,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * The limit banner (docs/trust-and-safety.md#verification-levels-and-money-limits), in Chromium
 * against the real local stack: an unverified user sees their level, what they may still deposit,
 * that payments to others wait for verification and the link to /kyc, on the ledger workspace and
 * the payments screen; a deposit over the limit shows the server's message and the banner follows a
 * deposit; once an administrator verifies the user, the banner says so. Both themes, desktop and
 * mobile, axe clean.
 */

let browser: Browser;
let session: StoredSession;
const contexts: BrowserContext[] = [];

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

beforeAll(async () => {
  browser = await launchBrowser();
  // One user for the file: registration is rate limited.
  session = await registerSession("limits", { first: "Lim", last: "Its" });
  const opened = await api<{ data: { id: string } }>("POST", "/api/v1/ledger/accounts", {
    name: "Everyday",
    currency: "USD",
    type: "bank",
  });
  expect(opened.status).toBe(201);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function open(path: string, viewport = VIEWPORTS.desktop, theme: "dark" | "light" = "dark"): Promise<Page> {
  const context = await newContext(browser, { viewport, theme, session });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

const banner = (page: Page) => page.getByRole("region", { name: "Your limits" });

async function expectAccessible(page: Page, label: string) {
  await waitForScreenSettled(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `limits-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

describe("the limit banner", () => {
  it("shows an unverified user's level, remaining deposits, locked payments and the way to /kyc; a refused deposit shows the server's message", {
    timeout: 120_000,
  }, async () => {
    const page = await open("/ledger");
    const limits = banner(page);
    await limits.getByText("Unverified", { exact: true }).waitFor();
    expect(await limits.locator('[data-movement="deposit"]').textContent()).toBe(
      "Deposits (USD): $1,000.00 left of $1,000.00 per 24 hours · $5,000.00 of $5,000.00 left per 30 days",
    );
    expect(await limits.locator('[data-movement="outgoing"]').textContent()).toBe(
      "Payments to others (USD): Not available until your identity is verified",
    );
    expect(await limits.getByRole("link", { name: "Complete verification" }).getAttribute("href")).toBe("/kyc");

    // A deposit over the limit: the form shows the server's refusal as it is.
    await page
      .getByRole("button", { name: /Make Deposit/ })
      .first()
      .click();
    const form = page.getByRole("region", { name: "Make Deposit" });
    await form.getByLabel("Amount").fill("1500");
    await form.getByRole("button", { name: "Create Deposit" }).click();
    await form
      .getByText(
        "This would pass your unverified limit of 1,000.00 USD in deposits per 24 hours: 1,000.00 USD remains. Complete verification at /kyc to raise it.",
      )
      .waitFor();
    await expectAccessible(page, "refused deposit");

    // One that fits: the banner follows.
    await form.getByLabel("Amount").fill("300");
    await form.getByRole("button", { name: "Create Deposit" }).click();
    await limits.getByText("$700.00", { exact: true }).waitFor();
  });

  for (const theme of THEMES) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      it(`passes axe on the ledger workspace and the payments screen (${theme}, ${name})`, {
        timeout: 90_000,
      }, async () => {
        for (const path of ["/ledger", "/payments"]) {
          const page = await open(path, viewport, theme);
          await banner(page).getByText("Unverified", { exact: true }).waitFor();
          await expectAccessible(page, `${path} ${theme} ${name}`);
        }
      });
    }
  }

  it("says Verified, with what may still be paid to others, once an administrator verifies the user", {
    timeout: 60_000,
  }, async () => {
    await setVerificationLevel(session, "verified");
    const page = await open("/payments", MOBILE, "light");
    const limits = banner(page);
    await limits.getByText("Verified", { exact: true }).waitFor();
    await limits.getByText("Level set by an administrator").waitFor();
    expect(await limits.locator('[data-movement="outgoing"]').textContent()).toBe(
      "Payments to others (USD): $25,000.00 left of $25,000.00 per 24 hours · $100,000.00 of $100,000.00 left per 30 days",
    );
    expect(await limits.getByRole("link", { name: "Complete verification" }).count()).toBe(0);
    await expectAccessible(page, "verified payments mobile light");
  });
});
