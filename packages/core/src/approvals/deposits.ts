import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { conflict, forbidden, notFound } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { CURRENCIES, toDecimalString, type Currency } from "../money/model";
import { getAccounts } from "../ledger/accounts";
import { changeJournalStatus } from "../ledger/journal-status";
import { ExtraItemsRefused } from "../ledger/journal-writes";
import { isSystemAccountId, Journal, JournalReplay } from "../ledger/journals";
import { loadJournal, requireOwnedJournal } from "../ledger/journal-reads";
import type { JournalReply } from "../ledger/journal-view";
import { isLedgerId } from "../ledger/model";
import { aboveAmount, depositDecisionKey, depositDraftPartition, DEPOSIT_DRAFT_SHARDS } from "./keys";
import {
  APPROVAL_MESSAGES,
  DecisionInput,
  DecisionRecord,
  DEPOSIT_QUEUE_MAX,
  needsSecondApprover,
  type DepositApproval,
  type Reviewer,
} from "./model";
import { readThresholds, thresholdFor } from "./thresholds";

/**
 * Four eyes on deposits. A deposit draft above its currency's threshold is never posted by the
 * person who made it, nor by the owner of its account: the owner's post is refused (403
 * `second_approver_required`, saying it waits for another admin), and the draft sits in the
 * administrators' queue (a sparse index on the journal item, approvals/keys.ts) until an
 * administrator who is neither approves it (the ledger posts it) or rejects it (the ledger voids
 * it). The decision, with its reason, is written in the same transaction as the ledger change.
 */

const secondApproverRequired = (message: string) => forbidden(message, "second_approver_required");

/**
 * The owner's own post (POST /ledger/transactions/{id}/post): refused for a deposit draft above
 * the threshold. Anything else goes on to the ledger's own checks (a 404 for another user's id,
 * 409 for a posted one).
 */
export async function requireOwnerMayPost(ctx: CoreContext, ownerId: string, journalId: string): Promise<void> {
  const journal = await requireOwnedJournal(ctx, ownerId, journalId);
  if (journal.type !== "deposit" || journal.status !== "draft") return;
  const threshold = await thresholdFor(ctx, "deposit", journal.currency);
  if (needsSecondApprover(threshold, journal.total_amount))
    throw secondApproverRequired(APPROVAL_MESSAGES.depositNeedsSecondApprover(threshold, journal.currency));
}

/** Why `reviewer` may not decide this deposit, or null when they may. */
function cannotDecide(journal: Journal, reviewer: Reviewer): string | null {
  if (journal.history[0]?.by?.id === reviewer.id) return APPROVAL_MESSAGES.ownRequest("deposit");
  if (journal.owner_id === reviewer.id) return APPROVAL_MESSAGES.ownerOfDeposit;
  return null;
}

function approvalOf(journal: Journal, thresholdMinor: number, reviewer: Reviewer): DepositApproval {
  const customer = journal.entries.find((entry) => !isSystemAccountId(entry.account_id)) ?? journal.entries[0]!;
  const why = cannotDecide(journal, reviewer);
  return {
    journal_id: journal.id,
    owner_id: journal.owner_id,
    created_by: journal.history[0]?.by ?? null,
    account_id: customer.account_id,
    account_name: customer.account_name,
    amount: toDecimalString(journal.total_amount, journal.currency),
    amount_minor: journal.total_amount,
    currency: journal.currency,
    threshold: toDecimalString(thresholdMinor, journal.currency),
    description: journal.description,
    created_at: journal.created_at,
    can_decide: why === null,
    cannot_decide_reason: why,
  };
}

/**
 * The deposit drafts above their currency's threshold, oldest first, at most DEPOSIT_QUEUE_MAX
 * (`has_more` says there are more: decide some to see the rest). One range read per currency and
 * shard of the index.
 */
