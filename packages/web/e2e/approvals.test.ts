import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  adminSession,
  baseUrl,
  launchBrowser,
  newContext,
  screenshot,
  verifiedSession,
  type StoredSession,
} from "./harness";
import { waitForAnimationsFinished } from "./settle";

/**
 * Sanctions screening and four eyes in Chromium against the real local stack: a payment to a
 * sanctions-list name shows "Held for review" to its payer and is released by the run's admin
 * from the payments page (with a reason); a deposit above the threshold shows "Waiting for
 * approval by another admin" to its owner and is approved by the admin from the ledger
 * workspace's queue. Every state passes axe.
 */

interface Account {
  id: string;
}
interface Journal {
  id: string;
  status: string;
}
interface WirePayment {
  paymentId: string;
  status: string;
}

let browser: Browser;
let payer: StoredSession;
let admin: StoredSession;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  payer = await verifiedSession("screened", { first: "Sam", last: "Payer" });
  admin = await adminSession();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function call<T>(session: StoredSession, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function open(session: StoredSession, path: string, heading: string | RegExp): Promise<Page> {
  const context = await newContext(browser, { session, theme: "light", reducedMotion: "reduce" });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  return page;
}

async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `approvals-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

let checking: Account;

describe("screening and four eyes in the browser", () => {
  beforeAll(async () => {
    checking = (
      await call<{ data: Account }>(payer, "POST", "/api/v1/ledger/accounts", { name: "Checking", currency: "USD" })
    ).data;
    const funding = (
      await call<{ data: Journal }>(payer, "POST", "/api/v1/ledger/transactions/deposit", {
        account_id: checking.id,
        amount: "500",
        currency: "USD",
        description: "Funding",
      })
    ).data;
    await call(payer, "POST", `/api/v1/ledger/transactions/${funding.id}/post`);
  });

  it("the payer sees Held for review; the admin releases the payment with a reason", { timeout: 120_000 }, async () => {
    const userId = (JSON.parse(payer.user) as { id: string }).id;
    const created = await call<{ payment: WirePayment }>(payer, "POST", "/v1/payments", {
      userId,
      fromAccountId: checking.id,
      amount: "5.00",
      currency: "USD",
      beneficiary: { name: "Kim Jong Un", accountNumber: "CN0012345678", country: "CN" },
    });
    expect(created.payment.status).toBe("held_for_review");
    const id = created.payment.paymentId;

    const payerPage = await open(payer, "/payments", "Real-time Payments");
    const waiting = payerPage.getByRole("region", { name: "Waiting for a decision" });
    await waiting.locator(`li[data-payment-id="${id}"]`).getByText("Held for review", { exact: true }).waitFor();
    await expectAccessible(payerPage, "payer held for review");

    const adminPage = await open(admin, "/payments", "Real-time Payments");
    const queue = adminPage.getByRole("region", { name: /Payments awaiting a decision/ });
    const row = queue.locator(`li[data-payment-id="${id}"]`);
    await row.getByText(/Match: KIM, Jong Un/).waitFor();
    await expectAccessible(adminPage, "admin review queue");
    await row.getByRole("button", { name: "Approve payment of $5.00 to Kim Jong Un (…5678, CN)" }).click();
    const dialog = adminPage.getByRole("dialog", { name: "Approve this payment of $5.00 to Kim Jong Un (…5678, CN)?" });
    await dialog.waitFor();
    const confirm = dialog.getByRole("button", { name: "Approve", exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Reason (kept in the audit trail)").fill("Different person: a supplier in Shenzhen");
    await expectAccessible(adminPage, "admin decision dialog");
    await confirm.click();
    await dialog.waitFor({ state: "detached" });
    await row.waitFor({ state: "detached" });

    const review = (
      await call<{ data: { status: string; decision: { outcome: string; reason: string; by: { email: string } } } }>(
        admin,
        "GET",
        `/v1/payments/reviews/${id}`,
      )
    ).data;
    expect(review.decision).toMatchObject({ outcome: "approved", reason: "Different person: a supplier in Shenzhen" });
    expect(review.status).not.toBe("held_for_review");
    // The payer's list follows: the payment no longer waits.
    await waiting.locator(`li[data-payment-id="${id}"]`).waitFor({ state: "detached" });
  });

  it("the owner sees a large deposit waiting for another admin; the admin approves it from the ledger workspace", {
    timeout: 120_000,
  }, async () => {
    const big = (
      await call<{ data: Journal }>(payer, "POST", "/api/v1/ledger/transactions/deposit", {
        account_id: checking.id,
        amount: "25000",
        currency: "USD",
        description: "Property sale",
      })
    ).data;

    const ownerPage = await open(payer, "/ledger", /Welcome/);
    await ownerPage.getByRole("tab", { name: "Transactions" }).click();
    const ownRow = ownerPage.locator(`tr[data-transaction-id="${big.id}"]`);
    await ownRow.getByText("Waiting for approval by another admin").waitFor();
    expect(await ownRow.getByRole("button", { name: /^Approve/ }).count()).toBe(0);
    await expectAccessible(ownerPage, "owner deposit waiting");

    const adminPage = await open(admin, "/ledger", /Welcome/);
    const queue = adminPage.getByRole("region", { name: /Deposits awaiting your approval/ });
    const row = queue.locator(`li[data-journal-id="${big.id}"]`);
    await row.getByText("$25,000.00 into Checking").waitFor();
    await expectAccessible(adminPage, "admin deposit queue");
    await row.getByRole("button", { name: "Approve deposit of $25,000.00 into Checking" }).click();
    const dialog = adminPage.getByRole("dialog", { name: "Approve this deposit of $25,000.00 into Checking?" });
    await dialog.getByLabel("Reason (kept in the audit trail)").fill("Completion statement from the notary on file");
    await dialog.getByRole("button", { name: "Approve", exact: true }).click();
    await row.waitFor({ state: "detached" });

    const journal = (await call<{ data: Journal }>(payer, "GET", `/api/v1/ledger/transactions/${big.id}`)).data;
    expect(journal.status).toBe("posted");
    // The owner's workspace follows: the row is posted (Unpost offered), no longer waiting.
    await ownerPage.reload();
    await ownerPage.getByRole("tab", { name: "Transactions" }).click();
    await ownerPage
      .locator(`tr[data-transaction-id="${big.id}"]`)
      .getByRole("button", { name: /^Unpost/ })
      .waitFor();
  });
});
