import { z } from "zod";
import { Currency } from "../money/model";
import { RAIL_ID_PATTERN } from "../rails/model";

/**
 * Settlement reconciliation (docs/money-operations.md#settlement-files,
 * docs/money-operations.md#reconciliation): the settlement file's layout, the break classes, the
 * file statuses and the API's reply shapes. Safe to import from the browser: zod and pure
 * functions only. The server's parser, matcher and routes and the console's screens use these
 * same constants, so a class, a status label or a threshold is defined once.
 */

/** The settlement file's header row, in this order. */
export const SETTLEMENT_COLUMNS = ["rail", "reference", "amount", "currency", "fee", "type", "settled_at"] as const;
export type SettlementColumn = (typeof SETTLEMENT_COLUMNS)[number];
export const SETTLEMENT_HEADER = SETTLEMENT_COLUMNS.join(",");

/**
 * A line's type. `payment`: a payment the rail paid out (matched to its attempt by reference);
 * `refund` and `chargeback`: money the rail returned for a reference (its amount reduces what
 * settled); `fee`: a charge of the rail that refers to no attempt.
 */
export const SETTLEMENT_LINE_TYPES = ["payment", "refund", "chargeback", "fee"] as const;
export const SettlementLineType = z.enum(SETTLEMENT_LINE_TYPES);
export type SettlementLineType = z.infer<typeof SettlementLineType>;

/** What a line (or a settled attempt without a line) was found to be. */
export const LINE_CLASSES = [
  "matched",
  "amount_mismatch",
  "fee_mismatch",
  "missing_from_file",
  "unknown_to_ledger",
  "duplicate_line",
] as const;
export const LineClass = z.enum(LINE_CLASSES);
export type LineClass = z.infer<typeof LineClass>;

/** The classes that are breaks: every line class but `matched`, and a rail-day with no file at all. */
export const BREAK_CLASSES = [
  "amount_mismatch",
  "fee_mismatch",
  "missing_from_file",
  "unknown_to_ledger",
  "duplicate_line",
  "missing_file",
] as const;
export const BreakClass = z.enum(BREAK_CLASSES);
export type BreakClass = z.infer<typeof BreakClass>;

export const BREAK_CLASS_LABELS: Record<BreakClass, string> = {
  amount_mismatch: "Amount mismatch",
  fee_mismatch: "Fee mismatch",
  missing_from_file: "Missing from file",
  unknown_to_ledger: "Unknown to ledger",
  duplicate_line: "Duplicate line",
  missing_file: "Missing file",
};

export const BREAK_STATUSES = ["open", "resolved"] as const;
export const BreakStatus = z.enum(BREAK_STATUSES);
export type BreakStatus = z.infer<typeof BreakStatus>;

export const FILE_STATUSES = ["success", "warning", "error"] as const;
export const FileStatus = z.enum(FILE_STATUSES);
export type FileStatus = z.infer<typeof FileStatus>;
export const FILE_STATUS_LABELS = {
  success: "Auto-Reconciled",
  warning: "Warning",
  error: "Requires Review",
} as const satisfies Record<FileStatus, string>;
export type FileStatusLabel = (typeof FILE_STATUS_LABELS)[FileStatus];

/** How a file came to be reconciled. */
export const FILE_SOURCES = ["s3_event", "upload", "nightly"] as const;
export const FileSource = z.enum(FILE_SOURCES);
export type FileSource = z.infer<typeof FileSource>;

/** Below this variance (percent) a file is Auto-Reconciled. */
export const AUTO_RECONCILED_BELOW_PERCENT = 0.1;
/** At or above this variance (percent) a file Requires Review; in between it is a warning. */
export const REQUIRES_REVIEW_FROM_PERCENT = 1;

