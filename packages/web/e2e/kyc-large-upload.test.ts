import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentSvg } from "@fintech/testing/kyc/sample-images";
import { KYC_LIMITS, KYC_MESSAGES } from "@fintech/core/kyc/model";
import { BUCKET_UPLOAD_FROM_BYTES } from "../src/kyc/uploadPath";
import { closeSignedInTab, openSignedInTab, screenshot, type StoredSession } from "./harness";

/**
 * A document photo too large for the API's request limit in the cloud (over 4 MB, under the 5 MB
 * limit) goes from the wizard straight to the S3 emulator with the presigned POST; the emulator's
 * ObjectCreated event runs the server's checks (infra/local/kyc-object-events.ts) and the wizard
 * shows their verdict from GET /status: a file the checks refuse first, with the refusal's text,
 * then a real high-detail photo that ends verified. Never through POST /kyc/upload.
 */

let browser: Browser;
let session: StoredSession;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  ({ browser, session, context, page } = await openSignedInTab(
    "kyc-large",
    { first: "Katherine", last: "Johnson" },
    { theme: "light", reducedMotion: "reduce" },
  ));
});
afterAll(() => closeSignedInTab({ browser, context }));

/**
 * The generated document at 1600 x 1200 with per-pixel noise (a deterministic LCG from `seed`):
 * sharp and evenly lit for the checks, and detailed enough that its PNG stays over 4 MB.
 */
async function largeDocumentPhoto(seed: number, amplitude = 16): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(documentSvg({ seed, width: 1600, height: 1200 })))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let state = seed >>> 0;
  for (let index = 0; index < data.length; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[index] = Math.max(0, Math.min(255, data[index]! + ((state >>> 24) % (2 * amplitude + 1)) - amplitude));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Every request the page makes whose URL matches, to tell which way the bytes went. */
function recordRequests(filter: (request: Request) => boolean): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (filter(request)) seen.push(request);
  });
  return seen;
}

/** Every value the upload progress bar shows while it is on screen. */
async function recordUploadProgress() {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { uploadProgress: number[] }).uploadProgress = seen;
    const read = () => {
      const value = document
        .querySelector('[role="progressbar"][aria-label="Upload progress"]')
        ?.getAttribute("aria-valuenow");
      if (value !== null && value !== undefined && seen.at(-1) !== Number(value)) seen.push(Number(value));
    };
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-valuenow"],
    });
  });
}

describe("KYC wizard, large document photo", () => {
  it("sends a picture over 4 MB through the presigned POST to the bucket and shows the checks' verdicts", {
    timeout: 240_000,
  }, async () => {
    const seed = Math.floor(Math.random() * 1_000_000) + 1_000;
    const photo = await largeDocumentPhoto(seed);
    expect(photo.length).toBeGreaterThan(BUCKET_UPLOAD_FROM_BYTES);
    expect(photo.length).toBeLessThan(KYC_LIMITS.maxFileBytes);

    const multipart = recordRequests(
      (request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/v1/kyc/upload",
    );
    const tickets = recordRequests(
      (request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/v1/kyc/uploads/presign",
    );
    const posts = recordRequests((request) => request.method() === "POST");

    await page.goto("/kyc");
    await page.getByRole("heading", { level: 2, name: "Country Selection", exact: true }).waitFor();
    await page.getByRole("main").getByLabel("Phone number").fill("+91 98765 43210");
    await page.getByRole("button", { name: /India \(IN\)/ }).click();
    await page.getByRole("heading", { level: 2, name: "Document Upload", exact: true }).waitFor();
    await page.getByRole("radio", { name: "Passport" }).check();
    const picker = page.locator('input[type="file"]');
    const site = new URL(page.url()).origin;

    // A file the browser's pre-check lets through (PNG signature) but that is no picture: the
    // bucket takes it, the server's checks refuse it and record why, and the wizard says so.
    const notAPicture = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(BUCKET_UPLOAD_FROM_BYTES + 1024, 7),
    ]);
    await picker.setInputFiles({ name: "broken.png", mimeType: "image/png", buffer: notAPicture });
    await page.getByRole("img", { name: "Preview of broken.png" }).waitFor();
    await page.getByRole("button", { name: "Upload Passport" }).click();
    const refused = page.getByRole("alert").filter({ hasText: "Passport verification failed." });
    await refused.waitFor({ timeout: 60_000 });
    // The refusal recorded for the presigned upload, as POST /upload would have said it.
    expect(await refused.innerText()).toContain(KYC_MESSAGES.wrongImageFormat);
    await page.getByRole("status").filter({ hasText: "Passport verification failed." }).first().waitFor();

    // The real photo: real progress to the bucket, then "Checking", then verified.
    await picker.setInputFiles({ name: "passport-large.png", mimeType: "image/png", buffer: photo });
    await page.getByRole("img", { name: "Preview of passport-large.png" }).waitFor();
    await page.getByText(/passport-large\.png \(4\.\d MB\)/).waitFor();
    await recordUploadProgress();
    await page.getByRole("button", { name: "Upload Passport" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: KYC_MESSAGES.documentVerified("Passport") })
      .first()
      .waitFor({ timeout: 60_000 });
    await page.getByRole("status").filter({ hasText: "The checks passed" }).waitFor();
    const progress = await page.evaluate(() => (window as unknown as { uploadProgress: number[] }).uploadProgress);
    expect(progress.length).toBeGreaterThan(0);
    expect(
      progress.every((value, index) => value >= 0 && value <= 100 && (index === 0 || value >= progress[index - 1]!)),
    ).toBe(true);
    expect(progress.at(-1)).toBe(100);
    await page.getByRole("region", { name: "Your documents" }).getByText("Verified").waitFor();
    // The failure toast of the refused file is old news once a photo passes.
    await page.getByRole("status").filter({ hasText: "Passport verification failed." }).waitFor({ state: "detached" });
    await screenshot(page, "kyc-document-large-verified");

    // Both files went through a ticket and straight to the bucket, never through the API's multipart route.
    expect(multipart).toHaveLength(0);
    expect(tickets).toHaveLength(2);
    const toBucket = posts.filter((request) => new URL(request.url()).origin !== site);
    expect(toBucket).toHaveLength(2);
    // The bucket took both (S3 answers a presigned POST 204); the checks, not the bucket, refused the first.
    for (const request of toBucket) expect((await request.response())?.status()).toBe(204);
  });
});
