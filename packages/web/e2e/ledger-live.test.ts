import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import { baseUrl, launchBrowser, MOBILE, newContext, registerSession, screenshot, type StoredSession } from "./harness";
import { waitForAnimationsFinished } from "./settle";

/**
 * Live updates of the ledger workspace, in Chromium against the real local stack: two tabs of one
 * signed-in user, each subscribed to the ledger stream. What one tab (or the API) does shows in the
 * other without a reload: the balance toast of docs/product/ledger-workspace.md#live-updates and
 * the new figures. Then the connection is cut and restored, and the events of the gap still arrive;
 * and the Reconcile action shows its result.
 */

let browser: Browser;
let session: StoredSession;
let context: BrowserContext;
let pageA: Page;
let pageB: Page;
let operating: Account;
let savings: Account;

interface Account {
  id: string;
  name: string;
}
interface Journal {
  id: string;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

const indicator = (page: Page, label: string) => page.getByRole("status", { name: `Live updates: ${label}` });
const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).first();
const accountRow = (page: Page, name: string) =>
  page.getByRole("tabpanel", { name: "Accounts" }).getByRole("button", { name: new RegExp(`^${name}`) });

async function openTab(page: Page, name: "Overview" | "Accounts" | "Transactions") {
  await page.getByRole("tab", { name }).press("Enter");
  await page.getByRole("tabpanel", { name }).waitFor();
}