/** A file's status from its variance in percent. */
export function fileStatusOf(variancePercent: number): FileStatus {
  if (variancePercent < AUTO_RECONCILED_BELOW_PERCENT) return "success";
  if (variancePercent >= REQUIRES_REVIEW_FROM_PERCENT) return "error";
  return "warning";
}

/**
 * Variance in percent: |file total - matched ledger total| / file total, in minor units. A file
 * whose total is zero has no variance unless something was matched against it.
 */
export function variancePercent(fileTotalMinor: number, matchedLedgerMinor: number): number {
  const gap = Math.abs(fileTotalMinor - matchedLedgerMinor);
  if (fileTotalMinor === 0) return gap === 0 ? 0 : 100;
  return (gap / Math.abs(fileTotalMinor)) * 100;
}

/** Where files land in the settlements bucket and where their results go. */
/**
 * A recorded file's id: rail, day and the first 32 hex digits of its content's sha256. The same
 * content under any key is one file, and an uploader that hashed its file knows the id to ask for.
 */
export const settlementFileId = (railId: string, date: string, sha256Hex: string) =>
  `${railId}_${date}_${sha256Hex.slice(0, 32)}`;

export const INCOMING_PREFIX = "incoming/";
export const RESULTS_PREFIX = "results/";
/** The canonical key of a rail's file for a day; uploads and re-sends may add a suffix before `.csv`. */
export const settlementFileKey = (railId: string, date: string, suffix = ""): string =>
  `${INCOMING_PREFIX}${railId}/${date}${suffix}.csv`;
/** incoming/<railId>/<YYYY-MM-DD>[anything].csv */
export const SETTLEMENT_KEY_PATTERN =
  /^incoming\/([a-z0-9][a-z0-9-]{0,39})\/(\d{4}-\d{2}-\d{2})([A-Za-z0-9._-]{0,80})\.csv$/;

/** Largest file the console's upload accepts (bytes). Processors' drops are not limited by this. */
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;
/** How long a presigned upload and a result download link stay valid. */
export const UPLOAD_URL_SECONDS = 300;
export const DOWNLOAD_URL_SECONDS = 300;
export const MAX_FILENAME_LENGTH = 120;
export const MAX_NOTE_LENGTH = 500;
export const MAX_REFERENCE_LENGTH = 64;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

/**
 * Largest |file amount - ledger amount| still matched, in minor units: exact. A difference within
 * it settles the attempt and goes to Settlement write-offs.
 */
export const AMOUNT_TOLERANCE_MINOR = 0;

/**
 * How long after an attempt completed its settlement line may be dated: the rail's settlement
 * time plus this grace. A settled attempt with no line once this has passed is missing_from_file.
 */
export const SETTLEMENT_GRACE_SECONDS = 2 * 86_400;

/** The result CSV's header row, one row per file line and per attempt missing from the file. */
export const RESULT_COLUMNS = [
  "line",
  "reference",
  "class",
  "file_amount",
  "ledger_amount",
  "difference",
  "payment_id",
] as const;

export const RECON_MESSAGES = {
  railId: "railId must be a rail id: 1 to 40 lowercase letters, digits or dashes",
  railUnknown: "No such rail",
  date: "date must be a calendar date YYYY-MM-DD",
  filename: `filename must be 1 to ${MAX_FILENAME_LENGTH} characters ending in .csv`,
  size: `size must be a whole number of bytes from 1 to ${UPLOAD_MAX_BYTES}`,
  sha256: "sha256 must be the file's SHA-256 digest in base64 (44 characters)",
  note: `note must be 1 to ${MAX_NOTE_LENGTH} characters`,
  reference: `reference must be 1 to ${MAX_REFERENCE_LENGTH} letters, digits, dashes or underscores`,
  limit: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
  fileNotFound: "Settlement file not found",
  breakNotFound: "Break not found",
  alreadyResolved: "This break is already resolved: reopen it first",
  notResolved: "Only a resolved break can be reopened",
  versionConflict: "The break changed while you were acting on it: reload and try again",
  referenceNotFound: "No settled payment attempt has this reference",
  referenceCurrency: "The payment attempt with this reference is in another currency than the break",
  nothingToMatch: "This break has no file amount to match: write it off or wait for the file",
  missingFileMatch: "A missing file cannot be matched by hand: drop or upload the file",
  malformedFile: "The settlement file is not in the documented layout",
} as const;

