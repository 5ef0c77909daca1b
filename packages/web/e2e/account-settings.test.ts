import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  baseUrl,
  launchBrowser,
  newContext,
  registerSession,
  screenshot,
  THEMES,
  uniqueEmail,
  type StoredSession,
} from "./harness";
import { waitForAnimationsFinished, waitForScreenSettled } from "./settle";

/**
 * Account settings end to end: a password change keeps this session and signs in again with the
 * new password; a forgotten password is reset through the link in the local mail sink (/dev/mail);
 * /settings passes axe in both themes.
 */

const PASSWORD = "correct-horse-battery";
let browser: Browser;
let changer: StoredSession;
let forgetful: StoredSession;
beforeAll(async () => {
  browser = await launchBrowser();
  changer = await registerSession("settings", { first: "Ada", last: "Lovelace" });
  forgetful = await registerSession("forgetful", { first: "Grace", last: "Hopper" });
});
afterAll(async () => {
  await browser?.close();
});

const emailOf = (session: StoredSession) => (JSON.parse(session.user) as { email: string }).email;

async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  expect(violations, `serious or critical axe violations (${label}):\n${formatViolations(violations)}`).toEqual([]);
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Welcome back" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "Sign In" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("account settings", () => {
  it("changes the password with the current one, stays signed in, and signs in again with the new one", async () => {
    const context = await newContext(browser, { session: changer });
    const page = await context.newPage();
    await page.goto("/");
    // Reached from the user menu.
    await page.getByRole("button", { name: "Account menu for Ada Lovelace" }).click();
    await page.getByRole("menuitem", { name: "Password & Sessions" }).click();
    await page.getByRole("heading", { level: 1, name: "Account settings" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Active sessions" }).waitFor();
    await page.getByText("This session").waitFor();
    await waitForScreenSettled(page);

    const password = page.getByRole("region", { name: "Password" });
    await password.getByLabel("Current password").fill("not my password");
    await password.getByLabel("New password", { exact: true }).fill("staple-lantern-orbit");
    await password.getByLabel("Confirm new password").fill("staple-lantern-orbit");
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByRole("alert").filter({ hasText: "The current password is not correct" }).waitFor();

    await password.getByLabel("Current password").fill(PASSWORD);
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByRole("status").filter({ hasText: "Your password has been changed" }).waitFor();
    // This session continues under its new token: a reload is still signed in.
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).not.toBe(changer.token);
    await page.reload();
    await page.getByRole("heading", { level: 2, name: "Active sessions" }).waitFor();
    await page.getByText("This session").waitFor();

    // Signed out on the home page (on /settings the guard would ask to sign in at once).
    await page.goto("/");
    await page.getByRole("button", { name: "Account menu for Ada Lovelace" }).click();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await signIn(page, emailOf(changer), "staple-lantern-orbit");
    await page.getByRole("button", { name: "Account menu for Ada Lovelace" }).waitFor();
    await context.close();
  }, 120_000);

  it("resets a forgotten password through the link in the local mail sink", async () => {
    const context = await newContext(browser, { theme: "light" });
    const page = await context.newPage();
    const email = emailOf(forgetful);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" }).click();
    await page.getByRole("dialog", { name: "Welcome back" }).getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset your password" });
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByRole("button", { name: "Send reset link" }).click();
    await dialog.getByRole("status").filter({ hasText: "If an account uses that address" }).waitFor();
    await expectAccessible(page, "reset requested");

    await page.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
    await page.getByRole("heading", { level: 2, name: "Reset your Fintech Platform password" }).waitFor();
    await page
      .getByRole("link", { name: /\/reset-password\?token=/ })
      .first()
      .click();
    await page.getByRole("heading", { level: 1, name: "Choose a new password" }).waitFor();
    await waitForScreenSettled(page);
    await page.getByLabel("New password", { exact: true }).fill("a-brand-new-secret");
    await page.getByLabel("Confirm new password").fill("a-brand-new-secret");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByRole("status").filter({ hasText: "Your password has been reset" }).waitFor();
    await expectAccessible(page, "password reset");
    await screenshot(page, "password-reset-done");

    await page.getByRole("button", { name: "Sign in" }).click();
    const signInDialog = page.getByRole("dialog", { name: "Welcome back" });
    await signInDialog.getByLabel("Email").fill(email);
    await signInDialog.getByLabel("Password", { exact: true }).fill("a-brand-new-secret");
    await signInDialog.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("button", { name: "Account menu for Grace Hopper" }).waitFor();
    await context.close();
  }, 120_000);

  it("passes axe on /settings in both themes, the unverified-email banner showing", async () => {
    // Registered through the API without using the verification link, so the banner shows.
    const reply = await fetch(`${baseUrl()}/api/v1/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: uniqueEmail("unverified"),
        password: PASSWORD,
        first_name: "Alan",
        last_name: "Turing",
      }),
    });
    expect(reply.status).toBe(201);
    const { token, user } = (
      (await reply.json()) as {
        data: {
          token: string;
          user: { id: string; email: string; first_name: string; last_name: string; role: string };
        };
      }
    ).data;
    const session: StoredSession = {
      token,
      user: JSON.stringify({
        id: user.id,
        email: user.email,
        firstName: user.first_name,
        lastName: user.last_name,
        role: user.role,
      }),
    };
    for (const theme of THEMES) {
      const context = await newContext(browser, { session, theme });
      const page = await context.newPage();
      await page.goto("/settings");
      await page.getByRole("region", { name: "Email verification" }).waitFor();
      await page.getByText("This session").waitFor();
      await page.getByText("No active API keys.").waitFor();
      await waitForScreenSettled(page);
      await expectAccessible(page, `settings, ${theme}`);
      await screenshot(page, `settings-${theme}`);
      await context.close();
    }
  }, 120_000);
});