/** A page marked so the test can tell it was never reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => Object.assign(window, { __notReloaded: true }));
}
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded === true);

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerSession("live", { first: "Lin", last: "Live" });
  operating = await call<Account>("POST", "/api/v1/ledger/accounts", { name: "Operating", currency: "USD" });
  savings = await call<Account>("POST", "/api/v1/ledger/accounts", { name: "Savings", currency: "USD" });
  // Two tabs of one browser: the same stored session, each with its own stream.
  context = await newContext(browser, { session, theme: "light" });
  pageA = await context.newPage();
  pageB = await context.newPage();
  for (const page of [pageA, pageB]) {
    await page.goto("/ledger");
    await indicator(page, "Live").waitFor();
    await markPage(page);
  }
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

describe("live ledger updates", () => {
  it("an approve in one tab raises the balance toast and updates the balance in the other", async () => {
    await openTab(pageB, "Accounts");
    await accountRow(pageB, "Operating").filter({ hasText: "$0.00" }).waitFor();

    // A draft deposit (through the API, as another device would) appears in tab A by itself.
    await call<Journal>("POST", "/api/v1/ledger/transactions/deposit", {
      account_id: operating.id,
      amount: "500",
      currency: "USD",
      description: "Invoice 42",
    });
    await openTab(pageA, "Transactions");
    const approve = pageA.getByRole("table").getByRole("button", { name: "Approve deposit of $500.00" });
    await approve.waitFor();
    await approve.press("Enter");

    // Tab B: the 3 s toast and the new balance, with no reload.
    await toast(pageB, "Balance credited: +$500.00 · Operating").waitFor();
    await accountRow(pageB, "Operating").filter({ hasText: "$500.00" }).waitFor();
    await screenshot(pageB, "ledger-live-toast");
    expect(await stillSamePage(pageB)).toBe(true);
    await indicator(pageB, "Live").waitFor();
  });

  it("a tab that lost the network catches up on what happened meanwhile", async () => {
    await openTab(pageB, "Accounts");
    await context.setOffline(true);
    await indicator(pageB, "Offline").waitFor();

    // While tab B is offline, money moves: a transfer is created and approved through the API.
    const transfer = await call<Journal>("POST", "/api/v1/ledger/transactions/transfer", {
      from_account_id: operating.id,
      to_account_id: savings.id,
      amount: "125",
      currency: "USD",
      description: "Reserve",
    });
    await call("POST", `/api/v1/ledger/transactions/${transfer.id}/post`);

    await context.setOffline(false);
    // The events of the gap are delivered on resume: both legs' toasts, and the new figures.
    await Promise.all([
      indicator(pageB, "Live").waitFor(),
      toast(pageB, "Balance debited: −$125.00 · Operating").waitFor(),
      toast(pageB, "Balance credited: +$125.00 · Savings").waitFor(),
    ]);
    await accountRow(pageB, "Operating").filter({ hasText: "$375.00" }).waitFor();
    await accountRow(pageB, "Savings").filter({ hasText: "$125.00" }).waitFor();
    expect(await stillSamePage(pageB)).toBe(true);
  });

  it("Reconcile shows Reconciled ✓ or the signed variance, and the other tab hears of it", async () => {
    await openTab(pageA, "Accounts");
    await accountRow(pageA, "Operating").click();
    await pageA.getByRole("heading", { level: 2, name: "Operating" }).waitFor();
    await pageA.getByRole("button", { name: "Reconcile", exact: true }).press("Enter");
    const dialog = pageA.getByRole("dialog", { name: "Reconcile Operating" });
    const field = dialog.getByLabel("Expected balance (USD)");
    await field.waitFor();

    // Validation first: nothing is sent for an empty or unreadable figure.
    await dialog.getByRole("button", { name: "Reconcile", exact: true }).press("Enter");
    await dialog.getByText("Expected balance is required").waitFor();

    await field.fill("375.00");
    await dialog.getByRole("button", { name: "Reconcile", exact: true }).press("Enter");
    // Waited on together: the other tab's 5 s toast may come before this tab's reply is drawn.
    await Promise.all([
      dialog.getByText("Reconciled ✓").waitFor(),
      toast(pageB, "Reconciliation completed successfully: Operating").waitFor(),
    ]);

    await field.fill("385");
    await dialog.getByRole("button", { name: "Reconcile", exact: true }).press("Enter");
    await Promise.all([
      dialog.getByText("Not reconciled: variance +$10.00").waitFor(),
      toast(pageB, "Reconciliation issue: Operating is off by +$10.00").waitFor(),
    ]);
    await screenshot(pageA, "ledger-live-reconcile");
    await expectAccessible(pageA, "reconcile dialog, light, 1280 px");
    await dialog.getByRole("button", { name: "Close" }).press("Enter");
    await dialog.waitFor({ state: "detached" });
  });

  it("a low-balance threshold set in one tab alerts in the other when spending crosses it", async () => {
    await openTab(pageA, "Accounts");
    await accountRow(pageA, "Operating").click();
    const alertForm = pageA.getByRole("form", { name: "Low-balance alert" });
    await alertForm.getByLabel("Alert below (USD)").fill("300");
    await alertForm.getByRole("button", { name: "Save alert" }).press("Enter");
    await alertForm.getByText("Alerts when the available balance drops below $300.00.").waitFor();

    // Reserving 100 of the 375 leaves 275 available: below 300.
    await call<Journal>("POST", "/api/v1/ledger/transactions/transfer", {
      from_account_id: operating.id,
      to_account_id: savings.id,
      amount: "100",
      currency: "USD",
    });
    await toast(pageB, "Account Operating has $275.00 (below $300.00)").waitFor();
  });

  it("an admin's lock shows at once: the 10 s toast, the Locked badge with its reason, and a transfer out refused in the server's words", async () => {
    const admin = inject("admin");
    const login = await fetch(`${baseUrl()}/api/v1/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    expect(login.status).toBe(200);
    const adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    await openTab(pageB, "Accounts");
    await accountRow(pageB, "Operating").click();

    const lock = await fetch(`${baseUrl()}/api/v1/ledger/accounts/${operating.id}/lock`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ reason: "Suspicious activity" }),
    });
    expect(lock.status).toBe(200);
    await toast(pageB, "Account locked: Operating - Suspicious activity").waitFor();
    await accountRow(pageB, "Operating").filter({ hasText: "Locked" }).waitFor();
    await pageB.getByText(/^Suspicious activity\. Money can still come in/).waitFor();

    // Tab A tries to move money out: 423, and the server's reason on screen.
    await openTab(pageA, "Overview");
    await pageA.getByRole("button", { name: /Transfer Funds/ }).click();
    const transfer = pageA.getByRole("region", { name: "Transfer Funds" });
    // The wizard marks the locked source; choosing it is still allowed, and the server says why not.
    await transfer.getByRole("button", { name: /^Operating Locked/ }).click();
    await transfer.getByRole("button", { name: /^Savings/ }).click();
    await transfer.getByLabel("Amount").fill("10");
    await transfer.getByRole("button", { name: "Review transfer" }).click();
    await transfer.getByRole("button", { name: "Confirm Transfer" }).click();
    await transfer.getByRole("alert").filter({ hasText: "Account is locked: Suspicious activity" }).waitFor();
    await screenshot(pageA, "ledger-live-locked-transfer");
    await transfer.getByRole("button", { name: "Close transfer" }).press("Enter");
    await pageA.getByRole("tabpanel", { name: "Overview" }).waitFor();
  });

  it("the indicator, the locked-account and alert controls and the Reconcile dialog pass axe in the dark theme at 390 px", async () => {
    const phone = await newContext(browser, { session, theme: "dark", viewport: MOBILE, reducedMotion: "reduce" });
    try {
      const page = await phone.newPage();
      await page.goto("/ledger");
      await indicator(page, "Live").waitFor();
      await openTab(page, "Accounts");
      await accountRow(page, "Operating").click();
      await page.getByRole("heading", { level: 2, name: "Operating" }).waitFor();
      await page.getByText(/^Suspicious activity\. Money can still come in/).waitFor();
      await screenshot(page, "ledger-live-locked-mobile-dark");
      await expectAccessible(page, "accounts tab with a locked account, dark, 390 px");
      await page.getByRole("button", { name: "Reconcile", exact: true }).press("Enter");
      const dialog = page.getByRole("dialog", { name: "Reconcile Operating" });
      await dialog.getByLabel("Expected balance (USD)").fill("1");
      await dialog.getByRole("button", { name: "Reconcile", exact: true }).press("Enter");
      await dialog.getByText(/^Not reconciled: variance −\$/).waitFor();
      await screenshot(page, "ledger-live-reconcile-mobile-dark");
      await expectAccessible(page, "reconcile dialog, dark, 390 px");
    } finally {
      await phone.close();
    }
  });
});
