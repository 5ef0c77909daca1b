import { randomInt } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { blockingViolations, formatViolations } from "./axe";
import {
  baseUrl,
  closeSignedInTab,
  DESKTOP,
  MOBILE,
  openSignedInTab,
  screenshot,
  type StoredSession,
  type Theme,
  THEMES,
} from "./harness";
import { waitForScreenSettled } from "./settle";

/**
 * The KYC wizard follows the chosen country (docs/trust-and-safety.md#kyc-for-every-country): a
 * United States applicant in Chromium against the real local stack gets four steps, not India's
 * five. The SSN step is optional and comes first (Continue works without it), a malformed SSN is
 * refused with its format, a valid one is kept masked, and a passport photo finishes the
 * verification: no Aadhaar, no PAN, and no risk signal anywhere. Every step is checked with axe in
 * both themes on a desktop and a phone.
 */

let browser: Browser;
let session: StoredSession;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // One applicant for the file: registration is rate limited.
  ({ browser, session, context, page } = await openSignedInTab(
    "kyc-us",
    { first: "Sam", last: "Rivera" },
    { theme: "dark", reducedMotion: "reduce" },
  ));
});
afterAll(() => closeSignedInTab({ browser, context }));

/** A well-formed SSN of this run only: an area 100-665, a group 10-99 and a serial 1000-9999 are all issued ranges. */
const freshSsn = () => `${randomInt(100, 666)}-${randomInt(10, 100)}-${randomInt(1000, 10_000)}`;

const main = () => page.getByRole("main");
const stepHeading = (name: string) => page.getByRole("heading", { level: 2, name, exact: true });
const stepList = () => page.getByRole("list", { name: "Verification steps" }).getByRole("listitem");
const toast = (text: string) => page.getByRole("status").filter({ hasText: text }).first().waitFor();

/** axe (serious and critical) on the step as it is, in both themes on desktop and phone, and no horizontal overflow. */
async function checkStepEverywhere(stepTitle: string) {
  for (const theme of THEMES) {
    await page.evaluate((chosen: Theme) => localStorage.setItem("theme", chosen), theme);
    await page.reload();
    await stepHeading(stepTitle).waitFor();
    for (const [name, viewport] of [
      ["desktop", DESKTOP],
      ["mobile", MOBILE],
    ] as const) {
      await page.setViewportSize(viewport);
      await waitForScreenSettled(page);
      const label = `kyc-us ${stepTitle} ${theme} ${name}`;
      await screenshot(page, label.replace(/\W+/g, "-"));
      const violations = await blockingViolations(page);
      expect(violations, `serious or critical axe violations on ${label}:\n${formatViolations(violations)}`).toEqual(
        [],
      );
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `horizontal overflow on ${label}`).toBeLessThanOrEqual(0);
    }
  }
  await page.setViewportSize(DESKTOP);
}

async function expectNoRiskSignal() {
  expect(await main().innerText()).not.toMatch(/risk|score|severity|flag/i);
  expect((await page.getByRole("status").allInnerTexts()).join("\n")).not.toMatch(/risk|score|severity|flag/i);
}

