import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import { baseUrl, launchBrowser, MOBILE, newContext, screenshot, verifiedSession, type StoredSession } from "./harness";
import { waitForAnimationsFinished } from "./settle";

/**
 * Developers > Webhooks end to end, in Chromium against the real local stack (which allows http
 * receivers on loopback): a user registers an endpoint for a receiver this test runs, sees its
 * secret once, sends a test event and sees it delivered with a signature the Standard Webhooks
 * library verifies with that secret; then a real ledger event of theirs arrives the same way.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP receiver on 127.0.0.1 that answers 200 and lets the test wait for a request it expects. */
function startReceiver() {
  const received: Received[] = [];
  const waiters: { match: (request: Received) => boolean; resolve: (request: Received) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(entry);
      for (const waiter of waiters.splice(0)) {
        if (waiter.match(entry)) waiter.resolve(entry);
        else waiters.push(waiter);
      }
      response.writeHead(200, { "Content-Type": "text/plain" }).end("received");
    });
  });
  return {
    received,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** The first request (already in or still to come) that `match` accepts. */
    next: (match: (request: Received) => boolean): Promise<Received> => {
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

const receiver = startReceiver();
let receiverUrl: string;
let browser: Browser;
let session: StoredSession;
beforeAll(async () => {
  receiverUrl = await receiver.listen();
  browser = await launchBrowser();
  // One user for the file (registration is rate limited), verified so their deposit goes through.
  session = await verifiedSession("webhooks", { first: "Wendy", last: "Hook" });
});
afterAll(async () => {
  await browser?.close();
  await receiver.close();
});

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${session.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  if (!reply.ok) throw new Error(`${method} ${path}: HTTP ${reply.status} ${text}`);
  return JSON.parse(text) as T;
}

async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  expect(violations, `serious or critical axe violations (${label}):\n${formatViolations(violations)}`).toEqual([]);
}

/** The event a request carries, if its signature checks out with `secret` (the library throws on any mismatch). */
function verified(secret: string, request: Received): { type: string; id: string } | null {
  const header = (name: string) => String(request.headers[name] ?? "");
  try {
    return new Webhook(secret).verify(request.body, {
      "webhook-id": header("webhook-id"),
      "webhook-timestamp": header("webhook-timestamp"),
      "webhook-signature": header("webhook-signature"),
    }) as { type: string; id: string };
  } catch {
    return null;
  }
}

describe("webhooks screen", () => {
  it("registers an endpoint, shows its secret once, and logs a verified test delivery and a real event", async () => {
    const context = await newContext(browser, { session });
    const page = await context.newPage();

    // The Developers menu's link to the screen is checked by navModel.test.ts.
    await page.goto("/developers/webhooks");
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    await page.getByText("No endpoints yet").waitFor();

    // The form's own rules first, then the server's URL rule at the URL field.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("A URL is required").waitFor();
    await page.getByText("Choose at least one event type").waitFor();
    await page.getByLabel("Endpoint URL").fill("http://10.0.0.1/hooks");
    await page.getByRole("checkbox", { name: "All Ledger events" }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const urlError = page.locator("#webhook-new-url-error");
    await urlError.waitFor();
    expect(await page.getByLabel("Endpoint URL").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Endpoint URL").fill(receiverUrl);
    await page.getByLabel(/^Description/).fill("Local receiver");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const panel = page.getByRole("region", { name: "Signing secret: Local receiver" });
    await panel.getByText("Copy this secret now. You won't see it again.").waitFor();
    const secret = (await panel.getByTestId("webhook-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const card = page.getByRole("listitem", { name: "Local receiver" });
    await card.getByText("Enabled").waitFor();
    await card.getByText("7 event types").waitFor();
    await screenshot(page, "webhooks-created");
    await expectAccessible(page, "secret panel and endpoint list");

    // Once dismissed, the secret is gone from the page.
    await panel.getByRole("button", { name: "I have saved it" }).click();
    await panel.waitFor({ state: "detached" });
    expect(await page.content()).not.toContain(secret);

    await card.getByRole("link", { name: "Open Local receiver" }).click();
    await page.getByRole("heading", { level: 2, name: receiverUrl }).waitFor();
    await page.getByText("No deliveries yet").waitFor();

    // Send test event: delivered at once, 200, signed with the secret shown.
    await page.getByRole("button", { name: "Send test event" }).click();
    const testDelivery = page.getByRole("listitem", { name: "webhook.test delivery" });
    await testDelivery.getByText("Succeeded").waitFor();
    const testRequest = await receiver.next((request) => verified(secret, request)?.type === "webhook.test");
    const testId = String(testRequest.headers["webhook-id"]);
    await testDelivery.getByText(testId, { exact: true }).waitFor();
    await testDelivery.getByText("1 attempt").click();
    await testDelivery.getByText("Test send").waitFor();
    await testDelivery.getByText("200", { exact: true }).first().waitFor();
    await testDelivery.getByText("Response body").click();
    await testDelivery.getByText("received", { exact: true }).waitFor();

    // A real event of the user, made through the API, reaches the receiver and the log.
    const account = (
      await call<{ data: { id: string } }>("POST", "/api/v1/ledger/accounts", { name: "Hooked", currency: "USD" })
    ).data.id;
    await call("POST", "/api/v1/ledger/transactions/deposit", {
      account_id: account,
      amount: "25.00",
      currency: "USD",
      description: "Webhook check",
    });
    const eventRequest = await receiver.next(
      (request) => verified(secret, request)?.type === "ledger.transactionCreated",
    );
    const eventId = String(eventRequest.headers["webhook-id"]);
    // The log asks again on its own; Refresh asks now.
    await page.getByRole("button", { name: "Refresh" }).click();
    const eventDelivery = page.getByRole("listitem", { name: "ledger.transactionCreated delivery" }).filter({
      hasText: eventId,
    });
    await eventDelivery.getByText("Succeeded").waitFor();
    // The event carries its stable id in the body, the same as the webhook-id.
    expect(verified(secret, eventRequest)?.id).toBe(eventId);
    await screenshot(page, "webhooks-log");
    await expectAccessible(page, "endpoint detail and delivery log");

    // The log with its attempts open fits a phone: nothing widens the page.
    await page.setViewportSize(MOBILE);
    await eventDelivery.getByText("1 attempt").click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await context.close();
    // Two axe checks and a real delivery through the dispatcher: longer than the default on a busy machine.
  }, 120_000);
});
