import { BatchGetCommand, type BatchGetCommandOutput } from "@aws-sdk/lib-dynamodb";
import { userKey } from "../auth/keys";
import { activeSubmissionKey, submissionKey } from "../kyc/keys";
import { riskLevel } from "../kyc/model";
import { chainsOf, getAccounts, systemAccountId } from "../ledger/accounts";
import { journalKey, balanceByTimePartition } from "../ledger/keys";
import { CURRENCIES, type Currency } from "../money/model";
import { paymentKey, paymentsByUserPartition } from "../payments/keys";
import { decisionPartition, DECISION_SHARDS } from "../rails/keys";
import type { CoreContext } from "../shared/context";
import { queryAll } from "../shared/dynamo";
import { unprocessable } from "../shared/errors";
import type { DepositFact, PayoutFact, RiskLevelOf, ScreeningFact } from "./detect";
import { COMPLIANCE_MESSAGES, MAX_REPORT_ITEMS, type Customer } from "./model";
import { SAR_RULES } from "./rules";

/**
 * What the reports read, with Queries over indexes that exist and BatchGets of the items they
 * name (never a Scan):
 * - deposits: the versions of each shard chain of the funding accounts (`sys-funding-<ccy>`, the
 *   counterparty of every deposit) by commit time (the chains' by-time index), then the journals
 *   they name, kept while posted;
 * - payouts: the depositors' own payments by creation time (the payer's payments index);
 * - screening hits: the routing decisions by day (every payment's first decision is one), then
 *   the payments they name, kept when screening matched a list. Decisions are kept 90 days
 *   (rails/stats.ts), so older hits are not found;
 * - KYC risk: each customer's current submission (the user's pointer, then the submission);
 * - names and e-mails: the users.
 * Every read is bounded: at most MAX_REPORT_ITEMS deposits and as many payments (a 422 beyond).
 */

const CURRENCY_LIST = Object.keys(CURRENCIES) as Currency[];
/** Queries in flight at once for one report. */
const READS_AT_ONCE = 16;
const BATCH_GET_MAX = 100;
const DAY_MS = 86_400_000;

export const periodStartIso = (from: string) => `${from}T00:00:00.000Z`;
export const periodEndIso = (to: string) => `${to}T23:59:59.999Z`;

/** `work` over every item, at most `limit` at once, results in input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(runners);
  return results;
}

/** Every item of `keys` that exists (in no particular order), following UnprocessedKeys. */
export async function batchGetAll(
  ctx: CoreContext,
  keys: readonly Record<string, string>[],
  projection?: string[],
): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, string>[][] = [];
  for (let index = 0; index < keys.length; index += BATCH_GET_MAX)
    chunks.push(keys.slice(index, index + BATCH_GET_MAX));
  const names = projection ? Object.fromEntries(projection.map((field, index) => [`#f${index}`, field])) : undefined;
  const found = await mapLimited(chunks, 4, async (chunk) => {
    const items: Record<string, unknown>[] = [];
    let pending: Record<string, unknown>[] | undefined = chunk;
    while (pending && pending.length > 0) {
      const reply: BatchGetCommandOutput = await ctx.db.doc.send(
        new BatchGetCommand({
          RequestItems: {
            [ctx.db.table]: {
              Keys: pending,
              ...(names
                ? { ProjectionExpression: Object.keys(names).join(", "), ExpressionAttributeNames: names }
                : {}),
            },
          },
        }),
      );
      items.push(...(reply.Responses?.[ctx.db.table] ?? []));
      pending = reply.UnprocessedKeys?.[ctx.db.table]?.Keys;
    }
    return items;
  });
  return found.flat();
}

function tooLarge(what: string): never {
  throw unprocessable(COMPLIANCE_MESSAGES.tooLarge(what), "report_too_large");
}

interface FundingVersion {
  operation?: string;
  tx_id?: string | null;
  tx_type?: string | null;
  changes?: { tx_id: string; tx_type: string }[];
}

/** Posted deposits whose posting falls in the period (UTC days `from`..`to`). */
export async function readDeposits(ctx: CoreContext, from: string, to: string): Promise<DepositFact[]> {
  const fromIso = periodStartIso(from);
  const toIso = periodEndIso(to);
  const accounts = await getAccounts(
    ctx,
    CURRENCY_LIST.map((currency) => systemAccountId("funding", currency)),
  );
  const chains = [...accounts.values()].flatMap(chainsOf);
  const journalIds = new Set<string>();
  await mapLimited(chains, READS_AT_ONCE, async (chain) => {
    const versions = (await queryAll(ctx.db, {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to",
      ExpressionAttributeValues: { ":pk": balanceByTimePartition(chain), ":from": fromIso, ":to": `${toIso}#\uffff` },
      ProjectionExpression: "#op, tx_id, tx_type, #changes",
      ExpressionAttributeNames: { "#op": "operation", "#changes": "changes" },
    })) as FundingVersion[];
    for (const version of versions) {
      if (version.operation !== "post") continue;
      for (const change of version.changes ?? [version])
        if (change.tx_type === "deposit" && change.tx_id) journalIds.add(change.tx_id);
      if (journalIds.size > MAX_REPORT_ITEMS) tooLarge("deposits");
    }
  });
  const journals = await batchGetAll(
    ctx,
    [...journalIds].map((id) => journalKey(id)),
    ["id", "owner_id", "type", "status", "currency", "total_amount", "posted_at"],
  );
  return journals
    .filter(
      (journal) =>
        journal.type === "deposit" &&
        journal.status === "posted" &&
        typeof journal.posted_at === "string" &&
        journal.posted_at >= fromIso &&
        journal.posted_at <= toIso,
    )
    .map((journal) => ({
      journalId: String(journal.id),
      customerId: String(journal.owner_id),
      currency: journal.currency as Currency,
      amountMinor: Number(journal.total_amount),
      postedAt: String(journal.posted_at),
    }))
    .sort((a, b) => a.postedAt.localeCompare(b.postedAt) || a.journalId.localeCompare(b.journalId));
}

