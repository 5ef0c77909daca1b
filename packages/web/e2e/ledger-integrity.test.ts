import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  adminSession,
  baseUrl,
  launchBrowser,
  newContext,
  registerSession,
  screenshot,
  type StoredSession,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * The whole-ledger integrity check in the ledger workspace, against the real embedded stack (its
 * local worker runs the job): an admin starts a check, sees its progress bar, then the stored
 * result (balanced, who started it, when it finished); a user has no such control, and the server
 * refuses the user the routes too.
 */

/** The whole job on the shared stack (every system account's 32 chains), on a loaded 2-core machine. */
const JOB_TIMEOUT_MS = 150_000;

let browser: Browser;
let admin: StoredSession;
let user: StoredSession;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
  user = await registerSession("integrity-user");
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function openLedger(session: StoredSession): Promise<Page> {
  const context = await newContext(browser, { session, theme: "dark", reducedMotion: "reduce" });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/ledger");
  await page.getByText("Ledger workspace", { exact: true }).waitFor();
  await waitForScreenSettled(page);
  return page;
}

async function call<T>(token: string, method: string, path: string): Promise<{ status: number; body: T }> {
  const reply = await fetch(`${baseUrl()}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
  return { status: reply.status, body: (await reply.json()) as T };
}

describe("the ledger integrity panel", () => {
  it("lets an admin run a check, follow its progress and read the stored result", {
    timeout: JOB_TIMEOUT_MS + 60_000,
  }, async () => {
    const page = await openLedger(admin);
    const panel = page.getByRole("region", { name: /Ledger integrity/ });
    await panel.waitFor();
    const status = panel.getByRole("status").first();
    await expect(status.textContent()).resolves.toMatch(/No integrity check has run yet\.|Integrity check finished/);

    // Whether the bar was ever on screen, however quickly the job runs: watched from before the click.
    await page.evaluate(() => {
      const seen = () => !!document.querySelector('[role="progressbar"][aria-label="Integrity check progress"]');
      const observer = new MutationObserver(() => {
        if (seen()) (window as unknown as { sawIntegrityProgress: boolean }).sawIntegrityProgress = true;
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await panel.getByRole("button", { name: "Run integrity check" }).click();

    await page.getByText("Integrity check finished: the ledger is balanced.").waitFor({ timeout: JOB_TIMEOUT_MS });
    expect(
      await page.evaluate(() => (window as unknown as { sawIntegrityProgress?: boolean }).sawIntegrityProgress),
    ).toBe(true);
    await panel.getByText("Balanced", { exact: true }).waitFor();
    const adminName = JSON.parse(admin.user) as { firstName: string; lastName: string };
    await expect(panel.locator("dl").textContent()).resolves.toContain(
      `Started by:${adminName.firstName} ${adminName.lastName}`,
    );
    await expect(panel.locator("dl").textContent()).resolves.toMatch(/Finished:\S/);
    await expect(panel.getByRole("button", { name: "Run integrity check" }).isEnabled()).resolves.toBe(true);

    // What the page shows is the job the server stored, and the whole-ledger read answers with it too.
    const latest = await call<{
      data: { id: string; status: string; result: { ok: boolean; accounts_checked: number } };
    }>(admin.token, "GET", "/api/v1/ledger/integrity/jobs/latest");
    expect(latest.body.data).toMatchObject({ status: "succeeded", result: { ok: true } });
    await expect(panel.locator("dl").textContent()).resolves.toContain(
      `Accounts checked:${latest.body.data.result.accounts_checked.toLocaleString("en-US")}`,
    );
    const stored = await call<{ job_id: string; data: { ok: boolean } }>(
      admin.token,
      "GET",
      "/api/v1/ledger/integrity/ledger",
    );
    expect(stored.body).toMatchObject({ job_id: latest.body.data.id, data: { ok: true } });

    await waitForScreenSettled(page);
    const violations = await blockingViolations(page);
    expect(violations, formatViolations(violations)).toEqual([]);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, "ledger-integrity-admin");
  });

  it("shows a user no integrity control, and the server refuses the user the admin routes", async () => {
    const page = await openLedger(user);
    await page.getByRole("tabpanel").waitFor();
    expect(await page.getByRole("region", { name: /Ledger integrity/ }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Run integrity check" }).count()).toBe(0);
    const refused = await call<{ code: string }>(user.token, "POST", "/api/v1/ledger/integrity/jobs");
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: "admin_required" });
  });
});
