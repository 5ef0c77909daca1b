import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import { baseUrl, launchBrowser, MOBILE, newContext, registerSession, screenshot, type StoredSession } from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * The real-time payment page at /payments, in Chromium against the real local stack
 * (API, routing, the payment worker driver, the ledger): a user without two accounts is told so;
 * with two USD accounts, one funded, Start Streaming opens the payment stream, Send Test Payment
 * makes a real payment between them, its events arrive in the list from the stream, and the tiles
 * follow GET /v1/payments. No layout wrapper: no site navigation.
 */

interface Account {
  id: string;
  name: string;
}
interface Journal {
  id: string;
}
interface WirePayment {
  paymentId: string;
  status: string;
  amount: string;
  currency: string;
  fromAccountId: string;
  payee: { kind: string; accountId?: string };
  selectedRail: string;
}

let browser: Browser;
let session: StoredSession;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  // One user for the file: registration is rate limited.
  session = await registerSession("payments", { first: "Pay", last: "Ments" });
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function open(
  options: { theme?: "light" | "dark"; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await newContext(browser, {
    session,
    theme: options.theme ?? "dark",
    viewport: options.viewport,
    reducedMotion: "reduce",
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/payments");
  await page.getByRole("heading", { name: "Real-time Payments", level: 1 }).waitFor();
  return page;
}

/** A tile's value (the dd right after its dt). */
const tile = (page: Page, label: string) =>
  page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");
const events = (page: Page) => page.getByRole("log", { name: "Payment events, newest first" });

async function expectAccessible(page: Page, label: string) {
  await waitForScreenSettled(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `payments-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

describe("the real-time payment page", () => {
  it("has no layout, and without two accounts in one currency says so with a link to the ledger (nothing is created)", {
    timeout: 60_000,
  }, async () => {
    const page = await open();
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    // The main action is Send money; the $1 test payment stays as a developer aid below.
    expect(await page.getByRole("link", { name: "Send money" }).getAttribute("href")).toBe("/payments/send");
    await page.getByText("Connected", { exact: true }).waitFor();
    await page.getByText("Idle", { exact: true }).waitFor();
    await page.getByText("Send Test Payment needs two of your accounts in the same currency.").waitFor();
    expect(await page.getByRole("link", { name: "Go to the Ledger" }).getAttribute("href")).toBe("/ledger");
    expect(await page.getByRole("button", { name: "Send Test Payment" }).isDisabled()).toBe(true);
    // The tiles with no payment: nothing invented.
    await tile(page, "Active Payments").filter({ hasText: /^0$/ }).waitFor();
    expect(await tile(page, "Success Rate").textContent()).toBe("N/A");
    expect(await tile(page, "Avg Processing").textContent()).toBe("N/A");
    expect(await tile(page, "Total Volume").textContent()).toBe("None yet");
    const accounts = await call<{ data: Account[] }>("GET", "/api/v1/ledger/accounts");
    expect(accounts.data).toEqual([]);
  });

  it("streams a real test payment: its events arrive from the stream and the tiles follow the API", {
    timeout: 120_000,
  }, async () => {
    const operating = (
      await call<{ data: Account }>("POST", "/api/v1/ledger/accounts", { name: "Operating", currency: "USD" })
    ).data;
    const savings = (
      await call<{ data: Account }>("POST", "/api/v1/ledger/accounts", { name: "Savings", currency: "USD" })
    ).data;
    const deposit = (
      await call<{ data: Journal }>("POST", "/api/v1/ledger/transactions/deposit", {
        account_id: operating.id,
        amount: "500",
        currency: "USD",
        description: "Funding",
      })
    ).data;
    await call("POST", `/api/v1/ledger/transactions/${deposit.id}/post`);

    const page = await open({ theme: "light" });
    await page.getByText("Connected", { exact: true }).waitFor();
    await page.getByText("Start streaming to send a test payment and see its events arrive.").waitFor();
    expect(await page.getByRole("button", { name: "Send Test Payment" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "Start Streaming" }).click();
    await page.getByText("Streaming", { exact: true }).waitFor();
    await page.getByText("Stream live").waitFor();
    await page.getByText("Sends $1.00 from Operating to Savings: a real payment, fee included.").waitFor();

    const created: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/payments")
        created.push(request.headers()["idempotency-key"] ?? "");
    });
    await page.getByRole("button", { name: "Send Test Payment" }).click();
    const sent = page
      .getByRole("status")
      .filter({ hasText: /^Test payment of \$1\.00 from Operating to Savings sent: / });
    await sent.waitFor();
    const paymentId = (await sent.textContent())!.replace(/^.*sent: /, "").trim();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatch(/^[0-9a-f-]{36}$/);

    // The payment is real: between the user's two accounts, as the API says.
    const payment = (await call<{ data: WirePayment }>("GET", `/v1/payments/${paymentId}`)).data;
    expect(payment).toMatchObject({
      paymentId,
      amount: "1.00",
      currency: "USD",
      fromAccountId: operating.id,
      payee: { kind: "account", accountId: savings.id },
    });

    // Its events arrive from the stream, newest first: initiated, then how it ended.
    const list = events(page);
    await list.locator(`li[data-event-type="paymentInitiated"]`).filter({ hasText: paymentId }).waitFor();
    await list
      .locator(`li[data-event-type="paymentInitiated"]`)
      .filter({ hasText: `1.00 USD · via ${payment.selectedRail}` })
      .waitFor();
    const ended = list
      .locator(`li[data-event-type="paymentCompleted"], li[data-event-type="paymentError"]`)
      .filter({ hasText: paymentId });
    await ended.first().waitFor({ timeout: 60_000 });
    expect(await list.locator("li").first().getAttribute("data-event-type")).not.toBe("paymentInitiated");
    await screenshot(page, "payments-streamed");

    // The tiles follow the user's payments as the API has them.
    const final = (await call<{ data: WirePayment }>("GET", `/v1/payments/${paymentId}`)).data;
    expect(["completed", "failed"]).toContain(final.status);
    await tile(page, "Active Payments").filter({ hasText: /^0$/ }).waitFor();
    if (final.status === "completed") {
      await list.locator(`li[data-event-type="paymentCompleted"]`).filter({ hasText: "Payment Completed" }).waitFor();
      await tile(page, "Success Rate")
        .filter({ hasText: /^100%$/ })
        .waitFor();
      await tile(page, "Total Volume")
        .filter({ hasText: /^\$1\.00$/ })
        .waitFor();
      expect(await tile(page, "Avg Processing").textContent()).toMatch(/^\d+(\.\d)? (ms|s)$/);
    } else {
      await list.locator(`li[data-event-type="paymentError"]`).filter({ hasText: "Payment Failed" }).waitFor();
      await tile(page, "Success Rate").filter({ hasText: /^0%$/ }).waitFor();
    }

    await page.getByRole("button", { name: "Stop Streaming" }).click();
    await page.getByText("Idle", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Send Test Payment" }).isDisabled()).toBe(true);
    // The list stays until cleared.
    expect(await list.locator("li").count()).toBeGreaterThanOrEqual(2);
  });

  it("when the payment service does not answer: Disconnected, and Start Streaming says 'Not connected to payment service'", {
    timeout: 60_000,
  }, async () => {
    const context = await newContext(browser, { session, reducedMotion: "reduce" });
    contexts.push(context);
    const page = await context.newPage();
    await page.route("**/api/grpc/payment/health", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ message: "Service temporarily unavailable" }),
      }),
    );
    let streams = 0;
    page.on("request", (request) => {
      if (request.url().includes("/api/grpc/payment/stream")) streams += 1;
    });
    await page.goto("/payments");
    await page.getByText("Disconnected", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Start Streaming" }).click();
    await page.getByRole("status").filter({ hasText: "Not connected to payment service" }).waitFor();
    await page.getByText("Idle", { exact: true }).waitFor();
    expect(streams).toBe(0);
  });

  it("is accessible with events listed, on a phone in the dark theme", { timeout: 90_000 }, async () => {
    const page = await open({ theme: "dark", viewport: MOBILE });
    await page.getByText("Connected", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Start Streaming" }).click();
    await page.getByText("Stream live").waitFor();
    await page.getByRole("button", { name: "Send Test Payment" }).click();
    await events(page).locator(`li[data-event-type="paymentInitiated"]`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await expectAccessible(page, "dark mobile with events");
    await screenshot(page, "payments-dark-mobile");
  });
});
