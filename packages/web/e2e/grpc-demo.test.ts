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
  type StoredSession,
  apiCall,
  fundTwoAccounts,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * The streaming demo at /grpc-demo, in Chromium against the local stack: signed in with two USD
 * accounts (one funded), Connect, Start Real-Time Stream and Send Test Payment make a real payment
 * whose events arrive from the live stream with their stable ids; the Connection Test shows what the
 * API's CORS middleware answered. Signed out, the page explains and offers Sign In.
 */

let browser: Browser;
let session: StoredSession;
let userId: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerSession("grpcdemo", { first: "Stream", last: "Demo" });
  userId = (JSON.parse(session.user) as { id: string }).id;
  await fundTwoAccounts(session, "50");
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
  await page.goto("/grpc-demo");
  await page.getByRole("heading", { name: "Real-time Streaming Demo", level: 1 }).waitFor();
  return page;
}

async function expectAccessible(page: Page, label: string) {
  await waitForScreenSettled(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `grpc-demo-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

const statusGroup = (page: Page) => page.getByRole("group", { name: "Status" });

describe("the streaming demo", () => {
  it("streams a real test payment: its events arrive with their stable ids, and the counters follow", {
    timeout: 120_000,
  }, async () => {
    const page = await open({ theme: "dark", signedIn: true });
    await payWithSucceedingKey(page, userId);
    expect(await page.getByRole("tab").allTextContents()).toEqual([
      "Overview",
      "Payment Monitor",
      "Risk Monitoring",
      "Reconciliation",
      "Webhook Debug",
      "Connection Test",
    ]);
    await statusGroup(page).getByText("Disconnected", { exact: true }).waitFor();
    await statusGroup(page).getByText("SSE · JSON", { exact: true }).waitFor();
    await statusGroup(page).getByText("/api/grpc/live/stream", { exact: true }).waitFor();
    // Auto-scroll starts off, performance metrics on.
    expect(await page.getByRole("checkbox", { name: "Auto-scroll" }).isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: "Performance metrics" }).isChecked()).toBe(true);

    await page.getByRole("button", { name: "Connect" }).click();
    await statusGroup(page).getByText("Connected", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Connect" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send Test Payment" }).count()).toBe(0);

    const liveStreams: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/grpc/live/stream") liveStreams.push(request.url());
    });
    await page.getByRole("button", { name: "Start Real-Time Stream" }).click();
    await statusGroup(page).getByText("Streaming Active", { exact: true }).waitFor();
    await statusGroup(page).getByText("Connected", { exact: true }).waitFor();
    await page
      .getByText("Sends $1.00 from Operating to Savings: a real payment, fee included. Its events arrive below.")
      .waitFor();
    // One connection carries the three scopes.
    expect(new URL(liveStreams[0]!).searchParams.get("scopes")?.split(",").sort()).toEqual([
      "kyc",
      "ledger",
      "payment",
    ]);

    await page.getByRole("button", { name: "Send Test Payment" }).click();
    const sent = page
      .getByRole("status")
      .filter({ hasText: /^Test payment of \$1\.00 from Operating to Savings sent: / });
    await sent.waitFor();
    const paymentId = (await sent.textContent())!.replace(/^.*sent: /, "").trim();
    const payment = (
      await apiCall<{ data: { paymentId: string; amount: string } }>(session, "GET", `/v1/payments/${paymentId}`)
    ).data;
    expect(payment).toMatchObject({ paymentId, amount: "1.00" });

    const log = page.getByRole("log", { name: "Stream events" });
    const initiated = log.locator(`li[data-event-source="payment.paymentInitiated"]`).filter({ hasText: paymentId });
    await initiated.waitFor();
    expect(await initiated.getAttribute("data-event-type")).toBe("payment");
    expect(await initiated.getAttribute("data-event-status")).toBe("info");
    // The event's stable id, as the events list gives it too.
    const id = (await initiated.getByTestId("event-id").textContent())!;
    expect(id).not.toBe("");
    const listed = await apiCall<{ data: { id: string; type: string; data: { paymentId?: string } }[] }>(
      session,
      "GET",
      "/api/v1/events?type=payment.paymentInitiated",
    );
    expect(listed.data.find((event) => event.id === id)).toBeTruthy();

    const completed = log.locator(`li[data-event-source="payment.paymentCompleted"]`).filter({ hasText: paymentId });
    await completed.waitFor({ timeout: 60_000 });
    expect(await completed.getAttribute("data-event-status")).toBe("success");
    // The ledger's side of the same payment arrives on the same connection.
    await log.locator(`li[data-event-source^="ledger."]`).first().waitFor();

    const figure = (label: string) =>
      page
        .getByRole("term")
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator("xpath=following-sibling::dd[1]");
    await figure("Payments completed / failed")
      .filter({ hasText: /^1 \/ 0$/ })
      .waitFor();
    await figure("Success rate")
      .filter({ hasText: /^100%$/ })
      .waitFor();
    expect(Number(await figure("Events received").textContent())).toBeGreaterThanOrEqual(3);
    expect(await figure("Latency p50").textContent()).toMatch(/^\d+ ms$/);

    // Payment Monitor shows the payment's events only.
    await page.getByRole("tab", { name: "Payment Monitor" }).click();
    const payments = page.getByRole("log", { name: "Payment events" });
    await payments.locator("li").filter({ hasText: paymentId }).first().waitFor();
    expect(
      new Set(await payments.locator("li").evaluateAll((items) => items.map((item) => item.dataset.eventType))),
    ).toEqual(new Set(["payment"]));
    await expectAccessible(page, "streaming, dark");

    // Connection Test: a real health request and the API's answer to this origin's preflight.
    await page.getByRole("tab", { name: "Connection Test" }).click();
    await page.getByRole("button", { name: "Run Connection Test" }).click();
    await page
      .getByTestId("connection-test-status")
      .getByText(/^Connection Test Passed/)
      .waitFor();
    const origin = new URL(baseUrl()).origin;
    const answer = await (
      await fetch(`${baseUrl()}/api/v1/developers/cors-check`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ origin, method: "POST", headers: ["Content-Type", "Authorization"] }),
      })
    ).json();
    expect(await page.getByTestId("allow-origin").textContent()).toBe(answer.allow_origin ?? "(none)");
    expect(await page.getByTestId("allow-methods").textContent()).toBe(answer.allow_methods ?? "(none)");
    expect(await page.getByTestId("allow-headers").textContent()).toBe(answer.allow_headers ?? "(none)");
    expect(answer.allow_methods).toContain("POST");
    await page.getByRole("log", { name: "Connection test log" }).getByText(`CORS preflight as ${origin}`).waitFor();
    await expectAccessible(page, "connection test, dark");

    await page.getByRole("button", { name: "Stop Streaming" }).click();
    expect(await statusGroup(page).getByText("Streaming Active").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send Test Payment" }).count()).toBe(0);
  });

  it("signed out: the tabs and the Connection Test work, streaming offers Sign In, never an error", {
    timeout: 60_000,
  }, async () => {
    const page = await open({ theme: "light", signedIn: false });
    await page.getByText("Streaming needs a session").waitFor();
    expect(await page.getByRole("button", { name: "Start Real-Time Stream" }).count()).toBe(0);
    expect(await page.getByRole("main").getByRole("alert").count()).toBe(0);
    await expectAccessible(page, "signed out, light");
    await page.getByRole("tab", { name: "Connection Test" }).click();
    await page.getByRole("button", { name: "Run Connection Test" }).click();
    await page
      .getByTestId("connection-test-status")
      .getByText(/^Connection Test Passed/)
      .waitFor();
    await page.getByRole("tab", { name: "Webhook Debug" }).click();
    await page.getByText("Sign in to see your webhook endpoints").waitFor();
    await page.getByRole("button", { name: "Sign In" }).first().click();
    await page.getByRole("dialog").getByText("Welcome back").waitFor();
  });
});
