import { QueryCommand, ScanCommand, TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import type { Currency } from "../money/model";
import { Account } from "./accounts";
import { balanceAsOf } from "./balances";
import { Journal } from "./journals";
import { applyEntry, ZERO_TOTALS, type Totals } from "./model";
import { isUnbalanced, sameTotals, statusAt } from "./reports";
import {
  INTEGRITY_ACCOUNT_SHARDS,
  integrityAccountKey,
  integrityAccountsPartition,
  integrityLatestResultKey,
} from "./integrity-keys";
import {
  failIntegrityJob,
  INTEGRITY_MAX_STEP_FAILURES,
  jobView,
  loadJobItem,
  releaseClaim,
  storedJob,
  type IntegrityJobItem,
} from "./integrity-jobs";
import {
  INTEGRITY_SAMPLE_LIMIT,
  isFinished,
  type IntegrityCurrency,
  type IntegrityDrift,
  type IntegrityJob,
  type IntegrityResult,
} from "./integrity-model";

/**
 * The whole-ledger integrity check, one short step at a time
 * (docs/cloud.md#the-ledger-integrity-check-as-a-job): the same comparison as
 * integrityCheck(ctx, "ledger") in reports.ts, without ever holding the ledger in memory or
 * running longer than one page.
 *
 * Phase "journals": a paged scan of the table. Each journal that existed at the job's `as_of`
 * is replayed as it stood then (its status at that moment) and its effect added to a per-account
 * sum item; each account that existed then is recorded on its sum item. Phase "accounts": the sum
 * items are read shard by shard and each account's balance as of `as_of` (its chains' versions in
 * force then) is compared with its sum. Balances and journals are read as of one past moment, so
 * the ledger may keep taking writes while the job runs (integrity-model.ts, INTEGRITY_SETTLE_MS).
 *
 * Idempotent steps: a step's writes (the sums of its page and the job's new position and
 * counters) are one TransactWriteItems, conditional on the job's step number being the one the
 * step read. A step replayed after a crash, or run twice by a duplicated message, finds the
 * number moved on and writes nothing, so no page is ever counted twice. That bounds a scan page
 * to what one transaction can carry: at most 99 sum items (the 100th item is the job), so a page
 * ends early, at the last item that fits, when its journals touch more accounts (INTEGRITY_STEP_LIMITS).
 */

/** How big one step is; tests make steps tiny to run many pages over a small ledger. */
export interface IntegrityStepLimits {
  /** Items one scan step reads (before the filter). */
  scanPageItems: number;
  /** Sum items one scan step may write. */
  maxSumsPerStep: number;
  /** Accounts one comparison step reads the balances of (a system account is 32 chains). */
  comparePageAccounts: number;
}

/** A step is well under a second of store time; TransactWriteItems takes 100 items, one of them the job. */
export const INTEGRITY_STEP_LIMITS: IntegrityStepLimits = {
  scanPageItems: 200,
  maxSumsPerStep: 99,
  comparePageAccounts: 25,
};
/** The sum items outlive their job by this much: enough to look into a failed run, then DynamoDB's TTL removes them. */
const SUMS_TTL_SECONDS = 7 * 24 * 60 * 60;

export type IntegrityStepOutcome =
  /** A step was committed and there is more to do: run the next one. */
  | { state: "continue"; job: IntegrityJob }
  /** The step failed (counted on the job); run it again after the delay. */
  | { state: "retry"; job: IntegrityJob; delayMs: number }
  /** The job has finished (succeeded or failed): nothing more to run. */
  | { state: "finished"; job: IntegrityJob }
  /** Another runner committed this step first, or there is no such job: this runner stops. */
  | { state: "idle" };

type PageKey = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

interface AccountSum {
  totals: Totals;
  account: Account | null;
}

/** What one scan page adds: pure, so a replay of the same items adds exactly the same. */
export interface ScanPage {
  sums: Map<string, AccountSum>;
  journals: number;
  accounts: number;
  unbalanced: string[];
  /** Items of the page taken (journals, accounts and those left out as too new). */
  taken: number;
  /** The key of the last item taken, where the next page starts if this one ended early. */
  lastKey: PageKey | null;
  /** Every item of the page was taken. */
  complete: boolean;
}

const keyOf = (item: Record<string, unknown>): PageKey => ({ pk: item.pk, sk: item.sk });

const addTotals = (a: Totals, b: Totals): Totals => ({
  posted_debits: a.posted_debits + b.posted_debits,
  posted_credits: a.posted_credits + b.posted_credits,
  pending_debits: a.pending_debits + b.pending_debits,
  pending_credits: a.pending_credits + b.pending_credits,
});

/**
 * One page of the scan, as of `asOf`: journals replayed as they stood then (a voided one leaves
 * nothing; one created later is left out), accounts that existed then. Stops before the first
 * item whose accounts would take the page past `maxSums` distinct sum items.
 */
export function scanPage(items: Record<string, unknown>[], asOf: string, maxSums: number): ScanPage {
  const page: ScanPage = {
    sums: new Map(),
    journals: 0,
    accounts: 0,
    unbalanced: [],
    taken: 0,
    lastKey: null,
    complete: true,
  };
  const sumOf = (accountId: string) => {
    let sum = page.sums.get(accountId);
    if (!sum) {
      sum = { totals: { ...ZERO_TOTALS }, account: null };
      page.sums.set(accountId, sum);
    }
    return sum;
  };
  const fits = (accountIds: string[]) =>
    page.sums.size === 0 || page.sums.size + accountIds.filter((id) => !page.sums.has(id)).length <= maxSums;

  for (const item of items) {
    if (item.entity === "journal") {
      const journal = Journal.parse(item);
      const status = statusAt(journal, asOf);
      if (status !== null) {
        const legs = status === "voided" ? [] : journal.entries;
        if (!fits(legs.map((entry) => entry.account_id))) {
          page.complete = false;
          break;
        }
        for (const entry of legs) {
          const sum = sumOf(entry.account_id);
          sum.totals = applyEntry(sum.totals, entry.side, entry.amount, "create");
          if (status === "posted") sum.totals = applyEntry(sum.totals, entry.side, entry.amount, "post");
        }
        page.journals += 1;
        if (isUnbalanced(journal)) page.unbalanced.push(journal.id);
      }
    } else if (item.entity === "account") {
      const account = Account.parse(item);
      if (account.created_at <= asOf) {
        if (!fits([account.id])) {
          page.complete = false;
          break;
        }
        sumOf(account.id).account = account;
        page.accounts += 1;
      }
    }
    page.taken += 1;
    page.lastKey = keyOf(item);
  }
  return page;
}

/** A step's write to one sum item: the page's totals added, the account recorded. */
function sumUpdate(
  ctx: CoreContext,
  job: IntegrityJobItem,
  accountId: string,
  sum: AccountSum,
  nowSeconds: number,
): TransactItem {
  return {
    Update: {
      TableName: ctx.db.table,
      Key: integrityAccountKey(job.id, accountId),
      UpdateExpression: `SET entity = :entity, job_id = :job, expires_at = :expires${sum.account ? ", account = :account" : ""} ADD posted_debits :pd, posted_credits :pc, pending_debits :qd, pending_credits :qc`,
      ExpressionAttributeValues: {
        ":entity": "integrity_sum",
        ":job": job.id,
        ":expires": nowSeconds + SUMS_TTL_SECONDS,
        ...(sum.account ? { ":account": sum.account } : {}),
        ":pd": sum.totals.posted_debits,
        ":pc": sum.totals.posted_credits,
        ":qd": sum.totals.pending_debits,
        ":qc": sum.totals.pending_credits,
      },
    },
  };
}

/** The job's new state, written only if nobody committed this step before: the step's idempotency. */
function jobPut(ctx: CoreContext, read: IntegrityJobItem, next: IntegrityJobItem): TransactItem {
  return {
    Put: {
      TableName: ctx.db.table,
      Item: storedJob(next),
      ConditionExpression: "step = :step AND #status IN (:queued, :running)",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":step": read.step, ":queued": "queued", ":running": "running" },
    },
  };
}

