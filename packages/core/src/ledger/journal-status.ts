import { createHash } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, conflict, unprocessable } from "../shared/errors";
import type { Account } from "./accounts";
import {
  isRecordedRefusal,
  isReplayedRefusal,
  ledgerBusy,
  recordRefusal,
  Refusal,
  refusalOf,
  replayedRefusal,
} from "./decisions";
import { operationKey } from "./keys";
import { LEDGER_MESSAGES } from "./model";
import { JournalReplay, PAYMENT_SERVICE_ACTOR, type Actor, type Idempotency, type Journal } from "./journals";
import { journalItem } from "./journal-items";
import { loadJournal, requireOwnedJournal } from "./journal-reads";
import { journalReply } from "./journal-view";
import { resolveExtras, sendWithExtras, type ExtraItems, type JournalWriteOptions } from "./journal-writes";
import { MAX_ATTEMPTS, pause, plannedVersions, versionPuts, withChains, type TransactItems } from "./write-path";

/**
 * Posting, unposting and voiding a journal, once per Idempotency-Key: the status change and its
 * legs' balance versions in one transaction.
 */

/**
 * The idempotency record of one keyed post/unpost (see operationKey): the reply it got, or the
 * refusal it got (decisions.ts), replayed to every retry with that key.
 */
const OperationRecord = z.object({
  request_hash: z.string(),
  reply: z.string().optional(),
  refusal: Refusal.optional(),
});

const keyHash = (key: string) => createHash("sha256").update(key).digest("hex");

interface EarlierOperation {
  hash: string;
  reply?: string | undefined;
  refusal?: Refusal | undefined;
}

/** The stored outcome of an earlier keyed post/unpost of this journal, if any (new records, then legacy ones). */
async function earlierOperation(
  ctx: CoreContext,
  journal: Journal,
  key: string,
): Promise<EarlierOperation | undefined> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: operationKey(journal.id, keyHash(key)), ConsistentRead: true }),
  );
  if (reply.Item) {
    const record = OperationRecord.parse(reply.Item);
    return { hash: record.request_hash, reply: record.reply, refusal: record.refusal };
  }
  return journal.operation_replies[key];
}

/** The earlier outcome replayed: its reply, its refusal (thrown), or a 422 for another request under the key. */
function replayOperation(earlier: EarlierOperation, idempotency: Idempotency): JournalReplay {
  if (earlier.hash !== idempotency.hash)
    throw unprocessable(LEDGER_MESSAGES.idempotencyMismatch, "idempotency_key_reused");
  if (earlier.refusal) throw replayedRefusal(earlier.refusal);
  return new JournalReplay(earlier.reply ?? "");
}

/**
 * Approve (post), unpost or void a journal: the journal changes status under its version, and
 * every leg's chain gets a new version in the same transaction. Unposting moves posted amounts
 * back to pending; a customer account whose available balance that would take below zero
 * refuses. Voiding removes a draft's pending amounts (a payment's hold released); a voided
 * journal is final. `options.extraItems` commit in the same transaction (ExtraItemsRefused
 * when one of their conditions fails: a payment changed meanwhile).
 * A keyed request also writes its idempotency record (OPKEY#) in that transaction, created only
 * if absent: of two concurrent duplicates one commits, the other re-reads and replays it. A
 * keyed request refused for a business rule (already posted, not posted, insufficient funds, a
 * locked account) records its refusal in that same OPKEY# item, conditionally: retries with the
 * key replay it even after the journal or the balances changed (decisions.ts).
 */
export async function changeJournalStatus(
  ctx: CoreContext,
  ownerId: string,
  journalId: string,
  operation: StatusOperation,
  idempotency: Idempotency,
  actor: Actor | null,
  resolveAccounts: (ids: string[]) => Promise<Map<string, Account>>,
  options: JournalWriteOptions = {},
): Promise<string | JournalReplay> {
  try {
    return await attemptStatusChange(ctx, {
      ownerId,
      journalId,
      operation,
      idempotency,
      actor,
      resolveAccounts,
      extraItems: options.extraItems,
      settlesPayment: options.settlesPayment ?? false,
      settledAmounts: options.settledAmounts,
    });
  } catch (error) {
    if (!idempotency.key || !isRecordedRefusal(error) || isReplayedRefusal(error)) throw error;
    const recordKey = operationKey(journalId, keyHash(idempotency.key));
    const attributes = { entity: "journal_operation", owner_id: ownerId, operation, request_hash: idempotency.hash };
    if (await recordRefusal(ctx, recordKey, attributes, refusalOf(error))) throw error;
    const earlier = await earlierOperation(ctx, await requireOwnedJournal(ctx, ownerId, journalId), idempotency.key);
    if (!earlier) throw error;
    return replayOperation(earlier, idempotency);
  }
}

/**
 * post: draft -> posted; unpost: posted -> draft; void: draft -> voided (the hold released: its
 * pending amounts removed, nothing booked; a voided journal never changes again).
 */
export type StatusOperation = "post" | "unpost" | "void";
const STATUS_AFTER = { post: "posted", unpost: "draft", void: "voided" } as const;
const STATUS_MESSAGE = {
  post: "Transaction posted",
  unpost: "Transaction unposted",
  void: "Transaction voided",
} as const;

/** One post, unpost or void request, as changeJournalStatus takes it. */
interface StatusChange {
  ownerId: string;
  journalId: string;
  operation: StatusOperation;
  idempotency: Idempotency;
  actor: Actor | null;
  resolveAccounts: (ids: string[]) => Promise<Map<string, Account>>;
  extraItems?: ExtraItems | undefined;
  settlesPayment: boolean;
  settledAmounts?: readonly number[] | undefined;
}

