import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, badRequest, conflict, locked, unprocessable } from "../shared/errors";
import { newId } from "../shared/ids";
import { parseWith } from "../shared/validation";
import { requireOwnedAccount, systemAccountId, type Account } from "./accounts";
import { chainState } from "./next-version";
import { headsForWrite } from "./head-cache";
import type { VersionItem } from "./versions";
import { ItemError, ledgerBusy, replayedRefusal } from "./decisions";
import { changesAfter, foldedVersion, type FoldedLeg } from "./folded-versions";
import { decidedOnce } from "./journal-create";
import {
  journalIdFor,
  JournalReplay,
  requestHash,
  type Actor,
  type Idempotency,
  type Journal,
  type JournalDraft,
} from "./journals";
import { journalPut, newJournal } from "./journal-items";
import { loadDecision, loadJournal, type Decision } from "./journal-reads";
import { DepositInput, holderDirection, LEDGER_MESSAGES, TransferInput } from "./model";
import {
  asResult,
  checkTransfer,
  fundingDraft,
  minorOrThrow,
  requireActive,
  requireCurrency,
  requireSystemAccount,
  transferDraft,
  type WriteResult,
} from "./service";
import {
  commitInstant,
  creditsElsewhere,
  MAX_ATTEMPTS,
  pause,
  sendWrite,
  versionPuts,
  withChains,
  type TransactItems,
} from "./write-path";
import { learnFromVersion } from "./credit-shard-counts";
import { gateMoney, LimitExceeded, type MoneyGate, type MoneyMovement } from "../limits/gate";

/**
 * Batches: up to 50 transfers and deposits that commit all or nothing (TigerBeetle's linked
 * events) in ONE TransactWriteItems, under the request's Idempotency-Key.
 *
 * DynamoDB takes at most 100 items per transaction. Written naively (journal + one version per
 * leg) 50 postings are 150 items; here every balance chain the batch touches gets ONE version
 * folding all the batch's legs on it (folded-versions.ts), so a batch writes one item per
 * journal plus one per distinct account: a 50-transfer payout from one account to 49 payees is
 * 50 + 50 = 100 items. A batch that needs more is refused before anything is tried, 422
 * `batch_too_large`, naming the count. Items apply in order, as if posted one after another: an
 * item that would overdraw an account (counting the earlier items) refuses the whole batch with
 * its index. All journals share one instant, the versions' commit time, so a balance as of any
 * moment agrees with the replay of the journals.
 *
 * Idempotency: the key names the batch's first journal (a key namespace of its own, so a single
 * transfer's key never collides with a batch's), and that journal's conditional Put is the
 * batch's idempotency record: it carries the batch's request hash, and the replay reassembles
 * the reply from the journals' stored replies. A recorded refusal (decisions.ts) holds the same
 * item, so concurrent duplicates end in one decision.
 */

export const BATCH_MAX_ITEMS = 50;
/** DynamoDB's cap on the items of one TransactWriteItems. */
export const TRANSACTION_MAX_ITEMS = 100;

const BatchInput = z.object({
  items: z
    .array(z.unknown(), { error: `items must be a list of 1 to ${BATCH_MAX_ITEMS} transfers or deposits` })
    .min(1, `items must be a list of 1 to ${BATCH_MAX_ITEMS} transfers or deposits`)
    .max(BATCH_MAX_ITEMS, `A batch holds at most ${BATCH_MAX_ITEMS} items`),
});

/** The schema of one item as the API declares it: the single request's fields plus its type. */
export const BatchItemInput = z.discriminatedUnion("type", [
  TransferInput.extend({ type: z.literal("transfer") }),
  DepositInput.extend({ type: z.literal("deposit") }),
]);
export const BatchRequestInput = z.object({ items: z.array(BatchItemInput).min(1).max(BATCH_MAX_ITEMS) });

/** One item after validation: its accounts (the caller's) and amount in minor units. */
type ValidItem =
  | { type: "transfer"; input: TransferInput; from: Account; to: Account; amount: number }
  | { type: "deposit"; input: DepositInput; account: Account; funding: Account; amount: number };

/** Runs a step for one item; its AppError becomes the item's error (with its index). */
async function forItem<T>(index: number, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof AppError && !(error instanceof ItemError)) throw new ItemError(index, error);
    throw error;
  }
}

/**
 * Validation, item by item in order, with the single requests' own schemas and messages: shape,
 * the accounts exist and are the caller's, the amount. Nothing here is a decision (never recorded).
 */
