import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  adminSession,
  baseUrl,
  launchBrowser,
  newContext,
  screenshot,
  THEMES,
  VIEWPORTS,
  verifiedSession,
  type StoredSession,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * /ops against the real stack: an administrator has the console open; another user makes a
 * payment through the API, and it appears in the payments table, marked new, without a reload
 * (through the admin feed on the browser's one live connection). Axe on the console in both
 * themes, at desktop and 390 px, in the same tab.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: StoredSession;
let payer: StoredSession;

async function call<T>(token: string, method: string, route: string, body?: unknown): Promise<T> {
  const reply = await fetch(`${baseUrl()}${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  if (!reply.ok) throw new Error(`${method} ${route}: HTTP ${reply.status} ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  browser = await launchBrowser();
  [admin, payer] = await Promise.all([adminSession(), verifiedSession("ops-payer", { first: "Pia", last: "Payer" })]);
  context = await newContext(browser, { session: admin, theme: "dark", reducedMotion: "reduce" });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function expectNoBlockingViolations(label: string) {
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `ops-${label}`);
  expect(violations, `serious or critical axe violations on /ops ${label}:\n${formatViolations(violations)}`).toEqual(
    [],
  );
}

describe("/ops", () => {
  it("shows another user's new payment in the payments table without a reload", async () => {
    await page.goto("/ops");
    await waitForScreenSettled(page);
    await page.getByRole("status", { name: "Live updates: Live" }).waitFor();
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    const userId = (JSON.parse(payer.user) as { id: string }).id;
    const account = async (name: string) =>
      (await call<{ data: { id: string } }>(payer.token, "POST", "/api/v1/ledger/accounts", { name, currency: "USD" }))
        .data.id;
    const from = await account("Everyday");
    const to = await account("Savings");
    const deposit = (
      await call<{ data: { id: string } }>(payer.token, "POST", "/api/v1/ledger/transactions/deposit", {
        account_id: from,
        amount: "80.00",
      })
    ).data.id;
    await call(payer.token, "POST", `/api/v1/ledger/transactions/${deposit}/post`);
    const paymentId = (
      await call<{ payment: { paymentId: string } }>(payer.token, "POST", "/v1/payments", {
        userId,
        fromAccountId: from,
        toAccountId: to,
        amount: "12.34",
        currency: "USD",
      })
    ).payment.paymentId;

    const payments = page.locator('[data-ops-table="payment"]');
    const row = payments.locator(`tr[data-row-id="${paymentId}"]`);
    await row.waitFor();
    expect(await row.getAttribute("data-fresh")).toBe("true");
    await expect(row.getByRole("cell", { name: "12.34 USD" }).count()).resolves.toBe(1);
    // The deposit's journal arrived the same way.
    await page.locator(`[data-ops-table="journal"] tr[data-row-id="${deposit}"]`).waitFor();
    expect(navigations).toEqual([]);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, "ops-live-payment");
  });

  for (const theme of THEMES) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      it(`passes axe in the ${theme} theme at ${viewport.width} px`, async () => {
        await page.evaluate((chosen) => localStorage.setItem("theme", chosen), theme);
        await page.setViewportSize(viewport);
        await page.reload();
        await waitForScreenSettled(page);
        await page.locator('[data-ops-table="payment"] tbody tr').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
        await screenshot(page, `ops-${theme}-${name}`);
        await expectNoBlockingViolations(`${theme}-${name}`);
      });
    }
  }
});
