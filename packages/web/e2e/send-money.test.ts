import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  baseUrl,
  launchBrowser,
  newContext,
  payWithSucceedingKey,
  registerSession,
  screenshot,
  setVerificationLevel,
  succeedingPaymentKey,
  verifiedSession,
  type StoredSession,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * Send money, saved recipients, the payments list and a payment's detail, in Chromium against the
 * real local stack (API, quote, routing, the payment worker, the ledger): a verified payer pays a
 * person by email and it arrives in the payee's workspace; pays an external IBAN (a wrong one is
 * refused in the browser first); finds the payments with the list's filters and reads a detail's
 * timeline; unverified, is sent to /kyc. Set-up goes through the API; one payer tab for the file.
 * Every payment is made with a key whose attempt succeeds (outcomes are deterministic per key), so
 * each one completes.
 */

let browser: Browser;
let payer: StoredSession;
let payee: StoredSession;
let payerTab: Page;
const contexts: BrowserContext[] = [];
const payeeEmail = () => (JSON.parse(payee.user) as { email: string }).email;
const payerId = () => (JSON.parse(payer.user) as { id: string }).id;

async function call<T>(
  session: StoredSession,
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${session.token}`,
      "Content-Type": "application/json",
      ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function fundedAccount(session: StoredSession, name: string, currency: string, amount: string): Promise<string> {
  const account = (await call<{ data: { id: string } }>(session, "POST", "/api/v1/ledger/accounts", { name, currency }))
    .data;
  if (amount !== "0") {
    const deposit = (
      await call<{ data: { id: string } }>(session, "POST", "/api/v1/ledger/transactions/deposit", {
        account_id: account.id,
        amount,
        currency,
        description: "Funding",
      })
    ).data;
    await call(session, "POST", `/api/v1/ledger/transactions/${deposit.id}/post`);
  }
  return account.id;
}

async function expectAccessible(page: Page, label: string) {
  await waitForScreenSettled(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `send-money-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

/** The sent payment's status once it is final (the screen follows it live). */
async function finalStatus(page: Page): Promise<string> {
  const status = page.locator('[data-status="completed"], [data-status="failed"], [data-status="parked"]').first();
  await status.waitFor({ timeout: 60_000 });
  return (await status.getAttribute("data-status")) ?? "";
}

/** Review payment's outcome: the review step, or (as a failure) what the screen said instead. */
async function reviewShown(page: Page): Promise<void> {
  const outcome = page
    .getByRole("heading", { name: "Review and confirm" })
    .or(page.getByRole("alert").filter({ hasText: /\w/ }));
  await outcome.first().waitFor();
  if ((await page.getByRole("heading", { name: "Review and confirm" }).count()) === 0) {
    await screenshot(page, "send-money-no-review");
    throw new Error(`no review: ${(await page.getByRole("alert").allTextContents()).join(" | ")}`);
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  payer = await verifiedSession("send-payer", { first: "Ada", last: "Sender" });
  payee = await registerSession("send-payee", { first: "Bob", last: "Receiver" });
  await fundedAccount(payer, "Everyday USD", "USD", "500");
  await fundedAccount(payer, "Euro wallet", "EUR", "300");
  await fundedAccount(payee, "Bob USD", "USD", "0");
  const context = await newContext(browser, { session: payer, reducedMotion: "reduce" });
  contexts.push(context);
  payerTab = await context.newPage();
  await payWithSucceedingKey(payerTab, payerId());
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe("Send money", () => {
  it("pays a person by email from /payments, saves them, follows the payment live; it arrives in the payee's workspace", {
    timeout: 120_000,
  }, async () => {
    const page = payerTab;
    await page.goto("/payments");
    await page.getByRole("heading", { name: "Real-time Payments", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Send money" }).click();
    await page.getByRole("heading", { name: "Send money", level: 1 }).waitFor();
    await page.getByLabel("Pay from").selectOption({ label: "Everyday USD · USD · $500.00 available" });
    await page.getByLabel("Their email address").fill(payeeEmail());
    await page.getByLabel("Amount (USD)").fill("42.50");
    await page.getByLabel("Description (optional)").fill("Dinner at Luigi's");
    await page.getByLabel("Save this recipient for next time").check();
    await page.getByLabel("Save as").fill("Bob");
    await page.getByRole("button", { name: "Review payment" }).click();
    await reviewShown(page);
    const review = page.getByRole("region", { name: "Review and confirm" });
    await review.getByText(payeeEmail()).waitFor();
    await review.getByText("Total held from your account").waitFor();
    await review.getByText("Arrives").waitFor();
    await expectAccessible(page, "review");

    const keys: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/payments")
        keys.push(request.headers()["idempotency-key"] ?? "");
    });
    await page.getByRole("button", { name: /^Confirm and send \$42\.\d\d$/ }).click();
    await page.getByRole("heading", { name: "Payment sent" }).waitFor();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await finalStatus(page)).toBe("completed");
    await page.getByText("Sent", { exact: true }).waitFor();
    await page.getByText("Saved to your recipients as Bob.").waitFor();

    // The saved recipient is there for the next payment.
    await page.getByRole("button", { name: "Send another payment" }).click();
    await page.getByRole("list", { name: "Your saved recipients" }).getByText("Bob", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Pay Bob" }).click();
    expect(await page.getByLabel("Their email address").inputValue()).toBe(payeeEmail());
    await page.getByRole("button", { name: "Rename Bob" }).click();
    await page.getByLabel("New name for Bob").fill("Bob (dinners)");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Renamed to Bob (dinners).").waitFor();

    // The payee sees it arrive in their own workspace.
    const payeeContext = await newContext(browser, { session: payee, reducedMotion: "reduce" });
    contexts.push(payeeContext);
    const payeePage = await payeeContext.newPage();
    await payeePage.goto("/ledger");
    await payeePage.getByText("$42.50").first().waitFor({ timeout: 30_000 });
    await payeeContext.close();
  });

  it("pays an external IBAN: a wrong IBAN is refused in the browser, the right one is quoted and sent", {
    timeout: 120_000,
  }, async () => {
    const page = payerTab;
    await page.goto("/payments/send");
    await page.getByRole("heading", { name: "Send money", level: 1 }).waitFor();
    await page.getByLabel("Pay from").selectOption({ label: "Euro wallet · EUR · €300.00 available" });
    await page.getByLabel("A bank account (account number or IBAN)").check();
    await page.getByLabel("Account holder's name").fill("ACME GmbH");
    await page.getByLabel("Account number or IBAN", { exact: true }).fill("DE89 3704 0044 0532 0130 01");
    await page.getByLabel("Bank's country (two letters, e.g. DE)").fill("DE");
    await page.getByLabel("Amount (EUR)").fill("25");
    let quotes = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/v1/payments/quote") quotes += 1;
    });
    await page.getByRole("button", { name: "Review payment" }).click();
    await page
      .getByText(
        "beneficiary.accountNumber looks like an IBAN but is not a valid one: check its length and check digits",
      )
      .waitFor();
    expect(await page.getByLabel("Account number or IBAN", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(quotes).toBe(0);
    await page.getByLabel("Bank's country (two letters, e.g. DE)").fill("FR");
    await page.getByLabel("Account number or IBAN", { exact: true }).fill("DE89 3704 0044 0532 0130 00");
    await page.getByRole("button", { name: "Review payment" }).click();
    await page.getByText("The IBAN is a DE account but beneficiary.country is FR: they must match").waitFor();
    await page.getByLabel("Bank's country (two letters, e.g. DE)").fill("DE");
    await page.getByRole("button", { name: "Review payment" }).click();
    await reviewShown(page);
    const review = page.getByRole("region", { name: "Review and confirm" });
    await review.getByText("ACME GmbH (…3000, DE)").waitFor();
    await page.getByRole("button", { name: /^Confirm and send €25\.\d\d$/ }).click();
    await page.getByRole("heading", { name: "Payment sent" }).waitFor();
    expect(await finalStatus(page)).toBe("completed");
    await screenshot(page, "send-money-iban");
  });

  it("the payments list filters and searches; a payment's detail shows its timeline, routing and fee", {
    timeout: 120_000,
  }, async () => {
    // Set-up through the API: one payment to the payee, followed until it completes.
    const from = (
      await call<{ data: { id: string; currency: string }[] }>(payer, "GET", "/api/v1/ledger/accounts")
    ).data.find((account) => account.currency === "USD")!.id;
    const userId = payerId();
    const key = succeedingPaymentKey(userId, "groceries");
    const created = await call<{ payment: { paymentId: string } }>(
      payer,
      "POST",
      "/v1/payments",
      {
        userId,
        fromAccountId: from,
        amount: "12.00",
        currency: "USD",
        toEmail: payeeEmail(),
        description: "Groceries with Luigi",
      },
      key,
    );
    const paymentId = created.payment.paymentId;
    await expect
      .poll(
        async () => (await call<{ data: { status: string } }>(payer, "GET", `/v1/payments/${paymentId}`)).data.status,
        { timeout: 60_000, interval: 250 },
      )
      .toMatch(/^(completed|failed|parked)$/);
    expect((await call<{ data: { status: string } }>(payer, "GET", `/v1/payments/${paymentId}`)).data.status).toBe(
      "completed",
    );

    const page = payerTab;
    await page.goto("/payments");
    const list = page.getByRole("region", { name: "Your payments" });
    await list.locator("tbody tr").first().waitFor();
    await page.getByLabel("Search payee or description").fill("groceries");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const filtered = page.getByRole("table", { name: "Your payments, filtered" });
    await filtered.waitFor();
    await expect.poll(() => filtered.locator("tbody tr").count()).toBe(1);
    await page.getByLabel("Amount at least").fill("50");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("No payment matches these filters.").waitFor();
    await page.getByLabel("Amount at least").fill("abc");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByRole("alert").filter({ hasText: "minAmount must be a decimal amount" }).waitFor();
    await page.getByLabel("Amount at least").fill("");
    await page.getByLabel("Payment status").selectOption("completed");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await filtered.locator(`tbody tr[data-payment-id="${paymentId}"]`).waitFor();
    await expect.poll(() => filtered.locator("tbody tr").count()).toBe(1);
    await filtered.getByRole("link", { name: payeeEmail() }).click();

    await page.getByRole("heading", { name: "Payment details", level: 1 }).waitFor();
    const timeline = page.getByRole("list", { name: "Payment timeline, oldest first" });
    for (const kind of ["created", "held", "attempt_started", "attempt_succeeded", "posted"])
      await timeline.locator(`li[data-kind="${kind}"]`).first().waitFor();
    await page.getByRole("heading", { name: "Routing decision" }).waitFor();
    await page.getByRole("list", { name: "Eligible rails" }).getByText("(chosen)").waitFor();
    await page.getByText(/^Charged on completion/).waitFor();
    await expectAccessible(page, "payment detail");
    await screenshot(page, "payment-detail");
  });

  it("an unverified payer is told to verify, with the way to /kyc; nothing is sent", { timeout: 60_000 }, async () => {
    await setVerificationLevel(payer, "unverified");
    const page = payerTab;
    await page.goto("/payments/send");
    await page.getByRole("heading", { name: "Send money", level: 1 }).waitFor();
    await page.getByLabel("Their email address").fill(payeeEmail());
    await page.getByLabel("Amount (USD)").fill("5");
    await page.getByRole("button", { name: "Review payment" }).click();
    const alert = page.getByRole("alert");
    await alert.getByRole("link", { name: "Verify your identity" }).waitFor();
    expect(await alert.getByRole("link", { name: "Verify your identity" }).getAttribute("href")).toBe("/kyc");
    expect(await page.getByRole("heading", { name: "Review and confirm" }).count()).toBe(0);
    await setVerificationLevel(payer, "verified");
  });
});