type Planned = { next: IntegrityJobItem; writes: TransactItem[] };

function advanced(job: IntegrityJobItem, now: string): IntegrityJobItem {
  return {
    ...job,
    status: "running",
    step: job.step + 1,
    pages: job.pages + 1,
    updated_at: now,
    failures: 0,
    error: null,
  };
}

async function planScanStep(ctx: CoreContext, job: IntegrityJobItem, limits: IntegrityStepLimits): Promise<Planned> {
  const reply = await ctx.db.doc.send(
    new ScanCommand({
      TableName: ctx.db.table,
      Limit: limits.scanPageItems,
      ...(job.cursor ? { ExclusiveStartKey: job.cursor } : {}),
      FilterExpression: "entity IN (:journal, :account)",
      ExpressionAttributeValues: { ":journal": "journal", ":account": "account" },
      ConsistentRead: true,
    }),
  );
  const page = scanPage(reply.Items ?? [], job.as_of, limits.maxSumsPerStep);
  const now = ctx.clock();
  const cursor = page.complete ? (reply.LastEvaluatedKey ?? null) : page.lastKey;
  const next: IntegrityJobItem = {
    ...advanced(job, now.toISOString()),
    phase: cursor === null ? "accounts" : "journals",
    cursor,
    shard: 0,
    items_examined: job.items_examined + (page.complete ? (reply.ScannedCount ?? page.taken) : page.taken),
    journals_checked: job.journals_checked + page.journals,
    accounts_found: job.accounts_found + page.accounts,
    unbalanced_count: job.unbalanced_count + page.unbalanced.length,
    unbalanced_samples: [...job.unbalanced_samples, ...page.unbalanced].slice(0, INTEGRITY_SAMPLE_LIMIT),
  };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return { next, writes: [...page.sums].map(([accountId, sum]) => sumUpdate(ctx, job, accountId, sum, nowSeconds)) };
}

