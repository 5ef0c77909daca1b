import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResponseTimesReport } from "@fintech/core/metrics/response-times";
import { CATEGORY_NAMES } from "../src/developers/explorer/catalogue";
import { typicalTimeLabel, typicalTimeOf } from "../src/developers/explorer/responseTimes";
import { blockingViolations, formatViolations } from "./axe";
import {
  THEMES,
  VIEWPORTS,
  baseUrl,
  launchBrowser,
  newContext,
  registerSession,
  screenshot,
  type StoredSession,
} from "./harness";
import { waitForAnimationsFinished, waitForScreenSettled } from "./settle";

/**
 * The API explorer end to end, in Chromium against the real local stack: the catalogue comes
 * from the live OpenAPI document, the response times from the live metrics, and Try It sends
 * real requests.
 */

const EXPLORER = "/developers/api-explorer";

interface Operation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
}

let browser: Browser;
let session: StoredSession;
let operations: Operation[];

beforeAll(async () => {
  browser = await launchBrowser();
  // One user for the file: registration is rate limited.
  session = await registerSession("explorer", { first: "Katherine", last: "Johnson" });
  const document = (await (await fetch(`${baseUrl()}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        tag: operation.tags[0]!,
      })),
  );
});
afterAll(async () => {
  await browser?.close();
});

const operation = (method: string, path: string): Operation => {
  const found = operations.find((entry) => entry.method === method && entry.path === path);
  if (!found) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return found;
};

/** Opens the explorer and returns the response-times reply the page itself received. */
async function openExplorer(page: Page): Promise<ResponseTimesReport> {
  const times = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/v1/developers/response-times",
  );
  await page.goto(EXPLORER);
  await waitForScreenSettled(page);
  const reply = await times;
  expect(reply.status()).toBe(200);
  return ResponseTimesReport.parse(await reply.json());
}

const endpointButton = (page: Page, operationId: string) => page.locator(`button[data-endpoint="${operationId}"]`);

async function select(page: Page, operationId: string) {
  await endpointButton(page, operationId).click();
  await page.locator(`button[data-endpoint="${operationId}"][aria-pressed="true"]`).waitFor();
}

/** The detail of the selected endpoint: a side column on desktop, under its row at 390 px. */
const detail = (page: Page, operationId: string) =>
  page.getByRole("article").filter({ has: page.locator(`#endpoint-detail-${operationId}`) });

/** Sends, and waits for the reply to THIS send (an earlier reply carries a lower sequence). */
async function send(page: Page, operationId: string) {
  const article = detail(page, operationId);
  const shown = article.getByTestId("live-response");
  const previous = (await shown.count()) === 0 ? 0 : Number(await shown.getAttribute("data-sequence"));
  await article.getByRole("button", { name: "Send request" }).click();
  await article.locator(`[data-testid="live-response"][data-sequence="${previous + 1}"]`).waitFor();
  const status = article.getByTestId("live-status");
  return {
    article,
    status: ((await status.textContent()) ?? "").trim(),
    time: ((await article.getByTestId("live-time").textContent()) ?? "").trim(),
  };
}

async function expectAccessible(page: Page, label: string) {
  await waitForAnimationsFinished(page);
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `api-explorer-${label}`);
  expect(violations, `serious or critical axe violations (${label}):\n${formatViolations(violations)}`).toEqual([]);
}

describe("API explorer", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    page = await context.newPage();
  });
  afterAll(async () => context?.close());

  it("shows the six categories and every operation of the live document, with its measured or default time", async () => {
    const times = await openExplorer(page);
    await page.getByRole("heading", { level: 1, name: "API Explorer" }).waitFor();

    const nav = page.getByRole("navigation", { name: "API categories" });
    const names = await nav.getByRole("button").allTextContents();
    expect(names.map((name) => name.replace(/\d+(, \d+ endpoints?)?$/, "").trim())).toEqual([...CATEGORY_NAMES]);
    for (const name of CATEGORY_NAMES) await page.getByRole("heading", { level: 2, name, exact: true }).waitFor();

    // KYC's operations are there now (start, verify, uploads, the reviewer's back office...).
    const kyc = page.getByRole("region", { name: "KYC & Compliance" });
    expect(await kyc.locator("button[data-endpoint]").count()).toBe(
      operations.filter((entry) => entry.tag === "KYC & Compliance").length,
    );
    expect(await kyc.locator('button[data-endpoint="startKyc"]').count()).toBe(1);
    expect(await kyc.locator("button[data-endpoint]").count()).toBeGreaterThan(10);

    // Every operation, in its tag's category, with its typical time as the metrics give it.
    expect(await page.locator("button[data-endpoint]").count()).toBe(operations.length);
    for (const entry of operations) {
      const button = page
        .getByRole("region", { name: entry.tag, exact: true })
        .locator(`button[data-endpoint="${entry.operationId}"]`);
      const text = (await button.textContent()) ?? "";
      expect(text).toContain(entry.path);
      expect(text).toContain(typicalTimeLabel(typicalTimeOf(entry, times)));
    }
    // Registrations (this file's, at least) were served before the page asked: some figures are real.
    const measured = operations.filter((entry) => typicalTimeOf(entry, times).measured);
    expect(measured.length).toBeGreaterThan(0);
    expect(await endpointButton(page, measured[0]!.operationId).textContent()).toMatch(/typical [\d.]+ m?s \(p95 /);

    // Picking a category brings its section into view, with focus on its heading.
    await nav.getByRole("button", { name: /^System & Health/ }).click();
    const heading = page.getByRole("heading", { level: 2, name: "System & Health" });
    await page.waitForFunction(() => document.activeElement?.id === "category-system-health-title");
    const box = await heading.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(800);
  });

  it("selecting an endpoint updates its curl, request body and response panels; copy shows the toast and the check", async () => {
    const origin = baseUrl().replace(/\/$/, "");
    const health = operation("GET", "/health").operationId;
    await select(page, health);
    const healthDetail = detail(page, health);
    await healthDetail.getByRole("heading", { level: 3, name: /\/health/ }).waitFor();
    expect(await healthDetail.getByLabel("curl", { exact: true }).textContent()).toBe(`curl -X GET '${origin}/health'`);
    expect(await healthDetail.getByLabel(/^Response example \(200\)/).textContent()).toContain('"status"');

    const register = operation("POST", "/api/v1/auth/register").operationId;
    await select(page, register);
    const registerDetail = detail(page, register);
    expect(await healthDetail.count()).toBe(0);
    const body = await registerDetail.getByLabel("Request body (JSON)").inputValue();
    expect(JSON.parse(body)).toHaveProperty("email");
    const curl = (await registerDetail.getByLabel("curl", { exact: true }).textContent()) ?? "";
    expect(curl).toContain(`curl -X POST '${origin}/api/v1/auth/register'`);
    expect(curl).toContain("-d '{");
    expect(curl).not.toContain("Authorization");
    // The response panel is the selected endpoint's: the sign-up reply carries a token, the health reply a status.
    expect(await registerDetail.getByLabel(/^Response example \(201\)/).textContent()).toContain('"token"');

    const profile = operation("GET", "/api/v1/users/profile").operationId;
    await select(page, profile);
    const profileCurl = (await detail(page, profile).getByLabel("curl", { exact: true }).textContent()) ?? "";
    expect(profileCurl).toContain('-H "Authorization: Bearer $FINTECH_API_KEY"');

    // Keyboard: from the selected row, one Tab offers the way to its details in the side column.
    await endpointButton(page, profile).focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForFunction((id) => document.activeElement?.id === `endpoint-detail-${id}`, profile);

    const copy = detail(page, profile).getByRole("button", { name: "Copy curl command" });
    await copy.click();
    await page.getByText("Code copied to clipboard!").waitFor();
    await page.locator('button[aria-label="Copy curl command"][data-copied="true"]').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(profileCurl);
  });

  it("Try It sends GET /health signed out and shows the live status, time and body", async () => {
    const health = operation("GET", "/health").operationId;
    await select(page, health);
    const article = detail(page, health);
    expect(await article.getByRole("radio", { name: "None (public endpoint)" }).isChecked()).toBe(true);
    expect(await article.getByRole("radio", { name: /My session/ }).isDisabled()).toBe(true);
    const reply = await send(page, health);
    expect(reply.status).toBe("200 OK");
    expect(reply.time).toMatch(/^[\d.]+ m?s$/);
    expect(await article.getByLabel("Response body").textContent()).toContain('"status"');
    await screenshot(page, "api-explorer-try-health");
  });
});

describe("API explorer signed in", () => {
  it("Try It lists accounts with the session, is refused without auth, works with a pasted API key it never stores", async () => {
    const context = await newContext(browser, { session, theme: "light" });
    const page = await context.newPage();
    await openExplorer(page);
    const accounts = operation("GET", "/api/v1/accounts").operationId;
    await select(page, accounts);
    const article = detail(page, accounts);
    expect(await article.getByRole("radio", { name: /My session/ }).isChecked()).toBe(true);
    const signedIn = await send(page, accounts);
    expect(signedIn.status).toBe("200 OK");
    expect(signedIn.time).toMatch(/^[\d.]+ m?s$/);
    expect(JSON.parse((await article.getByLabel("Response body").textContent()) ?? "")).toBeTypeOf("object");

    await article.getByRole("radio", { name: "None (expect a 401)" }).check();
    expect((await send(page, accounts)).status).toBe("401 Unauthorized");

    await article.getByRole("radio", { name: "An API key" }).check();
    await article.getByRole("button", { name: "Send request" }).click();
    await article.getByRole("alert").filter({ hasText: "Paste an API key" }).waitFor();
    const created = await page.evaluate(async (token) => {
      const reply = await fetch("/api/v1/api-keys", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Explorer" }),
      });
      return ((await reply.json()) as { data: { key: string } }).data.key;
    }, session.token);
    await article.getByLabel("API key", { exact: true }).fill(created);
    expect((await send(page, accounts)).status).toBe("200 OK");
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain(created);
    await context.close();
  });

  it("Try It on a write fills ids from the caller's own accounts; signed out it leaves them empty with a hint, never a sample that 404s", async () => {
    const transfer = operation("POST", "/api/v1/ledger/transactions/transfer").operationId;
    const bodyOf = async (page: Page) =>
      JSON.parse(await detail(page, transfer).getByLabel("Request body (JSON)").inputValue()) as Record<
        string,
        unknown
      >;

    const signedOut = await newContext(browser);
    const anonymous = await signedOut.newPage();
    await openExplorer(anonymous);
    await select(anonymous, transfer);
    expect(await bodyOf(anonymous)).toMatchObject({ from_account_id: "", to_account_id: "" });
    await detail(anonymous, transfer).getByText("Fill in your own from_account_id, to_account_id").waitFor();
    await signedOut.close();

    const account = async (name: string) => {
      const reply = await fetch(`${baseUrl()}/api/v1/ledger/accounts`, {
        method: "POST",
        headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name, currency: "USD" }),
      });
      return ((await reply.json()) as { data: { id: string } }).data.id;
    };
    const own = [await account("Explorer from"), await account("Explorer to")];
    const context = await newContext(browser, { session });
    const page = await context.newPage();
    await openExplorer(page);
    await select(page, transfer);
    // The accounts load after the endpoint opens; their ids then fill the empty fields.
    await expect.poll(async () => (await bodyOf(page)).to_account_id).not.toBe("");
    const body = await bodyOf(page);
    expect(own).toContain(body.from_account_id);
    expect(own).toContain(body.to_account_id);
    expect(body.from_account_id).not.toBe(body.to_account_id);
    await context.close();
  });

  it("Try It reads the first events of the ledger stream and stops", async () => {
    const context = await newContext(browser, { session });
    const page = await context.newPage();
    await openExplorer(page);
    const stream = operation("GET", "/api/grpc/ledger/stream").operationId;
    await select(page, stream);
    const reply = await send(page, stream);
    expect(reply.status).toBe("200 OK");
    expect(reply.time).toMatch(/to first byte$/);
    expect(
      await detail(page, stream)
        .getByLabel(/^First \d+ events?/)
        .textContent(),
    ).toContain("event: cursor");
    await context.close();
  });
});

describe("API explorer accessibility", () => {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`has no serious violations with an endpoint open and a live reply (${theme}, ${viewport.width} px)`, async () => {
        const context = await newContext(browser, { viewport, theme, reducedMotion: "reduce" });
        const page = await context.newPage();
        await openExplorer(page);
        const health = operation("GET", "/health").operationId;
        await select(page, health);
        // At 390 px the detail opens under its row; on desktop it is the side column.
        expect(await page.getByRole("complementary", { name: "Selected endpoint" }).count()).toBe(
          viewportName === "desktop" ? 1 : 0,
        );
        await send(page, health);
        await expectAccessible(page, `${theme}-${viewportName}`);
        await screenshot(page, `api-explorer-${theme}-${viewportName}`);
        // The page never scrolls sideways: long paths, ids and code wrap or scroll inside their own boxes.
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBe(0);
        // Keyboard: from the Send button, Tab reaches the live reply's copy button, and Enter copies.
        await detail(page, health).getByRole("button", { name: "Send request" }).focus();
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
          "Copy live response",
        );
        await context.close();
      });
    }
  }
});
