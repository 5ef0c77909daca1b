import {
  INTEGRITY_SAMPLE_LIMIT,
  isFinished,
  type IntegrityJob,
  type IntegrityResult,
} from "@fintech/core/ledger/integrity-model";
import { formatMoney } from "../lib/money";

/** What the integrity panel says about a job: pure, so the wording is tested without a browser. */

/** While a job is queued or running the panel asks for it again this often. */
export const INTEGRITY_POLL_MS = 1_000;

export const isActive = (job: IntegrityJob | null | undefined): job is IntegrityJob => !!job && !isFinished(job.status);

/** The live region's sentence: it changes with the phase and the outcome, not with every percent. */
export function statusSentence(job: IntegrityJob | null): string {
  if (!job) return "No integrity check has run yet.";
  switch (job.status) {
    case "queued":
      return "Integrity check queued: it starts in a moment.";
    case "running":
      return job.progress.phase === "journals"
        ? "Integrity check running: reading the journals and accounts."
        : "Integrity check running: comparing every balance with its journals.";
    case "failed":
      return "The integrity check failed.";
    case "succeeded":
      return job.result?.ok
        ? "Integrity check finished: the ledger is balanced."
        : `Integrity check finished: ${problemCount(job.result)} found.`;
  }
}

function problemCount(result: IntegrityResult | null): string {
  if (!result) return "problems";
  const count =
    result.drift_count + result.unbalanced_count + result.currencies.filter((row) => !row.is_balanced).length;
  return count === 1 ? "1 problem" : `${count.toLocaleString("en-US")} problems`;
}

/** "42% · 1,204 items read" beside the bar; null percent (no estimate yet) leaves the number out. */
export function progressText(job: IntegrityJob): string {
  const { progress } = job;
  const done =
    progress.phase === "journals"
      ? `${progress.items_examined.toLocaleString("en-US")} items read`
      : `${progress.accounts_checked.toLocaleString("en-US")} of ${progress.accounts_found.toLocaleString("en-US")} accounts compared`;
  return progress.percent === null ? done : `${progress.percent}% · ${done}`;
}

const TOTAL_LABELS = {
  posted_debits: "posted debits",
  posted_credits: "posted credits",
  pending_debits: "pending debits",
  pending_credits: "pending credits",
} as const;

/** One line per problem: drifting accounts, unbalanced journals, currencies whose debits and credits differ. */
export function problemLines(result: IntegrityResult): string[] {
  const lines: string[] = [];
  for (const drift of result.drift) {
    const fields = (Object.keys(TOTAL_LABELS) as (keyof typeof TOTAL_LABELS)[]).filter(
      (field) => drift.recorded[field] !== drift.expected[field],
    );
    const detail = fields
      .map(
        (field) =>
          `${TOTAL_LABELS[field]} ${drift.recorded[field]} recorded, ${drift.expected[field]} from its journals`,
      )
      .join("; ");
    lines.push(`${drift.account_name} (${drift.account_id}): ${detail} (minor units)`);
  }
  for (const journal of result.unbalanced_journals) lines.push(`Journal ${journal}: its debits and credits differ`);
  for (const row of result.currencies.filter((candidate) => !candidate.is_balanced)) {
    lines.push(
      `${row.currency}: debits ${formatMoney(row.posted_debits, row.currency)} and credits ${formatMoney(row.posted_credits, row.currency)} posted, ${formatMoney(row.pending_debits, row.currency)} and ${formatMoney(row.pending_credits, row.currency)} pending`,
    );
  }
  const unlisted =
    Math.max(0, result.drift_count - result.drift.length) +
    Math.max(0, result.unbalanced_count - result.unbalanced_journals.length);
  if (unlisted > 0)
    lines.push(
      `…and ${unlisted.toLocaleString("en-US")} more (the first ${INTEGRITY_SAMPLE_LIMIT} of each kind are listed)`,
    );
  return lines;
}
