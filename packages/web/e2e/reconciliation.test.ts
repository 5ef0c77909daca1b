import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SettlementExpectation } from "@fintech/core/reconciliation/expectations";
import { settlementReference } from "@fintech/core/reconciliation/expectations";
import { generateSettlementFile } from "@fintech/core/reconciliation/generator";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockingViolations, formatViolations } from "./axe";
import {
  adminSession,
  baseUrl,
  launchBrowser,
  newContext,
  screenshot,
  succeedingPaymentKey,
  THEMES,
  VIEWPORTS,
  verifiedSession,
  type StoredSession,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * /reconciliation against the real stack: payments to an external beneficiary complete through
 * the local payment worker; a settlement file for their rail and day is generated from those
 * attempts with a planted break; the admin uploads it on the console (a non-CSV file is refused
 * first), sees the upload's progress bar, the file reconciled with its status, and writes off a
 * break, which then shows resolved; a CSV with another header is recorded as not booked, and why. Axe in both themes at desktop and 390 px.
 */

interface WirePayment {
  paymentId: string;
  status: string;
  amountMinor: number;
  currency: "USD";
  feeMinor: number;
  completedAt: string | null;
  attempts: { number: number; railId: string; status: string; finishedAt: string | null }[];
  routing: { candidates?: { railId: string; costMinor: number }[] };
}
interface WireFile {
  id: string;
  key: string;
  status: string;
  statusLabel: string;
  lines: number;
}
interface WireBreak {
  id: string;
  class: string;
  status: string;
}

let browser: Browser;
let admin: StoredSession;
const contexts: BrowserContext[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), "recon-e2e-"));