async function validItems(ctx: CoreContext, ownerId: string, items: unknown[]): Promise<ValidItem[]> {
  const accounts = new Map<string, Promise<Account>>();
  const owned = (id: string) => {
    let found = accounts.get(id);
    if (!found) {
      found = requireOwnedAccount(ctx, ownerId, id);
      found.catch(() => undefined);
      accounts.set(id, found);
    }
    return found;
  };
  const valid: ValidItem[] = [];
  for (const [index, item] of items.entries()) {
    valid.push(
      await forItem(index, async (): Promise<ValidItem> => {
        if (typeof item !== "object" || item === null || Array.isArray(item))
          throw badRequest("Each item must be a JSON object");
        const { type, ...fields } = item as Record<string, unknown>;
        if (type !== "transfer" && type !== "deposit") throw badRequest("type must be transfer or deposit");
        if (type === "transfer") {
          const input = parseWith(TransferInput, fields);
          if (input.quote_id !== undefined)
            throw badRequest("A quoted conversion cannot be part of a batch: send it as its own transfer");
          const [from, to] = await Promise.all([owned(input.from_account_id), owned(input.to_account_id)]);
          return { type: "transfer", input, from, to, amount: minorOrThrow(input.amount, from.currency) };
        }
        const input = parseWith(DepositInput, fields);
        const account = await owned(input.account_id);
        const amount = minorOrThrow(input.amount, account.currency);
        return {
          type: "deposit",
          input,
          account,
          funding: await requireSystemAccount(ctx, systemAccountId("funding", account.currency)),
          amount,
        };
      }),
    );
  }
  return valid;
}

/** The business checks of each item, in order (recorded under a key), and its journal draft. */
async function draftsOf(ownerId: string, items: ValidItem[], actor: Actor | null): Promise<JournalDraft[]> {
  const drafts: JournalDraft[] = [];
  for (const [index, item] of items.entries()) {
    drafts.push(
      await forItem(index, () => {
        if (item.type === "transfer") {
          checkTransfer(item.from, item.to, item.input.currency);
          return transferDraft(ownerId, item.from, item.to, item.amount, item.input.description, actor);
        }
        requireActive(item.account);
        requireCurrency(item.account, item.input.currency);
        return fundingDraft(
          ownerId,
          item.account,
          item.funding,
          "deposit",
          item.amount,
          item.input.description || "Deposit",
          actor,
        );
      }),
    );
  }
  return drafts;
}

/**
 * Items of the one transaction: a journal per item, a version per distinct account, and the
 * caller's totals per deposit currency.
 */
function transactionItems(items: ValidItem[]): { journals: number; accounts: number; totals: number } {
  const accounts = new Set<string>();
  for (const item of items) {
    if (item.type === "transfer") accounts.add(item.from.id).add(item.to.id);
    else accounts.add(item.account.id).add(item.funding.id);
  }
  return {
    journals: items.length,
    accounts: accounts.size,
    totals: new Set(depositsOf(items).map(({ movement }) => movement.currency)).size,
  };
}

/**
 * The batch's deposits as the limits count them, with their items' positions. Transfers move
 * money between the caller's own accounts: no limit counts them.
 */
function depositsOf(items: ValidItem[]): { item: number; movement: MoneyMovement }[] {
  return items.flatMap((item, index) =>
    item.type === "deposit"
      ? [
          {
            item: index,
            movement: { movement: "deposit" as const, currency: item.account.currency, amountMinor: item.amount },
          },
        ]
      : [],
  );
}

/** The gate's reservation for a batch: a limit refusal names the deposit item that passed it. */
function batchReservation(gate: MoneyGate, deposits: { item: number }[]): () => Promise<TransactItems> {
  return async () => {
    try {
      return await gate.reserve();
    } catch (error) {
      if (error instanceof LimitExceeded) throw new ItemError(deposits[error.movementIndex]!.item, error);
      throw error;
    }
  };
}

/** The journal ids of a batch: derived from the key (the first is the batch's idempotency record), or new. */
function batchJournalIds(ownerId: string, key: string | null, size: number): string[] {
  if (!key) return Array.from({ length: size }, () => newId());
  return Array.from({ length: size }, (_, index) =>
    journalIdFor(ownerId, index === 0 ? `batch\u0000${key}` : `batch\u0000${key}\u0000${index}`),
  );
}

/** The batch's reply, from its journals' stored replies (so a replay is byte for byte the original). */
function batchReply(journals: Journal[]): string {
  return JSON.stringify({
    message: "Batch created",
    data: journals.map((journal) => (JSON.parse(journal.created_reply) as { data: unknown }).data),
  });
}