const isCalendarDate = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};
export const SettlementDate = z
  .string({ error: RECON_MESSAGES.date })
  .refine(isCalendarDate, RECON_MESSAGES.date)
  .describe("A calendar day, YYYY-MM-DD (UTC)");
export const RailId = z.string({ error: RECON_MESSAGES.railId }).regex(RAIL_ID_PATTERN, RECON_MESSAGES.railId);
export const SettlementReference = z
  .string({ error: RECON_MESSAGES.reference })
  .trim()
  .regex(new RegExp(`^[A-Za-z0-9_-]{1,${MAX_REFERENCE_LENGTH}}$`), RECON_MESSAGES.reference);
export const BreakNote = z
  .string({ error: RECON_MESSAGES.note })
  .trim()
  .min(1, RECON_MESSAGES.note)
  .max(MAX_NOTE_LENGTH, RECON_MESSAGES.note);

/** Decimal string in the currency's minor digits; null when that side has no figure. */
const money = z.string().nullable();

export const CurrencyTotals = z.object({
  currency: Currency,
  file: z.string().describe("Sum of the file's lines (payments minus refunds and chargebacks), decimal"),
  matched: z.string().describe("Sum of the lines matched to attempts, at the file's amounts, decimal"),
  ledger: z.string().describe("Sum of the ledger amounts of the matched attempts, decimal"),
  fees: z.string().describe("Sum of the file's fee column and fee lines, decimal"),
  variance: z.number().describe("Percent"),
});
export type CurrencyTotals = z.infer<typeof CurrencyTotals>;

export const BreakCounts = z.record(BreakClass, z.number().int().min(0)).describe("Breaks per class (0 included)");
export type BreakCounts = Record<BreakClass, number>;
export const noBreaks = (): BreakCounts => Object.fromEntries(BREAK_CLASSES.map((kind) => [kind, 0])) as BreakCounts;

export const SettlementFile = z.object({
  id: z.string().describe("The reconciliation's id: the rail, day and the content's sha256"),
  railId: z.string(),
  rail: z.string().describe("The rail's name"),
  filename: z.string(),
  key: z.string().describe("The object key in the settlements bucket"),
  versionId: z.string().nullable(),
  sha256: z.string(),
  date: z.string().describe("The settlement day, YYYY-MM-DD"),
  importedAt: z.string().describe("ISO time the reconciliation finished"),
  variance: z.number().describe("Percent: the largest of the file's currencies"),
  status: FileStatus,
  statusLabel: z.enum([FILE_STATUS_LABELS.success, FILE_STATUS_LABELS.warning, FILE_STATUS_LABELS.error]),
  lines: z.number().int().min(0).describe("Data lines in the file"),
  matched: z.number().int().min(0).describe("Lines matched to an attempt"),
  breakCounts: BreakCounts,
  totals: z.array(CurrencyTotals),
  suspenseJournalIds: z.array(z.string()).describe("The journals booking unmatched amounts to suspense"),
  settlementJournalIds: z.array(z.string()).describe("The journals booking the matched totals out of clearing"),
  source: FileSource,
  rejection: z
    .string()
    .nullable()
    .describe(
      "Why the file was not booked at all (a header that is not the documented one, no lines, a line that is not CSV, or a day already reconciled from another file); null when it was reconciled",
    ),
  downloadUrl: z.string().nullable().describe("The per-line result CSV, valid for 5 minutes"),
  committed_at: z.string(),
});
export type SettlementFile = z.infer<typeof SettlementFile>;