async function call<T>(token: string, method: string, route: string, body?: unknown, key?: string): Promise<T> {
  const reply = await fetch(`${baseUrl()}${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(key ? { "Idempotency-Key": key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  if (!reply.ok) throw new Error(`${method} ${route}: HTTP ${reply.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Asks until `ready` holds (the local worker completes payments within seconds). */
async function until<T>(ask: () => Promise<T>, ready: (value: T) => boolean, what: string): Promise<T> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const value = await ask();
    if (ready(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Two completed USD payments to an external beneficiary, and the settlement expectations they left. */
async function completedPayments(): Promise<SettlementExpectation[]> {
  const payer = await verifiedSession("recon-payer", { first: "Rhea", last: "Payer" });
  const userId = (JSON.parse(payer.user) as { id: string }).id;
  const account = (
    await call<{ data: { id: string } }>(payer.token, "POST", "/api/v1/ledger/accounts", {
      name: "Operating",
      currency: "USD",
    })
  ).data.id;
  const deposit = (
    await call<{ data: { id: string } }>(payer.token, "POST", "/api/v1/ledger/transactions/deposit", {
      account_id: account,
      amount: "500.00",
      currency: "USD",
      description: "Funding",
    })
  ).data.id;
  await call(payer.token, "POST", `/api/v1/ledger/transactions/${deposit}/post`);
  const expectations: SettlementExpectation[] = [];
  for (const [index, amount] of ["25.00", "40.00"].entries()) {
    const created = await call<{ payment: WirePayment }>(
      payer.token,
      "POST",
      "/v1/payments",
      {
        userId,
        fromAccountId: account,
        amount,
        currency: "USD",
        beneficiary: { name: "Harbour Supplies", accountNumber: "0532013000", country: "US" },
      },
      succeedingPaymentKey(userId, `recon-${index}`),
    );
    const payment = await until(
      async () =>
        (await call<{ data: WirePayment }>(payer.token, "GET", `/v1/payments/${created.payment.paymentId}`)).data,
      (reply) => reply.status === "completed",
      `payment ${created.payment.paymentId} to complete`,
    );
    const attempt = payment.attempts.find((entry) => entry.status === "succeeded")!;
    expectations.push({
      railId: attempt.railId,
      reference: settlementReference(payment.paymentId, attempt.number),
      paymentId: payment.paymentId,
      attempt: attempt.number,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      feeMinor:
        payment.routing.candidates?.find((candidate) => candidate.railId === attempt.railId)?.costMinor ??
        payment.feeMinor,
      completedAt: attempt.finishedAt ?? payment.completedAt!,
    });
  }
  return expectations;
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function open(
  options: { theme?: "light" | "dark"; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await newContext(browser, {
    session: admin,
    theme: options.theme ?? "dark",
    viewport: options.viewport,
    reducedMotion: "reduce",
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto("/reconciliation");
  await page.getByRole("heading", { name: "Reconciliation", level: 1 }).waitFor();
  return page;
}

async function expectNoBlockingViolations(page: Page, label: string) {
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `reconciliation-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

describe("/reconciliation", () => {
  it("an admin uploads a CSV with progress, sees it reconciled and writes off a break", {
    timeout: 180_000,
  }, async () => {
    const expectations = await completedPayments();
    const railId = expectations[0]!.railId;
    const date = expectations[0]!.completedAt.slice(0, 10);
    const onRail = expectations.filter((entry) => entry.railId === railId);
    const generated = generateSettlementFile(onRail, { railId, date, settlementSeconds: 60, breaks: 1 });
    const csvPath = path.join(scratch, `${railId}-${date}.csv`);
    writeFileSync(csvPath, `${[...generated.rows()].join("\n")}\n`);

    const page = await open();
    const upload = page.getByRole("region", { name: "Upload settlement file" });
    const fileInput = upload.getByLabel("Settlement file (CSV)");

    // Anything but CSV text is refused before a byte leaves.
    await fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await upload.getByRole("alert").getByText("Choose a CSV file (.csv)", { exact: false }).waitFor();
    expect(await upload.getByRole("button", { name: "Upload and reconcile" }).isDisabled()).toBe(true);

    await upload.getByLabel("Rail").selectOption(railId);
    await upload.getByLabel("Settlement day").fill(date);
    await fileInput.setInputFiles(csvPath);
    expect(await upload.getByRole("alert").count()).toBe(0);

    // Every value the progress bar takes is recorded, however fast the local bucket answers.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      const record = () => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
        const value = bar?.getAttribute("aria-valuenow");
        if (value !== null && value !== undefined && seen.at(-1) !== value) seen.push(value);
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["aria-valuenow"],
      });
    });
    const granted = page.waitForResponse(
      (response) => response.url().endsWith("/api/v1/reconciliation/uploads") && response.request().method() === "POST",
    );
    await upload.getByRole("button", { name: "Upload and reconcile" }).click();
    const grant = (await (await granted).json()) as { key?: string; data?: { key: string } };
    const key = grant.data?.key ?? grant.key!;

    const row = page.locator(`tr[data-file-key="${key}"]`);
    await row.waitFor({ timeout: 60_000 });
    const progress = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe("100");

    const files = await call<{ files: WireFile[] }>(
      admin.token,
      "GET",
      `/api/v1/reconciliation/files?rail=${railId}&limit=100`,
    );
    const file = files.files.find((entry) => entry.key === key)!;
    expect(file.lines).toBe(generated.lineCount);
    await row.getByText(file.statusLabel, { exact: true }).waitFor();
    expect(await row.getByRole("link", { name: /Download/ }).getAttribute("href")).toBeTruthy();

    // The planted break, written off with a note, shows resolved.
    const open_ = await call<{ breaks: WireBreak[] }>(
      admin.token,
      "GET",
      `/api/v1/reconciliation/breaks?fileId=${encodeURIComponent(file.id)}&status=open&limit=100`,
    );
    expect(open_.breaks.length).toBeGreaterThan(0);
    const target = open_.breaks[0]!;
    const breaks = page.getByRole("region", { name: "Breaks" });
    await breaks.getByLabel("Rail").selectOption(railId);
    const breakRow = breaks.locator(`tr[data-break-id="${target.id}"]`);
    await breakRow.getByRole("button", { name: /^Resolve/ }).click();
    const dialog = page.getByRole("dialog", { name: "Resolve break" });
    await dialog.waitFor();
    await dialog.getByLabel("Write off").check();
    await dialog.getByRole("button", { name: "Write off" }).click();
    await dialog.getByRole("alert").getByText("A note is required").waitFor();
    await dialog.getByLabel("Note (required)").fill("Below the rail's dispute threshold; written off");
    await expectNoBlockingViolations(page, "resolve dialog");
    await dialog.getByRole("button", { name: "Write off" }).click();
    await dialog.waitFor({ state: "detached" });

    await breaks.getByLabel("Status").selectOption("resolved");
    await breakRow.getByText("Resolved", { exact: true }).waitFor();
    await breakRow.getByText(/Written off by/).waitFor();
    const after = await call<{ breaks: WireBreak[] }>(
      admin.token,
      "GET",
      `/api/v1/reconciliation/breaks?fileId=${encodeURIComponent(file.id)}&status=resolved&limit=100`,
    );
    expect(after.breaks.map((entry) => entry.id)).toContain(target.id);
    await screenshot(page, "reconciliation-admin");

    // A CSV that is not a settlement file is recorded, not booked, and the admin is told why.
    const wrongPath = path.join(scratch, `${railId}-${date}-export.csv`);
    writeFileSync(wrongPath, `date,amount\n${date},25.00\n`);
    await fileInput.setInputFiles(wrongPath);
    const wrongGrant = page.waitForResponse(
      (response) => response.url().endsWith("/api/v1/reconciliation/uploads") && response.request().method() === "POST",
    );
    await upload.getByRole("button", { name: "Upload and reconcile" }).click();
    const wrong = (await (await wrongGrant).json()) as { key?: string; data?: { key: string } };
    await page
      .getByText(/was not booked: the header row is not the documented one/)
      .first()
      .waitFor({ timeout: 60_000 });
    const wrongRow = page.locator(`tr[data-file-key="${wrong.data?.key ?? wrong.key!}"]`);
    await wrongRow.getByText(/^Not booked: the header row is not the documented one/).waitFor();
    await wrongRow.getByText("Requires Review", { exact: true }).waitFor();
  });

  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`passes axe: ${theme} theme at ${viewport.width} px`, { timeout: 90_000 }, async () => {
        const label = `${theme} ${viewportName}`;
        const page = await open({ theme, viewport });
        await page.getByRole("region", { name: "Settlement files" }).waitFor();
        await waitForScreenSettled(page);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `horizontal overflow on ${label}`,
        ).toBeLessThanOrEqual(viewport.width);
        await expectNoBlockingViolations(page, label);
      });
    }
  }
});
