import { z } from "zod";
import { Currency } from "../money/model";

/**
 * Compliance reports (docs/money-operations.md#compliance-reports): the vocabulary, the inputs and
 * the replies of the CTR, SAR-candidate and tax reports, their cases and exports. Safe to import
 * from the browser: zod and pure functions only.
 */

export const COMPLIANCE_REPORTS = ["ctr", "sar", "tax"] as const;
export const ComplianceReport = z.enum(COMPLIANCE_REPORTS, { error: "report must be one of ctr, sar, tax" });
export type ComplianceReport = z.infer<typeof ComplianceReport>;

export const REPORT_TITLES: Record<ComplianceReport, string> = {
  ctr: "Currency transaction report",
  sar: "Suspicious activity candidates",
  tax: "Tax on fee and FX revenue",
};

export const SAR_RULE_IDS = ["structuring", "rapid_movement", "high_risk_volume", "screening_hit"] as const;
export const SarRule = z.enum(SAR_RULE_IDS);
export type SarRule = z.infer<typeof SarRule>;
export const SAR_RULE_LABELS: Record<SarRule, string> = {
  structuring: "Structuring",
  rapid_movement: "Rapid in-and-out",
  high_risk_volume: "High KYC risk, large volume",
  screening_hit: "Screening hit",
};

export const CASE_STATUSES = ["open", "filed", "dismissed"] as const;
export const CaseStatus = z.enum(CASE_STATUSES, { error: "status must be one of open, filed, dismissed" });
export type CaseStatus = z.infer<typeof CaseStatus>;

/** A period spans at most this many UTC days, both ends included. */
export const MAX_PERIOD_DAYS = 366;
/** At most this many deposits (and as many payments) are read for one report; more is a 422. */
export const MAX_REPORT_ITEMS = 20_000;
export const DEFAULT_TAX_RATE = "0.18";
/** The rate's precision: millionths (a rate of 0.075 or 0.123456 is exact). */
export const TAX_RATE_SCALE = 1_000_000;
export const REASON_MAX = 500;
/** A case id: hex of a hash of (rule, customer, window). */
export const CASE_ID_PATTERN = /^[0-9a-f]{32}$/;

export const COMPLIANCE_MESSAGES = {
  date: (field: string) => `${field} must be a date as YYYY-MM-DD`,
  order: "from must be on or before to",
  span: `The period may span at most ${MAX_PERIOD_DAYS} days`,
  rate: "rate must be a decimal from 0 to 1 with at most 6 decimals",
  reasonRequired: "A reason is required to dismiss a case",
  reasonLength: `reason must be at most ${REASON_MAX} characters`,
  tooLarge: (what: string) =>
    `The period holds more than ${MAX_REPORT_ITEMS.toLocaleString("en-US")} ${what}; choose a shorter period`,
  caseNotFound: "Compliance case not found",
  caseChanged: "The case was changed by someone else; reload it and try again",
  unchanged: (status: CaseStatus) => `The case is already ${status}`,
  format: 'format must be "csv" or "pdf"',
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const isoDate = (field: string) =>
  z
    .string({ error: COMPLIANCE_MESSAGES.date(field) })
    .trim()
    .refine(
      (value) =>
        DATE.test(value) &&
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value,
      COMPLIANCE_MESSAGES.date(field),
    );

/** Days from `from` to `to`, both included (1 for a single day). */
export const periodDays = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

const periodShape = { from: isoDate("from"), to: isoDate("to") };
type PeriodFields = { from: string; to: string };
const checkPeriod = (value: PeriodFields, ctx: z.RefinementCtx) => {
  if (value.from > value.to) ctx.addIssue({ code: "custom", message: COMPLIANCE_MESSAGES.order, path: ["from"] });
  else if (periodDays(value.from, value.to) > MAX_PERIOD_DAYS)
    ctx.addIssue({ code: "custom", message: COMPLIANCE_MESSAGES.span, path: ["to"] });
};

export const PeriodQuery = z.object(periodShape).strict().superRefine(checkPeriod);
export type PeriodQuery = z.infer<typeof PeriodQuery>;

/**
 * A tax rate as millionths, from a decimal string or number 0..1: "0.18" is 180000. Null when the
 * text is not such a rate. Exact (no float arithmetic on money).
 */
export function parseTaxRate(value: unknown): number | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  if (typeof text !== "string") return null;
  const match = /^(0|1)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const millionths = Number(match[1]) * TAX_RATE_SCALE + Number((match[2] ?? "").padEnd(6, "0"));
  return millionths <= TAX_RATE_SCALE ? millionths : null;
}

const taxRate = z
  .union([z.string().max(20, COMPLIANCE_MESSAGES.rate), z.number()], { error: COMPLIANCE_MESSAGES.rate })
  .refine((value) => parseTaxRate(value) !== null, COMPLIANCE_MESSAGES.rate)
  .optional();

