import { z } from "zod";
import { Currency } from "../money/model";
import { JOURNAL_STATUSES, JOURNAL_TYPES } from "../ledger/model";
import { KYC_STATUSES, RISK_LEVELS } from "../kyc/model";
import { PAYMENT_STATUSES } from "../payments/model";
import { BREAK_CLASSES, BREAK_STATUSES } from "../reconciliation/model";

/**
 * The ops console's data (docs/money-operations.md#ops-console): the rows of its four live tables
 * (what the admin-scope ops feed announces, and the overview's recent lists), the analytics, and
 * the filters and row merge the screen runs. Safe to import from the browser: zod and pure
 * functions only, so the server and the screen agree on every shape and rule.
 */

export const OPS_TABLES = ["journal", "payment", "kyc", "break"] as const;
export type OpsTable = (typeof OPS_TABLES)[number];

/** What changed, per table: the event a row arrives with. */
export const JOURNAL_CHANGES = ["created", "posted", "voided", "unposted"] as const;
export const PAYMENT_CHANGES = ["initiated", "status", "completed", "failed"] as const;
export const KYC_CHANGES = ["submitted", "updated", "decided"] as const;
export const BREAK_CHANGES = ["opened", "resolved"] as const;

const at = z.string().describe("When the change committed (ISO 8601)");
const amount = z.string().describe("Decimal string in the currency's minor-unit precision");

export const OpsJournalRow = z.object({
  table: z.literal("journal"),
  id: z.string(),
  change: z.enum(JOURNAL_CHANGES),
  type: z.enum(JOURNAL_TYPES),
  status: z.enum(JOURNAL_STATUSES),
  amount,
  currency: Currency,
  ownerId: z.string(),
  description: z.string(),
  at,
});
export type OpsJournalRow = z.infer<typeof OpsJournalRow>;

export const OpsPaymentRow = z.object({
  table: z.literal("payment"),
  id: z.string(),
  change: z.enum(PAYMENT_CHANGES),
  railId: z.string(),
  rail: z.string().describe("The current (or last) attempt's rail name"),
  status: z.enum(PAYMENT_STATUSES),
  amount,
  currency: Currency,
  userId: z.string(),
  at,
});
export type OpsPaymentRow = z.infer<typeof OpsPaymentRow>;

export const OpsKycRow = z.object({
  table: z.literal("kyc"),
  id: z.string(),
  change: z.enum(KYC_CHANGES),
  status: z.enum(KYC_STATUSES),
  riskLevel: z.enum(RISK_LEVELS).nullable(),
  riskScore: z.number().int(),
  country: z.string(),
  userId: z.string(),
  at,
});
export type OpsKycRow = z.infer<typeof OpsKycRow>;

export const OpsBreakRow = z.object({
  table: z.literal("break"),
  id: z.string(),
  change: z.enum(BREAK_CHANGES),
  railId: z.string(),
  class: z.enum(BREAK_CLASSES),
  status: z.enum(BREAK_STATUSES),
  amount: amount.nullable().describe("The break's difference (file less ledger); null for a missing file"),
  currency: Currency.nullable(),
  at,
});
export type OpsBreakRow = z.infer<typeof OpsBreakRow>;

export const OpsRow = z.discriminatedUnion("table", [OpsJournalRow, OpsPaymentRow, OpsKycRow, OpsBreakRow]);
export type OpsRow = z.infer<typeof OpsRow>;

/** The ops feed's event names (the SSE `event:`; `ops.<name>` on the browser's live stream). */
export const OPS_FEED_EVENTS = {
  journal: OpsJournalRow,
  payment: OpsPaymentRow,
  kyc: OpsKycRow,
} as const;
export type OpsFeedEventName = keyof typeof OPS_FEED_EVENTS;

/* ---------- analytics ---------- */

export const ANALYTICS_WINDOW_HOURS = 24;
export const JOURNALS_PER_MINUTE_MINUTES = 60;

export const OpsRailStat = z.object({
  railId: z.string(),
  name: z.string(),
  attempts: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  successRate: z.number().min(0).max(1).nullable().describe("succeeded / (succeeded + failed); null with none"),
  volume: z.array(z.object({ currency: Currency, amount })).describe("Succeeded attempts' amounts by currency"),
});
export type OpsRailStat = z.infer<typeof OpsRailStat>;

export const OpsAnalytics = z.object({
  windowHours: z.number().int(),
  rails: z.array(OpsRailStat),
  journalsPerMinute: z.object({
    from: z.string().describe("Start of the first minute"),
    counts: z.array(z.number().int()).describe("Journals whose latest change fell in each minute, oldest first"),
    capped: z
      .boolean()
      .describe("True when the hour held more journals than one overview reads: counts are lower bounds"),
  }),
  openBreaks: z.object({
    total: z.number().int(),
    byClass: z.array(z.object({ class: z.enum(BREAK_CLASSES), count: z.number().int() })),
  }),
});
export type OpsAnalytics = z.infer<typeof OpsAnalytics>;

