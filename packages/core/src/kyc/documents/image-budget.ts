import { loadSharp } from "./sharp-loader";

/**
 * What one picture may cost before it is refused, so a crafted file cannot take a function's CPU
 * or memory: a pixel budget read from the header before any pixel is decoded, and a time budget
 * for the decode and analysis. Every path that decodes a document picture (the multipart upload,
 * the Didit-style route with its two images, the S3 ObjectCreated handler) goes through
 * image-intake.ts, which applies both.
 */

/**
 * Decoded pixels a picture may have. A PNG or JPEG declares its width and height in its header,
 * and a few hundred KB of compressed data can declare 100 MP (300 MB of RGB once decoded), so the
 * header is read first and such a file refused before decoding. 40 MP is above what phone cameras
 * save by default and above an A4 page scanned at 600 dpi (about 35 MP).
 */
export const MAX_DECODED_PIXELS = 40_000_000;
export const MAX_DECODED_MEGAPIXELS = MAX_DECODED_PIXELS / 1_000_000;

/**
 * Seconds one picture's decode and analysis may run (libvips stops the pipeline after this, as
 * sharp's `timeout`). Several times what a picture within the pixel budget needs: a file that
 * takes longer was built to be slow, or the function is starved, and either way the applicant is
 * better told to send a smaller photo than kept waiting. Whole seconds: libvips counts in seconds.
 */
export const IMAGE_TIME_BUDGET_SECONDS = 5;

export type UnreadableReason = "corrupt" | "too_many_pixels" | "too_slow";

/** The picture cannot be checked: damaged, over the pixel budget, or over the time budget. */
export class UnreadableImageError extends Error {
  constructor(
    readonly reason: UnreadableReason,
    /** The size the header declares, when it was read (always for too_many_pixels). */
    readonly size: { width: number; height: number } | null = null,
  ) {
    super(
      reason === "corrupt"
        ? "The image could not be decoded"
        : reason === "too_many_pixels"
          ? `The image has more than ${MAX_DECODED_MEGAPIXELS} megapixels`
          : `The image could not be checked within ${IMAGE_TIME_BUDGET_SECONDS} seconds`,
    );
    this.name = "UnreadableImageError";
  }
}

/** The picture's size as displayed (EXIF orientations 5-8 swap the sides), from its header alone. */
export interface ImageHeader {
  width: number;
  height: number;
}

/**
 * Reads the header (sharp's metadata(): no pixel is decoded) and holds the picture to the pixel
 * budget. Throws UnreadableImageError: too_many_pixels with the declared size, or corrupt when
 * there is no readable header.
 */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageHeader> {
  const sharp = await loadSharp();
  let declared: { width?: number; height?: number; orientation?: number };
  try {
    // No pixel limit on this read: it decodes nothing, and the refusal can then name the size.
    declared = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new UnreadableImageError("corrupt");
  }
  const { width, height } = declared;
  if (!width || !height) throw new UnreadableImageError("corrupt");
  if (width * height > MAX_DECODED_PIXELS) throw new UnreadableImageError("too_many_pixels", { width, height });
  return (declared.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

/** What a failed libvips pipeline means for the applicant (its messages are the only signal sharp gives). */
export function decodeFailure(error: unknown): UnreadableImageError {
  const message = error instanceof Error ? error.message : "";
  if (/\btimeout\b/i.test(message)) return new UnreadableImageError("too_slow");
  if (/pixel limit/i.test(message)) return new UnreadableImageError("too_many_pixels");
  return new UnreadableImageError("corrupt");
}
