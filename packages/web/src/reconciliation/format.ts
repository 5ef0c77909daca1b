import {
  BREAK_CLASS_LABELS,
  type BreakClass,
  MAX_FILENAME_LENGTH,
  UPLOAD_MAX_BYTES,
  type SettlementFile,
} from "@fintech/core/reconciliation/model";

/**
 * The reconciliation console's pure rules (docs/money-operations.md#reconciliation-screens-and-cloud-wiring):
 * which files may be uploaded, what the tiles count, how a break's figures read.
 */

export const RECON_SCREEN_MESSAGES = {
  notAdmin: "Reconciliation is for administrators: settlement files, breaks and clearing positions are admin data.",
  notCsv: "Choose a CSV file (.csv): settlement files are comma-separated text",
  emptyFile: "The file is empty",
  tooLarge: `The file is larger than ${UPLOAD_MAX_BYTES / (1024 * 1024)} MB`,
  nameTooLong: `The file name must be at most ${MAX_FILENAME_LENGTH} characters`,
  notText: "The file is not text: settlement files are comma-separated text",
  chooseFile: "Choose a settlement file to upload",
  chooseRail: "Choose the rail the file settles",
  chooseDate: "Choose the settlement day",
  noteRequired: "A note is required",
  referenceRequired: "Enter the payment reference to match",
  notYetReconciled:
    "The file was uploaded but is not reconciled yet: it appears in the table once reconciliation finishes",
  recordedBefore: (filename: string, status: string) =>
    `This content was already recorded as ${filename} (${status}): nothing was booked again`,
  notBooked: (filename: string, rejection: string) => `${filename} was not booked: ${rejection}`,
} as const;

/** Browsers name a CSV's type in several ways (or not at all); these are the ones that may be CSV text. */
const CSV_TYPES = ["", "text/csv", "text/plain", "application/csv", "application/vnd.ms-excel", "text/x-csv"];

/** How many of the file's first bytes are looked at to tell text from binary. */
export const CSV_HEAD_BYTES = 512;

export interface CsvFacts {
  name: string;
  type: string;
  size: number;
  /** The first CSV_HEAD_BYTES bytes. */
  head: Uint8Array;
}

/**
 * Whether the bytes look like text: no NUL byte and none of the signatures of the binary formats a
 * person most often picks by mistake (a spreadsheet, a PDF, a zip, a picture).
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  const starts = (signature: readonly number[]) => signature.every((byte, index) => head[index] === byte);
  const binary = [
    [0x25, 0x50, 0x44, 0x46], // %PDF
    [0x50, 0x4b, 0x03, 0x04], // zip, xlsx
    [0xd0, 0xcf, 0x11, 0xe0], // xls
    [0x89, 0x50, 0x4e, 0x47], // png
    [0xff, 0xd8, 0xff], // jpeg
  ];
  return !binary.some(starts);
}

/**
 * The first reason the file may not be uploaded, or null. The console refuses anything but CSV
 * text before a byte leaves; the server refuses it again by content whatever the browser said.
 */
export function csvFileProblem({ name, type, size, head }: CsvFacts): string | null {
  if (!name.toLowerCase().endsWith(".csv") || !CSV_TYPES.includes(type.toLowerCase()))
    return RECON_SCREEN_MESSAGES.notCsv;
  if (name.length > MAX_FILENAME_LENGTH) return RECON_SCREEN_MESSAGES.nameTooLong;
  if (size <= 0) return RECON_SCREEN_MESSAGES.emptyFile;
  if (size > UPLOAD_MAX_BYTES) return RECON_SCREEN_MESSAGES.tooLarge;
  if (!looksLikeText(head)) return RECON_SCREEN_MESSAGES.notText;
  return null;
}

/** Reads what csvFileProblem needs from a File (only its first bytes). */
export async function checkCsvFile(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, CSV_HEAD_BYTES).arrayBuffer());
  return csvFileProblem({ name: file.name, type: file.type, size: file.size, head });
}

/** The picker's accept attribute: CSV by extension and by type. */
export const CSV_ACCEPT = ".csv,text/csv";

/** Today's date in UTC, YYYY-MM-DD (settlement days are UTC days). */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The day before `day` (YYYY-MM-DD), the day a nightly drop usually settles. */
export function previousDay(day: string): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() - 1);
  return utcDay(at);
}

export interface FileTiles {
  importedToday: number;
  autoReconciled: number;
  requiresReview: number;
  warnings: number;
}

/** The tiles' counts over the files shown: imported on `today` (UTC), and per status. */
export function fileTiles(files: readonly Pick<SettlementFile, "importedAt" | "status">[], today: string): FileTiles {
  return {
    importedToday: files.filter((file) => file.importedAt.slice(0, 10) === today).length,
    autoReconciled: files.filter((file) => file.status === "success").length,
    requiresReview: files.filter((file) => file.status === "error").length,
    warnings: files.filter((file) => file.status === "warning").length,
  };
}

/** A count that may have more beyond a page: "25+" when the server has a next page. */
export const countText = (count: number, more: boolean): string => (more ? `${count}+` : String(count));

/** A break's class as a person reads it. */
export const breakClassLabel = (value: BreakClass): string => BREAK_CLASS_LABELS[value];

/** "2026-11-27T10:15:00.000Z" -> "2026-11-27 10:15 UTC": one unambiguous form for operators in any zone. */
export function utcTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;
}

/** Shortens a long id for a table cell; the whole id stays in the title. */
export const shortId = (id: string, keep = 10): string => (id.length > keep + 1 ? `${id.slice(0, keep)}…` : id);