const SumItem = z.object({
  sk: z.string(),
  posted_debits: z.number().int(),
  posted_credits: z.number().int(),
  pending_debits: z.number().int(),
  pending_credits: z.number().int(),
  account: Account.nullable().default(null),
});

function currencyRows(currencies: Record<string, Totals>): IntegrityCurrency[] {
  return Object.entries(currencies)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, totals]) => ({
      currency: currency as Currency,
      ...totals,
      is_balanced: totals.posted_debits === totals.posted_credits && totals.pending_debits === totals.pending_credits,
    }));
}

function resultOf(job: IntegrityJobItem, checkedAt: string): IntegrityResult {
  const currencies = currencyRows(job.currencies);
  return {
    checked_at: checkedAt,
    scope: "ledger",
    as_of: job.as_of,
    accounts_checked: job.accounts_checked,
    journals_checked: job.journals_checked,
    drift: job.drift_samples,
    drift_count: job.drift_count,
    unbalanced_journals: job.unbalanced_samples,
    unbalanced_count: job.unbalanced_count,
    currencies,
    ok: job.drift_count === 0 && job.unbalanced_count === 0 && currencies.every((row) => row.is_balanced),
  };
}

/** Balances read at once by a comparison step: a few accounts at a time (a system account is 32 queries). */
const BALANCE_READS_AT_ONCE = 5;

