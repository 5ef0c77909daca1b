import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newPage, screenshot, uniqueEmail } from "./harness";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = "correct-horse-battery";

async function storedSession(page: Page) {
  return page.evaluate(() => ({
    token: localStorage.getItem("authToken"),
    user: JSON.parse(localStorage.getItem("authUser") ?? "null") as unknown,
  }));
}

async function openLogin(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" }).click();
  await page.getByRole("dialog", { name: "Welcome back" }).waitFor();
}

async function register(page: Page, email: string) {
  await openLogin(page);
  await page.getByRole("button", { name: "Sign up" }).click();
  const dialog = page.getByRole("dialog", { name: "Create your account" });
  await dialog.getByLabel("First name").fill("Ada");
  await dialog.getByLabel("Last name").fill("Lovelace");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await dialog.getByLabel("Confirm password").fill(PASSWORD);
  await dialog.getByLabel("Date of birth").fill("1990-05-01");
  await dialog.getByRole("button", { name: "Create Account" }).click();
}

describe("session flows", () => {
  it("register, reload, sign out, sign in", async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail("shell");
    await page.goto("/");

    await register(page, email);
    await page.getByText("Welcome, Ada!").waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    const userMenu = page.getByRole("button", { name: "Account menu for Ada Lovelace" });
    await userMenu.waitFor();
    const afterRegister = await storedSession(page);
    expect(afterRegister.token).toBeTruthy();
    expect(afterRegister.user).toEqual({
      id: expect.any(String),
      email,
      firstName: "Ada",
      lastName: "Lovelace",
      role: "user",
    });

    await page.reload();
    await userMenu.waitFor();
    await userMenu.click();
    await expect(page.getByRole("menu").getByText(email).count()).resolves.toBe(0);
    await page.getByText(email).waitFor();
    await page.getByRole("heading", { level: 1 }).waitFor();
    await screenshot(page, "user-menu");
    const signedOutToken = (await storedSession(page)).token!;
    const signOutReply = page.waitForResponse((response) => response.url().endsWith("/api/v1/auth/logout"));
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await page.getByText("Goodbye, Ada! See you soon!").waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" }).waitFor();
    expect(await storedSession(page)).toEqual({ token: null, user: null });
    // Signed out on the server too: the token no longer works anywhere, even where a copy survived.
    expect((await signOutReply).status()).toBe(200);
    const withOldToken = await page.request.get("/api/v1/users/profile", {
      headers: { Authorization: `Bearer ${signedOutToken}` },
    });
    expect(withOldToken.status()).toBe(401);

    await openLogin(page);
    const dialog = page.getByRole("dialog", { name: "Welcome back" });
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await dialog.getByRole("button", { name: "Sign In" }).click();
    await page.getByText("Welcome back, Ada!").waitFor();
    await userMenu.waitFor();
    expect((await storedSession(page)).token).toBeTruthy();
    await context.close();
  });

  it("shows the server's message inline for a wrong password, and editing clears it", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/");
    await openLogin(page);
    const dialog = page.getByRole("dialog", { name: "Welcome back" });
    await dialog.getByLabel("Email").fill(uniqueEmail("nobody"));
    await dialog.getByLabel("Password", { exact: true }).fill("not-the-password");
    await dialog.getByRole("button", { name: "Sign In" }).click();
    const alert = dialog.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("Invalid email or password");
    await screenshot(page, "login-error");
    await dialog.getByLabel("Password", { exact: true }).fill("something-else");
    expect(await dialog.getByRole("alert").count()).toBe(0);
    await context.close();
  });

  it("validates the forms before sending anything", async () => {
    const { context, page } = await newPage(browser);
    const authRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/v1/auth/")) authRequests.push(request.url());
    });
    await page.goto("/");
    await openLogin(page);
    await page.getByRole("dialog").getByRole("button", { name: "Sign In" }).click();
    expect(await page.getByRole("dialog").getByRole("alert").textContent()).toBe("Please fill in all fields");

    await page.getByRole("button", { name: "Sign up" }).click();
    const dialog = page.getByRole("dialog", { name: "Create your account" });
    await dialog.getByRole("button", { name: "Create Account" }).click();
    expect(await dialog.getByRole("alert").textContent()).toBe("Please fill in all required fields");
    await dialog.getByLabel("First name").fill("Ada");
    await dialog.getByLabel("Last name").fill("Lovelace");
    await dialog.getByLabel("Email").fill(uniqueEmail());
    await dialog.getByLabel("Password", { exact: true }).fill("short");
    await dialog.getByLabel("Confirm password").fill("shorter");
    await dialog.getByRole("button", { name: "Create Account" }).click();
    expect(await dialog.getByRole("alert").textContent()).toBe("Passwords do not match");
    await dialog.getByLabel("Confirm password").fill("short");
    await dialog.getByRole("button", { name: "Create Account" }).click();
    expect(await dialog.getByRole("alert").textContent()).toBe("Password must be at least 8 characters long");
    expect(authRequests).toEqual([]);
    await context.close();
  });

  it("signs out everywhere when the server rejects the token", async () => {
    const { context, page } = await newPage(browser);
    await page.goto("/");
    await register(page, uniqueEmail("expired"));
    await page.getByRole("button", { name: "Account menu for Ada Lovelace" }).waitFor();
    // A token the server cannot verify: the start-up session check gets a 401.
    await page.evaluate(() => localStorage.setItem("authToken", "forged.token.value"));
    await page.reload();
    await page.getByText("Authentication required. Please login again.").waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" }).waitFor();
    expect(await storedSession(page)).toEqual({ token: null, user: null });
    await context.close();
  });
});
