import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { decodeFailure, MAX_DECODED_PIXELS, readImageHeader } from "./image-budget";
import { analyseImage } from "./image-checks";
import { decompressionBombPng, sampleDocumentImage } from "@fintech/testing/kyc/sample-images";

/** A real JPEG whose SOF0 header is rewritten to declare `width` x `height`: header-only, like a crafted upload. */
async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: "#777777" } })
      .jpeg({ progressive: false })
      .toBuffer(),
  );
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  expect(sof).toBeGreaterThan(0);
  // FFC0, length (2), precision (1), then height and width (2 each).
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

describe("pixel budget, read from the header before decoding", () => {
  it("refuses the 100 MP PNG bomb (a small file) from its header, naming its size", async () => {
    const bomb = decompressionBombPng(10_000, 10_000);
    expect(bomb.byteLength).toBeLessThan(100_000);
    await expect(readImageHeader(bomb)).rejects.toMatchObject({
      name: "UnreadableImageError",
      reason: "too_many_pixels",
      size: { width: 10_000, height: 10_000 },
    });
    // analyseImage reads the header first too: the bomb never reaches the decoder.
    await expect(analyseImage(bomb, "png")).rejects.toMatchObject({ reason: "too_many_pixels" });
  });

  it("holds JPEG headers to the same budget", async () => {
    await expect(readImageHeader(await jpegDeclaring(10_000, 10_000))).rejects.toMatchObject({
      reason: "too_many_pixels",
      size: { width: 10_000, height: 10_000 },
    });
  });

  it("takes a picture of exactly the budget and refuses one row more", async () => {
    expect(8_000 * 5_000).toBe(MAX_DECODED_PIXELS);
    expect(await readImageHeader(decompressionBombPng(8_000, 5_000))).toEqual({ width: 8_000, height: 5_000 });
    await expect(readImageHeader(decompressionBombPng(8_000, 5_001))).rejects.toMatchObject({
      reason: "too_many_pixels",
    });
  });

  it("reports the displayed sides of an EXIF-rotated picture, and refuses bytes with no header as corrupt", async () => {
    const rotated = await sharp(await sampleDocumentImage({ seed: 2 }))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await readImageHeader(rotated)).toEqual({ width: 800, height: 1200 });
    await expect(readImageHeader(Buffer.from("not a picture at all"))).rejects.toMatchObject({ reason: "corrupt" });
  });
});

describe("time budget", () => {
  it("a libvips pipeline stopped by its timeout is reported as too_slow, a pixel-limit refusal as too_many_pixels", async () => {
    // A blur this wide over 36 MP takes far longer than the 1-second budget given here.
    const slow = await sharp({ create: { width: 6_000, height: 6_000, channels: 3, background: "#808080" } })
      .blur(500)
      .timeout({ seconds: 1 })
      .raw()
      .toBuffer()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(slow).toBeInstanceOf(Error);
    expect(decodeFailure(slow).reason).toBe("too_slow");

    const limited = await sharp(await sampleDocumentImage({ seed: 3 }), { limitInputPixels: 1_000 })
      .raw()
      .toBuffer()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(decodeFailure(limited).reason).toBe("too_many_pixels");
    expect(decodeFailure(new Error("VipsJpeg: premature end of input file")).reason).toBe("corrupt");
  });
});
