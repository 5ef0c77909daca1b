import { randomInt } from "node:crypto";
import { verhoeffCheckDigit } from "@fintech/core/kyc/identity-numbers";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
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
 * KYC end to end: an applicant completes the wizard at /kyc with a real PNG, a valid
 * Aadhaar and PAN; the run's admin finds the submission on /kyc/dashboard, sees the document image
 * (loaded from its presigned URL), approves it, and the applicant's /kyc says verified. Then the
 * dashboard's own behaviour against the real stack (period, filters, export, bulk actions, the
 * rules tab), axe on the list, the detail modal and the Rules tab in both themes at desktop and
 * phone width, and what a non-admin sees.
 */

let browser: Browser;
let admin: StoredSession;
let adminToken: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
  adminToken = admin.token;
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** A Verhoeff-valid Aadhaar number (first digit 2-9), different every call. */
function aadhaarNumber(): string {
  const payload = `${randomInt(2, 10)}${String(randomInt(0, 10_000_000_000)).padStart(10, "0")}`;
  return `${payload}${verhoeffCheckDigit(payload)}`;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const letter = () => LETTERS[randomInt(0, 26)]!;
/** A well-formed PAN of an individual (holder type P), different every call. */
const panNumber = () => `${letter()}${letter()}${letter()}P${letter()}${randomInt(1000, 10_000)}${letter()}`;

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const reply = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!reply.ok) throw new Error(`${method} ${path}: HTTP ${reply.status} ${await reply.text()}`);
  return (await reply.json()) as T;
}

/**
 * A complete submission made through the applicant API (start, a passport photo, Aadhaar, PAN):
 * it goes to under_review. Returns the applicant's session and the submission id.
 */
