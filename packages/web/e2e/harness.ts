import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";
import { paymentIdFor } from "@fintech/core/payments/service";
import { attemptOutcome } from "@fintech/core/payments/worker";
import { SEED_RAILS } from "@fintech/core/rails/seed-rails";

/** Debian's Chromium, never a downloaded browser; flags keep it off the (closed) network. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-quic",
  "--no-first-run",
  "--disable-sync",
];

/** Screenshots land here; CI keeps the folder as the run's artifacts. */
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, "../../../test-results/screenshots");

export function baseUrl(): string {
  return inject("baseUrl");
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/** A fresh context (empty localStorage) with the app's base URL. */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  const page = await context.newPage();
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/**
 * Stops the page's installed clock `aheadMs` past the page's own now. The clock keeps running
 * while the call travels; on a machine busy enough that the moment has passed when it lands,
 * Playwright refuses to go back, so this reads the page's new now and asks again.
 */
export async function pauseClockAhead(page: Page, aheadMs: number): Promise<void> {
  for (;;) {
    const at = (await page.evaluate(() => Date.now())) + aheadMs;
    try {
      await page.clock.pauseAt(at);
      return;
    } catch (error) {
      if (!String(error).includes("Cannot fast-forward to the past")) throw error;
    }
  }
}

let emailCounter = 0;
/** A unique address per call, so tests never collide on the shared stack. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now().toString(36)}-${++emailCounter}@example.com`;
}

export type Theme = "light" | "dark";
export const THEMES: readonly Theme[] = ["dark", "light"];
export const VIEWPORTS = { desktop: DESKTOP, mobile: MOBILE } as const;

/** A session as the SPA stores it in localStorage (authToken + authUser, docs/product/session.md#session). */
export interface StoredSession {
  token: string;
  /** JSON of the session user: id, email, firstName, lastName, role. */
  user: string;
}

/** A JSON call to the API as `session`'s user; a reply other than 2xx throws with its body. */
export async function apiCall<T>(session: StoredSession, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Two USD accounts, Operating funded with `amount` by a posted deposit: what the money-moving demos need. */
export async function fundTwoAccounts(
  session: StoredSession,
  amount: string,
): Promise<{ operating: string; savings: string }> {
  const open = async (name: string) =>
    (await apiCall<{ data: { id: string } }>(session, "POST", "/api/v1/ledger/accounts", { name, currency: "USD" }))
      .data.id;
  const operating = await open("Operating");
  const savings = await open("Savings");
  const deposit = (
    await apiCall<{ data: { id: string } }>(session, "POST", "/api/v1/ledger/transactions/deposit", {
      account_id: operating,
      amount,
      currency: "USD",
      description: "Funding",
    })
  ).data;
  await apiCall(session, "POST", `/api/v1/ledger/transactions/${deposit.id}/post`);
  return { operating, savings };
}

interface RegisterReply {
  data: { token: string; user: { id: string; email: string; first_name: string; last_name: string; role: string } };
}

/**
 * Registers a user through the API (no UI), for tests that need a signed-in browser. Register
 * once per file: registration is rate limited per client.
 */
export async function registerSession(
  prefix = "user",
  name = { first: "Grace", last: "Hopper" },
): Promise<StoredSession> {
  const reply = await fetch(`${baseUrl()}/api/v1/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: uniqueEmail(prefix),
      password: "correct-horse-battery",
      first_name: name.first,
      last_name: name.last,
    }),
  });
  if (reply.status !== 201) throw new Error(`registration failed: HTTP ${reply.status} ${await reply.text()}`);
  const registered = ((await reply.json()) as RegisterReply).data;
  // As if the sign-up mail's link was used: test users can be paid by email.
  await verifyEmailFromSink(registered.user.email);
  return storedSession(registered);
}

interface SinkMessage {
  kind: string;
  links: string[];
}

/**
 * The links of the newest mail of `kind` to `to`, from the local stack's sink (/dev/mail.json
 * delivers what is queued first).
 */
export async function mailLinks(to: string, kind: string): Promise<string[]> {
  const reply = await fetch(`${baseUrl()}/dev/mail.json?to=${encodeURIComponent(to)}`);
  if (reply.status !== 200) throw new Error(`reading the mail sink failed: HTTP ${reply.status}`);
  const message = ((await reply.json()) as { data: SinkMessage[] }).data.find((mail) => mail.kind === kind);
  if (!message) throw new Error(`no ${kind} mail to ${to}`);
  return message.links;
}

/** Uses the sign-up's verification link through the API (POST /api/v1/users/email-verification). */
async function verifyEmailFromSink(email: string): Promise<void> {
  const link = (await mailLinks(email, "email-verification"))[0] ?? "";
  const token = new URL(link, baseUrl()).searchParams.get("token");
  const reply = await fetch(`${baseUrl()}/api/v1/users/email-verification`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token }),
  });
  if (reply.status !== 200) throw new Error(`verifying ${email} failed: HTTP ${reply.status} ${await reply.text()}`);
}

/** The run's admin (seeded by the global setup with a random password), signed in through the API. */
export async function adminSession(): Promise<StoredSession> {
  const { email, password } = inject("admin");
  const reply = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (reply.status !== 200) throw new Error(`the admin's sign-in failed: HTTP ${reply.status} ${await reply.text()}`);
  const session = ((await reply.json()) as RegisterReply).data;
  if (session.user.role !== "admin") throw new Error(`the seeded admin has role ${session.user.role}`);
  return storedSession(session);
}

/**
 * Holds a user at a verification level through the real admin route (PUT
 * /api/v1/ledger/limits/users/{id}/level), as an administrator would for a customer verified
 * outside the wizard: money tests pay others without taking the KYC journey first.
 */
let levelAdmin: Promise<StoredSession> | null = null;
export async function setVerificationLevel(
  session: StoredSession,
  level: "verified" | "unverified" | null,
): Promise<void> {
  // One sign-in per test file: sign-ins are rate limited.
  levelAdmin ??= adminSession();
  const admin = await levelAdmin;
  const userId = (JSON.parse(session.user) as { id: string }).id;
  const reply = await fetch(`${baseUrl()}/api/v1/ledger/limits/users/${userId}/level`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({ level, reason: "End-to-end test user" }),
  });
  if (reply.status !== 200) throw new Error(`setting the level failed: HTTP ${reply.status} ${await reply.text()}`);
}

/** A registered user held at the verified level (registerSession, then setVerificationLevel). */
export async function verifiedSession(
  prefix = "user",
  name = { first: "Grace", last: "Hopper" },
): Promise<StoredSession> {
  const session = await registerSession(prefix, name);
  await setVerificationLevel(session, "verified");
  return session;
}

function storedSession({ token, user }: RegisterReply["data"]): StoredSession {
  return {
    token,
    user: JSON.stringify({
      id: user.id,
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
      role: user.role,
    }),
  };
}

export interface ContextOptions {
  viewport?: { width: number; height: number };
  /** Written to localStorage before the app starts; absent leaves the default (dark). */
  theme?: Theme;
  /** Signed in from the first page load. */
  session?: StoredSession;
  reducedMotion?: "reduce" | "no-preference";
}

/** A context whose tabs start with the given theme and session in localStorage. */
export async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: options.viewport ?? DESKTOP,
    reducedMotion: options.reducedMotion ?? "no-preference",
  });
  await context.addInitScript(
    ({ theme, session }) => {
      // Seeded once per tab, so a test that toggles the theme or signs out keeps that on reload.
      if (sessionStorage.getItem("e2e-seeded")) return;
      sessionStorage.setItem("e2e-seeded", "1");
      if (theme) localStorage.setItem("theme", theme);
      if (session) {
        localStorage.setItem("authToken", session.token);
        localStorage.setItem("authUser", session.user);
      }
    },
    { theme: options.theme ?? null, session: options.session ?? null },
  );
  return context;
}