/** The earlier decision on a batch's key, for a request with this hash: its reply, its refusal (thrown), or a 422. */
async function replayBatch(
  ctx: CoreContext,
  ids: string[],
  decision: Decision,
  idempotency: Idempotency,
): Promise<JournalReplay> {
  const hash = decision.journal ? decision.journal.request_hash : decision.refusal.request_hash;
  if (hash !== idempotency.hash) throw unprocessable(LEDGER_MESSAGES.idempotencyMismatch, "idempotency_key_reused");
  if (decision.refusal) throw replayedRefusal(decision.refusal.refusal);
  // Same hash, same items: the batch wrote exactly these journals, all at once.
  const journals = await Promise.all(ids.map((id, index) => (index === 0 ? decision.journal : loadJournal(ctx, id))));
  if (journals.some((journal) => !journal))
    throw new Error(`Batch ${ids[0]} is incomplete: a journal of it is missing`);
  return new JournalReplay(batchReply(journals as Journal[]));
}

/**
 * Plans and writes the batch once: fresh or remembered heads of every chain, each item's legs
 * applied in order (lock and no-overdraft checks per leg, refusing with the item's index), one
 * folded version per chain, and the journals, in one TransactWriteItems.
 */
async function commitOnce(
  ctx: CoreContext,
  ids: string[],
  drafts: JournalDraft[],
  idempotency: Idempotency,
  fresh: boolean,
  reserveLimits: () => Promise<TransactItems>,
): Promise<string> {
  const accounts = [
    ...new Map(drafts.flatMap((draft) => draft.legs.map((leg) => [leg.account.id, leg.account] as const))).values(),
  ];
  // An account all of whose legs in the batch add to it may take them on a credit shard.
  const sideOf = (account: Account) => {
    const sides = new Set(
      drafts.flatMap((draft) => draft.legs.filter((leg) => leg.account.id === account.id).map((leg) => leg.side)),
    );
    return sides.size === 1 ? [...sides][0] : undefined;
  };
  return withChains(
    ctx,
    accounts.map((account) => ({ account, side: sideOf(account) })),
    async (chains) => {
      const { heads, guessed } = await headsForWrite(ctx, chains, fresh);
      for (const head of heads) learnFromVersion(ctx, head);
      const elsewhere = await Promise.all(
        accounts.map((account, index) => creditsElsewhere(ctx, account, heads[index]!, fresh)),
      );
      const now = commitInstant(ctx, heads, elsewhere);
      const legsOf = accounts.map(() => [] as (FoldedLeg & { item: number })[]);
      const position = new Map(accounts.map((account, index) => [account.id, index]));
      for (const [item, draft] of drafts.entries()) {
        for (const [legIndex, leg] of draft.legs.entries()) {
          legsOf[position.get(leg.account.id)!]!.push({
            txId: ids[item]!,
            txType: draft.type,
            side: leg.side,
            amount: leg.amount,
            leg: legIndex,
            item,
          });
        }
      }
      // Every refusal below is decided on the figures as they are: a remembered head may be stale.
      const refuse = (item: number, error: AppError): never => {
        if (guessed || elsewhere.some((view) => view.remembered)) throw new StaleHeads();
        throw new ItemError(item, error);
      };
      // The first item (in batch order) any chain refuses is the one named.
      const refusals: { item: number; error: AppError }[] = [];
      accounts.forEach((account, index) => {
        if (account.kind !== "customer") return;
        const head = heads[index]!;
        const legs = legsOf[index]!;
        const { changes } = changesAfter(head, legs);
        const state = chainState(head, account);
        legs.forEach((leg, at) => {
          const before = at === 0 ? head.available : changes[at - 1]!.available;
          if (state.locked && holderDirection(leg.side, head.normal_side, "create") === "DEBIT") {
            refusals.push({
              item: leg.item,
              error: locked(LEDGER_MESSAGES.accountLocked(state.lock_reason ?? "no reason given"), "account_locked"),
            });
          } else if (changes[at]!.available < before && changes[at]!.available + elsewhere[index]!.available < 0) {
            refusals.push({
              item: leg.item,
              error: unprocessable(LEDGER_MESSAGES.insufficientFunds(account.name), "insufficient_funds"),
            });
          }
        });
      });
      const first = refusals.sort((a, b) => a.item - b.item)[0];
      if (first) refuse(first.item, first.error);

      const versions: VersionItem[] = accounts.map((account, index) =>
        foldedVersion(heads[index]!, account, legsOf[index]!, now, elsewhere[index]!.available),
      );
      const at = now.toISOString();
      const journals = drafts.map((draft, index) => newJournal(ids[index]!, draft, idempotency, at));
      // The deposits' totals, read afresh on every attempt: a retry after losing the race on them decides again.
      const limitItems = await reserveLimits();
      await sendWrite(
        ctx,
        [
          ...journals.map((journal, index) => journalPut(ctx, journal, { batch_id: ids[0], batch_index: index })),
          ...versionPuts(ctx, versions),
          ...limitItems,
        ],
        versions,
      );
      ctx.logger.debug("batch created", { batch_id: ids[0], items: journals.length, chains: versions.length });
      return batchReply(journals);
    },
  );
}

