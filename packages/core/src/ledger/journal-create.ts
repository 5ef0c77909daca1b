import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, conflict, unprocessable } from "../shared/errors";
import {
  isRecordedRefusal,
  isReplayedRefusal,
  ledgerBusy,
  recordRefusal,
  refusalOf,
  replayedRefusal,
} from "./decisions";
import { journalKey } from "./keys";
import { LEDGER_MESSAGES } from "./model";
import { journalIdFor, JournalReplay, type Idempotency, type JournalDraft } from "./journals";
import { assertBalanced, journalPut, newJournal } from "./journal-items";
import { loadDecision, type Decision } from "./journal-reads";
import { resolveExtras, sendWithExtras, type JournalWriteOptions } from "./journal-writes";
import { MAX_ATTEMPTS, pause, plannedVersions, versionPuts, withChains } from "./write-path";

/**
 * Creating a journal once per Idempotency-Key: the journal and its legs' balance versions in one
 * transaction; a repeated request replays the first reply, or the refusal recorded under the key.
 */

/** The earlier decision under a key, for a request with this hash: its reply, its refusal (thrown), or a 422. */
export function replayOrMismatch(decision: Decision, idempotency: Idempotency): JournalReplay {
  const hash = decision.journal ? decision.journal.request_hash : decision.refusal.request_hash;
  if (hash !== idempotency.hash) throw unprocessable(LEDGER_MESSAGES.idempotencyMismatch, "idempotency_key_reused");
  if (decision.refusal) throw replayedRefusal(decision.refusal.refusal);
  return new JournalReplay(decision.journal.created_reply);
}

/**
 * Runs a create-style write whose success is the item at `journalId` (a journal, or a batch's
 * first journal), so that a keyed business refusal is recorded on that same item (decisions.ts):
 * the conditional Put of the refusal and the conditional Put of the success exclude each other,
 * so concurrent duplicates end in one decision. The loser replays what won.
 */
export async function decidedOnce(
  ctx: CoreContext,
  decision: { journalId: string; ownerId: string; idempotency: Idempotency },
  write: () => Promise<string | JournalReplay>,
  replay: (decision: Decision, idempotency: Idempotency) => JournalReplay | Promise<JournalReplay> = replayOrMismatch,
): Promise<string | JournalReplay> {
  const { journalId, ownerId, idempotency } = decision;
  try {
    return await write();
  } catch (error) {
    if (!idempotency.key || !isRecordedRefusal(error) || isReplayedRefusal(error)) throw error;
    const attributes = {
      entity: "refusal",
      owner_id: ownerId,
      idempotency_key: idempotency.key,
      request_hash: idempotency.hash,
    };
    if (await recordRefusal(ctx, journalKey(journalId), attributes, refusalOf(error))) throw error;
    const earlier = await loadDecision(ctx, journalId);
    if (!earlier) throw error;
    return replay(earlier, idempotency);
  }
}

export interface CreateJournalOptions extends JournalWriteOptions {
  /**
   * The journal's id when the caller names it (a payment's journal has the payment's id); default:
   * from the Idempotency-Key.
   */
  id?: string;
}

/**
 * Creates a draft journal: the journal item (which is also the idempotency record, keyed by the
 * client's Idempotency-Key) and one new balance version per leg, in one TransactWriteItems.
 * Returns the reply body, or a JournalReplay carrying the original reply to a repeated request.
 * `options.extraItems` commit in the same transaction (a refused one: ExtraItemsRefused).
 */
export async function createJournal(
  ctx: CoreContext,
  draft: JournalDraft,
  idempotency: Idempotency,
  options: CreateJournalOptions = {},
): Promise<string | JournalReplay> {
  assertBalanced(draft.legs);
  const id = options.id ?? journalIdFor(draft.ownerId, idempotency.key);
  for (let attempt = 1; ; attempt++) {
    try {
      return await withChains(ctx, draft.legs, async (chains) => {
        const { versions, at: createdAt } = await plannedVersions(ctx, chains, draft.legs, "create", {
          id,
          type: draft.type,
        });
        const journal = newJournal(id, draft, idempotency, createdAt);
        const ledgerItems = [journalPut(ctx, journal), ...versionPuts(ctx, versions)];
        await sendWithExtras(
          ctx,
          ledgerItems,
          resolveExtras(options.extraItems, createdAt, ledgerItems.length),
          versions,
        );
        ctx.logger.debug("journal created", { journal_id: id, type: draft.type, attempt });
        return journal.created_reply;
      });
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes?.[0] === "ConditionalCheckFailed") {
        // The key's item exists: the journal of an earlier attempt, or its recorded refusal.
        const existing = await loadDecision(ctx, id);
        if (existing) return replayOrMismatch(existing, idempotency);
      }
      if (codes?.[0] === "TransactionConflict" && idempotency.key) {
        throw conflict(LEDGER_MESSAGES.idempotencyInProgress, "idempotency_in_progress");
      }
      if (error instanceof AppError && idempotency.key) {
        // A refused request (e.g. insufficient funds) may be the retry of one that succeeded.
        const existing = await loadDecision(ctx, id);
        if (existing) return replayOrMismatch(existing, idempotency);
      }
      if (!codes) throw error;
      if (attempt >= MAX_ATTEMPTS) throw ledgerBusy();
      await pause(attempt);
    }
  }
}
