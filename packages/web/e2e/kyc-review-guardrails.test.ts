import { randomInt } from "node:crypto";
import { verhoeffCheckDigit } from "@fintech/core/kyc/identity-numbers";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
 * Reviewer guardrails and linked submissions in the browser
 * (docs/trust-and-safety.md#reviewer-guardrails,
 * docs/trust-and-safety.md#linked-submissions-are-re-scored): Reject asks for a reason before
 * anything is sent; approving a High-risk submission shows why and needs the typed APPROVE; the
 * detail shows the link to the submission sharing its Aadhaar number and picture from both sides;
 * Bulk Actions shows the risk of the selection and asks for the same typed confirmation; axe finds
 * nothing serious on any of these states, in both themes, at desktop and phone width.
 */

let browser: Browser;
let admin: StoredSession;
const contexts: BrowserContext[] = [];

/** A Verhoeff-valid Aadhaar number (first digit 2-9), different every call. */
function aadhaarNumber(): string {
  const payload = `${randomInt(2, 10)}${String(randomInt(0, 10_000_000_000)).padStart(10, "0")}`;
  return `${payload}${verhoeffCheckDigit(payload)}`;
}
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const letter = () => LETTERS[randomInt(0, 26)]!;
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

interface Seeded {
  id: string;
  name: string;
}

/** A complete Indian submission made through the applicant API, with the given Aadhaar number and picture. */
async function submitted(first: string, last: string, aadhaar: string, imageSeed: number): Promise<Seeded> {
  const session = await registerSession("kyc-guard", { first, last });
  const name = `${first} ${last}`;
  const email = (JSON.parse(session.user) as { email: string }).email;
  await api(session.token, "POST", "/api/v1/kyc/start", { country: "IN", name, email, phone: "+919876543210" });
  const form = new FormData();
  form.append("document_type", "passport");
  form.append(
    "file",
    new Blob([new Uint8Array(await sampleDocumentImage({ seed: imageSeed }))], { type: "image/png" }),
    "passport.png",
  );
  const upload = await fetch(`${baseUrl()}/api/v1/kyc/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${session.token}` },
    body: form,
  });
  if (!upload.ok) throw new Error(`upload: HTTP ${upload.status} ${await upload.text()}`);
  await api(session.token, "POST", "/api/v1/kyc/verify/aadhaar", { document_number: aadhaar, country: "IN" });
  await api(session.token, "POST", "/api/v1/kyc/verify/pan", { document_number: panNumber(), country: "IN" });
  const status = await api<{ data: { status: string; submission_id: string } }>(
    session.token,
    "GET",
    "/api/v1/kyc/status",
  );
  expect(status.data.status).toBe("under_review");
  return { id: status.data.submission_id, name };
}

async function open(
  path: string,
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
  await page.goto(path);
  return page;
}

async function expectNoBlockingViolations(page: Page, label: string) {
  const violations = await blockingViolations(page);
  if (violations.length > 0) await screenshot(page, `kyc-guard-${label.replace(/\W+/g, "-")}`);
  expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual([]);
}

const row = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });
const searchFor = (text: string) => `/kyc/dashboard?search=${encodeURIComponent(text)}`;

/** The dashboard with the detail of `who` open, loaded. */
async function openDetail(page: Page, who: Seeded) {
  await page
    .getByRole("button", { name: `Review ${who.name}` })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: who.name, exact: true });
  await dialog.getByRole("heading", { name: "Linked submissions" }).waitFor();
  return dialog;
}