/** A refusal decided on remembered heads: decide again on heads read now. */
class StaleHeads extends Error {}

const BATCH_BACKOFF_CAP_MS = 1_600;
const BATCH_BACKOFF_BASE_MS = 25;

async function commitBatch(
  ctx: CoreContext,
  ids: string[],
  drafts: JournalDraft[],
  idempotency: Idempotency,
  reserveLimits: () => Promise<TransactItems>,
): Promise<string | JournalReplay> {
  let fresh = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await commitOnce(ctx, ids, drafts, idempotency, fresh, reserveLimits);
    } catch (error) {
      if (error instanceof StaleHeads) {
        fresh = true;
        continue;
      }
      const codes = cancellationCodes(error);
      if (codes?.[0] === "ConditionalCheckFailed" && idempotency.key) {
        // The key's item exists: the batch of an earlier attempt, or its recorded refusal.
        const existing = await loadDecision(ctx, ids[0]!);
        if (existing) return replayBatch(ctx, ids, existing, idempotency);
      }
      if (codes?.[0] === "TransactionConflict" && idempotency.key)
        throw conflict(LEDGER_MESSAGES.idempotencyInProgress, "idempotency_in_progress");
      if (!codes) throw error;
      if (attempt >= MAX_ATTEMPTS) throw ledgerBusy();
      // The write path remembers what a cancellation taught it: the version a lost chain's write
      // lost to (once; after that the chain is read), and that the other chains' heads held. So a
      // retry reads only the chains that moved, not all of the batch's; refusals are still decided
      // on fresh heads (StaleHeads). A batch's transaction is many items: losing one costs more
      // than a single posting's, so its retries spread over a longer time.
      fresh = false;
      await pause(attempt, BATCH_BACKOFF_CAP_MS, BATCH_BACKOFF_BASE_MS);
    }
  }
}

/**
 * POST /ledger/transactions/batch: `{items: [{type: "transfer" | "deposit", ...that request's
 * fields}]}`, 1 to 50 items, all or nothing. Replies `{message, data: [<each item's journal>]}`;
 * an item's error carries its `index` (ItemError).
 */
export async function postBatch(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  idempotencyKey: string | null,
  actor: Actor | null = null,
): Promise<WriteResult> {
  const { items } = parseWith(BatchInput, body);
  const valid = await validItems(ctx, ownerId, items);
  const size = transactionItems(valid);
  if (size.journals + size.accounts + size.totals > TRANSACTION_MAX_ITEMS) {
    const totals =
      size.totals > 0
        ? `, ${size.totals} deposit ${size.totals === 1 ? "currency" : "currencies"} for your limits`
        : "";
    throw unprocessable(
      `A batch commits in one DynamoDB transaction of at most ${TRANSACTION_MAX_ITEMS} items: one per transaction, one per account it changes and one per currency it deposits in. This one needs ${size.journals + size.accounts + size.totals} (${size.journals} transactions, ${size.accounts} accounts${totals}); split it`,
      "batch_too_large",
    );
  }
  const deposits = depositsOf(valid);
  const gate = await gateMoney(
    ctx,
    ownerId,
    deposits.map(({ movement }) => movement),
  );
  const hash = requestHash({
    op: "batch",
    items: valid.map((item) => ({ type: item.type, ...item.input, amount: item.amount })),
  });
  const idempotency: Idempotency = { key: idempotencyKey, hash };
  const ids = batchJournalIds(ownerId, idempotencyKey, valid.length);
  return asResult(
    await decidedOnce(
      ctx,
      { journalId: ids[0]!, ownerId, idempotency },
      async () =>
        commitBatch(ctx, ids, await draftsOf(ownerId, valid, actor), idempotency, batchReservation(gate, deposits)),
      (decision, key) => replayBatch(ctx, ids, decision, key),
    ),
  );
}
