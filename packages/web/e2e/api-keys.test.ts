import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import { baseUrl, launchBrowser, newContext, registerSession, screenshot, type StoredSession } from "./harness";
import { waitForAnimationsFinished, waitForScreenSettled } from "./settle";

/**
 * Developers > API keys end to end, in Chromium against the real local stack: a new user creates
 * a key, reads it from the once-only panel, calls the API with it, revokes it in the UI, and the
 * same call is refused.
 */

let browser: Browser;
let session: StoredSession;
beforeAll(async () => {
  browser = await launchBrowser();
  // One user for the file: registration is rate limited.
  session = await registerSession("api-keys", { first: "Ada", last: "Lovelace" });
});
afterAll(async () => {
  await browser?.close();
});

async function accountsWith(key: string): Promise<number> {
  const reply = await fetch(`${baseUrl()}/api/v1/ledger/accounts`, { headers: { Authorization: `Bearer ${key}` } });
  return reply.status;
}

/** The sweep in a11y-sweep.ts sees the empty screen; these states (panel, table, dialog) are checked here. */
async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  expect(violations, `serious or critical axe violations (${label}):\n${formatViolations(violations)}`).toEqual([]);
}

describe("API keys screen", () => {
  it("creates a key shown once, which works until it is revoked in the UI", async () => {
    const context = await newContext(browser, { session });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();

    // Reached from the Developers menu.
    await page.goto("/");
    await page.getByRole("button", { name: "Developers" }).click();
    await page.getByRole("menuitem", { name: /API keys/ }).click();
    await page.waitForURL((url) => url.pathname === "/developers/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    await page.getByText("No API keys yet").waitFor();

    // The server's name rule is checked before sending.
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("A name is required").waitFor();

    await page.getByLabel("Key name").fill("Nightly script");
    await page.getByRole("button", { name: "Create key" }).click();
    const panel = page.getByRole("region", { name: "Your new key: Nightly script" });
    await panel.getByText("Copy this key now. You won't see it again.").waitFor();
    const key = (await panel.getByTestId("new-api-key").textContent())?.trim() ?? "";
    expect(key).toMatch(/^fpk_[A-Za-z0-9_-]{43}$/);

    await panel.getByRole("button", { name: "Copy key" }).click();
    await page.getByText("Code copied to clipboard!").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    // Listed by name and prefix only; the secret never appears in the list.
    const row = page.getByRole("row", { name: /Nightly script/ });
    await row.getByText("Active").waitFor();
    await row.getByText("Never").waitFor();
    expect(await row.textContent()).not.toContain(key);
    expect(await row.textContent()).toContain(`${key.slice(0, 12)}…`);
    await screenshot(page, "api-keys-created");
    await expectAccessible(page, "new key panel and table");

    // Once dismissed, the secret is gone from the page.
    await panel.getByRole("button", { name: "Done, I have copied it" }).click();
    await panel.waitFor({ state: "detached" });
    expect(await page.content()).not.toContain(key);

    expect(await accountsWith(key)).toBe(200);

    await row.getByRole("button", { name: "Revoke Nightly script" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this API key?" });
    await dialog.waitFor();
    await expectAccessible(page, "revoke dialog");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText('API key "Nightly script" revoked').waitFor();
    await row.getByText("Revoked").waitFor();
    expect(await row.getByRole("button", { name: /Revoke/ }).count()).toBe(0);
    await expectAccessible(page, "revoked key");

    expect(await accountsWith(key)).toBe(401);
    await context.close();
  });

  it("creates a key with the scopes picked, lists them, and the API holds the key to them", async () => {
    const context = await newContext(browser, { session });
    const page = await context.newPage();
    await page.goto("/developers/api-keys");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    await waitForScreenSettled(page);

    const scope = (name: string) => page.getByRole("checkbox", { name: new RegExp(`^${name} `) });
    // Every read scope is ticked to start with, no write scope.
    for (const name of ["ledger:read", "payments:read", "kyc:read", "rails:read", "profile:read", "webhooks:read"])
      expect(await scope(name).isChecked(), name).toBe(true);
    for (const name of ["ledger:write", "payments:write", "kyc:write", "webhooks:write"])
      expect(await scope(name).isChecked(), name).toBe(false);

    await page.getByLabel("Key name").fill("Ledger reader");
    for (const name of ["ledger:read", "payments:read", "kyc:read", "rails:read", "profile:read", "webhooks:read"])
      await scope(name).uncheck();
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("Choose at least one scope").waitFor();
    await scope("ledger:read").check();
    await expectAccessible(page, "scope choices");
    await page.getByRole("button", { name: "Create key" }).click();

    const panel = page.getByRole("region", { name: "Your new key: Ledger reader" });
    const key = (await panel.getByTestId("new-api-key").textContent())?.trim() ?? "";
    expect(key).toMatch(/^fpk_[A-Za-z0-9_-]{43}$/);
    const scopes = page.getByRole("list", { name: "Scopes of Ledger reader" });
    await scopes.waitFor();
    expect(await scopes.getByRole("listitem").allTextContents()).toEqual(["ledger:read"]);
    await screenshot(page, "api-keys-scoped");
    await expectAccessible(page, "scoped key in the table");
    await panel.getByRole("button", { name: "Done, I have copied it" }).click();

    expect(await accountsWith(key)).toBe(200);
    const transfer = await fetch(`${baseUrl()}/api/v1/ledger/transactions/transfer`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ from_account_id: "a", to_account_id: "b", amount: "1.00" }),
    });
    expect(transfer.status).toBe(403);
    expect(await transfer.json()).toEqual({
      message: "This API key lacks the scope ledger:write",
      code: "insufficient_scope",
      scope: "ledger:write",
    });
    await context.close();
  });

  it("shows the server's message when the list is refused (an API key used in place of a session)", async () => {
    const context = await newContext(browser, { session, theme: "light" });
    const page = await context.newPage();
    await page.goto("/developers/api-keys");
    await waitForScreenSettled(page);
    const created = await page.evaluate(async (token) => {
      const reply = await fetch("/api/v1/api-keys", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "From a script" }),
      });
      return (await reply.json()) as { data: { key: string } };
    }, session.token);
    // The key itself is refused the key routes (403 session_required): signed in with it, the screen says so.
    await page.evaluate((key) => localStorage.setItem("authToken", key), created.data.key);
    await page.reload();
    await page.getByRole("alert").filter({ hasText: "API keys cannot manage API keys: sign in" }).waitFor();
    await context.close();
  });
});
