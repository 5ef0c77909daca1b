import { KYC_LIMITS, KYC_MESSAGES } from "@fintech/core/kyc/model";

/**
 * The wizard's checks of a chosen file before it is sent, with the messages of
 * docs/product/kyc.md#document-step. They spare the applicant a wasted upload; the server checks
 * again, by content, whatever the browser said. The declared type comes from the file name, so the
 * first bytes are read too: a text file renamed .png is caught here with the same message the
 * server would give.
 */

export const FILE_HEAD_BYTES = 8;

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (head: Uint8Array, signature: readonly number[]) =>
  signature.every((byte, index) => head[index] === byte);

/** The image format the bytes themselves say, whatever the name or declared type claims. */
export function sniffImageFormat(head: Uint8Array): "jpeg" | "png" | null {
  if (startsWith(head, JPEG)) return "jpeg";
  if (startsWith(head, PNG)) return "png";
  return null;
}

export interface FileFacts {
  /** The browser's type for the file (from its name), "" when it has none. */
  type: string;
  size: number;
  /** The first FILE_HEAD_BYTES bytes. */
  head: Uint8Array;
}

/** The first failed rule's message, or null when the file may be uploaded. */
export function fileProblem({ type, size, head }: FileFacts): string | null {
  if (!type.startsWith("image/")) return KYC_MESSAGES.notAnImage;
  if (size > KYC_LIMITS.maxFileBytes) return KYC_MESSAGES.fileTooLarge;
  if (!(KYC_LIMITS.acceptedImageTypes as readonly string[]).includes(type)) return KYC_MESSAGES.wrongImageFormat;
  if (sniffImageFormat(head) === null) return KYC_MESSAGES.wrongImageFormat;
  return null;
}

/** Reads what fileProblem needs from a File (only its first bytes). */
export async function checkFile(file: Blob): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, FILE_HEAD_BYTES).arrayBuffer());
  return fileProblem({ type: file.type, size: file.size, head });
}

/** "1.2 MB", "340 KB": the size beside the preview. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The accept attribute of the picker: the formats the server takes. */
export const ACCEPTED_FILES = [...KYC_LIMITS.acceptedImageTypes, ".jpg", ".jpeg", ".png"].join(",");
