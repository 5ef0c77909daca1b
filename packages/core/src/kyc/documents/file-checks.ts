import { KYC_LIMITS, KYC_MESSAGES } from "../model";

/**
 * What a file is, decided by its bytes (magic numbers, via file-type), never by its name or the
 * content type the client declared. docs/product/kyc.md#document-step gives three messages; which one a refusal gets:
 *
 * - over 5 MB (or empty)                      -> size message (checked first: nothing else is read)
 * - JPEG or PNG bytes                         -> passes, unless the name's extension is not
 *   jpg/jpeg/png or the declared content type names another type (a forged content type): both
 *   are the format message, because the file claims to be something it is not
 * - bytes of another image format (GIF, WebP, BMP, TIFF, HEIC...) -> the format message
 * - bytes that are no image at all, but the file CLAIMS to be one (an image extension such as
 *   .png, or a declared image/* type) -> the format message: the applicant picked something that
 *   looked like an accepted image, and "must be JPG, JPEG, or PNG" tells them what to pick
 *   (the text file renamed `.png` of docs/product/kyc.md#document-step)
 * - bytes that are no image and nothing claims otherwise (notes.txt, text/plain) -> "File must
 *   be an image"
 */

export type SniffedImageFormat = "jpeg" | "png";

export const SNIFFED_CONTENT_TYPES: Record<SniffedImageFormat, (typeof KYC_LIMITS.acceptedImageTypes)[number]> = {
  jpeg: "image/jpeg",
  png: "image/png",
};

export type FileRefusalCode = "file_too_large" | "empty_file" | "wrong_image_format" | "not_an_image";

export type FileCheckResult =
  | { passed: true; format: SniffedImageFormat; contentType: "image/jpeg" | "image/png"; bytes: number }
  | { passed: false; code: FileRefusalCode; message: string; status: 413 | 415 | 400 };

export interface FileCheckInput {
  bytes: Uint8Array;
  /** The client's file name, if it gave one (multipart filename). */
  fileName: string | null;
  /** The content type the client declared (multipart part type, data URL, presigned POST field). */
  declaredType: string | null;
}

const ACCEPTED_EXTENSIONS = new Set(["jpg", "jpeg", "png"]);
/** Extensions that say "I am a picture": a file carrying one claims to be an image. */
const IMAGE_EXTENSIONS = new Set([
  "jpg",
  "jpeg",
  "jpe",
  "jfif",
  "png",
  "gif",
  "webp",
  "bmp",
  "tif",
  "tiff",
  "heic",
  "heif",
  "avif",
  "svg",
  "ico",
  "jp2",
  "jxl",
  "raw",
  "dng",
]);
/** Declared types that name JPEG or PNG, as browsers and tools spell them. */
const DECLARED_AS: Record<string, SniffedImageFormat> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/pjpeg": "jpeg",
  "image/png": "png",
  "image/x-png": "png",
};
/**
 * "I don't know": what curl and many HTTP clients send for any file. Treated as no declaration,
 * so an honest client that never sets a type is judged by its bytes alone.
 */
const UNDECLARED_TYPES = new Set(["", "application/octet-stream", "binary/octet-stream"]);

const refuse = (code: FileRefusalCode, message: string, status: 413 | 415 | 400): FileCheckResult => ({
  passed: false,
  code,
  message,
  status,
});
const tooLarge = () => refuse("file_too_large", KYC_MESSAGES.fileTooLarge, 413);
const wrongFormat = () => refuse("wrong_image_format", KYC_MESSAGES.wrongImageFormat, 415);
const notAnImage = () => refuse("not_an_image", KYC_MESSAGES.notAnImage, 415);

/** The lower-case extension of a file name ("scan.PNG" -> "png"), null if it has none. */
export function extensionOf(fileName: string | null): string | null {
  if (!fileName) return null;
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : null;
}

/** The media type without parameters, lower case ("image/PNG; charset=x" -> "image/png"); null when undeclared. */
export function normaliseDeclaredType(declaredType: string | null): string | null {
  const type = (declaredType ?? "").split(";")[0]!.trim().toLowerCase();
  return UNDECLARED_TYPES.has(type) ? null : type;
}

/** Size, magic bytes, name and declared type of an uploaded file (see the module comment for the rules). */
export async function checkDocumentFile({ bytes, fileName, declaredType }: FileCheckInput): Promise<FileCheckResult> {
  if (bytes.byteLength > KYC_LIMITS.maxFileBytes) return tooLarge();
  if (bytes.byteLength === 0) return refuse("empty_file", `${KYC_MESSAGES.notAnImage}: the file is empty`, 400);
  const extension = extensionOf(fileName);
  const declared = normaliseDeclaredType(declaredType);
  // Loaded at the first file check: the functions that bundle it (the API's KYC routes, the
  // feeds' KYC stream module) mostly never check a file, and a cold start should not pay for it.
  const { fileTypeFromBuffer } = await import("file-type");
  const sniffed = await fileTypeFromBuffer(bytes);
  const format: SniffedImageFormat | null =
    sniffed?.mime === "image/jpeg" ? "jpeg" : sniffed?.mime === "image/png" ? "png" : null;

  if (format) {
    if (extension !== null && !ACCEPTED_EXTENSIONS.has(extension)) return wrongFormat();
    // A declared type that names another format than the bytes are: a forged content type.
    if (declared !== null && DECLARED_AS[declared] !== format) return wrongFormat();
    return { passed: true, format, contentType: SNIFFED_CONTENT_TYPES[format], bytes: bytes.byteLength };
  }
  if (sniffed?.mime.startsWith("image/")) return wrongFormat();
  const claimsImage =
    (extension !== null && IMAGE_EXTENSIONS.has(extension)) || (declared?.startsWith("image/") ?? false);
  return claimsImage ? wrongFormat() : notAnImage();
}