export const TaxQuery = z
  .object({ ...periodShape, rate: taxRate })
  .strict()
  .superRefine(checkPeriod);
export type TaxQuery = z.infer<typeof TaxQuery>;

export const ExportFormat = z.enum(["csv", "pdf"], { error: COMPLIANCE_MESSAGES.format });
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportInput = z
  .object({ report: ComplianceReport, ...periodShape, format: ExportFormat, rate: taxRate })
  .strict()
  .superRefine(checkPeriod);
export type ExportInput = z.infer<typeof ExportInput>;

export const CaseUpdateInput = z
  .object({
    status: CaseStatus,
    reason: z
      .string({ error: "reason must be text" })
      .trim()
      .max(REASON_MAX, COMPLIANCE_MESSAGES.reasonLength)
      .optional(),
    version: z
      .number({ error: "version must be a whole number" })
      .int("version must be a whole number")
      .min(1, "version must be a whole number from 1")
      .max(1_000_000, "version is not valid")
      .optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.status === "dismissed" && !value.reason)
      ctx.addIssue({ code: "custom", message: COMPLIANCE_MESSAGES.reasonRequired, path: ["reason"] });
  });
export type CaseUpdateInput = z.infer<typeof CaseUpdateInput>;

/* ---------- replies ---------- */

export const Customer = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type Customer = z.infer<typeof Customer>;

const money = {
  currency: Currency,
  total: z.string().describe("Decimal string in the currency"),
  total_minor: z.number().int(),
};

export const CtrRow = z.object({
  customer: Customer,
  day: z.string().describe("UTC day the deposits were posted"),
  ...money,
  count: z.number().int().describe("Deposits that day in that currency"),
  journal_ids: z.array(z.string()),
});
export type CtrRow = z.infer<typeof CtrRow>;

export const CaseAudit = z.object({
  status: CaseStatus,
  reason: z.string().nullable(),
  by: z.string().describe("The administrator's e-mail, or system when the case was opened by a report"),
  at: z.string(),
});
export type CaseAudit = z.infer<typeof CaseAudit>;

export const ComplianceCase = z.object({
  id: z.string(),
  rule: SarRule,
  customer_id: z.string(),
  window: z.string().describe("The rule's window: a day (YYYY-MM-DD) or a month (YYYY-MM)"),
  status: CaseStatus,
  reason: z.string().nullable(),
  version: z.number().int(),
  opened_at: z.string(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type ComplianceCase = z.infer<typeof ComplianceCase>;

export const SarCandidate = z.object({
  rule: SarRule,
  rule_label: z.string(),
  customer: Customer,
  window: z.string(),
  sentence: z.string().describe("What the rule saw, in one sentence"),
  currency: Currency,
  total: z.string(),
  total_minor: z.number().int(),
  journal_ids: z.array(z.string()),
  payment_ids: z.array(z.string()),
  case: ComplianceCase,
});
export type SarCandidate = z.infer<typeof SarCandidate>;

export const TaxRow = z.object({
  currency: Currency,
  fee_revenue: z.string(),
  fee_revenue_minor: z.number().int(),
  fx_revenue: z.string(),
  fx_revenue_minor: z.number().int(),
  taxable: z.string(),
  taxable_minor: z.number().int(),
  tax_due: z.string(),
  tax_due_minor: z.number().int(),
});
export type TaxRow = z.infer<typeof TaxRow>;

const period = { from: z.string(), to: z.string(), generated_at: z.string() };
export const CtrReport = z.object({ ...period, threshold: z.record(z.string(), z.string()), rows: z.array(CtrRow) });
export type CtrReport = z.infer<typeof CtrReport>;
export const SarReport = z.object({ ...period, candidates: z.array(SarCandidate) });
export type SarReport = z.infer<typeof SarReport>;
export const TaxReport = z.object({ ...period, rate: z.string(), rows: z.array(TaxRow) });
export type TaxReport = z.infer<typeof TaxReport>;

export const ExportReply = z.object({
  downloadUrl: z.string(),
  expiresAt: z.string(),
  filename: z.string(),
});
export type ExportReply = z.infer<typeof ExportReply>;

/* ---------- periods (the screen's presets) ---------- */

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const PERIOD_PRESETS = ["last7", "thisMonth", "lastMonth"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export const PERIOD_PRESET_LABELS: Record<PeriodPreset, string> = {
  last7: "Last 7 days",
  thisMonth: "This month",
  lastMonth: "Last month",
};

/** A preset's period in UTC days, as of `now`. */
export function presetPeriod(preset: PeriodPreset, now: Date): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (preset === "last7") return { from: isoDay(today - 6 * DAY_MS), to: isoDay(today) };
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  if (preset === "thisMonth") return { from: isoDay(monthStart), to: isoDay(today) };
  const lastMonthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  return { from: isoDay(lastMonthStart), to: isoDay(monthStart - DAY_MS) };
}
