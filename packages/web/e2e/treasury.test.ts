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
  THEMES,
  VIEWPORTS,
  type StoredSession,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * /treasury (docs/money-operations.md#fx-and-treasury) in Chromium against the local stack: a
 * signed-in user gets a quote (its countdown running) and converts with it between their USD and
 * EUR accounts; once both journals are posted each balance changed by exactly what was quoted.
 * Axe-clean in both themes, desktop and mobile, and with the administrators' panels.
 */

let browser: Browser;
let session: StoredSession;
const contexts: BrowserContext[] = [];
const accounts = { usd: "", eur: "" };

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

type Balance = { data: { balance: string; available: string } };
const balanceOf = async (id: string) => (await api<Balance>("GET", `/api/v1/ledger/accounts/${id}/balance`)).body.data;

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerSession("treasury", { first: "Tre", last: "Asury" });
  for (const [key, currency, name] of [
    ["usd", "USD", "Dollars"],
    ["eur", "EUR", "Euros"],
  ] as const) {
    const opened = await api<{ data: { id: string } }>("POST", "/api/v1/ledger/accounts", { name, currency });
    expect(opened.status).toBe(201);
    accounts[key] = opened.body.data.id;
  }
  const funded = await api<{ data: { id: string } }>("POST", "/api/v1/ledger/transactions/test-balance", {
    account_id: accounts.usd,
    amount: "500.00",
  });
  expect(funded.status).toBe(201);
  expect((await api("POST", `/api/v1/ledger/transactions/${funded.body.data.id}/post`)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function open(path: string, viewport = VIEWPORTS.desktop, theme: "dark" | "light" = "dark", as = session) {
  const context = await newContext(browser, { viewport, theme, session: as });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

async function expectAccessible(page: Page, label: string) {
  await waitForScreenSettled(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `treasury-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

interface Quote {
  id: string;
  sellAmount: string;
  buyAmount: string;
  spreadAmount: string;
}

describe("/treasury", () => {
  it("gets a quote with a live countdown and converts with it; both balances change as quoted", {
    timeout: 120_000,
  }, async () => {
    const page = await open("/treasury");
    await page.getByRole("heading", { name: "Treasury & FX", level: 1 }).waitFor();
    await page.getByTestId("rate-EURUSD").waitFor();
    await page.getByLabel("Amount (USD)").fill("100.00");
    const quoted = page.waitForResponse(
      (response) => response.url().endsWith("/api/v1/fx/quotes") && response.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Get quote" }).click();
    const quote = ((await (await quoted).json()) as { data: Quote }).data;
    expect(quote.sellAmount).toBe("100.00");
    const panel = page.getByTestId("fx-quote");
    await panel.getByText(/Rate locked for \d+ s/).waitFor();
    expect(await panel.getByTestId("fx-arrives").textContent()).toBe(`€${quote.buyAmount}`);
    expect(await panel.getByTestId("fx-spread").textContent()).toBe(`$${quote.spreadAmount}`);
    await expectAccessible(page, "quote shown");

    await panel.getByLabel("From account").selectOption(accounts.usd);
    await panel.getByLabel("To account").selectOption(accounts.eur);
    const converted = page.waitForResponse((response) => response.url().endsWith("/transactions/transfer"));
    await panel.getByRole("button", { name: "Convert at this quote" }).click();
    const reply = (await (await converted).json()) as { fx: { journals: { id: string; type: string }[] } };
    await page.getByText(/approve both transactions/).waitFor();
    await panel.waitFor({ state: "detached" });

    expect(reply.fx.journals.map((journal) => journal.type)).toEqual(["fx", "fx"]);
    for (const journal of reply.fx.journals)
      expect((await api("POST", `/api/v1/ledger/transactions/${journal.id}/post`)).status).toBe(200);
    const sold = (50_000 - Math.round(Number(quote.sellAmount) * 100)) / 100;
    expect(await balanceOf(accounts.usd)).toMatchObject({ balance: sold.toFixed(2), available: sold.toFixed(2) });
    expect(await balanceOf(accounts.eur)).toMatchObject({ balance: quote.buyAmount, available: quote.buyAmount });

    // The same quote again is refused: it was used.
    const again = await api<{ code: string }>("POST", "/api/v1/ledger/transactions/transfer", {
      from_account_id: accounts.usd,
      to_account_id: accounts.eur,
      amount: quote.sellAmount,
      quote_id: quote.id,
    });
    expect([again.status, again.body.code]).toEqual([422, "quote_used"]);
  });

  for (const theme of THEMES) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      it(`passes axe (${theme}, ${name})`, { timeout: 60_000 }, async () => {
        const page = await open("/treasury", viewport, theme);
        await page.getByTestId("rate-EURUSD").waitFor();
        await page.getByText(/EUR\/USD over the last|EUR\/USD: no rate/).waitFor();
        await expectAccessible(page, `${theme} ${name}`);
      });
    }
  }

  it("passes axe with the administrators' panels", { timeout: 60_000 }, async () => {
    const page = await open("/treasury", VIEWPORTS.desktop, "light", await adminSession());
    await page.getByRole("heading", { name: "Positions per currency" }).waitFor();
    await page.getByRole("columnheader", { name: "FX position" }).waitFor();
    await page.getByRole("heading", { name: "FX revenue by day" }).waitFor();
    await expectAccessible(page, "admin light");
  });
});
