import { AppError } from "../../shared/errors";
import { KYC_MESSAGES } from "../model";
import { checkDocumentFile, type SniffedImageFormat } from "./file-checks";
import {
  IMAGE_TIME_BUDGET_SECONDS,
  MAX_DECODED_MEGAPIXELS,
  readImageHeader,
  UnreadableImageError,
  type ImageHeader,
} from "./image-budget";
import { analyseImage, type ImageAnalysis } from "./image-checks";

/**
 * A picture's way in, the same on every upload path, in two steps:
 * 1. inspect: size and magic bytes (file-checks.ts), then the header and its pixel budget
 *    (image-budget.ts). Cheap: no pixel is decoded, so a decompression bomb is refused here.
 * 2. analyse: the decode and the quality checks (image-checks.ts), within the time budget.
 * The paths inspect before they claim the submission's upload lease (upload-lease.ts) and analyse
 * while holding it, so a refused file never waits and a busy submission costs no decode.
 * Refusals are thrown as the AppError the API answers with.
 */

export interface InspectedImage {
  bytes: Uint8Array;
  format: SniffedImageFormat;
  contentType: "image/jpeg" | "image/png";
  header: ImageHeader;
  /** Appended to refusal messages to name the field, when a request carries two pictures. */
  suffix: string;
}

export interface CheckedImage {
  contentType: "image/jpeg" | "image/png";
  analysis: ImageAnalysis;
}

const megapixels = (size: { width: number; height: number }) => Math.round((size.width * size.height) / 100_000) / 10;

/** The 422 for a picture that cannot be checked; each reason has its own code and says what to send instead. */
export function unreadableRefusal(error: UnreadableImageError, suffix = ""): AppError {
  switch (error.reason) {
    case "too_many_pixels": {
      const size = error.size
        ? `Image is ${error.size.width} x ${error.size.height} pixels (${megapixels(error.size)} megapixels)`
        : `Image has more than ${MAX_DECODED_MEGAPIXELS} megapixels`;
      return new AppError(
        422,
        "image_too_large",
        `${size}; the limit is ${MAX_DECODED_MEGAPIXELS} megapixels. Upload a smaller photo${suffix}`,
      );
    }
    case "too_slow":
      return new AppError(
        422,
        "image_check_timeout",
        `Image could not be checked within ${IMAGE_TIME_BUDGET_SECONDS} seconds; upload a smaller photo saved as an ordinary JPEG or PNG${suffix}`,
      );
    case "corrupt":
      return new AppError(
        422,
        "image_unreadable",
        `${KYC_MESSAGES.notAnImage}: it could not be read as a picture (damaged or incomplete)${suffix}`,
      );
  }
}

async function refusingUnreadable<T>(work: Promise<T>, suffix: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof UnreadableImageError) throw unreadableRefusal(error, suffix);
    throw error;
  }
}

/** Step 1: file checks, then the header against the pixel budget. */
export async function inspectImage(
  bytes: Uint8Array,
  fileName: string | null,
  declaredType: string | null,
  suffix = "",
): Promise<InspectedImage> {
  const file = await checkDocumentFile({ bytes, fileName, declaredType });
  if (!file.passed) throw new AppError(file.status, file.code, `${file.message}${suffix}`);
  const header = await refusingUnreadable(readImageHeader(bytes), suffix);
  return { bytes, format: file.format, contentType: file.contentType, header, suffix };
}

/** Step 2: the decode and the quality checks, within the time budget. */
export async function analyseInspected(image: InspectedImage): Promise<CheckedImage> {
  return {
    contentType: image.contentType,
    analysis: await refusingUnreadable(analyseImage(image.bytes, image.format, image.header), image.suffix),
  };
}