async function planCompareStep(ctx: CoreContext, job: IntegrityJobItem, limits: IntegrityStepLimits): Promise<Planned> {
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": integrityAccountsPartition(job.id, job.shard) },
      ...(job.cursor ? { ExclusiveStartKey: job.cursor } : {}),
      Limit: limits.comparePageAccounts,
      ConsistentRead: true,
    }),
  );
  // A sum without an account item is a leg on an account that does not exist: nothing recorded
  // to compare with; the per-currency sums show the missing side.
  const sums = (reply.Items ?? []).map((item) => SumItem.parse(item)).filter((sum) => sum.account !== null);
  const drift: IntegrityDrift[] = [];
  const currencies: Record<string, Totals> = { ...job.currencies };
  let checked = 0;
  for (let start = 0; start < sums.length; start += BALANCE_READS_AT_ONCE) {
    const batch = sums.slice(start, start + BALANCE_READS_AT_ONCE);
    const balances = await Promise.all(batch.map((sum) => balanceAsOf(ctx, sum.account!, job.as_of)));
    for (const [index, sum] of batch.entries()) {
      const balance = balances[index];
      if (!balance) continue;
      const account = sum.account!;
      const recorded: Totals = {
        posted_debits: balance.posted_debits,
        posted_credits: balance.posted_credits,
        pending_debits: balance.pending_debits,
        pending_credits: balance.pending_credits,
      };
      const expected: Totals = {
        posted_debits: sum.posted_debits,
        posted_credits: sum.posted_credits,
        pending_debits: sum.pending_debits,
        pending_credits: sum.pending_credits,
      };
      if (!sameTotals(recorded, expected))
        drift.push({ account_id: account.id, account_name: account.name, recorded, expected });
      currencies[account.currency] = addTotals(currencies[account.currency] ?? { ...ZERO_TOTALS }, recorded);
      checked += 1;
    }
  }
  const now = ctx.clock().toISOString();
  const lastShard = job.shard + 1 >= INTEGRITY_ACCOUNT_SHARDS;
  const shardDone = !reply.LastEvaluatedKey;
  const next: IntegrityJobItem = {
    ...advanced(job, now),
    cursor: shardDone ? null : reply.LastEvaluatedKey!,
    shard: shardDone && !lastShard ? job.shard + 1 : job.shard,
    accounts_checked: job.accounts_checked + checked,
    drift_count: job.drift_count + drift.length,
    drift_samples: [...job.drift_samples, ...drift].slice(0, INTEGRITY_SAMPLE_LIMIT),
    currencies,
  };
  if (!(shardDone && lastShard)) return { next, writes: [] };
  const finished: IntegrityJobItem = { ...next, status: "succeeded", phase: "done", finished_at: now };
  finished.result = resultOf(finished, now);
  return {
    next: finished,
    writes: [
      releaseClaim(ctx, job.id),
      {
        Put: {
          TableName: ctx.db.table,
          Item: { ...integrityLatestResultKey(), entity: "integrity_latest", job_id: job.id, finished_at: now },
        },
      },
    ],
  };
}

/** How long a failed step waits before it is run again: 1 s, 2 s, 4 s, ... */
const retryDelayMs = (failures: number) => Math.min(60_000, 1_000 * 2 ** Math.max(0, failures - 1));

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 300);
}

/** Counts a failed attempt at the job's current step; the last allowed failure fails the job. */
async function stepFailed(ctx: CoreContext, job: IntegrityJobItem, error: unknown): Promise<IntegrityStepOutcome> {
  const failures = job.failures + 1;
  const message = `A step of the check failed ${failures} time(s): ${describeError(error)}`;
  ctx.logger.warn("integrity step failed", { jobId: job.id, step: job.step, failures, error });
  if (failures >= INTEGRITY_MAX_STEP_FAILURES) {
    await failIntegrityJob(ctx, job.id, message, job.step);
    const after = await loadJobItem(ctx, job.id);
    return after ? { state: "finished", job: jobView(after) } : { state: "idle" };
  }
  const next: IntegrityJobItem = { ...job, failures, error: message, updated_at: ctx.clock().toISOString() };
  try {
    await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: [jobPut(ctx, job, next)] }));
  } catch (writeError) {
    if (!cancellationCodes(writeError)) throw writeError;
    return { state: "idle" };
  }
  return { state: "retry", job: jobView(next), delayMs: retryDelayMs(failures) };
}

/**
 * Runs the job's next step: reads one page, commits what it found with the job's new position,
 * or finishes the job. Safe to call for any job id at any time, any number of times.
 */
export async function runIntegrityStep(
  ctx: CoreContext,
  jobId: string,
  limits: IntegrityStepLimits = INTEGRITY_STEP_LIMITS,
): Promise<IntegrityStepOutcome> {
  const job = await loadJobItem(ctx, jobId);
  if (!job) return { state: "idle" };
  if (isFinished(job.status)) return { state: "finished", job: jobView(job) };
  let planned: Planned;
  try {
    planned = job.phase === "journals" ? await planScanStep(ctx, job, limits) : await planCompareStep(ctx, job, limits);
    await ctx.db.doc.send(
      new TransactWriteCommand({ TransactItems: [...planned.writes, jobPut(ctx, job, planned.next)] }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (codes && codes[codes.length - 1] === "ConditionalCheckFailed") {
      // Someone committed this step first (a duplicate message, a runner thought dead): this
      // runner stops, the one that moved the job on goes on.
      return { state: "idle" };
    }
    return stepFailed(ctx, job, error);
  }
  const view = jobView(planned.next);
  return isFinished(planned.next.status) ? { state: "finished", job: view } : { state: "continue", job: view };
}
