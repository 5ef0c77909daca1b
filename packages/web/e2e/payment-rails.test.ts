import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
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
 * The payment-rails console at /payment-rails against the real stack: an
 * admin edits a rail (FX spread typed in percent, stored as a fraction: the API shows it), stops
 * and starts one (the simulator drops it and takes it back), and the simulator's Best Option for a
 * few amounts and currencies is the quote API's; a user sees read-only cards (and the server says
 * 403); axe in both themes at desktop and 390 px, with the edit drawer open too.
 */

interface WireRail {
  id: string;
  name: string;
  type: string;
  status: string;
  fixedFee: string;
  fxSpread: number;
  slaTarget: number;
  errorInjection: number;
  version: number;
}
interface WireQuote {
  railId: string;
  name: string;
  totalCost: string;
  isOptimal: boolean;
}

let browser: Browser;
let admin: StoredSession;
/** The file's one user (registration is rate limited): pays in the traffic test, reads in the user test. */
let user: StoredSession;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
  user = await registerSession("rails-user");
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function call<T>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const reply = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  return { status: reply.status, body: (text ? JSON.parse(text) : null) as T };
}

const rail = async (id: string) =>
  (await call<{ data: WireRail }>(admin.token, "GET", `/api/v1/rails/${id}`)).body.data;

async function quote(
  amount: string,
  currency: string,
  payout?: { payoutCurrency: string; country: string },
): Promise<WireQuote[]> {
  const reply = await call<{ data: { results: WireQuote[] } }>(admin.token, "POST", "/api/v1/rails/quote", {
    amount,
    currency,
    ...payout,
  });
  expect(reply.status).toBe(200);
  return reply.body.data.results;
}

