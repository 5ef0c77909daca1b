import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@fintech/core/kyc/model";
import { checkFile, fileProblem, formatFileSize, sniffImageFormat } from "./fileChecks";

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
const TEXT_HEAD = new TextEncoder().encode("hello wo");
const MB = 1024 * 1024;

describe("file pre-checks", () => {
  it("reads the format from the bytes", () => {
    expect(sniffImageFormat(PNG_HEAD)).toBe("png");
    expect(sniffImageFormat(JPEG_HEAD)).toBe("jpeg");
    expect(sniffImageFormat(TEXT_HEAD)).toBeNull();
    expect(sniffImageFormat(new Uint8Array())).toBeNull();
  });

  it("passes a JPG or PNG of at most 5 MB", () => {
    expect(fileProblem({ type: "image/png", size: 5 * MB, head: PNG_HEAD })).toBeNull();
    expect(fileProblem({ type: "image/jpeg", size: 1000, head: JPEG_HEAD })).toBeNull();
  });

  it("refuses with the documented messages, in its order", () => {
    expect(fileProblem({ type: "text/plain", size: 10, head: TEXT_HEAD })).toBe(KYC_MESSAGES.notAnImage);
    expect(fileProblem({ type: "", size: 10, head: PNG_HEAD })).toBe(KYC_MESSAGES.notAnImage);
    expect(fileProblem({ type: "image/png", size: 5 * MB + 1, head: PNG_HEAD })).toBe(KYC_MESSAGES.fileTooLarge);
    expect(fileProblem({ type: "image/gif", size: 10, head: new TextEncoder().encode("GIF89a..") })).toBe(
      KYC_MESSAGES.wrongImageFormat,
    );
  });

  it("catches a text file named .png by its content", async () => {
    expect(fileProblem({ type: "image/png", size: 10, head: TEXT_HEAD })).toBe(KYC_MESSAGES.wrongImageFormat);
    expect(await checkFile(new Blob(["not an image at all"], { type: "image/png" }))).toBe(
      KYC_MESSAGES.wrongImageFormat,
    );
    expect(await checkFile(new Blob([PNG_HEAD, new Uint8Array(100)], { type: "image/png" }))).toBeNull();
  });

  it("says sizes in words", () => {
    expect(formatFileSize(1536 * 1024)).toBe("1.5 MB");
    expect(formatFileSize(340 * 1024)).toBe("340 KB");
    expect(formatFileSize(10)).toBe("1 KB");
  });
});
