import type { OutputInfo, Sharp } from "sharp";
import type { ImageChecks } from "../model";
import type { SniffedImageFormat } from "./file-checks";
import {
  decodeFailure,
  IMAGE_TIME_BUDGET_SECONDS,
  MAX_DECODED_PIXELS,
  readImageHeader,
  type ImageHeader,
} from "./image-budget";
import { loadSharp } from "./sharp-loader";

/**
 * Quality checks on a document picture that already passed the file checks (JPEG or PNG bytes):
 * it must decode, be large enough to read, be in focus, not be blown out by glare, and it gets
 * a perceptual hash so the same picture sent by two users can be found.
 *
 * The thresholds (numbers below) are set on the generated pictures of
 * @fintech/testing/kyc/sample-images and are asserted by image-checks.test.ts: a sharp document
 * scores far above the blur threshold and its 6-pixel Gaussian blur far below it
 * (docs/kyc.md#documents-three-ways-in-one-set-of-checks).
 */

/**
 * Minimum size, orientation-free (long side x short side). At 600 x 400 an ID-1 card
 * (85.6 x 54 mm) filling the frame is about 180 dpi: 8-point print is some 14 px high and the
 * machine-readable zone's OCR-B glyphs about 16 px, the least a reviewer (or OCR) reads reliably.
 */
export const MIN_LONG_SIDE = 600;
export const MIN_SHORT_SIDE = 400;
/** The blur and glare measures run on a copy whose long side is at most this (never enlarged). */
export const ANALYSIS_LONG_SIDE = 1024;
/**
 * Variance of the Laplacian (on the contrast-stretched copy) below this: out of focus. Sharp
 * sample documents score an order of magnitude above it, and a 2-pixel Gaussian blur already
 * takes them below it (docs/kyc.md#documents-three-ways-in-one-set-of-checks).
 */
export const MIN_SHARPNESS = 100;
/**
 * The Laplacian's variance grows with the square of contrast, so a dim or washed-out but sharp
 * photo would read as blurred: it is measured as if stretched to the full 0-255 range (the tonal
 * range is judged on its own). Ranges under this are not stretched further, so the sensor noise
 * of an almost blank picture is not blown up into "detail".
 */
const MIN_STRETCH_RANGE = 32;
/** A grey level at or above this is blown out (near-white). */
export const NEAR_WHITE_LEVEL = 250;
/**
 * More than this share of blown-out pixels: glare or overexposure hides part of the document.
 * A document photographed on a desk has almost none (its paper is off-white); a scan on a pure
 * white background can exceed it, which is why this is not lower.
 */
export const MAX_GLARE_SHARE = 0.3;
/** Tonal range (2nd to 98th percentile) below this: washed out, the print does not stand out from the paper. */
export const MIN_TONAL_RANGE = 80;

export const IMAGE_PROBLEMS = {
  tooSmall: (width: number, height: number) =>
    `Image resolution is too low (${width} x ${height} pixels); use a photo of at least ${MIN_LONG_SIDE} x ${MIN_SHORT_SIDE} pixels`,
  blurred: "Image is blurry; hold the camera steady and make sure the text is in focus",
  glare: "Glare or overexposure covers part of the document; avoid direct light and reflections",
  washedOut: "Image is washed out; the text does not stand out from the background. Retake it in even light",
} as const;

type SharpFactory = Awaited<ReturnType<typeof loadSharp>>;

const decoder = (sharp: SharpFactory, bytes: Uint8Array): Sharp =>
  // failOn "error": a truncated or damaged file is refused, not half-decoded into a grey picture.
  // The pixel limit repeats the header check (image-budget.ts) inside libvips itself.
  sharp(bytes, { failOn: "error", limitInputPixels: MAX_DECODED_PIXELS })
    .rotate()
    .timeout({ seconds: IMAGE_TIME_BUDGET_SECONDS });

/** Variance of the 4-neighbour Laplacian over the interior of a greyscale raster. */
export function laplacianVariance(pixels: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let sumSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const value = pixels[i - width]! + pixels[i + width]! + pixels[i - 1]! + pixels[i + 1]! - 4 * pixels[i]!;
      sum += value;
      sumSquares += value * value;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return sumSquares / count - mean * mean;
}

/**
 * Share of near-white pixels, the tonal range between the 2nd and 98th percentile of grey
 * levels, and the 1st-99th percentile range used to stretch contrast for the focus measure.
 */
export function toneMeasures(pixels: Uint8Array): { glare: number; tonalRange: number; stretchRange: number } {
  const histogram = new Uint32Array(256);
  for (const value of pixels) histogram[value]! += 1;
  const total = pixels.length || 1;
  let nearWhite = 0;
  for (let level = NEAR_WHITE_LEVEL; level < 256; level++) nearWhite += histogram[level]!;
  const percentile = (share: number) => {
    let seen = 0;
    for (let level = 0; level < 256; level++) {
      seen += histogram[level]!;
      if (seen >= share * total) return level;
    }
    return 255;
  };
  return {
    glare: nearWhite / total,
    tonalRange: percentile(0.98) - percentile(0.02),
    stretchRange: percentile(0.99) - percentile(0.01),
  };
}

const HASH_SIZE = 32;
const HASH_LOW = 8;
/** cos((2x+1) u pi / 2N) for the 32-point DCT-II, computed once. */
const COSINES = Array.from({ length: HASH_LOW }, (_, u) =>
  Array.from({ length: HASH_SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * HASH_SIZE))),
);