async function submittedApplicant(
  first: string,
  last: string,
  country = "IN",
): Promise<{ session: StoredSession; id: string; name: string }> {
  const session = await registerSession("kyc-seed", { first, last });
  const { token } = session;
  const name = `${first} ${last}`;
  const email = (JSON.parse(session.user) as { email: string }).email;
  await api(token, "POST", "/api/v1/kyc/start", { country, name, email, phone: "+919876543210" });
  const form = new FormData();
  form.append("document_type", "passport");
  form.append(
    "file",
    new Blob([new Uint8Array(await sampleDocumentImage({ seed: randomInt(1, 1_000_000) }))], { type: "image/png" }),
    "passport.png",
  );
  const upload = await fetch(`${baseUrl()}/api/v1/kyc/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  if (!upload.ok) throw new Error(`upload: HTTP ${upload.status} ${await upload.text()}`);
  await api(token, "POST", "/api/v1/kyc/verify/aadhaar", { document_number: aadhaarNumber(), country });
  await api(token, "POST", "/api/v1/kyc/verify/pan", { document_number: panNumber(), country });
  const status = await api<{ data: { status: string; submission_id?: string; id?: string } }>(
    token,
    "GET",
    "/api/v1/kyc/status",
  );
  expect(status.data.status).toBe("under_review");
  const listed = await api<{ data: { id: string; name: string }[] }>(
    adminToken,
    "GET",
    `/api/v1/kyc/dashboard?search=${encodeURIComponent(email)}`,
  );
  expect(listed.data).toHaveLength(1);
  return { session, id: listed.data[0]!.id, name };
}

interface OpenOptions {
  theme?: "light" | "dark";
  viewport?: { width: number; height: number };
  /** Runs on the new tab before it navigates (e.g. to wait for one of its replies). */
  beforeNavigation?: (page: Page) => void;
}

async function open(session: StoredSession, path: string, options: OpenOptions = {}): Promise<Page> {
  const context = await newContext(browser, {
    session,
    theme: options.theme ?? "dark",
    viewport: options.viewport,
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  options.beforeNavigation?.(page);
  await page.goto(path);
  return page;
}

async function expectNoBlockingViolations(page: Page, label: string) {
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `kyc-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

/** The dashboard's row (table) for a customer. */
const row = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

/**
 * Waits until the detail modal's passport image has really loaded (naturalWidth > 0) or the modal
 * says it could not be loaded, and fails in the second case; returns the image's width.
 */
async function documentImageLoaded(page: Page, name: string): Promise<number> {
  const alt = `Passport of ${name}`;
  const outcome = await page.waitForFunction((wanted) => {
    const dialog = document.querySelector("[role=dialog]");
    if (!dialog) return null;
    if (dialog.textContent?.includes("The image could not be loaded.")) return "failed";
    const image = [...dialog.querySelectorAll("img")].find((element) => element.alt === wanted);
    return image && image.complete && image.naturalWidth > 0 ? "loaded" : null;
  }, alt);
  expect(
    await outcome.jsonValue(),
    "the document image (a presigned GET of the KYC bucket) did not load: is the bucket's origin in the CSP's img-src?",
  ).toBe("loaded");
  return page
    .getByRole("dialog", { name })
    .getByRole("img", { name: alt })
    .evaluate((element) => (element as HTMLImageElement).naturalWidth);
}

describe("KYC journey", () => {
  it("a user completes the wizard with a real PNG; an admin sees the image and approves; the user's /kyc shows verified", {
    timeout: 180_000,
  }, async () => {
    const first = "Meera";
    const last = `Iyer${randomInt(1000, 10_000)}`;
    const name = `${first} ${last}`;
    const applicant = await registerSession("kyc-journey", { first, last });

    // The wizard, step by step, as the applicant sees it.
    const page = await open(applicant, "/kyc");
    await page.getByRole("heading", { name: "Know Your Customer", level: 1 }).waitFor();
    await page.getByLabel("Phone number").fill("+919812345678");
    await page.getByLabel("Search countries").fill("India");
    await page.getByRole("button", { name: /^India \(IN\)/ }).click();
    await page.getByRole("heading", { name: "Document Upload" }).waitFor();

    const png = await sampleDocumentImage({ seed: randomInt(1, 1_000_000), width: 1200, height: 800, format: "png" });
    await page.getByLabel("Passport").check();
    await page.getByLabel("Document image").setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: png });
    await page.getByRole("img", { name: "Preview of passport.png" }).waitFor();
    await page.getByRole("button", { name: "Upload Passport" }).click();
    await page.getByText("Passport verified successfully!").first().waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Continue" }).click();

    await page.getByRole("heading", { name: "Identity Verification (Aadhaar)" }).waitFor();
    await page.getByLabel("Aadhaar number", { exact: true }).pressSequentially(aadhaarNumber());
    await page.getByText("Valid format").waitFor();
    await page.getByRole("button", { name: "Verify Aadhaar number" }).click();
    await page.getByText("Aadhaar number verified").waitFor();
    await page.getByRole("button", { name: "Continue" }).click();

    await page.getByRole("heading", { name: "Tax Verification (PAN)" }).waitFor();
    await page.getByLabel("PAN", { exact: true }).pressSequentially(panNumber().toLowerCase());
    await page.getByText("Valid format").waitFor();
    await page.getByRole("button", { name: "Verify PAN" }).click();
    await page.getByText("PAN verified").first().waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Completion" }).waitFor();
    await page.getByText("Manual review required").waitFor();

    // The admin finds it on the dashboard, opens it, sees the document image, approves.
    const desk = await open(admin, "/kyc/dashboard");
    await desk.getByRole("heading", { name: "KYC Management", level: 1 }).waitFor();
    await row(desk, name).waitFor();
    await row(desk, name).getByText("Under Review").waitFor();
    await desk.getByRole("button", { name: `Review ${name}` }).click();
    const dialog = desk.getByRole("dialog", { name, exact: true });
    await dialog.getByRole("heading", { name: "Customer Information" }).waitFor();
    expect(await documentImageLoaded(desk, name)).toBe(1200);
    await dialog.getByRole("heading", { name: "Risk Assessment" }).waitFor();
    await dialog.getByRole("heading", { name: "Audit trail" }).waitFor();
    await dialog.getByLabel("Reviewer notes").fill("Passport and numbers match");
    await dialog.getByRole("button", { name: "Approve" }).click();
    // Approve asks first (docs/trust-and-safety.md#reviewer-guardrails).
    await desk
      .getByRole("dialog", { name: `Approve ${name}?` })
      .getByRole("button", { name: "Approve" })
      .click();
    await dialog.waitFor({ state: "detached" });
    await row(desk, name).getByText("Verified").waitFor();

    // The decision is in the audit trail, with the note.
    await desk.getByRole("button", { name: `Review ${name}` }).click();
    await desk.getByRole("dialog", { name }).getByText("“Passport and numbers match”").waitFor();
    await desk.keyboard.press("Escape");

    // The applicant's own screen says verified.
    await page.reload();
    await page.getByText("Identity verified").waitFor();
  });
});