/** The simulator's money as the page writes it (en-US, the currency's own decimals). */
const money = (decimal: string, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(Number(decimal));

async function open(
  session: StoredSession,
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
  await page.goto("/payment-rails");
  await page.getByRole("heading", { name: "Payment Rails Console", level: 1 }).waitFor();
  await page.getByRole("article").first().waitFor();
  return page;
}

async function expectNoBlockingViolations(page: Page, label: string) {
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `payment-rails-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

const simulator = (page: Page) => page.getByRole("region", { name: "Cost simulator" });

/** The simulator's Best Option as shown: the rail's name and its cost text. */
async function shownBest(page: Page): Promise<{ name: string; cost: string }> {
  const best = simulator(page).getByRole("listitem").filter({ hasText: "Best Option" });
  await best.waitFor();
  expect(await simulator(page).getByText("Best Option", { exact: true }).count()).toBe(1);
  const name = (await best.locator("p").first().locator("span").first().textContent())!.trim();
  const cost = (await best.locator("[data-cost]").textContent())!.trim();
  return { name, cost };
}

/** Sets the simulator and checks its Best Option (name and cost) and its list of rails against POST /rails/quote. */
async function expectSimulatorMatchesQuote(
  page: Page,
  amount: string,
  currency: string,
  payout?: { payoutCurrency: string; country: string },
) {
  await simulator(page).getByLabel("Amount").fill(amount);
  await simulator(page).getByLabel("Currency").selectOption(currency);
  if (payout) {
    await simulator(page).getByLabel("Arrives in").selectOption(payout.payoutCurrency);
    await simulator(page).getByLabel("Destination country").selectOption(payout.country);
  }
  const quoted = await quote(amount, currency, payout);
  const optimal = quoted.filter((result) => result.isOptimal);
  expect(optimal, `${amount} ${currency}`).toHaveLength(1);
  await simulator(page)
    .getByRole("listitem")
    .filter({ hasText: "Best Option" })
    .filter({ hasText: optimal[0]!.name })
    .waitFor();
  expect(await shownBest(page), `${amount} ${currency}`).toEqual({
    name: optimal[0]!.name,
    cost: money(optimal[0]!.totalCost, currency),
  });
  // Every active rail the API quotes, and no other, is in the simulator, at the API's cost.
  const items = simulator(page).getByRole("listitem");
  expect(await items.count()).toBe(quoted.length);
  for (const result of quoted) {
    expect(
      await simulator(page).locator(`[data-rail="${result.railId}"] [data-cost]`).textContent(),
      `${result.name} ${amount} ${currency}`,
    ).toBe(money(result.totalCost, currency));
  }
}

describe("payment rails console: an admin", () => {
  it("sees seven rails; the simulator's Best Option is the quote API's for a few amounts and currencies", {
    timeout: 120_000,
  }, async () => {
    const page = await open(admin);
    expect(await page.getByRole("article").count()).toBe(7);
    // Default: 1000 USD.
    expect(await simulator(page).getByLabel("Amount").inputValue()).toBe("1000");
    expect(await simulator(page).getByLabel("Currency").inputValue()).toBe("USD");
    // SEPA (1.02) is cheaper but carries EUR only: it says so, and ACH is the Best Option.
    expect(await shownBest(page)).toEqual({ name: "ACH", cost: "$1.05" });
    await simulator(page).locator('[data-rail="sepa"]').getByText("Cannot carry it: SEPA carries EUR only").waitFor();
    await simulator(page)
      .locator("[data-savings]")
      .getByText(/against the first eligible rail \(ACH\) as the baseline/)
      .waitFor();
    await screenshot(page, "payment-rails-top");
    await expectSimulatorMatchesQuote(page, "1000", "USD");
    await expectSimulatorMatchesQuote(page, "1000", "EUR");
    await expectSimulatorMatchesQuote(page, "250.5", "GBP");
    await expectSimulatorMatchesQuote(page, "10000", "JPY");
    await expectSimulatorMatchesQuote(page, "10", "USD");
    await expectSimulatorMatchesQuote(page, "2500", "INR");
    // Sent in EUR, paid out in USD: the FX spread applies, and every fee states its rate.
    await expectSimulatorMatchesQuote(page, "1000", "EUR", { payoutCurrency: "USD", country: "US" });
    await simulator(page)
      .locator('[data-rail="card"]')
      .getByText(/at 1 USD = 0\.9200 EUR/)
      .waitFor();
    // Floored at 0: nothing to compare, no Best Option (a negative amount counts as 0 too).
    await simulator(page).getByLabel("Amount").fill("0");
    await simulator(page).getByText("Enter an amount above 0").waitFor();
    expect(await simulator(page).getByText("Best Option").count()).toBe(0);
    await simulator(page).getByLabel("Amount").fill("-5");
    await simulator(page).getByText("Enter an amount above 0").waitFor();
    expect(await simulator(page).getByText("Best Option").count()).toBe(0);
    // The admin's settlement panel leads to the reconciliation console.
    await page
      .getByRole("region", { name: "Settlement files" })
      .getByRole("link", { name: "Open the reconciliation console" })
      .waitFor();
    await screenshot(page, "payment-rails-admin");
  });

  it("edits a rail in the drawer: FX spread typed in percent, saved as a fraction; bad input is refused before sending", {
    timeout: 120_000,
  }, async () => {
    const before = await rail("crypto");
    const page = await open(admin);
    const card = page.getByRole("article", { name: "Crypto" });
    await card.getByRole("button", { name: "Settings of Crypto" }).click();
    const drawer = page.getByRole("dialog", { name: "Edit Crypto" });
    await drawer.waitFor();
    // Focus moved into the drawer (the name field); the stored fraction shows as percent.
    expect(await page.evaluate(() => document.activeElement?.closest("[role=dialog]") !== null)).toBe(true);
    expect(await drawer.getByLabel("FX spread (%)").inputValue()).toBe("5");

    // A step finer than 0.001 % is refused by core's schema, in the drawer, and nothing is sent.
    let puts = 0;
    page.on("request", (request) => {
      if (request.method() === "PUT" && request.url().includes("/api/v1/rails/")) puts += 1;
    });
    await drawer.getByLabel("FX spread (%)").fill("0.0001");
    await drawer.getByRole("button", { name: "Save" }).click();
    await drawer.getByRole("alert").filter({ hasText: "FX spread takes steps of 0.001 %" }).waitFor();
    // After a refused save the form checks each edit as it is typed: the blank name is refused at
    // once. Save is pressed only after that message has moved the buttons down, so the press
    // cannot land where Save was a moment before.
    await drawer.getByLabel("Name").fill("");
    const nameRequired = drawer.getByRole("alert").filter({ hasText: "Name is required" });
    await nameRequired.waitFor();
    await drawer.getByRole("button", { name: "Save" }).click();
    await drawer.getByRole("alert").filter({ hasText: "FX spread takes steps of 0.001 %" }).waitFor();
    expect(await nameRequired.count()).toBe(1);
    expect(await drawer.getByLabel("Name").inputValue()).toBe("");
    expect(puts).toBe(0);

    // Cancel closes without saving; so does a press on the backdrop.
    await drawer.getByRole("button", { name: "Cancel" }).click();
    await drawer.waitFor({ state: "detached" });
    expect((await rail("crypto")).version).toBe(before.version);
    await card.getByRole("button", { name: "Settings of Crypto" }).click();
    await drawer.waitFor();
    await page.mouse.click(5, 400);
    await drawer.waitFor({ state: "detached" });

    // Save 4.5 %: stored as 0.045, the card says 4.5%.
    await card.getByRole("button", { name: "Settings of Crypto" }).click();
    await drawer.getByLabel("FX spread (%)").fill("4.5");
    await drawer.getByLabel("Error injection rate (%)").fill("2.5");
    await drawer.getByRole("button", { name: "Save" }).click();
    await drawer.waitFor({ state: "detached" });
    const fxFigure = card
      .getByRole("term")
      .filter({ hasText: /^FX spread$/ })
      .locator("xpath=following-sibling::dd[1]");
    await fxFigure.filter({ hasText: /^4\.5%$/ }).waitFor();
    await card
      .getByRole("term")
      .filter({ hasText: /^Error injection$/ })
      .locator("xpath=following-sibling::dd[1]")
      .filter({ hasText: /^2\.5%$/ })
      .waitFor();
    const after = await rail("crypto");
    expect(after).toMatchObject({ fxSpread: 0.045, errorInjection: 0.025, version: before.version + 1 });
    expect(puts).toBe(1);
    // From here on the simulator uses it, as the API does (EUR 1000 paid out in USD on Crypto:
    // USD 0.20 = EUR 0.18 + 45 + 1 = 46.18).
    await expectSimulatorMatchesQuote(page, "1000", "EUR", { payoutCurrency: "USD", country: "DE" });
    expect(await simulator(page).locator('[data-rail="crypto"] [data-cost]').textContent()).toBe("€46.18");

    // A server refusal is shown in the drawer: the rail changed since the drawer opened (stale version).
    await card.getByRole("button", { name: "Settings of Crypto" }).click();
    const changedElsewhere = await call(admin.token, "PUT", "/api/v1/rails/crypto", {
      name: "Crypto",
      type: "Crypto",
      status: "active",
      fixedFee: "0.20",
      fxSpreadPercent: "4.5",
      slaTarget: "99.8",
      errorInjectionPercent: "2.5",
    });
    expect(changedElsewhere.status).toBe(200);
    await drawer.getByLabel("SLA target (%)").fill("99.5");
    await drawer.getByRole("button", { name: "Save" }).click();
    const refusal = await call<{ code: string; message: string }>(admin.token, "PUT", "/api/v1/rails/crypto", {
      name: "Crypto",
      type: "Crypto",
      status: "active",
      fixedFee: "0.20",
      fxSpreadPercent: "4.5",
      slaTarget: "99.5",
      errorInjectionPercent: "2.5",
      version: after.version,
    });
    expect(refusal.status).toBe(409);
    await drawer.getByRole("alert").filter({ hasText: refusal.body.message }).waitFor();
    expect((await rail("crypto")).slaTarget).toBe(99.8);
    // The drawer lists the recorded changes: the browser's save and the one made elsewhere.
    const history = drawer.getByRole("region", { name: "Change history" });
    await history.getByText("SLA target 99.9% → 99.8%").waitFor();
    await history.getByText("FX spread 5% → 4.5%").waitFor();
    await history.getByText("Error injection 0% → 2.5%").waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });

    // Back as seeded.
    const restored = await call(admin.token, "PUT", "/api/v1/rails/crypto", {
      name: before.name,
      type: before.type,
      status: before.status,
      fixedFee: before.fixedFee,
      fxSpreadPercent: "5",
      slaTarget: String(before.slaTarget),
      errorInjectionPercent: "0",
    });
    expect(restored.status).toBe(200);
    expect(await rail("crypto")).toMatchObject({ fxSpread: 0.05, errorInjection: 0, slaTarget: before.slaTarget });
  });

  it("stops and starts a rail: the card and the simulator follow, as the API does", { timeout: 120_000 }, async () => {
    const page = await open(admin);
    const card = page.getByRole("article", { name: "SEPA" });
    await simulator(page).getByLabel("Amount").fill("1000");
    await simulator(page).getByLabel("Currency").selectOption("EUR");
    await simulator(page)
      .getByRole("listitem")
      .filter({ hasText: "Best Option" })
      .filter({ hasText: "SEPA" })
      .waitFor();

    await card.getByRole("button", { name: "Stop SEPA" }).click();
    await card.getByRole("button", { name: "Start SEPA" }).waitFor();
    await card.getByText("Down", { exact: true }).waitFor();
    await card
      .getByText(new RegExp(`^Last stopped by ${inject("admin").email.replace(/[.+]/g, "\\$&")} on `))
      .waitFor();
    expect((await rail("sepa")).status).toBe("down");
    await simulator(page).locator('[data-rail="sepa"]').waitFor({ state: "detached" });
    expect((await shownBest(page)).name).toBe("Card");
    expect((await quote("1000", "EUR")).map((result) => result.railId)).not.toContain("sepa");
    await expectSimulatorMatchesQuote(page, "1000", "EUR");
    await page.getByRole("term").filter({ hasText: "Active rails" }).locator("..").getByText("6 of 7").waitFor();

    await card.getByRole("button", { name: "Start SEPA" }).click();
    await card.getByRole("button", { name: "Stop SEPA" }).waitFor();
    await card.getByText("Active", { exact: true }).waitFor();
    expect((await rail("sepa")).status).toBe("active");
    await simulator(page).locator('[data-rail="sepa"]').waitFor();
    await simulator(page)
      .getByRole("listitem")
      .filter({ hasText: "Best Option" })
      .filter({ hasText: "SEPA" })
      .waitFor();
    await expectSimulatorMatchesQuote(page, "1000", "EUR");
  });
});

interface WireDecision {
  paymentId: string;
  attemptNumber: number;
  decision: { chosenRailId: string; chosenRail: string; reason: string; candidates: unknown[] };
}
interface WireThroughput {
  series: { railId: string; rail: string; points: { transactions: number; succeeded: number; failed: number }[] }[];
}

/** Waits on the API (no fixed sleep) until the payment has finished: completed or failed. */
async function finishedPayment(
  token: string,
  paymentId: string,
): Promise<{ status: string; selectedRail: string; railId: string }> {
  return vi.waitFor(
    async () => {
      const reply = await call<{ data: { status: string; selectedRail: string; railId: string } }>(
        token,
        "GET",
        `/v1/payments/${paymentId}`,
      );
      expect(reply.status).toBe(200);
      expect(["completed", "failed"]).toContain(reply.body.data.status);
      return reply.body.data;
    },
    { timeout: 60_000, interval: 250 },
  );
}

describe("payment rails console: real traffic", () => {
  it("a payment shows in Smart Payment Routing (why this rail, candidates), the throughput monitor and the rail's bars, as the API has them", {
    timeout: 120_000,
  }, async () => {
    // A real payment between the user's two USD accounts.
    const account = async (name: string) =>
      (await call<{ data: { id: string } }>(user.token, "POST", "/api/v1/ledger/accounts", { name, currency: "USD" }))
        .body.data.id;
    const from = await account("Rails payer");
    const to = await account("Rails payee");
    const deposit = await call<{ data: { id: string } }>(user.token, "POST", "/api/v1/ledger/transactions/deposit", {
      account_id: from,
      amount: "100",
      currency: "USD",
      description: "Funding",
    });
    expect((await call(user.token, "POST", `/api/v1/ledger/transactions/${deposit.body.data.id}/post`)).status).toBe(
      200,
    );
    const userId = (JSON.parse(user.user) as { id: string }).id;
    const created = await call<{ payment: { paymentId: string } }>(user.token, "POST", "/v1/payments", {
      userId,
      fromAccountId: from,
      toAccountId: to,
      amount: "12.00",
      currency: "USD",
    });
    expect(created.status).toBe(201);
    const paymentId = created.body.payment.paymentId;
    const finished = await finishedPayment(user.token, paymentId);

    // The user sees their own decision; its reason is the API's.
    const own = await call<{ data: { scope: string; decisions: WireDecision[] } }>(
      user.token,
      "GET",
      "/api/v1/rails/decisions?limit=10",
    );
    expect(own.status).toBe(200);
    expect(own.body.data.scope).toBe("own");
    const first = own.body.data.decisions.find((entry) => entry.paymentId === paymentId && entry.attemptNumber === 1)!;
    expect(first).toBeDefined();

    const page = await open(admin);
    const routing = page.getByRole("region", { name: "Smart Payment Routing" });
    const item = routing.locator(`li[data-payment="${paymentId}"]`).first();
    await item.waitFor();
    await item.getByText(first.decision.reason).waitFor();
    await item.getByText(/(Saved .* against|Cost .* more than|Same cost as|is the default rail)/).waitFor();
    await item.getByText(`Candidates (${first.decision.candidates.length})`).click();
    await item.getByText(`${first.decision.chosenRail} (chosen)`).waitFor();

    // The throughput monitor over the last hour: the chart and its table say what the API says.
    const monitor = page.getByRole("region", { name: "Throughput monitor" });
    await monitor.getByRole("radio", { name: "1h" }).click();
    expect(await monitor.getByRole("radio", { name: "1h" }).getAttribute("aria-checked")).toBe("true");
    const throughput = await call<{ data: WireThroughput }>(admin.token, "GET", "/api/v1/rails/throughput?range=1h");
    const railSeries = throughput.body.data.series.find((series) => series.railId === finished.railId)!;
    const attempts = railSeries.points.reduce((sum, point) => sum + point.transactions, 0);
    expect(attempts).toBeGreaterThanOrEqual(1);
    await monitor.getByRole("img", { name: /^Payment attempts per rail over the last 1 hour: / }).waitFor();
    const row = monitor.locator(`tr[data-rail="${finished.railId}"]`);
    await row.waitFor();
    expect(Number(await row.locator("td").first().textContent())).toBeGreaterThanOrEqual(1);

    // The rail's error-rate and time bars come from its attempts.
    const performance = page
      .getByRole("region", { name: "Rail performance" })
      .locator(`li[data-rail="${finished.railId}"]`);
    await performance.getByText("Error rate").waitFor();
    await performance.getByText("Time (of 3 s)").waitFor();
    await screenshot(page, "payment-rails-traffic");
    await waitForScreenSettled(page);
    await expectNoBlockingViolations(page, "traffic");
  });
});

describe("when the rails cannot be loaded", () => {
  it("says why and offers Try again, which brings the server's rails back", { timeout: 60_000 }, async () => {
    const context = await newContext(browser, { session: admin, reducedMotion: "reduce" });
    contexts.push(context);
    const page = await context.newPage();
    let failing = true;
    await page.route("**/api/v1/rails", (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ message: "Service temporarily unavailable", code: "service_unavailable" }),
          })
        : route.fallback(),
    );
    await page.goto("/payment-rails");
    await page.getByRole("alert").filter({ hasText: "Service temporarily unavailable" }).waitFor();
    expect(await page.getByRole("article").count()).toBe(0);
    failing = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("article", { name: "SEPA" }).waitFor();
    expect(await page.getByRole("article").count()).toBe(7);
  });
});

describe("payment rails console: a user", () => {
  it("sees read-only cards; the server answers 403 to edits, starts and stops", { timeout: 60_000 }, async () => {
    const page = await open(user);
    await page.getByText("Read-only: only admins edit, start and stop rails.").waitFor();
    expect(await page.getByRole("article").count()).toBe(7);
    expect(await page.getByRole("button", { name: /^Settings of / }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Start|Stop) / }).count()).toBe(0);
    // The simulator works for everyone.
    expect((await shownBest(page)).name).toBe("ACH");
    const stop = await call<{ message: string }>(user.token, "POST", "/api/v1/rails/ach/stop");
    expect(stop.status).toBe(403);
    const edit = await call(user.token, "PUT", "/api/v1/rails/ach", {
      name: "ACH",
      type: "ACH",
      status: "down",
      fixedFee: "0.05",
      fxSpreadPercent: "1",
      slaTarget: "99.9",
    });
    expect(edit.status).toBe(403);
    expect((await rail("ach")).status).toBe("active");
    await waitForScreenSettled(page);
    await expectNoBlockingViolations(page, "user");
  });
});

describe("accessibility of the rails console", () => {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`cards, simulator and the edit drawer: ${theme} theme at ${viewport.width} px`, {
        timeout: 90_000,
      }, async () => {
        const label = `${theme} ${viewportName}`;
        const page = await open(admin, { theme, viewport });
        await waitForScreenSettled(page);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `horizontal overflow on ${label}`,
        ).toBeLessThanOrEqual(viewport.width);
        await expectNoBlockingViolations(page, `page ${label}`);
        if (viewportName === "mobile") await screenshot(page, `payment-rails-${theme}-mobile`);

        await page.getByRole("button", { name: "Settings of ACH" }).click();
        const drawer = page.getByRole("dialog", { name: "Edit ACH" });
        await drawer.waitFor();
        await waitForScreenSettled(page);
        await expectNoBlockingViolations(page, `drawer ${label}`);
        // Focus stays inside the drawer.
        for (let press = 0; press < 20; press += 1) await page.keyboard.press("Tab");
        expect(await page.evaluate(() => !!document.activeElement?.closest("[role=dialog]"))).toBe(true);
        if (viewportName === "mobile") await screenshot(page, `payment-rails-drawer-${theme}-mobile`);
        await page.keyboard.press("Escape");
        await drawer.waitFor({ state: "detached" });
        // Focus returns to the button that opened it.
        expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Settings of ACH");
      });
    }
  }
});