let firstHolder: Seeded;
let laterHolder: Seeded;
let plain: Seeded;
let another: Seeded;
/** The family name of the two holders and of one more applicant: a search for it lists just them. */
const family = `Guard${randomInt(10_000, 100_000)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
  const shared = aadhaarNumber();
  const picture = randomInt(1, 1_000_000);
  // The first holder is scored Low at first, then re-scored when the later one reuses both.
  firstHolder = await submitted("Asha", family, shared, picture);
  laterHolder = await submitted("Ravi", family, shared, picture);
  plain = await submitted("Chitra", `Plain${randomInt(10_000, 100_000)}`, aadhaarNumber(), randomInt(1, 1_000_000));
  another = await submitted("Dev", family, aadhaarNumber(), randomInt(1, 1_000_000));
}, 180_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe("reviewer guardrails", () => {
  it("the reviewer's reject needs a reason, which the audit trail keeps with the reviewer", {
    timeout: 90_000,
  }, async () => {
    const page = await open(searchFor(plain.name));
    const detail = await openDetail(page, plain);
    await detail.getByRole("button", { name: "Reject" }).click();
    const confirm = page.getByRole("dialog", { name: `Reject ${plain.name}?` });
    const reject = confirm.getByRole("button", { name: "Reject" });
    await confirm.getByText("Write the reason to enable Reject.").waitFor();
    expect(await reject.isDisabled()).toBe(true);
    await confirm.getByLabel("Reason for rejecting (required)").fill("   ");
    expect(await reject.isDisabled()).toBe(true);
    await confirm.getByLabel("Reason for rejecting (required)").fill("The passport photo is of a different person");
    await reject.click();
    await detail.waitFor({ state: "detached" });
    await row(page, plain.name).getByText("Rejected").waitFor();

    await page.getByRole("button", { name: `Review ${plain.name}` }).click();
    const audit = page
      .getByRole("dialog", { name: plain.name, exact: true })
      .getByRole("region", { name: "Audit trail" });
    const entry = audit.getByRole("listitem").filter({ hasText: "“The passport photo is of a different person”" });
    await entry.waitFor();
    await entry.getByText("Rejected", { exact: false }).first().waitFor();
  });

  it("approving a high-risk submission needs the typed confirmation; the link shows from both sides", {
    timeout: 90_000,
  }, async () => {
    const page = await open(searchFor(family));
    // The later holder: High risk, linked to the earlier one.
    const detail = await openDetail(page, laterHolder);
    await detail
      .getByRole("list", { name: "Approval warnings" })
      .getByText(/^High risk: score \d+/)
      .waitFor();
    const linked = detail.getByRole("region", { name: "Linked submissions" });
    await linked.getByText(firstHolder.name).waitFor();
    await linked.getByText(/^Earlier submission/).waitFor();
    await linked.getByText("Shares the same Aadhaar number and the same Passport picture").waitFor();

    await detail.getByRole("button", { name: "Approve" }).click();
    const confirm = page.getByRole("dialog", { name: `Approve ${laterHolder.name}?` });
    await confirm.getByText("Risk warning: this submission").waitFor();
    const approve = confirm.getByRole("button", { name: "Approve" });
    expect(await approve.isDisabled()).toBe(true);
    const typed = confirm.getByLabel("Type APPROVE to approve anyway");
    await typed.fill("approve");
    expect(await approve.isDisabled()).toBe(true);
    await typed.fill("APPROVE");
    await approve.click();
    await detail.waitFor({ state: "detached" });
    await row(page, laterHolder.name).getByText("Verified").waitFor();

    // The acknowledgement is in the audit trail; the earlier holder's detail links back.
    const reopened = await openDetail(page, laterHolder);
    await reopened
      .getByRole("region", { name: "Audit trail" })
      .getByText(/Risk acknowledged/)
      .waitFor();
    await page.keyboard.press("Escape");
    await reopened.waitFor({ state: "detached" });
    const earlier = await openDetail(page, firstHolder);
    const back = earlier.getByRole("region", { name: "Linked submissions" });
    await back.getByText(laterHolder.name).waitFor();
    await back.getByText(/^Later submission/).waitFor();
    await earlier
      .getByRole("region", { name: "Audit trail" })
      .getByText(/Re-scored because submission/)
      .first()
      .waitFor();
    // Open jumps to the linked one in the same modal.
    await back.getByRole("button", { name: `Open the linked submission of ${laterHolder.name}` }).click();
    await page
      .getByRole("dialog", { name: laterHolder.name, exact: true })
      .getByRole("heading", { name: "Linked submissions" })
      .waitFor();
  });

  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      it(`warnings, linked submissions, both confirmations and the bulk risk summary pass axe: ${theme} at ${viewport.width} px`, {
        timeout: 180_000,
      }, async () => {
        const label = `${theme} ${viewportName}`;
        const page = await open(searchFor(firstHolder.name), { theme, viewport });
        const detail = await openDetail(page, firstHolder);
        await detail.getByRole("list", { name: "Approval warnings" }).waitFor();
        await waitForScreenSettled(page);
        await expectNoBlockingViolations(page, `detail with warnings ${label}`);

        await detail.getByRole("button", { name: "Approve" }).click();
        const approve = page.getByRole("dialog", { name: `Approve ${firstHolder.name}?` });
        await approve.getByLabel("Type APPROVE to approve anyway").waitFor();
        await expectNoBlockingViolations(page, `approve dialog ${label}`);
        await approve.getByRole("button", { name: "Cancel" }).click();
        await approve.waitFor({ state: "detached" });

        await detail.getByRole("button", { name: "Reject" }).click();
        const reject = page.getByRole("dialog", { name: `Reject ${firstHolder.name}?` });
        await reject.getByLabel("Reason for rejecting (required)").waitFor();
        await expectNoBlockingViolations(page, `reject dialog ${label}`);
        await page.keyboard.press("Escape");
        await reject.waitFor({ state: "detached" });
        await page.keyboard.press("Escape");
        await detail.waitFor({ state: "detached" });

        await selectRows(page, [firstHolder]);
        await page.getByRole("button", { name: /^Bulk Actions \(1\)$/ }).click();
        const bulk = page.getByRole("dialog", { name: "Bulk Actions" });
        await bulk
          .getByRole("list", { name: "Risk of the selection" })
          .getByText(/^1 submission: 0 Low, 0 Medium, 1 High$/)
          .waitFor();
        await bulk.getByRole("button", { name: "Approve" }).click();
        await bulk.getByLabel("Type APPROVE to approve anyway").waitFor();
        await expectNoBlockingViolations(page, `bulk approve ${label}`);
        await bulk.getByRole("button", { name: "Back" }).click();
        await bulk.getByRole("button", { name: "Cancel" }).click();
      });
    }
  }

  it("bulk approve shows the risk of the selection and needs the typed confirmation when one is High", {
    timeout: 90_000,
  }, async () => {
    // The family name finds both (and the later holder, approved above, which stays unselected).
    const page = await open(searchFor(family));
    await row(page, firstHolder.name).waitFor();
    await row(page, another.name).waitFor();
    await selectRows(page, [firstHolder, another]);
    await page.getByRole("button", { name: /^Bulk Actions \(2\)$/ }).click();
    const bulk = page.getByRole("dialog", { name: "Bulk Actions" });
    const summary = bulk.getByRole("list", { name: "Risk of the selection" });
    await summary.getByText(/^2 submissions: \d Low, \d Medium, 1 High$/).waitFor();
    await summary.getByText(/^Highest score: (9\d|100)$/).waitFor();

    await bulk.getByRole("button", { name: "Approve" }).click();
    const confirm = bulk.getByRole("button", { name: "Confirm: Approve" });
    await bulk.getByText(`${firstHolder.name}:`, { exact: false }).waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    await bulk.getByLabel("Type APPROVE to approve anyway").fill("APPROVE");
    await confirm.click();
    await bulk.getByText("2 submissions approved").waitFor();
    await bulk.getByRole("button", { name: "Close" }).click();
    await row(page, firstHolder.name).getByText("Verified").waitFor();
    await row(page, another.name).getByText("Verified").waitFor();
  });
});

/** Ticks the submissions' checkboxes (table rows, or cards on a phone). */
async function selectRows(page: Page, who: Seeded[]) {
  for (const { name } of who) await page.getByLabel(`Select ${name}`, { exact: true }).check();
}