describe("the dashboard against the real stack", () => {
  let seeded: { id: string; name: string }[];
  beforeAll(async () => {
    seeded = [];
    for (const [first, last] of [
      ["Arjun", `Rao${randomInt(1000, 10_000)}`],
      ["Bina", `Shah${randomInt(1000, 10_000)}`],
    ] as const) {
      const { id, name } = await submittedApplicant(first, last);
      seeded.push({ id, name });
    }
  }, 120_000);

  it("period, stats, search filter, export of the filtered list, bulk approve with per-id results", {
    timeout: 120_000,
  }, async () => {
    const [arjun, bina] = seeded as [{ id: string; name: string }, { id: string; name: string }];
    // Stat cards are the server's figures for the period (the reply the page got: other browser
    // files may add submissions meanwhile); the footer counts what is shown.
    let statsReply: Promise<Response> | undefined;
    const page = await open(admin, "/kyc/dashboard", {
      beforeNavigation: (tab) => {
        statsReply = tab.waitForResponse(
          (response) => response.url().includes("/api/v1/kyc/dashboard/stats") && response.status() === 200,
        );
      },
    });
    await row(page, arjun.name).waitFor();
    await row(page, bina.name).waitFor();
    const stats = (await (await statsReply!).json()) as { data: { total_submissions: number } };
    await page
      .getByRole("definition")
      .filter({ hasText: new RegExp(`^${stats.data.total_submissions}$`) })
      .first()
      .waitFor();
    await page.getByText(/^Showing \d+ of \d+ submissions?$/).waitFor();
    await page.getByText(/^Average processing time: /).waitFor();

    // Search narrows the list (and the URL keeps it).
    await page.getByLabel("Search submissions").fill(arjun.name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.waitForURL(/search=/);
    await row(page, bina.name).waitFor({ state: "detached" });
    await page.getByText("Showing 1 of 1 submission").waitFor();

    // Export Report downloads the filtered list as CSV.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export Report" }).click(),
    ]);
    const csv = await readDownload(download);
    expect(csv).toContain(arjun.name);
    expect(csv).not.toContain(bina.name);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);

    // A period with nothing in it: the empty state.
    await page.getByLabel("Search submissions").fill("no-such-applicant-anywhere");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("No submissions found").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await row(page, bina.name).waitFor();

    // Period: the select changes the URL and the stats asked for.
    const statsAsked = page.waitForRequest((request) => request.url().includes("/dashboard/stats?period=30d"));
    await page.getByLabel("Period").selectOption("30d");
    await statsAsked;
    await page.waitForURL(/period=30d/);
    await row(page, bina.name).waitFor();

    // Bulk approve both, with a confirmation and one result each.
    await row(page, arjun.name).getByRole("checkbox").check();
    await row(page, bina.name).getByRole("checkbox").check();
    await page.getByRole("button", { name: /^Bulk Actions \(2\)$/ }).click();
    const bulk = page.getByRole("dialog", { name: "Bulk Actions" });
    await bulk.getByRole("button", { name: "Approve" }).click();
    await bulk.getByText("Approve 2 selected submissions?").waitFor();
    await bulk.getByRole("button", { name: "Confirm: Approve" }).click();
    await bulk.getByText("2 submissions approved").waitFor();
    await bulk.getByRole("button", { name: "Close" }).click();
    await row(page, arjun.name).getByText("Verified").waitFor();
    await row(page, bina.name).getByText("Verified").waitFor();

    // Approving again is refused per id by the server's rules: reopened first, so the audit shows both.
    const again = await api<{ results: { id: string; ok: boolean; outcome: string }[] }>(
      adminToken,
      "POST",
      "/api/v1/kyc/submissions/bulk-update",
      { ids: [arjun.id, "no-such-id"], status: "verified" },
    );
    expect(again.results.map((result) => result.outcome)).toEqual(["unchanged", "not_found"]);
  });

  it("Request Info: the message reaches the applicant's wizard, who resubmits; the reviewer sees it back under review with the audit trail", {
    timeout: 90_000,
  }, async () => {
    const { session, name } = await submittedApplicant("Dev", `Kapoor${randomInt(1000, 10_000)}`);
    const desk = await open(admin, `/kyc/dashboard?search=${encodeURIComponent(name)}`);
    // A click anywhere on the row opens it (docs/product/kyc.md#submission-detail), not only its Review button.
    await row(desk, name).getByText(name).click();
    const dialog = desk.getByRole("dialog", { name });
    await dialog.getByRole("button", { name: "Request Info" }).click();
    await dialog.getByLabel("Message to the applicant").fill("Please upload a sharper photo of your passport");
    await dialog.getByRole("button", { name: "Send request" }).click();
    await dialog.waitFor({ state: "detached" });
    await row(desk, name).getByText("Pending").waitFor();
    await row(desk, name).getByText("Info requested").waitFor();

    const wizard = await open(session, "/kyc");
    await wizard.getByText("More information needed").waitFor();
    await wizard.getByText("Please upload a sharper photo of your passport").first().waitFor();
    await wizard.getByLabel("Note for the reviewer (optional)").fill("The passport photo is fine as it is");
    await wizard.getByRole("button", { name: "Resubmit" }).click();
    await wizard.getByText("Your submission is back with the reviewer.").first().waitFor();

    await desk.getByRole("button", { name: "Refresh" }).click();
    await row(desk, name).getByText("Under Review").waitFor();
    await desk.getByRole("button", { name: `Review ${name}` }).click();
    const audit = desk.getByRole("dialog", { name }).getByRole("region", { name: "Audit trail" });
    await audit.getByText("“Please upload a sharper photo of your passport”").waitFor();
    await audit.getByText("“The passport photo is fine as it is”").waitFor();
  });

  it("the Rules tab: the live version, a dry run against a submission, a draft refused with its place", {
    timeout: 60_000,
  }, async () => {
    const page = await open(admin, "/kyc/dashboard");
    await page.getByRole("tab", { name: "Rules" }).click();
    await page.getByText(/^Live: v\d+/).waitFor();
    const editor = page.getByLabel("Rules (JSON)");
    await expect.poll(async () => (await editor.inputValue()).length).toBeGreaterThan(10);

    await page.getByLabel("Submission ID").fill(seeded[0]!.id);
    await page.getByRole("button", { name: "Run test" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^With the rules in the editor: \d+/ })
      .waitFor();

    // A mistake is named with its place, before anything is sent.
    const text = await editor.inputValue();
    await editor.fill(text.replace(/"points":\s*\d+/, '"points": 500'));
    await page.getByRole("button", { name: "Validate" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /^rules\[\d+\]\.event\.params\.points: / })
      .waitFor();

    // Save a changed draft and publish it: the next version is live.
    const live = Number((await page.getByText(/^Live: v\d+/).textContent())!.match(/v(\d+)/)![1]);
    await editor.fill(text.replace(/"description":\s*"[^"]*"/, '"description": "Edited in the browser test"'));
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText(/^Draft saved .* by /).waitFor();
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Publish this rule set?" });
    await confirm.getByRole("button", { name: "Publish" }).click();
    await page.getByText(new RegExp(`^Live: v${live + 1}, published`)).waitFor();
    await page.getByRole("button", { name: `Show version ${live + 1}` }).click();
    await page
      .getByLabel(`Rules of version ${live + 1}`)
      .getByText("Edited in the browser test")
      .waitFor();

    // A watchlist CSV: the summary shows its names.
    await page.getByLabel("Upload a CSV file").setInputFiles({
      name: "sanctions.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("name,list,country\nIvan Petrov,sanctions,RU\nJane Roe,pep,GB\n"),
    });
    await page.getByText(/^2 names · v\d+/).waitFor();
    await page.getByText("e.g. Ivan Petrov, Jane Roe").waitFor();
  });
});

