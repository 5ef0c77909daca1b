import { readFile } from "node:fs/promises";
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
import { waitForAnimationsFinished } from "./settle";

/**
 * /compliance in Chromium against the real local stack: a customer deposits three amounts just
 * under the reporting threshold (through the API); the run's admin opens the reports, sees the
 * structuring candidate with its open case, and exports the candidates as a PDF that downloads and
 * parses as one. The screen passes axe in both themes on desktop and mobile; a customer sees the
 * administrators-only state.
 */

let browser: Browser;
let customer: StoredSession;
let admin: StoredSession;
const contexts: BrowserContext[] = [];

async function call<T>(session: StoredSession, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function open(session: StoredSession): Promise<Page> {
  const context = await newContext(browser, { session, theme: "light", reducedMotion: "reduce" });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/compliance");
  await page.getByRole("heading", { name: "Compliance reports", level: 1 }).waitFor();
  return page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  customer = await verifiedSession("structurer", { first: "Stella", last: "Structurer" });
  admin = await adminSession();
  const account = (
    await call<{ data: { id: string } }>(customer, "POST", "/api/v1/ledger/accounts", { name: "Cash", currency: "USD" })
  ).data;
  for (const amount of ["9000.00", "9500.00", "8500.00"]) {
    const deposit = (
      await call<{ data: { id: string } }>(customer, "POST", "/api/v1/ledger/transactions/deposit", {
        account_id: account.id,
        amount,
        currency: "USD",
        description: "Cash deposit",
      })
    ).data;
    await call(customer, "POST", `/api/v1/ledger/transactions/${deposit.id}/post`);
  }
}, 60_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe("compliance reports in the browser", () => {
  it("the admin sees the structuring candidate and downloads the PDF export", { timeout: 120_000 }, async () => {
    const page = await open(admin);
    const sar = page.getByRole("region", { name: "Suspicious activity candidates" });
    const row = sar.getByRole("row").filter({ hasText: "Stella Structurer" }).filter({ hasText: "Structuring" });
    await row.waitFor();
    await row.getByText(/^3 deposits between 8500\.00 USD and 9500\.00 USD/).waitFor();
    expect(await row.getByText("Open", { exact: true }).count()).toBe(1);

    const downloading = page.waitForEvent("download");
    await sar.getByRole("button", { name: "Export PDF" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^compliance-sar-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.toString("latin1")).toMatch(/\/Type \/Pages/);
    await sar.getByRole("link", { name: /^Download compliance-sar-/ }).waitFor();

    for (const theme of THEMES) {
      await page.evaluate((chosen) => localStorage.setItem("theme", chosen), theme);
      await page.reload();
      await row.waitFor();
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        await waitForAnimationsFinished(page);
        const violations = await blockingViolations(page);
        if (violations.length > 0) await screenshot(page, `compliance-${theme}-${name}`);
        expect(violations, `axe on /compliance, ${theme}, ${name}:\n${formatViolations(violations)}`).toEqual([]);
      }
    }
  });

  it("a customer sees that the reports are for administrators only", async () => {
    const page = await open(customer);
    await page.getByRole("heading", { name: "Administrators only" }).waitFor();
    expect(await page.getByRole("region", { name: "Suspicious activity candidates" }).count()).toBe(0);
  });
});