/** One browser with one tab signed in as one user, for a test file that walks that user's screens. */
export interface SignedInTab {
  browser: Browser;
  session: StoredSession;
  context: BrowserContext;
  page: Page;
}

/** Registers a user (once per file: registration is rate limited) and opens a tab signed in as them. */
export async function openSignedInTab(
  prefix: string,
  name: { first: string; last: string },
  options: Omit<ContextOptions, "session"> = {},
): Promise<SignedInTab> {
  const browser = await launchBrowser();
  const session = await registerSession(prefix, name);
  const context = await newContext(browser, { ...options, session });
  return { browser, session, context, page: await context.newPage() };
}

export async function closeSignedInTab(tab: Partial<SignedInTab>): Promise<void> {
  await tab.context?.close();
  await tab.browser?.close();
}

/**
 * A payment's outcome is decided by its id (paymentIdFor(payer, Idempotency-Key)), so a test that
 * needs a completed payment picks a key whose first attempt succeeds on every seeded rail: then the
 * outcome does not depend on which rail the routing chooses. `prefix` keeps keys apart.
 */
export function succeedingPaymentKey(userId: string, prefix: string): string {
  for (let index = 0; ; index += 1) {
    const key = `${prefix}.${index}`;
    const paymentId = paymentIdFor(userId, key);
    if (SEED_RAILS.every((rail) => attemptOutcome(rail, paymentId, 1).succeeded)) return key;
  }
}