/** The downloaded file's text (Playwright keeps it in a temporary file). */
async function readDownload(download: { createReadStream(): Promise<NodeJS.ReadableStream> }): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

describe("when the back office cannot be reached", () => {
  it("an empty list, zeroed stats, processing time N/A, the reason and a retry (docs/product/kyc.md#submission-list)", async () => {
    const context = await newContext(browser, { session: admin, reducedMotion: "reduce" });
    const page = await context.newPage();
    let failing = true;
    await page.route("**/api/v1/kyc/dashboard**", (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ message: "Service temporarily unavailable", code: "service_unavailable" }),
          })
        : route.fallback(),
    );
    await page.goto("/kyc/dashboard");
    await page.getByText("No submissions found").waitFor();
    await page.getByText("Showing 0 of 0 submissions").waitFor();
    await page.getByText("Average processing time: N/A").waitFor();
    expect(await page.getByRole("definition").filter({ hasText: /^0%?$/ }).count()).toBe(4);
    await page.getByRole("alert").filter({ hasText: "Service temporarily unavailable" }).first().waitFor();

    // Back again: the list is the server's (and the reason goes).
    failing = false;
    const listed = page.waitForResponse(
      (response) => response.url().includes("/api/v1/kyc/dashboard?") && response.status() === 200,
    );
    await page.getByRole("button", { name: "Try again" }).click();
    const { total } = (await (await listed).json()) as { total: number };
    await page.getByText(new RegExp(`^Showing \\d+ of ${total} submissions?$`)).waitFor();
    await page
      .getByRole("alert")
      .filter({ hasText: "Service temporarily unavailable" })
      .first()
      .waitFor({ state: "detached" });
    await context.close();
  });
});

