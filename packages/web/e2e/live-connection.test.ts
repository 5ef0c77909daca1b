import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { baseUrl, launchBrowser, newContext, registerSession, screenshot, type StoredSession } from "./harness";

/**
 * One live connection per browser (docs/feeds.md#streams-per-user-and-one-connection-per-browser),
 * in Chromium against the real local stack: three tabs of one user on three live screens (ledger,
 * KYC, payments) hold one stream that carries all three feeds; when every tab has been hidden for a
 * minute the browser holds none; a tab shown again reconnects with Last-Event-ID and gets what was
 * committed meanwhile.
 *
 * The test drives time and visibility instead of waiting: the browser's clock is Playwright's
 * (fast-forwarded past the minute), and each tab's Page Visibility state is set from the test
 * (document.visibilityState / hidden, then a visibilitychange event). Streams are counted from
 * the browser's own network events.
 */

let browser: Browser;
let session: StoredSession;
let context: BrowserContext;
let tabs: Page[];
let account: { id: string; name: string };

const LIVE_STREAM = "/api/grpc/live/stream";
/** How long a condition may take to come true on a busy machine (waited for, not slept). */
const WAIT = { timeout: 20_000, interval: 50 };
const SINGLE_FEED_STREAM = /\/api\/grpc\/(ledger|kyc|payment)\/stream|\/v1\/payments\/stream/;

/** Every live stream request the browser made, and the ones still open. */
const requested: Request[] = [];
const open = new Set<Request>();
const singleFeedRequests: string[] = [];

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((value) => (window as unknown as { __setHidden(hidden: boolean): void }).__setHidden(value), hidden);
const scopesOf = (request: Request) => new URL(request.url()).searchParams.get("scopes");
const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).first();

beforeAll(async () => {
  browser = await launchBrowser();
  session = await registerSession("live-tabs", { first: "Tess", last: "Tabs" });
  account = await call("POST", "/api/v1/ledger/accounts", { name: "Operating", currency: "USD" });
  await call("POST", "/api/v1/ledger/accounts", { name: "Savings", currency: "USD" });

  context = await newContext(browser, { session, theme: "light", reducedMotion: "reduce" });
  // The page's visibility as the test says, for the Page Visibility API the app reads.
  await context.addInitScript(() => {
    let hidden = false;
    Object.defineProperty(Document.prototype, "visibilityState", {
      configurable: true,
      get: () => (hidden ? "hidden" : "visible"),
    });
    Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
    Object.assign(window, {
      __setHidden(value: boolean) {
        hidden = value;
        document.dispatchEvent(new Event("visibilitychange"));
      },
    });
  });
  await context.clock.install();
  context.on("request", (request) => {
    if (request.url().includes(LIVE_STREAM)) {
      requested.push(request);
      open.add(request);
    } else if (SINGLE_FEED_STREAM.test(request.url())) singleFeedRequests.push(request.url());
  });
  context.on("requestfinished", (request) => open.delete(request));
  context.on("requestfailed", (request) => open.delete(request));

  tabs = [await context.newPage(), await context.newPage(), await context.newPage()];
  await tabs[0]!.goto("/ledger");
  await tabs[0]!.getByRole("status", { name: "Live updates: Live" }).waitFor();
  await tabs[1]!.goto("/kyc");
  await tabs[1]!.getByRole("status").filter({ hasText: "Live updates" }).waitFor();
  await tabs[2]!.goto("/payments");
  await tabs[2]!.getByText("Connected", { exact: true }).waitFor();
  await tabs[2]!.getByRole("button", { name: "Start Streaming" }).click();
  await tabs[2]!.getByText("Stream live").waitFor();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe("one live connection per browser", () => {
  it("three tabs on the ledger, KYC and payments screens hold one stream carrying the three feeds", async () => {
    await vi.waitFor(() => {
      expect(open.size).toBe(1);
      expect(scopesOf([...open][0]!)).toBe("kyc,ledger,payment");
    }, WAIT);
    expect(singleFeedRequests).toEqual([]);
    // The token travels in a header, never in the URL.
    const stream = [...open][0]!;
    expect(new URL(stream.url()).searchParams.has("ticket")).toBe(false);
    expect((await stream.allHeaders()).authorization).toBe(`Bearer ${session.token}`);
  });

  it("holds no stream once every tab has been hidden for a minute, and one shown again resumes from its last event id", async () => {
    for (const tab of tabs) await setHidden(tab, true);
    // Within the minute the stream stays.
    await context.clock.fastForward(30_000);
    expect(open.size).toBe(1);
    const before = requested.length;
    await context.clock.fastForward(30_000);
    await vi.waitFor(() => expect(open.size).toBe(0), WAIT);

    // Money moves while no tab listens: a deposit is made and posted through the API.
    const deposit = await call<{ id: string }>("POST", "/api/v1/ledger/transactions/deposit", {
      account_id: account.id,
      amount: "250",
      currency: "USD",
      description: "While hidden",
    });
    await call("POST", `/api/v1/ledger/transactions/${deposit.id}/post`);
    expect(requested.length).toBe(before);

    await setHidden(tabs[0]!, false);
    await vi.waitFor(() => expect(open.size).toBe(1), WAIT);
    const resumed = [...open][0]!;
    expect(scopesOf(resumed)).toBe("kyc,ledger,payment");
    expect((await resumed.allHeaders())["last-event-id"]).toMatch(/^ledger=[^,]+,kyc=[^,]+,payment=[^,]+$/);
    // The event committed while nothing was open arrives on the shown tab.
    await toast(tabs[0]!, "Balance credited: +$250.00 · Operating").waitFor();
    await screenshot(tabs[0]!, "live-connection-resumed");
    expect(requested.length).toBe(before + 1);
  });
});