export const SettlementFileList = z.object({ files: z.array(SettlementFile), nextCursor: z.string().nullable() });
export type SettlementFileList = z.infer<typeof SettlementFileList>;

export const BREAK_ACTIONS = ["raised", "match", "write_off", "reopen"] as const;
export const BreakHistoryEntry = z.object({
  action: z.enum(BREAK_ACTIONS),
  by: z.string().describe("Who: an admin's email, or `system`"),
  at: z.string(),
  note: z.string().nullable(),
  journalId: z.string().nullable(),
  version: z.number().int().min(1),
});
export type BreakHistoryEntry = z.infer<typeof BreakHistoryEntry>;

export const BreakResolution = z.object({
  action: z.enum(["match", "write_off"]),
  by: z.string(),
  at: z.string(),
  note: z.string(),
  reference: z.string().nullable(),
  paymentId: z.string().nullable(),
  journalId: z.string().nullable(),
});
export type BreakResolution = z.infer<typeof BreakResolution>;

export const ReconciliationBreak = z.object({
  id: z.string(),
  fileId: z.string().nullable().describe("null for a missing file"),
  railId: z.string(),
  rail: z.string(),
  date: z.string(),
  class: BreakClass,
  classLabel: z.string(),
  status: BreakStatus,
  reference: z.string().nullable(),
  line: z.number().int().nullable().describe("The file line (1 = first data line); null if none"),
  type: SettlementLineType.nullable(),
  fileAmount: money,
  ledgerAmount: money,
  fileFee: money,
  ledgerFee: money,
  currency: Currency.nullable(),
  difference: money.describe("file - ledger (for a fee mismatch: file fee - ledger fee), decimal"),
  suspense: money.describe("What this break booked to suspense (money out +), decimal"),
  reason: z.string().nullable().describe("Why a line could not be read or matched, when there is more to say"),
  paymentId: z.string().nullable(),
  suspenseJournalId: z.string().nullable(),
  resolution: BreakResolution.nullable(),
  history: z.array(BreakHistoryEntry),
  version: z.number().int().min(1),
  createdAt: z.string(),
  committed_at: z.string(),
});
export type ReconciliationBreak = z.infer<typeof ReconciliationBreak>;

export const BreakList = z.object({ breaks: z.array(ReconciliationBreak), nextCursor: z.string().nullable() });
export type BreakList = z.infer<typeof BreakList>;

export const ResolveBreakInput = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("match"), reference: SettlementReference, note: BreakNote }),
    z.object({ action: z.literal("write_off"), note: BreakNote }),
  ],
  { error: 'action must be "match" or "write_off"' },
);
export type ResolveBreakInput = z.infer<typeof ResolveBreakInput>;

export const ReopenBreakInput = z.object({ note: BreakNote });
export type ReopenBreakInput = z.infer<typeof ReopenBreakInput>;

export const UploadRequest = z.object({
  railId: RailId,
  date: SettlementDate,
  filename: z
    .string({ error: RECON_MESSAGES.filename })
    .min(1, RECON_MESSAGES.filename)
    .max(MAX_FILENAME_LENGTH, RECON_MESSAGES.filename)
    .refine((name) => name.toLowerCase().endsWith(".csv"), RECON_MESSAGES.filename),
  size: z
    .number({ error: RECON_MESSAGES.size })
    .int(RECON_MESSAGES.size)
    .min(1, RECON_MESSAGES.size)
    .max(UPLOAD_MAX_BYTES, RECON_MESSAGES.size),
  /**
   * The file's SHA-256 (base64), signed into the POST policy: the settlements bucket has Object
   * Lock, and S3 accepts an object into such a bucket only with a checksum of its content.
   */
  sha256: z.string({ error: RECON_MESSAGES.sha256 }).regex(/^[A-Za-z0-9+/]{43}=$/, RECON_MESSAGES.sha256),
});
export type UploadRequest = z.infer<typeof UploadRequest>;