/** The settled amounts of a partial post, checked against the journal: one per entry, 0..held, balanced. */
function checkedSettlement(journal: Journal, settled: readonly number[]): readonly number[] {
  if (settled.length !== journal.entries.length) throw new Error("settledAmounts: one amount per journal entry");
  let debits = 0;
  let credits = 0;
  journal.entries.forEach((entry, index) => {
    const amount = settled[index]!;
    if (!Number.isSafeInteger(amount) || amount < 0 || amount > entry.amount)
      throw new Error("settledAmounts: each amount from 0 to the entry's held amount");
    if (entry.side === "debit") debits += amount;
    else credits += amount;
  });
  if (debits !== credits || debits <= 0)
    throw new Error(`settledAmounts: unbalanced (debits ${debits}, credits ${credits})`);
  return settled;
}

/** Whether a journal in `status` may take `operation`; the refusal otherwise. */
function refuseStatusChange(status: Journal["status"], operation: StatusOperation): AppError | null {
  if (status === "voided") return conflict(LEDGER_MESSAGES.voided, "voided");
  if (operation === "post" && status !== "draft") return conflict(LEDGER_MESSAGES.alreadyPosted, "already_posted");
  if (operation === "unpost" && status !== "posted") return conflict(LEDGER_MESSAGES.notPosted, "not_posted");
  if (operation === "void" && status !== "draft") return conflict(LEDGER_MESSAGES.notDraftForVoid, "not_draft");
  return null;
}

async function attemptStatusChange(
  ctx: CoreContext,
  {
    ownerId,
    journalId,
    operation,
    idempotency,
    actor,
    resolveAccounts,
    extraItems,
    settlesPayment,
    settledAmounts,
  }: StatusChange,
): Promise<string | JournalReplay> {
  for (let attempt = 1; ; attempt++) {
    const journal = await requireOwnedJournal(ctx, ownerId, journalId);
    const earlier = idempotency.key ? await earlierOperation(ctx, journal, idempotency.key) : undefined;
    if (earlier) return replayOperation(earlier, idempotency);
    if (journal.type === "payment" && !settlesPayment) throw conflict(LEDGER_MESSAGES.paymentHold, "payment_hold");
    const refusal = refuseStatusChange(journal.status, operation);
    if (refusal) throw refusal;

    const accounts = await resolveAccounts(journal.entries.map((entry) => entry.account_id));
    const settled =
      operation === "post" && settledAmounts && journal.type === "payment"
        ? checkedSettlement(journal, settledAmounts)
        : null;
    const legs = journal.entries.map((entry, index) => ({
      account: accounts.get(entry.account_id)!,
      side: entry.side,
      amount: settled ? settled[index]! : entry.amount,
      released: settled ? entry.amount - settled[index]! : 0,
    }));
    const settledEntries = settled
      ? journal.entries
          .map((entry, index) => ({ ...entry, amount: settled[index]! }))
          .filter((entry) => entry.amount > 0)
      : journal.entries;
    try {
      return await withChains(
        ctx,
        legs,
        async (chains) => {
          const { versions, at } = await plannedVersions(ctx, chains, legs, operation, journal);
          const status = STATUS_AFTER[operation];
          const after: Journal = {
            ...journal,
            status,
            entries: settledEntries,
            total_amount: settled
              ? settledEntries.filter((entry) => entry.side === "debit").reduce((sum, entry) => sum + entry.amount, 0)
              : journal.total_amount,
            posted_at: operation === "post" ? at : null,
            version: journal.version + 1,
            // A payment's hold settled by no person was settled by the payment worker.
            history: [
              ...journal.history,
              { operation, status, at, by: actor ?? (settlesPayment ? PAYMENT_SERVICE_ACTOR : null) },
            ],
          };
          const body = JSON.stringify({ message: STATUS_MESSAGE[operation], data: journalReply(after) });
          const record: TransactItems = idempotency.key
            ? [
                {
                  Put: {
                    TableName: ctx.db.table,
                    Item: {
                      ...operationKey(journal.id, keyHash(idempotency.key)),
                      entity: "journal_operation",
                      owner_id: journal.owner_id,
                      operation,
                      at,
                      request_hash: idempotency.hash,
                      reply: body,
                    },
                    ConditionExpression: "attribute_not_exists(pk)",
                  },
                },
              ]
            : [];
          const ledgerItems: TransactItems = [
            {
              Put: {
                TableName: ctx.db.table,
                // A deposit back to draft (unposted) rejoins the four-eyes queue; posted or voided, it
                // leaves it. A payment to another user joins the payee's history once posted.
                Item: journalItem(after),
                ConditionExpression: "version = :seen",
                ExpressionAttributeValues: { ":seen": journal.version },
              },
            },
            ...versionPuts(ctx, versions),
            ...record,
          ];
          await sendWithExtras(ctx, ledgerItems, resolveExtras(extraItems, at, ledgerItems.length), versions);
          return body;
        },
        operation,
      );
    } catch (error) {
      if (error instanceof AppError && attempt < MAX_ATTEMPTS) {
        // The refusal (insufficient funds) was computed from chain heads read AFTER our read of
        // the journal. If the journal moved in between, the heads may hold its own new state: a
        // concurrent duplicate of this very request (same Idempotency-Key) unposted it, and we
        // must replay that reply, not refuse. Decide again from the journal as it is now
        // (ledger.property.test.ts sends concurrent unposts under one key: all must replay the one reply).
        const current = await loadJournal(ctx, journal.id);
        if (current && current.version !== journal.version) continue;
      }
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      if (attempt >= MAX_ATTEMPTS) throw ledgerBusy();
      await pause(attempt);
    }
  }
}