export async function listDepositApprovals(
  ctx: CoreContext,
  reviewer: Reviewer,
): Promise<{ items: DepositApproval[]; has_more: boolean }> {
  const { table } = await readThresholds(ctx);
  const currencies = Object.keys(CURRENCIES) as Currency[];
  const reads = currencies.flatMap((currency) =>
    Array.from({ length: DEPOSIT_DRAFT_SHARDS }, async (_, shard) => {
      const reply = await ctx.db.doc.send(
        new QueryCommand({
          TableName: ctx.db.table,
          IndexName: "gsi2",
          KeyConditionExpression: "gsi2pk = :pk AND gsi2sk >= :above",
          ExpressionAttributeValues: {
            ":pk": depositDraftPartition(currency, shard),
            ":above": aboveAmount(table.deposit[currency]),
          },
          Limit: DEPOSIT_QUEUE_MAX,
        }),
      );
      const journals = (reply.Items ?? [])
        .map((item) => Journal.parse(item))
        .filter((journal) => journal.type === "deposit" && journal.status === "draft");
      return { journals, more: reply.LastEvaluatedKey !== undefined };
    }),
  );
  const results = await Promise.all(reads);
  const journals = results
    .flatMap((result) => result.journals)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  return {
    items: journals
      .slice(0, DEPOSIT_QUEUE_MAX)
      .map((journal) => approvalOf(journal, table.deposit[journal.currency], reviewer)),
    has_more: journals.length > DEPOSIT_QUEUE_MAX || results.some((result) => result.more),
  };
}

/**
 * An administrator approves (posts) or rejects (voids) a deposit draft above the threshold, with
 * a reason. 404 for an unknown id or a journal that is not a deposit; 409 when it is no longer a
 * draft above the threshold; 403 `second_approver_required` when the administrator made the
 * deposit or owns its account.
 */
export async function decideDeposit(
  ctx: CoreContext,
  journalId: string,
  reviewer: Reviewer,
  body: unknown,
): Promise<{ decision: DecisionRecord; transaction: JournalReply }> {
  const input = parseWith(DecisionInput, body);
  const journal = isLedgerId(journalId) ? await loadJournal(ctx, journalId) : null;
  if (journal?.type !== "deposit") throw notFound(APPROVAL_MESSAGES.depositNotFound, "deposit_not_found");
  const threshold = await thresholdFor(ctx, "deposit", journal.currency);
  if (journal.status !== "draft" || !needsSecondApprover(threshold, journal.total_amount))
    throw conflict(APPROVAL_MESSAGES.notAwaitingDeposit, "deposit_not_awaiting_approval");
  const why = cannotDecide(journal, reviewer);
  if (why) throw secondApproverRequired(why);

  let recorded: DecisionRecord | null = null;
  let outcome: string | JournalReplay;
  try {
    outcome = await changeJournalStatus(
      ctx,
      journal.owner_id,
      journal.id,
      input.decision === "approve" ? "post" : "void",
      { key: null, hash: "" },
      { id: reviewer.id, name: reviewer.name },
      (ids) => getAccounts(ctx, ids),
      {
        extraItems: (at) => {
          recorded = {
            decision: input.decision,
            reason: input.reason,
            decided_by: { id: reviewer.id, email: reviewer.email, name: reviewer.name },
            decided_at: at,
          };
          return [
            {
              Put: {
                TableName: ctx.db.table,
                Item: {
                  ...depositDecisionKey(journal.id, at),
                  entity: "deposit_decision",
                  journal_id: journal.id,
                  owner_id: journal.owner_id,
                  amount_minor: journal.total_amount,
                  currency: journal.currency,
                  threshold_minor: threshold,
                  ...recorded,
                },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
          ];
        },
      },
    );
  } catch (error) {
    if (error instanceof ExtraItemsRefused)
      throw conflict(APPROVAL_MESSAGES.notAwaitingDeposit, "deposit_not_awaiting_approval");
    throw error;
  }
  const decision = recorded as DecisionRecord | null;
  if (!decision) throw new Error("decideDeposit: the decision was not recorded");
  const reply = outcome instanceof JournalReplay ? outcome.body : outcome;
  return { decision, transaction: (JSON.parse(reply) as { data: JournalReply }).data };
}

/** Every decision taken on a deposit, oldest first (the audit trail of its approval). */
export async function depositDecisions(ctx: CoreContext, journalId: string): Promise<DecisionRecord[]> {
  if (!isLedgerId(journalId)) return [];
  const reply = await ctx.db.doc.send(
    new QueryCommand({
      TableName: ctx.db.table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": depositDecisionKey(journalId, "").pk, ":prefix": "DECISION#" },
      ConsistentRead: true,
    }),
  );
  return (reply.Items ?? []).map((item) => DecisionRecord.parse(item));
}
