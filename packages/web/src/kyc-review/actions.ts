import { RuleSetBody } from "@fintech/core/kyc/risk/model";
import type { BulkResult, BulkRiskSummary, DecisionStatus, RuleSetDocument } from "../api/kycReview";
import { ApiError } from "../api/errors";
import { STATUS_LABELS } from "./format";

/** What the reviewer's actions say (docs/product/kyc.md#messages where it gives wording); pure, for the tests. */
export const REVIEW_MESSAGES = {
  notAdmin:
    "The KYC dashboard is for reviewers. Your account does not have the admin role, so submissions are not shown.",
  loadFailed: "Failed to fetch dashboard submissions",
  statsFailed: "Failed to fetch dashboard stats",
  updateFailed: "Failed to update submission status",
  bulkFailed: "Failed to bulk update submissions",
  detailFailed: "Failed to load the submission",
  requestInfoFailed: "Failed to send the request to the applicant",
  dismissFailed: "Failed to dismiss the alert",
  bulkRiskFailed: "Failed to load the risk of the selected submissions",
  exportFailed: "Failed to export the report",
  empty: "No submissions found",
  noSelection: "Select at least one submission first",
} as const;

/** The verb of each decision, for buttons and toasts. */
export const DECISION_VERBS: Record<DecisionStatus, { label: string; done: string }> = {
  verified: { label: "Approve", done: "approved" },
  rejected: { label: "Reject", done: "rejected" },
  under_review: { label: "Mark under review", done: "moved to under review" },
};

/** The server's own message for a refused action (a 409 on a decided submission…), else the fallback. */
export function actionErrorMessage(error: unknown, fallback: string): string {
  if (
    error instanceof ApiError &&
    (error.kind === "server-message" || error.kind === "no-token" || error.kind === "session-expired")
  )
    return error.message;
  return fallback;
}

export interface BulkSummary {
  tone: "success" | "error" | "warning";
  /** "3 submissions approved" / "2 approved, 1 failed". */
  headline: string;
  /** One line per refused id: "Asha Rao: Submission is already verified". */
  failures: string[];
}

/**
 * The per-id outcome of a bulk update in words. `names` maps ids to customer names so a failure
 * says whose submission it was; ids the reply does not mention count as failed.
 */
export function summariseBulk(
  status: DecisionStatus,
  ids: readonly string[],
  results: readonly BulkResult[],
  names: ReadonlyMap<string, string>,
): BulkSummary {
  const byId = new Map(results.map((result) => [result.id, result]));
  const verb = DECISION_VERBS[status].done;
  let updated = 0;
  const failures: string[] = [];
  for (const id of ids) {
    const result = byId.get(id);
    const who = names.get(id) ?? id;
    // "unchanged" (already in that status) is ok too: the submission ends where it was asked to.
    if (result?.ok) updated += 1;
    else failures.push(`${who}: ${result?.message ?? "no result returned"}`);
  }
  const noun = (count: number) => `${count} submission${count === 1 ? "" : "s"}`;
  if (failures.length === 0) return { tone: "success", headline: `${noun(updated)} ${verb}`, failures };
  if (updated === 0) return { tone: "error", headline: `No submissions ${verb}: ${failures.length} failed`, failures };
  return { tone: "warning", headline: `${noun(updated)} ${verb}, ${failures.length} failed`, failures };
}

/** The confirmation question of a bulk action: "Approve 3 selected submissions?". */
export function bulkQuestion(status: DecisionStatus, count: number): string {
  const target = `${count} selected submission${count === 1 ? "" : "s"}`;
  if (status === "under_review") return `Move ${target} to ${STATUS_LABELS.under_review}?`;
  return `${DECISION_VERBS[status].label} ${target}?`;
}

/**
 * The risk of a bulk selection in lines: "3 submissions: 1 Low, 1 Medium, 1 High", "Highest
 * score: 90", "The risk rules recommend rejecting 1 of them", and what is missing.
 */
export function bulkRiskLines(risk: BulkRiskSummary): string[] {
  const levels = (["Low", "Medium", "High"] as const).map((level) => `${risk.by_level[level] ?? 0} ${level}`);
  if (risk.unassessed > 0) levels.push(`${risk.unassessed} not assessed yet`);
  const lines = [`${risk.found} submission${risk.found === 1 ? "" : "s"}: ${levels.join(", ")}`];
  lines.push(`Highest score: ${risk.highest_score ?? "none"}`);
  lines.push(
    risk.reject_recommended === 0
      ? "The risk rules recommend rejecting none of them"
      : `The risk rules recommend rejecting ${risk.reject_recommended} of them`,
  );
  const missing = risk.requested - risk.found;
  if (missing > 0) lines.push(`${missing} of the selected no longer exist${missing === 1 ? "s" : ""}`);
  return lines;
}

/** Selection after toggling one id. */
export function toggled(selection: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Select-all over the visible rows: selects them all, or clears them when all are selected already. */
export function toggledAll(selection: ReadonlySet<string>, visible: readonly string[]): Set<string> {
  const allSelected = visible.length > 0 && visible.every((id) => selection.has(id));
  const next = new Set(selection);
  for (const id of visible) {
    if (allSelected) next.delete(id);
    else next.add(id);
  }
  return next;
}

/** Drops ids no longer listed (a filter change or a reload), so a bulk action never acts on unseen rows. */
export function keepVisible(selection: ReadonlySet<string>, visible: readonly string[]): Set<string> {
  const shown = new Set(visible);
  return new Set([...selection].filter((id) => shown.has(id)));
}

export type RuleSetParse = { ok: true; ruleSet: RuleSetDocument } | { ok: false; message: string };

/** A zod issue path as the editor's reader thinks of it: rules[2].event.params.points. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    "",
  );
}

/**
 * The draft editor's text as a rule set: JSON, then the risk engine's own schema (the one the
 * server saves with), so a mistake is named with its place before anything is sent.
 */
export function parseRuleSet(text: string): RuleSetParse {
  if (!text.trim()) return { ok: false, message: "The rule set is empty" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "unreadable";
    return { ok: false, message: `Not valid JSON: ${detail}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "The rule set must be a JSON object" };
  const parsed = RuleSetBody.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = jsonPath(issue.path);
    return { ok: false, message: where ? `${where}: ${issue.message}` : issue.message };
  }
  return { ok: true, ruleSet: parsed.data };
}

/** The part of a published version or a draft an admin edits (not its version, revision or stamps). */
export function editableRuleSet(source: RuleSetDocument): RuleSetDocument {
  return {
    name: source.name,
    description: source.description ?? "",
    rules: source.rules,
    country_risk: source.country_risk,
  };
}