describe("KYC wizard for the United States", () => {
  it("counts the country's real steps, takes an optional SSN, and finishes with a passport: no Aadhaar, no PAN", {
    timeout: 240_000,
  }, async () => {
    const ssn = freshSsn();
    await page.goto("/kyc");
    await stepHeading("Country Selection").waitFor();
    // Before a country is chosen: the steps every country has.
    expect(await stepList().count()).toBe(3);

    await main().getByLabel("Phone number").fill("+1 202 555 0143");
    await main().getByLabel("Search countries").fill("United States");
    await page.getByRole("button", { name: /United States of America \(US\)/ }).click();
    await toast(KYC_MESSAGES.started("United States of America"));

    // Four steps, the optional SSN first: Continue is open at once.
    await stepHeading("Identity Number (SSN, optional)").waitFor();
    expect(await stepList().allInnerTexts()).toEqual([
      expect.stringMatching(/Country Selection\s*\(completed\)\s*30s/),
      expect.stringMatching(/Identity Number \(SSN, optional\)\s*45s/),
      expect.stringMatching(/Document Upload\s*2m/),
      expect.stringMatching(/Completion\s*Instant/),
    ]);
    await page.getByText("Verify your identity in four short steps.").waitFor();
    await page.getByText("Step 2 of 4").waitFor();
    await page.getByText("50% complete").waitFor();
    await page.getByText("This step is optional").waitFor();
    const next = page.getByRole("button", { name: "Continue" });
    expect(await next.isDisabled()).toBe(false);
    expect(
      await main()
        .getByText(/Aadhaar|PAN/)
        .count(),
    ).toBe(0);
    await checkStepEverywhere("Identity Number (SSN, optional)");

    // A malformed SSN (area 666 is never issued): refused in the page with its format, nothing sent.
    const field = main().getByLabel("Social Security number (SSN)");
    await field.fill("666-12-3456");
    const verifications: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/identity-numbers/")) verifications.push(request.url());
    });
    await page.getByRole("button", { name: "Verify SSN" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Please enter a valid Social Security number (SSN) (e.g., 123-45-6789)." })
      .waitFor();
    expect(verifications).toEqual([]);
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    const refused = await blockingViolations(page);
    expect(refused, `serious or critical axe violations on the refused SSN:\n${formatViolations(refused)}`).toEqual([]);

    // A well-formed one: verified by the server, kept masked to its last four.
    await main().getByLabel("Social Security number (SSN)").fill(ssn);
    expect(await page.locator("#kyc-us_ssn-hint").innerText()).toBe("Valid format");
    await page.getByRole("button", { name: "Verify SSN" }).click();
    await toast("SSN verified successfully!");
    await main()
      .getByText(`XXXXX${ssn.slice(-4)}`)
      .waitFor();
    expect(verifications).toEqual([`${baseUrl()}/api/v1/kyc/identity-numbers/us_ssn/verify`]);
    await next.click();

    // The document: one passport photo that passes the checks sends the submission to a reviewer.
    await stepHeading("Document Upload").waitFor();
    await page.getByText("Step 3 of 4").waitFor();
    await page.getByText("75% complete").waitFor();
    await checkStepEverywhere("Document Upload");
    await page.getByRole("radio", { name: "Passport" }).check();
    const photo = await sampleDocumentImage({ seed: randomInt(1, 1_000_000), width: 1200, height: 800 });
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "passport.png", mimeType: "image/png", buffer: photo });
    await page.getByRole("img", { name: "Preview of passport.png" }).waitFor();
    await page.getByRole("button", { name: "Upload Passport" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: KYC_MESSAGES.documentVerified("Passport") })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await next.isDisabled()).toBe(false);
    await next.click();

    // The outcome: under review, the SSN masked, and nothing of India's numbers or of the checks behind it.
    await stepHeading("Completion").waitFor();
    await page.getByText("Step 4 of 4").waitFor();
    await main().getByText("Manual review required").waitFor();
    await main().getByText("Under review").waitFor();
    await main()
      .getByText(`XXXXX${ssn.slice(-4)}`)
      .waitFor();
    expect(
      await main()
        .getByText(/Aadhaar|PAN/)
        .count(),
    ).toBe(0);
    expect(await page.getByRole("button", { name: "Continue" }).count()).toBe(0);
    await expectNoRiskSignal();
    await checkStepEverywhere("Completion");

    // The server agrees: under review with nothing left to do.
    const state = await fetch(`${baseUrl()}/api/v1/kyc/status`, {
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const { data } = (await state.json()) as {
      data: { status: string; remaining_steps: string[]; identity_numbers: Record<string, unknown> };
    };
    expect(data).toMatchObject({ status: "under_review", remaining_steps: [] });
    expect(Object.keys(data.identity_numbers)).toEqual(["us_ssn"]);
  });
});