/**
 * DCT perceptual hash (pHash as in pHash.org / Python imagehash): greyscale 32 x 32, 2-D DCT,
 * the 8 x 8 lowest frequencies, one bit per coefficient above their median. 64 bits as 16 hex
 * digits. Re-encoding, resizing and mild recompression move few bits; different pictures differ
 * in about half of them.
 */
export function perceptualHash(pixels32: Uint8Array): string {
  if (pixels32.length !== HASH_SIZE * HASH_SIZE)
    throw new Error(`perceptualHash takes ${HASH_SIZE} x ${HASH_SIZE} grey levels, got ${pixels32.length} values`);
  // Separable DCT: rows first (only the 8 lowest frequencies are ever needed), then columns.
  const rows: number[][] = [];
  for (let y = 0; y < HASH_SIZE; y++) {
    rows.push(COSINES.map((cosines) => cosines.reduce((sum, c, x) => sum + c * pixels32[y * HASH_SIZE + x]!, 0)));
  }
  const coefficients: number[] = [];
  for (let v = 0; v < HASH_LOW; v++) {
    for (let u = 0; u < HASH_LOW; u++) {
      coefficients.push(COSINES[v]!.reduce((sum, c, y) => sum + c * rows[y]![u]!, 0));
    }
  }
  const sorted = [...coefficients].sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hex = "";
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) value = (value << 1) | (coefficients[nibble * 4 + bit]! > median ? 1 : 0);
    hex += value.toString(16);
  }
  return hex;
}

/** Number of differing bits between two 16-hex-digit hashes. */
export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < 16; i += 4) {
    let bits = Number.parseInt(a.slice(i, i + 4), 16) ^ Number.parseInt(b.slice(i, i + 4), 16);
    while (bits) {
      distance += bits & 1;
      bits >>>= 1;
    }
  }
  return distance;
}

/**
 * How sure the checks are that the picture is usable, 0..1: the weakest of the three margins
 * (focus against twice the threshold, glare and tonal range against theirs). It scores image
 * quality only; it is not a face match or an authenticity score.
 */
export function qualityConfidence(measures: { sharpness: number; glare: number; tonalRange: number }): number {
  const focus = Math.min(1, measures.sharpness / (2 * MIN_SHARPNESS));
  const light = Math.max(0, 1 - measures.glare / (2 * MAX_GLARE_SHARE));
  const contrast = Math.min(1, measures.tonalRange / (2 * MIN_TONAL_RANGE));
  return Math.round(Math.min(focus, light, contrast) * 100) / 100;
}

export interface ImageAnalysis {
  checks: ImageChecks;
  /** qualityConfidence of the measures (the documentVerified event's confidence). */
  confidence: number;
  tonalRange: number;
}

/**
 * Decodes the picture and runs every check, within the pixel and time budgets (image-budget.ts).
 * `header`, when the caller already read it, saves a second header read. Throws
 * UnreadableImageError when the picture cannot be checked.
 */
export async function analyseImage(
  bytes: Uint8Array,
  format: SniffedImageFormat,
  header?: ImageHeader,
): Promise<ImageAnalysis> {
  const { width, height } = header ?? (await readImageHeader(bytes));
  let analysis: { data: Buffer; info: OutputInfo };
  let hashPixels: Buffer;
  const sharp = await loadSharp();
  try {
    // One full decode: the analysis copy; the hash's 32 x 32 comes from that copy, not the file.
    analysis = await decoder(sharp, bytes)
      .greyscale()
      .resize({ width: ANALYSIS_LONG_SIDE, height: ANALYSIS_LONG_SIDE, fit: "inside", withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    hashPixels = await sharp(analysis.data, {
      raw: { width: analysis.info.width, height: analysis.info.height, channels: 1 },
    })
      .resize(HASH_SIZE, HASH_SIZE, { fit: "fill" })
      // Raw one-channel input comes out as three channels unless told otherwise.
      .greyscale()
      .raw()
      .toBuffer();
  } catch (error) {
    throw decodeFailure(error);
  }
  const pixels = new Uint8Array(analysis.data.buffer, analysis.data.byteOffset, analysis.data.byteLength);
  const { glare, tonalRange, stretchRange } = toneMeasures(pixels);
  const stretch = 255 / Math.max(MIN_STRETCH_RANGE, stretchRange);
  const sharpness = laplacianVariance(pixels, analysis.info.width, analysis.info.height) * stretch * stretch;
  const problems: string[] = [];
  if (Math.max(width, height) < MIN_LONG_SIDE || Math.min(width, height) < MIN_SHORT_SIDE)
    problems.push(IMAGE_PROBLEMS.tooSmall(width, height));
  if (sharpness < MIN_SHARPNESS) problems.push(IMAGE_PROBLEMS.blurred);
  // A washed-out picture is also mostly near-white: name the cause the applicant can fix first.
  if (tonalRange < MIN_TONAL_RANGE) problems.push(IMAGE_PROBLEMS.washedOut);
  else if (glare > MAX_GLARE_SHARE) problems.push(IMAGE_PROBLEMS.glare);
  const checks: ImageChecks = {
    format,
    bytes: bytes.byteLength,
    width,
    height,
    sharpness: Math.round(sharpness * 10) / 10,
    glare: Math.round(glare * 1000) / 1000,
    phash: perceptualHash(new Uint8Array(hashPixels.buffer, hashPixels.byteOffset, hashPixels.byteLength)),
    passed: problems.length === 0,
    problems,
  };
  return { checks, confidence: qualityConfidence({ sharpness, glare, tonalRange }), tonalRange };
}