export const OVERVIEW_DEFAULT_LIMIT = 25;
export const OVERVIEW_MAX_LIMIT = 100;

export const OpsOverview = z.object({
  journals: z.array(OpsJournalRow),
  payments: z.array(OpsPaymentRow),
  kyc: z.array(OpsKycRow),
  breaks: z.array(OpsBreakRow),
  analytics: OpsAnalytics,
  at: z.string().describe("When the overview was read"),
});
export type OpsOverview = z.infer<typeof OpsOverview>;

export const OPS_MESSAGES = {
  adminOnly: "The ops console is for administrators only",
  limit: `limit must be a whole number from 1 to ${OVERVIEW_MAX_LIMIT}`,
} as const;

/**
 * Counts per minute of the `minutes` minutes ending with the one holding `now`, oldest first;
 * times outside the window are left out.
 */
export function perMinute(times: readonly string[], now: Date, minutes = JOURNALS_PER_MINUTE_MINUTES) {
  const lastMinute = Math.floor(now.getTime() / 60_000);
  const firstMinute = lastMinute - minutes + 1;
  const counts = Array.from({ length: minutes }, () => 0);
  for (const time of times) {
    const minute = Math.floor(Date.parse(time) / 60_000);
    if (minute >= firstMinute && minute <= lastMinute) counts[minute - firstMinute]! += 1;
  }
  return { from: new Date(firstMinute * 60_000).toISOString(), counts };
}

/* ---------- the screen's rules ---------- */

/** The console's filters; an empty field matches everything. */
export interface OpsFilter {
  status?: string;
  rail?: string;
  currency?: string;
  type?: string;
  text?: string;
}

export const MAX_SEARCH_LENGTH = 100;

/** The fields a text search looks in. */
function searchable(row: OpsRow): string[] {
  switch (row.table) {
    case "journal":
      return [row.id, row.ownerId, row.description, row.type];
    case "payment":
      return [row.id, row.userId, row.rail, row.railId];
    case "kyc":
      return [row.id, row.userId, row.country];
    case "break":
      return [row.id, row.railId, row.class];
  }
}

const railOf = (row: OpsRow) => (row.table === "payment" || row.table === "break" ? row.railId : null);
const typeOf = (row: OpsRow) => (row.table === "journal" ? row.type : row.table === "break" ? row.class : null);
const currencyOf = (row: OpsRow) => (row.table === "kyc" ? null : row.currency);

/** Each table's statuses (a status filter applies to the tables that have that status). */
export const OPS_STATUSES: Record<OpsTable, readonly string[]> = {
  journal: JOURNAL_STATUSES,
  payment: PAYMENT_STATUSES,
  kyc: KYC_STATUSES,
  break: BREAK_STATUSES,
};

/** Each table's types: a journal's type, a break's class (a type filter applies to the tables that have it). */
export const OPS_TYPES: Partial<Record<OpsTable, readonly string[]>> = {
  journal: JOURNAL_TYPES,
  break: BREAK_CLASSES,
};

/**
 * Whether a row passes the filters. A filter leaves alone the tables it does not apply to (a
 * journal status leaves payments as they are; a rail leaves journals), so one filter bar serves
 * the four tables; the text search applies to all.
 */
export function matchesOpsFilter(row: OpsRow, filter: OpsFilter): boolean {
  if (filter.status && OPS_STATUSES[row.table].includes(filter.status) && row.status !== filter.status) return false;
  if (filter.rail && railOf(row) !== null && railOf(row) !== filter.rail) return false;
  if (filter.currency && currencyOf(row) !== null && currencyOf(row) !== filter.currency) return false;
  if (filter.type && typeOf(row) !== null && typeOf(row) !== filter.type) return false;
  const text = filter.text?.trim().toLowerCase().slice(0, MAX_SEARCH_LENGTH);
  if (text && !searchable(row).some((field) => field.toLowerCase().includes(text))) return false;
  return true;
}

/**
 * A table's rows with `row` applied: one row per id (its latest change wins, an older one
 * arriving late changes nothing), newest first, at most `limit`.
 */
export function mergeOpsRow<R extends OpsRow>(rows: readonly R[], row: R, limit: number): R[] {
  const existing = rows.find((candidate) => candidate.id === row.id);
  if (existing && existing.at > row.at) return [...rows];
  const others = rows.filter((candidate) => candidate.id !== row.id);
  return [row, ...others].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
}
