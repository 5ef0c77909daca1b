import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { UnreadableImageError } from "./image-budget";
import { analyseImage, hammingDistance, IMAGE_PROBLEMS, MIN_SHARPNESS, perceptualHash } from "./image-checks";
import {
  blurredDocumentImage,
  decompressionBombPng,
  glareDocumentImage,
  sampleDocumentImage,
  washedOutDocumentImage,
} from "@fintech/testing/kyc/sample-images";

/** The duplicate threshold findSimilarImages uses (the 4-band index guarantees recall up to it). */
const DUPLICATE_DISTANCE = 3;

describe("image checks on generated document pictures", () => {
  it("a sharp, evenly lit document passes every check, with a 16-hex-digit pHash", async () => {
    const { checks, confidence } = await analyseImage(await sampleDocumentImage({ seed: 1 }), "png");
    expect(checks).toMatchObject({ format: "png", width: 1200, height: 800, passed: true, problems: [] });
    expect(checks.sharpness).toBeGreaterThan(5 * MIN_SHARPNESS);
    expect(checks.glare).toBeLessThan(0.05);
    expect(checks.phash).toMatch(/^[0-9a-f]{16}$/);
    expect(confidence).toBe(1);
  });

  it("the same document out of focus is refused as blurry (a 2-pixel blur already)", async () => {
    for (const sigma of [2, 6]) {
      const { checks, confidence } = await analyseImage(await blurredDocumentImage({ seed: 1 }, sigma), "png");
      expect(checks.passed, `sigma ${sigma}`).toBe(false);
      expect(checks.problems).toEqual([IMAGE_PROBLEMS.blurred]);
      expect(checks.sharpness).toBeLessThan(MIN_SHARPNESS);
      expect(confidence).toBeLessThan(0.5);
    }
  });

  it("a washed-out picture is refused as washed out (not as blurred: focus is measured contrast-stretched)", async () => {
    const { checks } = await analyseImage(await washedOutDocumentImage({ seed: 1 }), "png");
    expect(checks.problems).toEqual([IMAGE_PROBLEMS.washedOut]);
  });

  it("a large blown-out reflection is refused as glare", async () => {
    const { checks } = await analyseImage(await glareDocumentImage({ seed: 1 }), "png");
    expect(checks.problems).toEqual([IMAGE_PROBLEMS.glare]);
    expect(checks.glare).toBeGreaterThan(0.5);
  });

  it("a tiny picture is refused for its resolution, in either orientation", async () => {
    const tiny = await analyseImage(await sampleDocumentImage({ seed: 1, width: 300, height: 200 }), "png");
    expect(tiny.checks.problems).toEqual([IMAGE_PROBLEMS.tooSmall(300, 200)]);
    const portrait = await analyseImage(await sampleDocumentImage({ seed: 1, width: 400, height: 600 }), "png");
    expect(portrait.checks.passed).toBe(true);
    const narrow = await analyseImage(await sampleDocumentImage({ seed: 1, width: 399, height: 900 }), "png");
    expect(narrow.checks.problems).toEqual([IMAGE_PROBLEMS.tooSmall(399, 900)]);
  });

  it("reports EXIF-rotated pictures with their displayed sides", async () => {
    const rotated = await sharp(await sampleDocumentImage({ seed: 1 }))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const { checks } = await analyseImage(rotated, "jpeg");
    expect([checks.width, checks.height]).toEqual([800, 1200]);
  });

  it("the same picture re-encoded, resized or recompressed keeps (nearly) the same pHash", async () => {
    const original = await sampleDocumentImage({ seed: 7 });
    const { checks: reference } = await analyseImage(original, "png");
    const variants = [
      await sharp(original).jpeg({ quality: 55 }).toBuffer(),
      await sharp(original).resize(700).png().toBuffer(),
      await sharp(original).resize(1800).jpeg({ quality: 80 }).toBuffer(),
      await sharp(original).modulate({ brightness: 1.08 }).jpeg().toBuffer(),
    ];
    for (const [index, variant] of variants.entries()) {
      const { checks } = await analyseImage(variant, variant[0] === 0xff ? "jpeg" : "png");
      expect(hammingDistance(reference.phash, checks.phash), `variant ${index}`).toBeLessThanOrEqual(
        DUPLICATE_DISTANCE,
      );
    }
  });

  // Same-template documents are the hard case for a 32 x 32 hash: over 30 seeds the closest
  // pair is 6 bits apart, most are 8-30, so 3 bits keeps duplicates and strangers apart.
  it("different documents are farther apart than the duplicate threshold, even with the same layout", async () => {
    const hashes: string[] = [];
    for (let seed = 1; seed <= 8; seed++)
      hashes.push((await analyseImage(await sampleDocumentImage({ seed }), "png")).checks.phash);
    for (let a = 0; a < hashes.length; a++) {
      for (let b = a + 1; b < hashes.length; b++)
        expect(hammingDistance(hashes[a]!, hashes[b]!), `${a} vs ${b}`).toBeGreaterThan(DUPLICATE_DISTANCE + 1);
    }
  });

  it("refuses a damaged (truncated) PNG and a decompression bomb as unreadable", async () => {
    const png = await sampleDocumentImage({ seed: 1 });
    await expect(analyseImage(png.subarray(0, Math.floor(png.length / 2)), "png")).rejects.toBeInstanceOf(
      UnreadableImageError,
    );
    const garbage = Buffer.concat([png.subarray(0, 64), Buffer.alloc(4096, 7)]);
    await expect(analyseImage(garbage, "png")).rejects.toMatchObject({ reason: "corrupt" });
    // 10,000 x 10,000 at one bit per pixel: a few KB that claim 100 MP (image-budget.test.ts has the rest).
    await expect(analyseImage(decompressionBombPng(), "png")).rejects.toMatchObject({ reason: "too_many_pixels" });
  });

  it("pHash and Hamming distance: known values", () => {
    const flat = new Uint8Array(32 * 32).fill(128);
    expect(perceptualHash(flat)).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance("0000000000000000", "ffffffffffffffff")).toBe(64);
    expect(hammingDistance("955a6a3e6aa11fc8", "955a6a3e6aa11fc9")).toBe(1);
    expect(hammingDistance("955a6a3e6aa11fc8", "955a6a3e6aa11fc8")).toBe(0);
  });
});
