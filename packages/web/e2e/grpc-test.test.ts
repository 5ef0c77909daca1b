import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  launchBrowser,
  newContext,
  registerSession,
  screenshot,
  type StoredSession,
  apiCall,
  fundTwoAccounts,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * The API test suite at /grpc-test, in Chromium against the local stack: Run All Tests passes every
 * test for a signed-in user with two USD accounts (one funded), each result with its status, time
 * and reply; a second run passes too (the KYC profile exists by then). Signed out, only the health
 * check runs.
 */

let browser: Browser;
let session: StoredSession;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerSession("grpctest", { first: "Suite", last: "Runner" });
  await fundTwoAccounts(session, "20");
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function open(options: { theme: "light" | "dark"; signedIn: boolean }): Promise<Page> {
  const context = await newContext(browser, {
    session: options.signedIn ? session : undefined,
    theme: options.theme,
    reducedMotion: "reduce",
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/grpc-test");
  await page.getByRole("heading", { name: "API Test Suite", level: 1 }).waitFor();
  return page;
}

async function expectAccessible(page: Page, label: string) {
  await waitForScreenSettled(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `grpc-test-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

const result = (page: Page, id: string) => page.locator(`li[data-test-id="${id}"]`);
const TESTS = ["health", "createProfile", "getProfile", "createPayment", "getPayment", "stream"];

describe("the API test suite", () => {
  it("Run All Tests passes every test against the local stack, twice", { timeout: 120_000 }, async () => {
    const page = await open({ theme: "dark", signedIn: true });
    await page.getByText(/^Connected: the API answered/).waitFor();
    await page.getByLabel("Phone").fill("+14155550123");
    await page.getByLabel("Country (ISO code)").fill("US");

    await page.getByRole("button", { name: "Run All Tests" }).click();
    // The stream test holds the payment stream open for 5 s; the summary comes after it.
    await page.getByText("6 of 6 tests passed.").waitFor({ timeout: 60_000 });
    for (const id of TESTS) expect(await result(page, id).getAttribute("data-test-state"), id).toBe("passed");
    expect(await result(page, "createProfile").getByTestId("result-status").textContent()).toBe("HTTP 201");
    expect(await result(page, "createPayment").getByTestId("result-status").textContent()).toMatch(/^HTTP 20[01]$/);
    expect(await result(page, "health").getByTestId("result-duration").textContent()).toMatch(/^\d+ ms$/);
    expect(
      await result(page, "stream")
        .getByText(/^\d+ events? in 5 s/)
        .count(),
    ).toBe(1);

    // The payment is real, between the user's own accounts.
    const created = result(page, "createPayment");
    await created.getByText("Response data").click();
    const reply = JSON.parse((await created.locator("pre").textContent())!) as { payment: { paymentId: string } };
    const payment = (
      await apiCall<{ data: { paymentId: string; amount: string } }>(
        session,
        "GET",
        `/v1/payments/${reply.payment.paymentId}`,
      )
    ).data;
    expect(payment.amount).toBe("1.00");
    await expectAccessible(page, "results, dark");

    // A second run: the KYC profile exists, and the test reads it.
    await page.getByRole("button", { name: "Run All Tests" }).click();
    await page.getByText("6 of 6 tests passed.").waitFor({ timeout: 60_000 });
    expect(await result(page, "createProfile").getByTestId("result-status").textContent()).toBe("HTTP 409");
    await result(page, "createProfile")
      .getByText(/already have a KYC submission/)
      .waitFor();
  });

  it("signed out: the health check runs, the others need a session", { timeout: 60_000 }, async () => {
    const page = await open({ theme: "light", signedIn: false });
    await page.getByRole("button", { name: "Run All Tests" }).click();
    await page.getByText("1 of 6 tests passed; the others did not run.").waitFor();
    expect(await result(page, "health").getAttribute("data-test-state")).toBe("passed");
    for (const id of TESTS.slice(1))
      expect(await result(page, id).getAttribute("data-test-state"), id).toBe("needs-session");
    await expectAccessible(page, "signed out, light");
  });
});
