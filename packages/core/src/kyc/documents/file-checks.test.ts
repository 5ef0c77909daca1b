import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { KYC_LIMITS, KYC_MESSAGES } from "../model";
import { checkDocumentFile, extensionOf, normaliseDeclaredType } from "./file-checks";
import { sampleDocumentImage } from "@fintech/testing/kyc/sample-images";

let png: Buffer;
let jpeg: Buffer;
const other: Record<string, Buffer> = {};

beforeAll(async () => {
  png = await sampleDocumentImage({ format: "png" });
  jpeg = await sampleDocumentImage({ format: "jpeg" });
  const base = sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 10, b: 10 } } });
  other.gif = await base.clone().gif().toBuffer();
  other.webp = await base.clone().webp().toBuffer();
  other.tiff = await base.clone().tiff().toBuffer();
});

const check = (bytes: Uint8Array, fileName: string | null = null, declaredType: string | null = null) =>
  checkDocumentFile({ bytes, fileName, declaredType });
const refusal = async (...args: Parameters<typeof check>) => {
  const result = await check(...args);
  if (result.passed) throw new Error("expected a refusal");
  return result;
};

describe("document file checks (magic bytes, size, name, declared type)", () => {
  it("passes PNG and JPEG bytes with a matching or absent name and type", async () => {
    await expect(check(png, "scan.png", "image/png")).resolves.toMatchObject({
      passed: true,
      format: "png",
      contentType: "image/png",
    });
    await expect(check(jpeg, "photo.JPG", "image/jpeg")).resolves.toMatchObject({
      passed: true,
      format: "jpeg",
      contentType: "image/jpeg",
    });
    await expect(check(jpeg, "photo.jpeg", "image/jpg")).resolves.toMatchObject({ passed: true, format: "jpeg" });
    // No name, no type, or curl's "I don't know" type: judged by the bytes alone.
    await expect(check(png)).resolves.toMatchObject({ passed: true, format: "png" });
    await expect(check(jpeg, "upload", "application/octet-stream")).resolves.toMatchObject({
      passed: true,
      format: "jpeg",
    });
    // A JPEG named .png is still a JPEG the applicant may send: the extension is an accepted one.
    await expect(check(jpeg, "id.png", null)).resolves.toMatchObject({ passed: true, format: "jpeg" });
  });

  it("refuses more than 5 MB with the documented message before reading anything else", async () => {
    const big = new Uint8Array(KYC_LIMITS.maxFileBytes + 1);
    big.set(png.subarray(0, 64));
    expect(await refusal(big, "big.png", "image/png")).toMatchObject({
      code: "file_too_large",
      message: KYC_MESSAGES.fileTooLarge,
      status: 413,
    });
    const text = new TextEncoder().encode("x".repeat(6 * 1024 * 1024));
    expect((await refusal(text, "notes.txt", "text/plain")).message).toBe(KYC_MESSAGES.fileTooLarge);
  });

  it("a text file named .png (or declared image/png) is the wrong format, not 'not an image'", async () => {
    const text = new TextEncoder().encode("I am not a picture at all, only words.\n");
    expect(await refusal(text, "passport.png", "text/plain")).toMatchObject({
      code: "wrong_image_format",
      message: KYC_MESSAGES.wrongImageFormat,
      status: 415,
    });
    expect((await refusal(text, "passport", "image/png")).message).toBe(KYC_MESSAGES.wrongImageFormat);
    expect((await refusal(text, "passport.gif", null)).message).toBe(KYC_MESSAGES.wrongImageFormat);
  });

  it("a file that neither is nor claims to be an image is 'File must be an image'", async () => {
    const text = new TextEncoder().encode("plain words");
    expect(await refusal(text, "notes.txt", "text/plain")).toMatchObject({
      code: "not_an_image",
      message: KYC_MESSAGES.notAnImage,
    });
    const pdf = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n");
    expect((await refusal(pdf, "statement.pdf", "application/pdf")).message).toBe(KYC_MESSAGES.notAnImage);
    expect((await refusal(pdf)).message).toBe(KYC_MESSAGES.notAnImage);
  });

  it("images of another format (GIF, WebP, TIFF) are the wrong format whatever they are called", async () => {
    for (const [format, bytes] of Object.entries(other)) {
      expect((await refusal(bytes, `picture.${format}`, `image/${format}`)).message, format).toBe(
        KYC_MESSAGES.wrongImageFormat,
      );
      // Renamed and relabelled as PNG: the bytes decide.
      expect((await refusal(bytes, "picture.png", "image/png")).message, format).toBe(KYC_MESSAGES.wrongImageFormat);
    }
  });

  it("a forged content type or a foreign extension on real PNG/JPEG bytes is the wrong format", async () => {
    expect(await refusal(png, "scan.png", "image/jpeg")).toMatchObject({ code: "wrong_image_format" });
    expect(await refusal(jpeg, "scan.jpg", "image/png")).toMatchObject({ code: "wrong_image_format" });
    expect(await refusal(png, "scan.png", "text/plain")).toMatchObject({ code: "wrong_image_format" });
    expect(await refusal(png, "scan.exe", "image/png")).toMatchObject({ code: "wrong_image_format" });
    expect(await refusal(jpeg, "scan.gif", null)).toMatchObject({ code: "wrong_image_format" });
  });

  it("refuses an empty file", async () => {
    expect(await refusal(new Uint8Array(0), "empty.png", "image/png")).toMatchObject({
      code: "empty_file",
      status: 400,
    });
  });

  it("reads extensions and declared types the way clients send them", () => {
    expect(extensionOf("C:\\Users\\me\\Scan.PNG")).toBe("png");
    expect(extensionOf(".hidden")).toBeNull();
    expect(extensionOf("archive.")).toBeNull();
    expect(extensionOf(null)).toBeNull();
    expect(normaliseDeclaredType(" Image/PNG ; charset=binary")).toBe("image/png");
    expect(normaliseDeclaredType("application/octet-stream")).toBeNull();
    expect(normaliseDeclaredType("")).toBeNull();
  });
});