const PAID_OUT_STATUSES = new Set(["pending", "processing", "completed"]);

/**
 * The customers' payments created in the period or up to the rapid-movement window after it (a
 * deposit on the period's last day may leave the next day), except failed and waiting ones.
 */
export async function readPayouts(
  ctx: CoreContext,
  customerIds: readonly string[],
  from: string,
  to: string,
): Promise<PayoutFact[]> {
  const untilIso = new Date(
    Date.parse(periodEndIso(to)) + SAR_RULES.rapid_movement.windowHours * 3_600_000,
  ).toISOString();
  let count = 0;
  const perCustomer = await mapLimited(customerIds, READS_AT_ONCE, async (customerId) => {
    const items = await queryAll(ctx.db, {
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to",
      ExpressionAttributeValues: {
        ":pk": paymentsByUserPartition(customerId),
        ":from": periodStartIso(from),
        ":to": `${untilIso}#\uffff`,
      },
      ProjectionExpression: "paymentId, userId, #status, amountMinor, currency, createdAt",
      ExpressionAttributeNames: { "#status": "status" },
    });
    count += items.length;
    if (count > MAX_REPORT_ITEMS) tooLarge("payments");
    return items;
  });
  return perCustomer
    .flat()
    .filter((item) => PAID_OUT_STATUSES.has(String(item.status)))
    .map((item) => ({
      paymentId: String(item.paymentId),
      customerId: String(item.userId),
      currency: item.currency as Currency,
      amountMinor: Number(item.amountMinor),
      createdAt: String(item.createdAt),
    }));
}

/** The UTC days from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

interface StoredScreening {
  result?: string;
  match?: { entry?: string } | null;
}

/** Payments created in the period whose payee's screening matched a list. */
export async function readScreeningHits(ctx: CoreContext, from: string, to: string): Promise<ScreeningFact[]> {
  const partitions = daysOf(from, to).flatMap((day) =>
    Array.from({ length: DECISION_SHARDS }, (_, shard) => decisionPartition(day, shard)),
  );
  const paymentIds = new Set<string>();
  await mapLimited(partitions, READS_AT_ONCE, async (partition) => {
    const decisions = await queryAll(ctx.db, {
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": partition },
      ProjectionExpression: "payment_id, attempt_number",
    });
    for (const decision of decisions)
      if (decision.attempt_number === 1 && typeof decision.payment_id === "string") paymentIds.add(decision.payment_id);
    if (paymentIds.size > MAX_REPORT_ITEMS) tooLarge("payments");
  });
  const payments = await batchGetAll(
    ctx,
    [...paymentIds].map((id) => paymentKey(id)),
    ["paymentId", "userId", "status", "amountMinor", "currency", "createdAt", "screening"],
  );
  return payments
    .filter((item) => (item.screening as StoredScreening | null | undefined)?.result === "hit")
    .map((item) => ({
      paymentId: String(item.paymentId),
      customerId: String(item.userId),
      currency: item.currency as Currency,
      amountMinor: Number(item.amountMinor),
      createdAt: String(item.createdAt),
      status: String(item.status),
      matchedEntry: (item.screening as StoredScreening).match?.entry ?? "unknown",
    }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Each customer's latest KYC risk level (null: never submitted). */
export async function readRiskLevels(ctx: CoreContext, customerIds: readonly string[]): Promise<RiskLevelOf> {
  const pointers = await batchGetAll(
    ctx,
    customerIds.map((id) => activeSubmissionKey(id)),
  );
  const submissionIds = pointers.map((pointer) => pointer.submission_id).filter((id) => typeof id === "string");
  const submissions = await batchGetAll(
    ctx,
    submissionIds.map((id) => submissionKey(id)),
    ["user_id", "risk_score"],
  );
  const levels = new Map<string, "Low" | "Medium" | "High">();
  for (const submission of submissions)
    if (typeof submission.user_id === "string" && typeof submission.risk_score === "number")
      levels.set(submission.user_id, riskLevel(submission.risk_score));
  return (customerId) => levels.get(customerId) ?? null;
}

/** Names and e-mails of the customers; a deleted user reads as its id. */
export async function readCustomers(ctx: CoreContext, customerIds: readonly string[]): Promise<Map<string, Customer>> {
  const users = await batchGetAll(
    ctx,
    customerIds.map((id) => userKey(id)),
    ["id", "email", "first_name", "last_name"],
  );
  const found = new Map<string, Customer>();
  for (const id of customerIds) found.set(id, { id, name: id, email: "" });
  for (const user of users)
    found.set(String(user.id), {
      id: String(user.id),
      name: `${String(user.first_name ?? "")} ${String(user.last_name ?? "")}`.trim() || String(user.id),
      email: String(user.email ?? ""),
    });
  return found;
}