export const UploadGrant = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
  expiresAt: z.string(),
  maxBytes: z.number().int(),
});
export type UploadGrant = z.infer<typeof UploadGrant>;

export const ClearingPosition = z.object({
  railId: z.string(),
  rail: z.string(),
  date: z.string(),
  currency: Currency,
  expected: z.string().describe("Sent over the rail that day (the attempts' amounts), decimal"),
  settled: z.string().describe("Matched in settlement files, decimal"),
  resolved: z.string().describe("Matched or written off by hand, decimal"),
  open: z.string().describe("expected - settled - resolved, decimal"),
  netsToZero: z.boolean(),
});
export type ClearingPosition = z.infer<typeof ClearingPosition>;

export const PositionsReply = z.object({
  date: z.string(),
  positions: z.array(ClearingPosition),
  suspense: z
    .array(z.object({ currency: Currency, open: z.string() }))
    .describe("Open break amounts held in suspense per currency"),
});
export type PositionsReply = z.infer<typeof PositionsReply>;

export const NightlyInput = z.object({ date: SettlementDate.describe("The settlement day to check") });
export const NightlyReply = z.object({
  date: z.string(),
  reconciled: z.array(z.string()).describe("Ids of the files reconciled by this run"),
  missingFiles: z.array(z.object({ railId: z.string(), date: z.string(), breakId: z.string() })),
});
export type NightlyReply = z.infer<typeof NightlyReply>;

/** Structured warning the nightly run logs for each missing file; the cloud's metric filter counts it. */
export const MISSING_FILE_LOG_MESSAGE = "settlement file missing";
export const MISSING_FILE_METRIC = "SettlementFileMissing";

/** Structured error logged for each settlement file rejected whole; the cloud's metric filter counts it. */
export const REJECTED_FILE_LOG_MESSAGE = "settlement file rejected";
export const REJECTED_FILE_METRIC = "SettlementFileRejected";

/** Why a settlement file is rejected whole (it is recorded, nothing is booked, the day stays open). */
export const REJECTION_MESSAGES = {
  header: "the header row is not the documented one (rail,reference,amount,currency,fee,type,settled_at)",
  empty: "the file has no lines",
  notCsv: (detail: string) => `the file is not valid CSV: ${detail.slice(0, 300)}`,
  superseded: (reconciledId: string) =>
    `the day was already reconciled from file ${reconciledId}; this file was not booked`,
} as const;

/* ---------- the API's queries (GET parameters, all optional, bounded) ---------- */

const pageLimit = z.coerce
  .number({ error: RECON_MESSAGES.limit })
  .int(RECON_MESSAGES.limit)
  .min(1, RECON_MESSAGES.limit)
  .max(MAX_PAGE_SIZE, RECON_MESSAGES.limit)
  .default(DEFAULT_PAGE_SIZE);
const cursor = z.string().max(2000, "Invalid cursor").optional().describe("From nextCursor of the previous page");
const FILE_ID_SHAPE = /^[a-z0-9][a-z0-9-]{0,39}_\d{4}-\d{2}-\d{2}_[0-9a-f]{32}$/;
export const FileId = z.string().regex(FILE_ID_SHAPE, "fileId must be a settlement file id");

export const FileQuery = z.strictObject({
  rail: RailId.optional().describe("Only this rail's files"),
  status: FileStatus.optional(),
  limit: pageLimit,
  cursor,
});
export type FileQuery = z.infer<typeof FileQuery>;

export const BreakQuery = z.strictObject({
  class: BreakClass.optional(),
  status: BreakStatus.optional(),
  rail: RailId.optional().describe("Only this rail's breaks"),
  fileId: FileId.optional(),
  limit: pageLimit,
  cursor,
});
export type BreakQuery = z.infer<typeof BreakQuery>;

export const PositionsQuery = z.strictObject({ date: SettlementDate });