/**
 * Makes every payment the browser tab sends as `userId` complete: the SPA's random
 * Idempotency-Key of POST /v1/payments is swapped for a succeeding key derived from it, so a
 * retry of the same request still carries the same key.
 */
export async function payWithSucceedingKey(page: Page, userId: string): Promise<void> {
  await page.route(
    (url) => url.pathname === "/v1/payments" || url.pathname === "/api/v1/payments",
    async (route) => {
      const request = route.request();
      const key = request.headers()["idempotency-key"];
      if (request.method() !== "POST" || !key) return route.fallback();
      return route.continue({
        headers: { ...request.headers(), "idempotency-key": succeedingPaymentKey(userId, key) },
      });
    },
  );
}

/** The signed-in user's own records that routes with a parameter show (/payments/:id is a payment). */
export interface RouteRecords {
  account: string;
  transaction: string;
  payment: string;
}

async function callAs<T>(session: StoredSession, method: string, path: string, body?: unknown): Promise<T> {
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

/**
 * Gives a verified user one record of each kind a route can show, through the API: two USD
 * accounts, a posted deposit and a payment between them.
 */
export async function seedRouteRecords(
  session: StoredSession,
  names = { spending: "Everyday", savings: "Savings" },
): Promise<RouteRecords> {
  const account = async (name: string) =>
    (await callAs<{ data: { id: string } }>(session, "POST", "/api/v1/ledger/accounts", { name, currency: "USD" })).data
      .id;
  const spending = await account(names.spending);
  const savings = await account(names.savings);
  const transaction = (
    await callAs<{ data: { id: string } }>(session, "POST", "/api/v1/ledger/transactions/deposit", {
      account_id: spending,
      amount: "100.00",
      currency: "USD",
      description: "Funding",
    })
  ).data.id;
  await callAs(session, "POST", `/api/v1/ledger/transactions/${transaction}/post`);
  const userId = (JSON.parse(session.user) as { id: string }).id;
  const payment = (
    await callAs<{ payment: { paymentId: string } }>(session, "POST", "/v1/payments", {
      userId,
      fromAccountId: spending,
      toAccountId: savings,
      amount: "12.00",
      currency: "USD",
    })
  ).payment.paymentId;
  return { account: spending, transaction, payment };
}

/**
 * The path to visit for a route table entry: parameters become one of the user's records, chosen
 * by the segment before them. A parameter that names nothing known throws, so whoever adds such a
 * route says which record it shows.
 */
export function concretePath(path: string, records: RouteRecords): string {
  return path.replace(/\/([^/]+)\/:([A-Za-z]+)/g, (_, resource: string, name: string) => {
    const kind = `${resource}/${name}`.toLowerCase();
    const id = kind.includes("payment")
      ? records.payment
      : kind.includes("account")
        ? records.account
        : kind.includes("transaction")
          ? records.transaction
          : undefined;
    if (!id) throw new Error(`no record for ${path}: add one to concretePath in harness.ts`);
    return `/${resource}/${encodeURIComponent(id)}`;
  });
}
