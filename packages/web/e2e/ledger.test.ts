import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, DESKTOP, launchBrowser, MOBILE, newPage, pauseClockAhead, screenshot, uniqueEmail } from "./harness";
import { waitForAnimationsFinished } from "./settle";

/**
 * The ledger workspace end to end, in Chromium against the real local stack: a fresh user
 * connects accounts (manual and through a bank with the simulated authorisation), deposits,
 * gets a test balance, approves, transfers (a double click pays once), unposts, bulk-approves,
 * and sees the server's refusals; then the point-in-time lookup, analytics and screenshots.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = "correct-horse-battery";

interface Account {
  id: string;
  name: string;
  account_number: string;
  balance: string;
  available: string;
}
interface Journal {
  id: string;
  type: string;
  status: string;
  amount: string;
}

async function apiCall<T>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Registers through the API and stores the session the way the SPA does, then opens /ledger. */
async function signedIn(viewport = DESKTOP, theme: "dark" | "light" = "dark") {
  const email = uniqueEmail("ledger");
  const response = await fetch(`${baseUrl()}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, first_name: "Ada", last_name: "Lovelace" }),
  });
  expect(response.status).toBe(201);
  const { data } = (await response.json()) as { data: { token: string; user: { id: string; email: string } } };
  const { context, page } = await newPage(browser, viewport);
  const user = { id: data.user.id, email, firstName: "Ada", lastName: "Lovelace", role: "user" };
  await context.addInitScript(
    ([token, stored, chosen]) => {
      if (!localStorage.getItem("authToken")) {
        localStorage.setItem("authToken", token);
        localStorage.setItem("authUser", stored);
      }
      if (!localStorage.getItem("theme")) localStorage.setItem("theme", chosen);
    },
    [data.token, JSON.stringify(user), theme] as const,
  );
  await page.goto("/ledger");
  // A brand-new user is welcomed, not welcomed back.
  await page.getByRole("heading", { level: 1, name: "Welcome, Ada" }).waitFor();
  return { context, page, token: data.token };
}

const workspace = (page: Page) => page.getByRole("main");

/**
 * Toasts stack at the top right, over whatever is there; buttons in that corner are pressed
 * from the keyboard (as a keyboard user would), which no toast can intercept.
 */
async function openTab(page: Page, name: "Overview" | "Accounts" | "Transactions" | "Analytics") {
  await page.getByRole("tab", { name }).press("Enter");
  await page.getByRole("tabpanel", { name }).waitFor();
}

/** Waits for a toast with exactly this text. */
async function toast(page: Page, text: string) {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

async function connectManually(page: Page, name: string, accountNumber: string) {
  await page.getByRole("button", { name: "Connect Account" }).first().click();
  const view = page.getByRole("region", { name: "Connect Account" });
  await view.getByRole("heading", { name: "Step 1 of 5: Choose your country" }).waitFor();
  await view.getByRole("button", { name: /^USA/ }).click();
  await view.getByRole("button", { name: /Enter details manually/ }).click();
  await view.getByRole("heading", { name: "Step 3 of 5: Account details" }).waitFor();
  await view.getByLabel("Account name").fill(name);
  await view.getByLabel("Account number").fill(accountNumber);
  await view.getByLabel("Description").fill("Salary and bills");
  await view.getByLabel("Currency").selectOption("USD");
  await view.getByRole("button", { name: "Review" }).click();
  await view.getByRole("heading", { name: "Step 4 of 5: Review and connect" }).waitFor();
  await view.getByRole("button", { name: "Connect Account", exact: true }).click();
  await view.getByText(`${name} is connected`).waitFor();
  // After 1.2 s the wizard closes on the accounts tab with the new account open.
  await page.getByRole("tabpanel", { name: "Accounts" }).getByRole("heading", { level: 2, name }).waitFor();
}

describe("ledger workspace", () => {
  it("runs the whole journey: connect, deposit, test balance, approve, transfer, unpost, bulk approve", {
    timeout: 180_000,
  }, async () => {
    const { context, page, token } = await signedIn();
    const main = workspace(page);
    await main.getByText("Authenticated as Ada Lovelace").waitFor();

    // Four tabs as a tablist; arrows, Home and End move between them.
    await page.getByRole("tab", { name: "Overview" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("tab", { name: "Accounts" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Accounts");
    await page.keyboard.press("End");
    await page.getByRole("tabpanel", { name: "Analytics" }).waitFor();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("tabpanel", { name: "Overview" }).waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("tabpanel", { name: "Analytics" }).waitFor();
    await page.keyboard.press("Home");
    await page.getByRole("tabpanel", { name: "Overview" }).waitFor();

    // 1. Connect an account by manual entry; the details step validates first.
    const stamp = Date.now().toString(36).toUpperCase();
    const everydayNumber = `EVD-${stamp}`;
    await page.getByRole("button", { name: "Connect Account" }).first().click();
    const connect = page.getByRole("region", { name: "Connect Account" });
    await connect.getByRole("button", { name: /^Germany/ }).click();
    await connect.getByRole("heading", { name: "Step 2 of 5: Choose your bank" }).waitFor();
    expect(await connect.getByRole("list", { name: "Banks in Germany" }).getByRole("listitem").count()).toBe(5);
    await connect.getByRole("button", { name: "Back" }).click();
    await connect.getByRole("button", { name: /^USA/ }).click();
    expect(await connect.getByRole("list", { name: "Banks in USA" }).getByRole("listitem").count()).toBe(7);
    await connect.getByRole("button", { name: /Enter details manually/ }).click();
    await connect.getByRole("button", { name: "Review" }).click();
    await connect.getByText("Account name is required").waitFor();
    await connect.getByText("Account number is required").waitFor();
    await connect.getByRole("button", { name: "Close connect account" }).press("Enter");
    await connectManually(page, "Everyday", everydayNumber);

    // 2. Connect through a bank: the simulated authorisation takes 1.5 s, then pre-fills. The
    // page's clock is paused and moved by hand, so the test says "not before 1.5 s" exactly.
    await page
      .getByRole("tabpanel", { name: "Accounts" })
      .getByRole("button", { name: "Connect Account", exact: true })
      .click();
    await connect.getByRole("button", { name: /^USA/ }).click();
    await page.clock.install();
    await pauseClockAhead(page, 1_000);
    await connect.getByRole("button", { name: "Harbor National Bank" }).click();
    const authorise = page.getByRole("dialog", { name: "Authorise Harbor National Bank" });
    await authorise.waitFor();
    await screenshot(page, "ledger-connect-authorise");
    await page.clock.runFor(1_499);
    expect(await authorise.isVisible()).toBe(true);
    await page.clock.runFor(1);
    await connect.getByRole("heading", { name: "Step 3 of 5: Account details" }).waitFor();
    await authorise.waitFor({ state: "detached" });
    await page.clock.resume();
    expect(await connect.getByLabel("Account name").inputValue()).toBe("Harbor National Bank Checking");
    expect(await connect.getByLabel("Account number").inputValue()).toMatch(/^HNB-\d{4}-\d{6}$/);
    // A taken account number is refused by the server (409) and its message is shown.
    await connect.getByLabel("Account number").fill(everydayNumber.toLowerCase());
    await connect.getByRole("button", { name: "Review" }).click();
    await connect.getByRole("button", { name: "Connect Account", exact: true }).click();
    await connect
      .getByRole("alert")
      .filter({ hasText: "An account with this account number already exists" })
      .waitFor();
    await connect.getByRole("button", { name: "Back" }).click();
    await connect.getByLabel("Account number").fill(`HNB-${stamp}`);
    await connect.getByRole("button", { name: "Review" }).click();
    await connect.getByText("Harbor National Bank", { exact: true }).waitFor();
    await connect.getByRole("button", { name: "Connect Account", exact: true }).click();
    await page
      .getByRole("tabpanel", { name: "Accounts" })
      .getByRole("heading", { level: 2, name: "Harbor National Bank Checking" })
      .waitFor();

    const accounts = (await apiCall<{ data: Account[] }>(token, "GET", "/api/v1/ledger/accounts")).body.data;
    const everyday = accounts.find((account) => account.name === "Everyday")!;
    const harbor = accounts.find((account) => account.name === "Harbor National Bank Checking")!;
    expect(everyday.account_number).toBe(everydayNumber);
    expect(accounts).toHaveLength(2);

    // 3. Deposit 500 (the default) into Everyday; the form says what it created.
    await openTab(page, "Overview");
    await page.getByRole("button", { name: /Make Deposit/ }).click();
    const deposit = page.getByRole("region", { name: "Make Deposit" });
    await deposit.getByLabel("Account").selectOption({ label: `Everyday - ${everydayNumber}` });
    expect(await deposit.getByLabel("Amount").inputValue()).toBe("500");
    await deposit.getByLabel("Description").fill("Salary");
    await deposit.getByRole("button", { name: "Create Deposit" }).click();
    const outcome = deposit.getByRole("status").filter({ hasText: "Approve it on the Transactions tab." });
    await outcome.filter({ hasText: "Deposit of $500.00 created as a draft" }).waitFor();
    // The form resets after a success: a second click asks for an amount instead of depositing again.
    expect(await deposit.getByLabel("Amount").inputValue()).toBe("");
    await deposit.getByRole("button", { name: "Create Deposit" }).click();
    await deposit.getByText("Amount is required").waitFor();
    // The currency picker offers the account's currency only.
    expect(await deposit.getByLabel("Currency").locator("option").allTextContents()).toEqual(["USD"]);
    await screenshot(page, "ledger-deposit-response");

    // 4. Get a test balance (the server's default 1,000).
    await deposit.getByRole("button", { name: "Get Test Balance" }).click();
    await outcome.filter({ hasText: "Test balance of $1,000.00 created as a draft" }).waitFor();
    await deposit.getByRole("button", { name: "Back to overview" }).click();

    // 5. Approve both drafts, one by one.
    await openTab(page, "Transactions");
    const table = page.getByRole("table");
    await table.getByRole("button", { name: "Approve deposit of $500.00" }).press("Enter");
    await toast(page, "Transaction approved");
    await table.getByRole("button", { name: "Unpost deposit of $500.00" }).waitFor();
    await table.getByRole("button", { name: "Approve test balance of $1,000.00" }).press("Enter");
    await table.getByRole("button", { name: "Unpost test balance of $1,000.00" }).waitFor();
    await screenshot(page, "ledger-transactions");

    // 6. Transfer 1,200 from Everyday to Harbor; a double click on Confirm pays once.
    const transferPosts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/v1/ledger/transactions/transfer")) {
        transferPosts.push(request.headers()["idempotency-key"] ?? "");
      }
    });
    await openTab(page, "Overview");
    await page.getByRole("button", { name: /Transfer Funds/ }).click();
    const transfer = page.getByRole("region", { name: "Transfer Funds" });
    await transfer.getByRole("button", { name: /^Everyday/ }).click();
    await transfer.getByRole("heading", { name: "Step 2 of 4: Choose the destination account" }).waitFor();
    // The source is not offered as a destination.
    expect(await transfer.getByRole("button", { name: /^Everyday/ }).count()).toBe(0);
    await transfer.getByRole("button", { name: /^Harbor National Bank Checking/ }).click();
    expect(await transfer.getByLabel("Amount").inputValue()).toBe("100");
    // Letters are refused in the server's words.
    await transfer.getByLabel("Amount").fill("twelve");
    await transfer.getByRole("button", { name: "Review transfer" }).click();
    await transfer.getByText("Amount must be a number").waitFor();
    await transfer.getByLabel("Amount").fill("1200");
    await transfer.getByLabel("Description").fill("Savings");
    await transfer.getByRole("button", { name: "Review transfer" }).click();
    await transfer.getByText("$1,200.00").waitFor();
    await transfer.getByRole("button", { name: "Confirm Transfer" }).dblclick();
    await transfer.getByText("Transfer of $1,200.00 created").waitFor();
    await transfer.getByText("Draft", { exact: true }).waitFor();
    let history = (await apiCall<{ data: Journal[] }>(token, "GET", "/api/v1/ledger/transactions/history?limit=50"))
      .body.data;
    expect(history.filter((journal) => journal.type === "transfer")).toHaveLength(1);
    expect(new Set(transferPosts).size).toBe(1);
    await transfer.getByRole("button", { name: "Done" }).click();
    await page.getByRole("tabpanel", { name: "Overview" }).waitFor();

    // 7. A transfer above the available balance: the server's message.
    await page.getByRole("button", { name: /Transfer Funds/ }).click();
    await transfer.getByRole("button", { name: /^Everyday/ }).click();
    await transfer.getByRole("button", { name: /^Harbor National Bank Checking/ }).click();
    await transfer.getByLabel("Amount").fill("100000");
    await transfer.getByRole("button", { name: "Review transfer" }).click();
    await transfer.getByRole("button", { name: "Confirm Transfer" }).click();
    await transfer.getByRole("alert").filter({ hasText: "Insufficient available balance in Everyday" }).waitFor();
    await toast(page, "Insufficient available balance in Everyday");
    await screenshot(page, "ledger-transfer-refused");
    // Retrying the same transfer reuses its key. The refusal is on screen already, so the test
    // waits for the retry's own reply before it counts the requests.
    const retried = page.waitForResponse(
      (response) =>
        response.request().method() === "POST" && response.url().endsWith("/api/v1/ledger/transactions/transfer"),
    );
    await transfer.getByRole("button", { name: "Retry transfer" }).click();
    await retried;
    await transfer.getByRole("alert").filter({ hasText: "Insufficient available balance in Everyday" }).waitFor();
    expect(transferPosts).toHaveLength(3);
    expect(transferPosts[2]).toBe(transferPosts[1]);
    expect(transferPosts[1]).not.toBe(transferPosts[0]);
    await transfer.getByRole("button", { name: "Close transfer" }).press("Enter");
    await page.getByRole("tabpanel", { name: "Overview" }).waitFor();

    // 8. Approve the transfer, unpost it, then bulk-approve the draft it became.
    await openTab(page, "Transactions");
    await table.getByRole("button", { name: "Approve transfer of $1,200.00" }).press("Enter");
    // Unpost reverses a posted entry, so it asks first; Cancel changes nothing.
    await table.getByRole("button", { name: "Unpost transfer of $1,200.00" }).press("Enter");
    const confirmUnpost = page.getByRole("dialog", { name: "Unpost this transfer?" });
    await confirmUnpost.getByRole("button", { name: "Cancel" }).press("Enter");
    await confirmUnpost.waitFor({ state: "detached" });
    await table.getByRole("button", { name: "Unpost transfer of $1,200.00" }).press("Enter");
    await confirmUnpost.getByRole("button", { name: "Unpost", exact: true }).press("Enter");
    await toast(page, "Transaction unposted");
    await table.getByRole("button", { name: "Approve transfer of $1,200.00" }).waitFor();
    await page.getByRole("button", { name: "Approve All Drafts" }).press("Enter");
    await toast(page, "Bulk approve completed: 1 approved, 0 failed");
    await table.getByRole("button", { name: "Unpost transfer of $1,200.00" }).waitFor();
    // Nothing left to approve.
    await page.getByRole("button", { name: "Approve All Drafts" }).press("Enter");
    await toast(page, "No draft transactions to approve");

    // 9. Unposting the deposit would overdraw Everyday (1,500 in, 1,200 out): refused with the server's error.
    await table.getByRole("button", { name: "Unpost deposit of $500.00" }).press("Enter");
    await page
      .getByRole("dialog", { name: "Unpost this deposit?" })
      .getByRole("button", { name: "Unpost", exact: true })
      .press("Enter");
    await toast(page, "Insufficient available balance in Everyday");
    history = (await apiCall<{ data: Journal[] }>(token, "GET", "/api/v1/ledger/transactions/history?limit=50")).body
      .data;
    expect(history.map((journal) => [journal.type, journal.status, journal.amount])).toEqual([
      ["transfer", "posted", "1200.00"],
      ["test_balance", "posted", "1000.00"],
      ["deposit", "posted", "500.00"],
    ]);
    await page.getByRole("button", { name: "Refresh transactions" }).press("Enter");
    expect(await table.getByRole("row").count()).toBe(4);

    // 10. The overview's figures come from the real balances.
    await openTab(page, "Overview");
    const stats = page.getByRole("region", { name: "Key figures" });
    await stats.getByText("$1,500.00").first().waitFor();
    await stats.getByText("2 / 3").waitFor();
    await stats.getByText("0 awaiting approval").waitFor();
    const recent = page.getByRole("region", { name: "Recent activity" });
    expect(await recent.getByRole("listitem").count()).toBe(3);

    // 11. Accounts: detail figures and the balance at a point in time.
    await openTab(page, "Accounts");
    await page
      .getByRole("tabpanel", { name: "Accounts" })
      .getByRole("button", { name: /^Everyday/ })
      .click();
    const detail = page.getByRole("region", { name: "Everyday", exact: true });
    await detail.getByText("$300.00").first().waitFor();
    const when = detail.getByLabel("Date and time");
    await when.fill("2020-01-01T12:00");
    await detail.getByRole("button", { name: "Look up balance" }).click();
    await detail.getByRole("alert").filter({ hasText: "The account did not exist at" }).waitFor();
    const now = new Date(Date.now() + 60_000);
    const pad = (value: number) => String(value).padStart(2, "0");
    await when.fill(
      `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`,
    );
    await detail.getByRole("button", { name: "Look up balance" }).click();
    await detail.getByText("Balance then").waitFor();
    await screenshot(page, "ledger-accounts");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // 12. Analytics: a chart with a text alternative, and a period selector.
    const analyticsRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/v1/ledger/analytics")) analyticsRequests.push(new URL(request.url()).search);
    });
    await openTab(page, "Analytics");
    const chart = page.getByRole("img", { name: /USD balance and flows over 30 days/ });
    await chart.waitFor();
    expect(await chart.getAttribute("aria-labelledby")).toBeTruthy();
    expect(await chart.textContent()).toContain("$1,500.00 at the end");
    // The journey leaves a stack of toasts over the top right, where the period selector is: the
    // pointer leaves the toaster (hover pauses them) and the click waits until they have gone.
    const sevenDays = page.getByText("7 days", { exact: true });
    await page.mouse.move(0, 400);
    await page.waitForFunction(
      () => document.querySelectorAll("[data-rht-toaster] [role='status']").length === 0,
      undefined,
      { timeout: 20_000 },
    );
    await sevenDays.click();
    expect(await page.getByRole("radio", { name: "7 days" }).isChecked()).toBe(true);
    await page.getByRole("img", { name: /over 7 days/ }).waitFor();
    expect(analyticsRequests).toContain("?days=7");
    await page.getByRole("img", { name: /over 7 days/ }).scrollIntoViewIfNeeded();
    await waitForAnimationsFinished(page);
    await screenshot(page, "ledger-analytics");
    await page.getByText("Daily figures as a table").click();
    await page.getByRole("table", { name: /over 7 days/ }).waitFor();

    // Desktop screenshots of the workspace in both themes (reloaded, so no toasts linger).
    await page.reload();
    await page.getByRole("tabpanel", { name: "Overview" }).getByText("Everyday").first().waitFor();
    await waitForAnimationsFinished(page);
    await screenshot(page, "ledger-desktop");
    await page.evaluate(() => localStorage.setItem("theme", "light"));
    await page.reload();
    await page.getByRole("tabpanel", { name: "Overview" }).getByText("Everyday").first().waitFor();
    await waitForAnimationsFinished(page);
    await screenshot(page, "ledger-desktop-light");
    await context.close();

    // Mobile, both themes, with the same user's data.
    for (const theme of ["dark", "light"] as const) {
      const mobile = await openAs(token, MOBILE, theme);
      await mobile.page.getByRole("tabpanel", { name: "Overview" }).getByText("Everyday").first().waitFor();
      expect(await overflowing(mobile.page)).toEqual([]);
      // All four tabs fit the phone's width.
      const box = await mobile.page.getByRole("tab", { name: "Analytics" }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(MOBILE.width);
      await waitForAnimationsFinished(mobile.page);
      await screenshot(mobile.page, theme === "dark" ? "ledger-mobile" : "ledger-mobile-light");
      await openTab(mobile.page, "Transactions");
      // Phones get cards with the actions in view instead of the wide table.
      expect(await mobile.page.getByRole("table").count()).toBe(0);
      await mobile.page
        .getByRole("list", { name: "Transactions list" })
        .getByRole("button", { name: "Unpost transfer of $1,200.00" })
        .waitFor();
      await waitForAnimationsFinished(mobile.page);
      await screenshot(mobile.page, `ledger-mobile-transactions-${theme}`);
      await openTab(mobile.page, "Analytics");
      await mobile.page.getByRole("img", { name: /USD balance/ }).waitFor();
      await mobile.page.getByRole("img", { name: /USD balance/ }).scrollIntoViewIfNeeded();
      await waitForAnimationsFinished(mobile.page);
      await screenshot(mobile.page, `ledger-mobile-analytics-${theme}`);
      await openTab(mobile.page, "Overview");
      await mobile.page.getByRole("button", { name: "Connect Account" }).first().click();
      await mobile.page.getByRole("region", { name: "Connect Account" }).getByRole("button", { name: /^USA/ }).click();
      await waitForAnimationsFinished(mobile.page);
      await screenshot(mobile.page, `ledger-mobile-connect-${theme}`);
      await mobile.context.close();
    }
  });

  it("says there is nothing to approve for a new user, and that a deposit needs an account", async () => {
    const { context, page } = await signedIn();
    await openTab(page, "Transactions");
    await page.getByText("No transactions yet").waitFor();
    await page.getByRole("button", { name: "Approve All Drafts" }).press("Enter");
    await toast(page, "No draft transactions to approve");
    await openTab(page, "Overview");
    await page.getByRole("button", { name: /Make Deposit/ }).click();
    await page
      .getByRole("region", { name: "Make Deposit" })
      .getByText("You have no account to deposit into yet.")
      .waitFor();
    await page.getByRole("button", { name: "Close deposit" }).press("Enter");
    // Focus returns to the selected tab.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("tab");
    await openTab(page, "Analytics");
    await page.getByText("No data yet").waitFor();
    await context.close();
  });

  it("shows 'Network error. Please try again.' when connecting an account gets no reply", async () => {
    const { context, page } = await signedIn();
    await page.route("**/api/v1/ledger/accounts", (route) =>
      route.request().method() === "POST" ? route.abort("failed") : route.continue(),
    );
    await page.getByRole("button", { name: "Connect Account" }).first().click();
    const connect = page.getByRole("region", { name: "Connect Account" });
    await connect.getByRole("button", { name: /^UK/ }).click();
    await connect.getByRole("button", { name: /Enter details manually/ }).click();
    expect(await connect.getByLabel("Currency").inputValue()).toBe("GBP");
    await connect.getByLabel("Account name").fill("Offline");
    await connect.getByLabel("Account number").fill("OFF-0001");
    await connect.getByRole("button", { name: "Review" }).click();
    await connect.getByRole("button", { name: "Connect Account", exact: true }).click();
    await connect.getByRole("alert").filter({ hasText: "Network error. Please try again." }).waitFor();
    await context.close();
  });
});

/**
 * Elements that stick out past the right edge of the window (the page would scroll sideways), named
 * by tag, class and text.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return Array.from(document.querySelectorAll("body *"))
      .filter(
        (element) =>
          element.getBoundingClientRect().right > width + 0.5 &&
          !element.closest("[class*='overflow-x-auto'], [class*='overflow-auto']"),
      )
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className.toString().split(" ").slice(0, 4).join(".")} "${(element.textContent ?? "").trim().slice(0, 40)}"`,
      );
  });
}

/** Another page signed in with an existing token (a second device, another viewport). */
async function openAs(
  token: string,
  viewport: typeof DESKTOP,
  theme: "dark" | "light",
): Promise<{ context: BrowserContext; page: Page }> {
  const profile = (await apiCall<{ data: { id: string; email: string } }>(token, "GET", "/api/v1/users/profile")).body
    .data;
  const { context, page } = await newPage(browser, viewport);
  const user = { id: profile.id, email: profile.email, firstName: "Ada", lastName: "Lovelace", role: "user" };
  await context.addInitScript(
    ([stored, value, chosen]) => {
      localStorage.setItem("authToken", value);
      localStorage.setItem("authUser", stored);
      localStorage.setItem("theme", chosen);
    },
    [JSON.stringify(user), token, theme] as const,
  );
  await page.goto("/ledger");
  await page.getByRole("heading", { level: 1, name: "Welcome back, Ada" }).waitFor();
  return { context, page };
}
