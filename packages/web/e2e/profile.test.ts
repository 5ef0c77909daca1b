import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import { launchBrowser, newContext, registerSession, screenshot, type StoredSession } from "./harness";
import { waitForAnimationsFinished, waitForScreenSettled } from "./settle";

/**
 * Profile settings end to end: changing the sign-in email asks for the current password, refuses
 * a wrong one, and answers the same neutral message whatever the address; the confirmation page
 * changes nothing on load and says so when a link is no good.
 */

let browser: Browser;
let session: StoredSession;
beforeAll(async () => {
  browser = await launchBrowser();
  // One user for the file: registration is rate limited.
  session = await registerSession("profile", { first: "Ada", last: "Lovelace" });
});
afterAll(async () => {
  await browser?.close();
});

async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  expect(violations, `serious or critical axe violations (${label}):\n${formatViolations(violations)}`).toEqual([]);
}

describe("profile settings", () => {
  it("changes the sign-in email only with the current password, with the same reply for any address", async () => {
    const context = await newContext(browser, { session });
    const page = await context.newPage();
    const email = (JSON.parse(session.user) as { email: string }).email;

    // Old links to /profile land on the settings' sign-in email section.
    await page.goto("/profile");
    await page.getByRole("heading", { level: 1, name: "Account settings" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/settings");
    const section = page.getByRole("region", { name: "Sign-in email" });
    await section.getByText(email, { exact: true }).waitFor();
    await waitForScreenSettled(page);

    await section.getByRole("button", { name: "Send confirmation link" }).click();
    await section.getByText("Please enter a valid email address").waitFor();
    await section.getByText("Enter your current password to change your sign-in email").waitFor();
    await expectAccessible(page, "form errors");

    await section.getByLabel("New email").fill("ada-new@example.com");
    await section.getByLabel("Current password").fill("not my password");
    await section.getByRole("button", { name: "Send confirmation link" }).click();
    await section.getByRole("alert").filter({ hasText: "The current password is not correct" }).waitFor();

    const neutral = async (address: string) => {
      await section.getByLabel("New email").fill(address);
      await section.getByLabel("Current password").fill("correct-horse-battery");
      await section.getByRole("button", { name: "Send confirmation link" }).click();
      const status = section.getByRole("status").filter({ hasText: "Check the new address for a confirmation link" });
      await status.waitFor();
      return (await status.textContent())?.trim();
    };
    const forFree = await neutral("ada-new@example.com");
    // An address that has an account gets the very same words.
    const forTaken = await neutral(email);
    expect(forTaken).toBe(forFree);
    expect(forFree).toContain(`stays ${email}`);
    await screenshot(page, "profile-email-change-requested");
    await expectAccessible(page, "neutral reply");
    await context.close();
  });

  it("confirms nothing on load, and says so when a link is no good", async () => {
    const context = await newContext(browser, { theme: "light" });
    const page = await context.newPage();
    await page.goto(`/confirm-email?token=${"A".repeat(43)}`);
    await page.getByRole("heading", { level: 1, name: "Confirm your new sign-in email" }).waitFor();
    await waitForScreenSettled(page);
    await page.getByRole("button", { name: "Confirm email change" }).click();
    await page.getByRole("alert").filter({ hasText: "This confirmation link is invalid or has expired" }).waitFor();
    await expectAccessible(page, "refused link");

    await page.goto("/confirm-email?token=broken");
    await page.getByRole("alert").filter({ hasText: "This confirmation link is invalid or has expired" }).waitFor();
    expect(await page.getByRole("button", { name: "Confirm email change" }).count()).toBe(0);
    await context.close();
  });
});