describe("who may see the dashboard", () => {
  it("a user gets a clear message, and the server answers 403", async () => {
    const user = await registerSession("kyc-user");
    const page = await open(user, "/kyc/dashboard");
    await page.getByRole("heading", { name: "Reviewers only" }).waitFor();
    await page.getByText("Your account does not have the admin role").waitFor();
    expect(await page.getByRole("table").count()).toBe(0);
    const reply = await fetch(`${baseUrl()}/api/v1/kyc/dashboard`, {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(reply.status).toBe(403);
    await waitForScreenSettled(page);
    await expectNoBlockingViolations(page, "not admin");
  });
});

describe("accessibility of the dashboard", () => {
  let name: string;
  beforeAll(async () => {
    ({ name } = await submittedApplicant("Chitra", `Nair${randomInt(1000, 10_000)}`));
  }, 60_000);

  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`list, detail modal and Rules tab: ${theme} theme at ${viewport.width} px`, { timeout: 90_000 }, async () => {
        const label = `${theme} ${viewportName}`;
        const page = await open(admin, `/kyc/dashboard?search=${encodeURIComponent(name)}`, { theme, viewport });
        await page
          .getByRole("button", { name: `Review ${name}` })
          .first()
          .waitFor();
        await waitForScreenSettled(page);
        // The page never scrolls sideways: the table scrolls inside its own container.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await expectNoBlockingViolations(page, `list ${label}`);

        await page
          .getByRole("button", { name: `Review ${name}` })
          .first()
          .click();
        await documentImageLoaded(page, name);
        await expectNoBlockingViolations(page, `detail ${label}`);
        // Focus stays inside the modal.
        for (let press = 0; press < 25; press += 1) await page.keyboard.press("Tab");
        expect(await page.evaluate(() => !!document.activeElement?.closest("[role=dialog]"))).toBe(true);
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });

        await page.getByRole("tab", { name: "Rules" }).click();
        await page.getByText(/^Live: v\d+/).waitFor();
        await waitForScreenSettled(page);
        await expectNoBlockingViolations(page, `rules ${label}`);
      });
    }
  }
});
