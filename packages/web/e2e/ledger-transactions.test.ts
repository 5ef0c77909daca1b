import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  baseUrl,
  DESKTOP,
  launchBrowser,
  mailLinks,
  MOBILE,
  newPage,
  screenshot,
  setVerificationLevel,
  succeedingPaymentKey,
  uniqueEmail,
} from "./harness";
import { waitForAnimationsFinished } from "./settle";
import { blockingViolations, formatViolations } from "./axe";

/**
 * The Transactions tab against the real stack (filters, search, paging past 50, CSV export, the
 * detail drawer, the unpost confirmation), the deposit form's money input, analytics' opening
 * currency, and axe on every ledger screen in both themes at desktop and phone width.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Account {
  id: string;
  name: string;
  account_number: string;
}
interface Journal {
  id: string;
  type: string;
  status: string;
  amount: string;
  idempotency_key: string | null;
}

async function call<T>(token: string, method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  if (key) headers["Idempotency-Key"] = key;
  const response = await fetch(`${baseUrl()}/api/v1/ledger${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

/** A user with data: Everyday and Savings (USD), one EUR account with the most activity, 56 journals in all. */
async function seededUser() {
  const email = uniqueEmail("ledger-tx");
  const response = await fetch(`${baseUrl()}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: "correct-horse-battery", first_name: "Ada", last_name: "Lovelace" }),
  });
  expect(response.status).toBe(201);
  const { data } = (await response.json()) as { data: { token: string; user: { id: string } } };
  const token = data.token;
  // More deposits than an unverified user's limit allows: verified as an administrator would.
  await setVerificationLevel({ token, user: JSON.stringify({ id: data.user.id }) }, "verified");
  const everyday = await call<Account>(token, "POST", "/accounts", { name: "Everyday", currency: "USD" });
  const savings = await call<Account>(token, "POST", "/accounts", { name: "Savings", currency: "USD" });
  const euro = await call<Account>(token, "POST", "/accounts", { name: "Euro wallet", currency: "EUR" });

  const salary = await call<Journal>(
    token,
    "POST",
    "/transactions/deposit",
    { account_id: everyday.id, amount: "500", currency: "USD", description: "Salary March" },
    "salary-key-1",
  );
  await call(token, "POST", `/transactions/${salary.id}/post`);
  const rent = await call<Journal>(token, "POST", "/transactions/transfer", {
    from_account_id: everyday.id,
    to_account_id: savings.id,
    amount: "120.50",
    currency: "USD",
    description: "Rent pot",
  });
  await call(token, "POST", `/transactions/${rent.id}/post`);
  await call(token, "POST", "/transactions/deposit", {
    account_id: everyday.id,
    amount: "20",
    currency: "USD",
    description: "Refund (draft)",
  });
  // 53 small EUR deposits: more than one page of 50, and the busiest currency.
  for (let index = 0; index < 53; index += 1) {
    await call(token, "POST", "/transactions/deposit", {
      account_id: euro.id,
      amount: `${index + 1}`,
      currency: "EUR",
      description: `Pocket money ${index + 1}`,
    });
  }
  const user = { id: data.user.id, email, firstName: "Ada", lastName: "Lovelace", role: "user" };
  return { token, user, everyday, savings, euro, salary, rent };
}

type Seeded = Awaited<ReturnType<typeof seededUser>>;

/** Uses the sign-up mail's verification link, as the user would: only a verified address can be paid by email. */
async function verifyEmail(email: string): Promise<void> {
  const token = new URL((await mailLinks(email, "email-verification"))[0] ?? "", baseUrl()).searchParams.get("token");
  const reply = await fetch(`${baseUrl()}/api/v1/users/email-verification`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
  });
  expect(reply.status).toBe(200);
}

/** Another verified user with a funded USD account, who can pay the seeded user by email. */
async function payingUser(firstName: string, lastName: string) {
  const response = await fetch(`${baseUrl()}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: uniqueEmail("payer"),
      password: "correct-horse-battery",
      first_name: firstName,
      last_name: lastName,
    }),
  });
  expect(response.status).toBe(201);
  const { data } = (await response.json()) as { data: { token: string; user: { id: string } } };
  await setVerificationLevel({ token: data.token, user: JSON.stringify({ id: data.user.id }) }, "verified");
  const account = await call<Account>(data.token, "POST", "/accounts", { name: "Payer checking", currency: "USD" });
  const funding = await call<Journal>(data.token, "POST", "/transactions/deposit", {
    account_id: account.id,
    amount: "100",
    currency: "USD",
  });
  await call(data.token, "POST", `/transactions/${funding.id}/post`);
  return { token: data.token, id: data.user.id, accountId: account.id };
}

