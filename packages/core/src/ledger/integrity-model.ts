import { z } from "zod";
import { Currency } from "../money/model";

/**
 * The whole-ledger integrity check run as a job (integrity-jobs.ts, integrity-steps.ts): the
 * shapes the API answers with and the web panel reads. zod only, safe to import from the browser.
 */

export const INTEGRITY_JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type IntegrityJobStatus = (typeof INTEGRITY_JOB_STATUSES)[number];

/** First every journal and account item is read (a paged scan), then every account is compared. */
export const INTEGRITY_PHASES = ["journals", "accounts", "done"] as const;
export type IntegrityPhase = (typeof INTEGRITY_PHASES)[number];

/** Problems a result lists one by one; the counts say how many there were in all. */
export const INTEGRITY_SAMPLE_LIMIT = 100;

/**
 * The check covers the ledger as it stood this long before it was started. A write takes its
 * commit instant before it lands; one store call lasts at most about 16 s in the cloud and 40 s
 * locally with its retries (shared/dynamo.ts), so by then every write stamped before that moment
 * has landed or failed, and the balances' by-time index has caught up: the journals and the
 * balances read later are a consistent cut.
 */
export const INTEGRITY_SETTLE_MS = 60_000;

export const INTEGRITY_MESSAGES = {
  running: "An integrity check is already running: follow it, or wait until it finishes",
  notFound: "Integrity check not found",
  invalidId: "Integrity check ids are UUIDs",
  notQueued: "The integrity check could not be queued; please try again shortly",
  noResult: "No whole-ledger integrity check has finished yet: start one with POST /api/v1/ledger/integrity/jobs",
  stalled: "The check made no progress for too long and was replaced by a new one",
} as const;

const Minor = z.number().int();
export const IntegrityTotals = z.object({
  posted_debits: Minor,
  posted_credits: Minor,
  pending_debits: Minor,
  pending_credits: Minor,
});
export type IntegrityTotals = z.infer<typeof IntegrityTotals>;

/** An account whose recorded balance differs from the replay of its journals. */
export const IntegrityDrift = z.object({
  account_id: z.string(),
  account_name: z.string(),
  recorded: IntegrityTotals,
  expected: IntegrityTotals,
});
export type IntegrityDrift = z.infer<typeof IntegrityDrift>;

/** The recorded balances of every account of a currency, summed: double entry makes debits equal credits. */
export const IntegrityCurrency = IntegrityTotals.extend({ currency: Currency, is_balanced: z.boolean() });
export type IntegrityCurrency = z.infer<typeof IntegrityCurrency>;

/**
 * What a finished whole-ledger check found: the in-request check's fields, plus counts,
 * per-currency sums and its moment.
 */
export const IntegrityResult = z.object({
  checked_at: z.string().describe("When the check finished"),
  scope: z.literal("ledger"),
  as_of: z.string().describe("The moment the check covers: the ledger as it stood then"),
  accounts_checked: z.number().int(),
  journals_checked: z.number().int(),
  drift: z
    .array(IntegrityDrift)
    .describe(
      `Accounts whose recorded balance differs from the replay of their journals (the first ${INTEGRITY_SAMPLE_LIMIT})`,
    ),
  drift_count: z.number().int(),
  unbalanced_journals: z
    .array(z.string())
    .describe(`Journals whose debits differ from their credits (the first ${INTEGRITY_SAMPLE_LIMIT} ids)`),
  unbalanced_count: z.number().int(),
  currencies: z.array(IntegrityCurrency),
  ok: z.boolean(),
});
export type IntegrityResult = z.infer<typeof IntegrityResult>;

export const IntegrityProgress = z.object({
  phase: z.enum(INTEGRITY_PHASES),
  pages: z.number().int().describe("Steps done so far (one page each)"),
  items_examined: z.number().int().describe("Table items read by the scan so far"),
  estimated_items: z
    .number()
    .int()
    .nullable()
    .describe("The table's item count when the check started (DynamoDB's estimate)"),
  journals_checked: z.number().int(),
  accounts_found: z.number().int(),
  accounts_checked: z.number().int(),
  percent: z.number().int().min(0).max(100).nullable().describe("An estimate; null while it cannot be told"),
});
export type IntegrityProgress = z.infer<typeof IntegrityProgress>;

export const IntegrityJob = z.object({
  id: z.string(),
  scope: z.literal("ledger"),
  started_by: z.object({ id: z.string(), name: z.string() }),
  started_at: z.string(),
  as_of: z.string(),
  status: z.enum(INTEGRITY_JOB_STATUSES),
  progress: IntegrityProgress,
  result: IntegrityResult.nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  updated_at: z.string(),
});
export type IntegrityJob = z.infer<typeof IntegrityJob>;

/** The scan is most of the work: it takes the first 80 % of the bar, the comparisons the rest. */
const SCAN_SHARE = 80;

/**
 * How far a job has got, in percent. The scan's share is measured against the table's item
 * count when the job started (an estimate, so it stops at the share's end); without that count
 * the scan's progress cannot be told (null).
 */
export function progressPercent(
  progress: Omit<IntegrityProgress, "percent">,
  status: IntegrityJobStatus,
): number | null {
  if (status === "succeeded") return 100;
  if (progress.phase === "done") return 100;
  if (progress.phase === "accounts") {
    const share = progress.accounts_found === 0 ? 1 : Math.min(1, progress.accounts_checked / progress.accounts_found);
    return Math.min(99, SCAN_SHARE + Math.floor(share * (100 - SCAN_SHARE)));
  }
  if (progress.estimated_items === null || progress.estimated_items <= 0)
    return progress.items_examined === 0 ? 0 : null;
  return Math.min(SCAN_SHARE - 1, Math.floor((progress.items_examined / progress.estimated_items) * SCAN_SHARE));
}

export const isFinished = (status: IntegrityJobStatus): boolean => status === "succeeded" || status === "failed";

/** Job ids are UUIDs: anything else is refused before any read. */
export const INTEGRITY_JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