async function open(seeded: Seeded, path: string, viewport = DESKTOP, theme: "dark" | "light" = "dark") {
  const { context, page } = await newPage(browser, viewport);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await context.addInitScript(
    ([token, stored, chosen]) => {
      localStorage.setItem("authToken", token);
      localStorage.setItem("authUser", stored);
      localStorage.setItem("theme", chosen);
    },
    [seeded.token, JSON.stringify(seeded.user), theme] as const,
  );
  await page.goto(path);
  await page.getByRole("heading", { level: 1, name: /Welcome/ }).waitFor();
  return { context, page };
}

const rowsOf = (page: Page) => page.getByRole("table", { name: "Your transactions, newest first" }).locator("tbody tr");

/** axe's serious and critical violations once the screen is still, one line each, so a failure names the element. */
async function blocking(page: Page, where: string): Promise<string[]> {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  return violations.length === 0
    ? []
    : formatViolations(violations)
        .split("\n")
        .map((line) => `${where}: ${line}`);
}

describe("ledger transactions tab", () => {
  let seeded: Seeded;
  beforeAll(async () => {
    seeded = await seededUser();
  }, 120_000);

  it("pages past 50, filters by status, type, account and dates, searches, and keeps filters in the URL", {
    timeout: 120_000,
  }, async () => {
    const { context, page } = await open(seeded, "/ledger");
    await page.getByRole("tab", { name: "Transactions" }).click();
    await page.getByText("50 shown, more to load").waitFor();
    expect(await rowsOf(page).count()).toBe(50);
    await page.getByRole("button", { name: "Load more transactions" }).click();
    await page.getByText(/^56 shown/).waitFor();
    expect(await page.getByRole("button", { name: "Load more transactions" }).count()).toBe(0);

    // Deposits are money in; a transfer between two own accounts is unsigned, "from → to".
    const rent = rowsOf(page).filter({ hasText: "Rent pot" });
    expect(await rent.getByText("Everyday → Savings").count()).toBeGreaterThan(0);
    expect(await rent.locator("td").nth(6).textContent()).toBe("$120.50");
    const salary = rowsOf(page).filter({ hasText: "Salary March" });
    expect(await salary.locator("td").nth(6).textContent()).toBe("+$500.00");
    expect(await salary.locator("td").nth(3).textContent()).toBe("External funding (USD)");

    const filters = page.getByRole("search", { name: "Filter transactions" });
    await filters.getByLabel("Status").selectOption("draft");
    await page.waitForURL(/status=draft/);
    // 54 drafts: a full first page of them, and none posted.
    await page.getByText("50 shown, more to load (filtered)").waitFor();
    expect(await rowsOf(page).filter({ hasText: "Posted" }).count()).toBe(0);
    await filters.getByLabel("Type").selectOption("transfer");
    await page.getByText("No transactions match these filters").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).first().click();
    // Back to the unfiltered list as it was left: both pages.
    await page.getByText(/^56 shown/).waitFor();

    // Seen from Everyday, the rent is money out and Savings the counterparty.
    await filters.getByLabel("Account").selectOption(seeded.everyday.id);
    await page.getByText(/^3 shown/).waitFor();
    const rentOut = rowsOf(page).filter({ hasText: "Rent pot" });
    expect(await rentOut.locator("td").nth(6).textContent()).toBe("−$120.50");
    expect(await rentOut.locator("td").nth(3).textContent()).toBe("Savings");

    await filters.getByLabel("Search descriptions").fill("salary");
    await filters.getByRole("button", { name: "Search" }).click();
    await page.getByText(/^1 shown/).waitFor();
    const shared = new URL(page.url());
    expect(Object.fromEntries(shared.searchParams)).toEqual({ account_id: seeded.everyday.id, q: "salary" });

    // The same link in another tab opens on the Transactions tab with the same rows.
    const second = await context.newPage();
    await second.goto(shared.pathname + shared.search);
    await second.getByRole("tabpanel", { name: "Transactions" }).getByRole("cell", { name: "Salary March" }).waitFor();
    await second.getByText(/^1 shown/).waitFor();
    await second.close();

    // A range that ends before it starts is explained, not sent.
    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await filters.getByLabel("From date").fill("2030-01-02");
    await filters.getByLabel("To date").fill("2030-01-01");
    await filters.getByText("The start date must be on or before the end date").waitFor();
    await filters.getByLabel("To date").fill("2030-01-03");
    await page.getByText("No transactions match these filters").waitFor();
    await context.close();
  });

  it("exports the filtered rows as CSV with the auth header", { timeout: 60_000 }, async () => {
    const { context, page } = await open(seeded, `/ledger?account_id=${seeded.everyday.id}`);
    await page.getByText(/^3 shown/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path())!, "utf8")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(
      "id,created_at,posted_at,type,status,description,currency,amount,debit_account,credit_account,idempotency_key,counterparty,fee",
    );
    expect(lines).toHaveLength(4);
    expect(lines.some((line) => line.includes("Salary March") && line.includes("salary-key-1"))).toBe(true);
    await context.close();
  });

  it("shows a transaction's legs, history and idempotency key in an accessible drawer", {
    timeout: 60_000,
  }, async () => {
    const { context, page } = await open(seeded, "/ledger?q=Salary");
    const opener = page.getByRole("button", { name: "Details of deposit of $500.00" });
    await opener.click();
    const drawer = page.getByRole("dialog", { name: "Transaction details" });
    const legs = drawer.getByRole("table", { name: "Double-entry legs of this transaction" });
    await legs.getByRole("rowheader", { name: /External funding/ }).waitFor();
    expect(await legs.getByRole("rowheader", { name: /Everyday/ }).textContent()).toContain(
      seeded.everyday.account_number,
    );
    const totals = legs.locator("tfoot tr");
    expect(await totals.locator("td").allTextContents()).toEqual(["$500.00", "$500.00"]);
    await drawer.getByText("Created by Ada Lovelace").waitFor();
    await drawer.getByText("Posted by Ada Lovelace").waitFor();
    await drawer.getByText("salary-key-1", { exact: true }).waitFor();
    await drawer.getByRole("button", { name: "Copy idempotency key" }).click();
    await page.getByRole("status").filter({ hasText: "Idempotency key copied" }).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("salary-key-1");
    expect(await blocking(page, "drawer")).toEqual([]);
    await screenshot(page, "ledger-transaction-drawer");
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    // Focus returns to the button that opened it.
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
    // A click anywhere on the row opens it too.
    await rowsOf(page)
      .filter({ hasText: "Salary March" })
      .getByRole("cell", { name: "External funding (USD)" })
      .click();
    await drawer.getByText("Posted by Ada Lovelace").waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await context.close();
  });

  it("asks before unposting, and the deposit form takes '.5' and refuses letters", { timeout: 60_000 }, async () => {
    const { context, page } = await open(seeded, "/ledger?q=Rent");
    await page.getByRole("button", { name: "Unpost transfer of $120.50" }).click();
    const confirm = page.getByRole("dialog", { name: "Unpost this transfer?" });
    await confirm.getByText(/reverses the posted entry/).waitFor();
    // Focus starts on Cancel, so an Enter out of habit reverses nothing.
    expect(
      await confirm.getByRole("button", { name: "Cancel" }).evaluate((element) => element === document.activeElement),
    ).toBe(true);
    expect(await blocking(page, "unpost confirmation")).toEqual([]);
    await page.keyboard.press("Enter");
    await confirm.waitFor({ state: "detached" });
    expect((await call<Journal>(seeded.token, "GET", `/transactions/${seeded.rent.id}`)).status).toBe("posted");

    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByRole("button", { name: /Make Deposit/ }).click();
    const deposit = page.getByRole("region", { name: "Make Deposit" });
    await deposit.getByLabel("Account").selectOption({ label: `Savings - ${seeded.savings.account_number}` });
    await deposit.getByLabel("Amount").fill("abc");
    await deposit.getByRole("button", { name: "Create Deposit" }).click();
    await deposit.getByText("Amount must be a number").waitFor();
    expect(await deposit.getByLabel("Amount").getAttribute("aria-invalid")).toBe("true");
    await deposit.getByLabel("Amount").fill(".5");
    await deposit.getByRole("button", { name: "Create Deposit" }).click();
    // The outcome in words, not the raw reply.
    await deposit
      .getByRole("status")
      .filter({ hasText: "Deposit of $0.50 created as a draft. Approve it on the Transactions tab." })
      .waitFor();
    expect(await deposit.getByText("API Response").count()).toBe(0);
    expect(await blocking(page, "deposit form")).toEqual([]);
    await context.close();
  });

  it("opens analytics on the busiest currency", { timeout: 60_000 }, async () => {
    const { context, page } = await open(seeded, "/ledger");
    await page.getByRole("tab", { name: "Analytics" }).click();
    await page.getByRole("img", { name: /^EUR balance and flows/ }).waitFor();
    expect(await page.getByRole("radio", { name: "EUR" }).isChecked()).toBe(true);
    await context.close();
  });

  it("passes axe on every ledger tab in both themes, at desktop and phone width", { timeout: 180_000 }, async () => {
    const problems: string[] = [];
    for (const viewport of [DESKTOP, MOBILE]) {
      for (const theme of ["dark", "light"] as const) {
        const { context, page } = await open(seeded, "/ledger", viewport, theme);
        const where = `${viewport.width}px ${theme}`;
        for (const tab of ["Overview", "Accounts", "Transactions", "Analytics"] as const) {
          await page.getByRole("tab", { name: tab }).click();
          const panel = page.getByRole("tabpanel", { name: tab });
          if (tab === "Transactions") await panel.getByText(/shown/).first().waitFor();
          if (tab === "Analytics") await panel.getByRole("img", { name: /balance and flows/ }).waitFor();
          if (tab === "Accounts") await panel.getByText("Everyday").first().waitFor();
          problems.push(...(await blocking(page, `${tab} ${where}`)));
          // Nothing on a phone scrolls the page sideways; wide tables scroll in their own box.
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
            `${tab} ${where}`,
          ).toBe(true);
          await screenshot(page, `ledger-${tab.toLowerCase()}-${viewport.width}-${theme}`);
        }
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  });

  it("shows money another user paid in, with the payer's name, live, and opens it from its row", {
    timeout: 90_000,
  }, async () => {
    const payer = await payingUser("Grace", "Hopper");
    await verifyEmail(seeded.user.email);
    const { context, page } = await open(seeded, "/ledger?type=payment");
    await page.getByText("No transactions match these filters").waitFor();
    // A key whose attempt succeeds: the row only arrives once the payment completes.
    const paid = await fetch(`${baseUrl()}/v1/payments`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${payer.token}`,
        "Content-Type": "application/json",
        "Idempotency-Key": succeedingPaymentKey(payer.id, "pay-ada"),
      },
      body: JSON.stringify({
        userId: payer.id,
        fromAccountId: payer.accountId,
        amount: "42.50",
        currency: "USD",
        forceRail: "Card",
        toEmail: seeded.user.email,
        description: "Book club",
      }),
    });
    const reply = (await paid.json()) as { payment: { paymentId: string } };
    expect(paid.status, JSON.stringify(reply)).toBe(201);
    const paymentId = reply.payment.paymentId;

    // The payment worker posts it; the live feed brings the row in without a reload.
    const row = rowsOf(page).filter({ hasText: "Grace Hopper" });
    await row.waitFor();
    expect(await row.locator("td").nth(4).textContent()).toBe("Payment received");
    expect(await row.locator("td").nth(6).textContent()).toBe("+$42.50");
    expect(await row.textContent()).not.toContain(payer.accountId);

    await row.getByRole("cell", { name: "Book club" }).click();
    const drawer = page.getByRole("dialog", { name: "Transaction details" });
    await drawer.getByText("Posted by the payment service").waitFor();
    expect(await drawer.getByRole("definition").first().textContent()).toBe("Grace Hopper");
    const legs = drawer.getByRole("table", { name: "Double-entry legs of this transaction" });
    expect(await legs.getByRole("rowheader", { name: /Grace Hopper/ }).textContent()).toContain("Another customer");
    await drawer.getByText("a request key is never shown to the payee", { exact: false }).waitFor();
    expect(await drawer.textContent()).toContain(paymentId);
    expect(await blocking(page, "drawer of money received")).toEqual([]);
    await page.keyboard.press("Escape");

    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByRole("region", { name: "Recent activity" }).getByText("From Grace Hopper").waitFor();
    await context.close();
  });
});
