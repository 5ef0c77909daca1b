import type { CoreContext } from "../shared/context";
import { cancellationCodes } from "../shared/dynamo";
import { AppError, badRequest, conflict } from "../shared/errors";
import { FX_MESSAGES } from "../fx/model";
import { consumeQuote, loadQuote, quoteRefusal, type StoredQuote } from "../fx/quotes";
import { getAccounts, systemAccountId, type Account } from "./accounts";
import { ledgerBusy } from "./decisions";
import { replayOrMismatch } from "./journal-create";
import { journalPut, newJournal } from "./journal-items";
import { loadDecision } from "./journal-reads";
import { journalReply } from "./journal-view";
import { journalIdFor, type JournalReplay, type Actor, type Idempotency, type JournalDraft } from "./journals";
import { isLedgerId, LEDGER_MESSAGES } from "./model";
import { MAX_ATTEMPTS, pause, plannedVersions, sendWrite, versionPuts, withChains } from "./write-path";

/**
 * A cross-currency transfer at a quoted rate: two journals, one per currency, each balanced in
 * its own currency, committed with the quote's consumption in ONE TransactWriteItems
 * (docs/money-operations.md#fx-and-treasury). Same sign conventions as payments: the system
 * accounts that receive money take the debit side.
 *
 *   sell journal (from currency): customer source  credit sell
 *                                 FX position      debit  sell − spread
 *                                 FX revenue       debit  spread        (left out when 0)
 *   buy journal (to currency):    FX position      credit buy
 *                                 customer target  debit  buy
 */

/** The buy journal's id: derived from the sell journal's, so a keyed retry finds both. */
const buyJournalId = (ownerId: string, idempotencyKey: string | null) =>
  journalIdFor(ownerId, idempotencyKey ? `${idempotencyKey}\u0000fx-buy` : null);

export function fxDrafts(
  ownerId: string,
  from: Account,
  to: Account,
  quote: StoredQuote,
  system: { fromPosition: Account; fromRevenue: Account; toPosition: Account },
  description: string,
  actor: Actor | null,
): [JournalDraft, JournalDraft] {
  const text =
    description || `Exchange ${from.currency} ${from.name} to ${to.currency} ${to.name} at ${quote.mid_rate}`;
  const sell: JournalDraft = {
    type: "fx",
    ownerId,
    actor,
    currency: from.currency,
    description: text,
    legs: [
      { account: from, side: "credit", amount: quote.sell_minor },
      { account: system.fromPosition, side: "debit", amount: quote.sell_minor - quote.spread_minor },
      ...(quote.spread_minor > 0
        ? [{ account: system.fromRevenue, side: "debit" as const, amount: quote.spread_minor }]
        : []),
    ],
  };
  const buy: JournalDraft = {
    type: "fx",
    ownerId,
    actor,
    currency: to.currency,
    description: text,
    legs: [
      { account: system.toPosition, side: "credit", amount: quote.buy_minor },
      { account: to, side: "debit", amount: quote.buy_minor },
    ],
  };
  return [sell, buy];
}

async function systemAccounts(ctx: CoreContext, quote: StoredQuote) {
  const ids = {
    fromPosition: systemAccountId("fx", quote.from_currency),
    fromRevenue: systemAccountId("fxrevenue", quote.from_currency),
    toPosition: systemAccountId("fx", quote.to_currency),
  };
  const found = await getAccounts(ctx, Object.values(ids));
  const pick = (id: string) => {
    const account = found.get(id);
    if (!account) throw new Error(`System account ${id} is missing: run the seed (it runs at start-up)`);
    return account;
  };
  return { fromPosition: pick(ids.fromPosition), fromRevenue: pick(ids.fromRevenue), toPosition: pick(ids.toPosition) };
}

/** The quote a transfer names: a bounded id (junk is a 400), then the stored quote or null. */
export async function quoteForTransfer(ctx: CoreContext, quoteId: string): Promise<StoredQuote | null> {
  if (!isLedgerId(quoteId)) throw badRequest(FX_MESSAGES.invalidQuoteId, "validation_error");
  return loadQuote(ctx, quoteId);
}

/**
 * Books a quoted conversion between two of the owner's accounts. The caller has validated the
 * request (accounts the owner's, the amount in the source currency); the business checks (the
 * transfer's own and the quote's) happen here, inside the caller's recorded decision.
 */
export async function createFxTransfer(
  ctx: CoreContext,
  request: {
    ownerId: string;
    from: Account;
    to: Account;
    sellMinor: number;
    quote: StoredQuote | null;
    description: string;
    actor: Actor | null;
  },
  idempotency: Idempotency,
  checks: () => void,
): Promise<string | JournalReplay> {
  const { ownerId, from, to, quote } = request;
  const sellId = journalIdFor(ownerId, idempotency.key);
  const buyId = buyJournalId(ownerId, idempotency.key);
  checks();
  const refusal = quoteRefusal(ctx, quote, ownerId, {
    from: from.currency,
    to: to.currency,
    sellMinor: request.sellMinor,
  });
  if (refusal || !quote) throw refusal;
  const [sellDraft, buyDraft] = fxDrafts(
    ownerId,
    from,
    to,
    quote,
    await systemAccounts(ctx, quote),
    request.description,
    request.actor,
  );
  const legs = [...sellDraft.legs, ...buyDraft.legs];
  for (let attempt = 1; ; attempt++) {
    try {
      return await withChains(ctx, legs, async (chains) => {
        const sellChains = chains.slice(0, sellDraft.legs.length);
        const buyChains = chains.slice(sellDraft.legs.length);
        const sell = await plannedVersions(ctx, sellChains, sellDraft.legs, "create", { id: sellId, type: "fx" });
        const buy = await plannedVersions(ctx, buyChains, buyDraft.legs, "create", { id: buyId, type: "fx" });
        const sellJournal = newJournal(sellId, sellDraft, idempotency, sell.at);
        const buyJournal = newJournal(buyId, buyDraft, { key: null, hash: idempotency.hash }, buy.at);
        const reply = JSON.stringify({
          message: "Transaction created",
          data: journalReply(sellJournal),
          fx: { quote_id: quote.id, journals: [journalReply(sellJournal), journalReply(buyJournal)] },
        });
        sellJournal.created_reply = reply;
        buyJournal.created_reply = reply;
        const items = [
          journalPut(ctx, sellJournal),
          consumeQuote(ctx, quote, ownerId, sellId),
          journalPut(ctx, buyJournal),
          ...versionPuts(ctx, sell.versions),
          ...versionPuts(ctx, buy.versions),
        ];
        await sendWrite(ctx, items, [...sell.versions, ...buy.versions]);
        ctx.logger.debug("fx transfer created", { journal_id: sellId, quote_id: quote.id, attempt });
        return reply;
      });
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes?.[0] === "ConditionalCheckFailed" || (error instanceof AppError && idempotency.key)) {
        // The key's item exists: the journal of an earlier attempt, or its recorded refusal.
        const existing = await loadDecision(ctx, sellId);
        if (existing) return replayOrMismatch(existing, idempotency);
      }
      if (codes?.[1] === "ConditionalCheckFailed") {
        // The quote was used (or expired) since it was read: say which.
        throw (
          quoteRefusal(ctx, await loadQuote(ctx, quote.id), ownerId, {
            from: from.currency,
            to: to.currency,
            sellMinor: request.sellMinor,
          }) ?? conflict(LEDGER_MESSAGES.idempotencyInProgress, "idempotency_in_progress")
        );
      }
      if (codes?.[0] === "TransactionConflict" && idempotency.key)
        throw conflict(LEDGER_MESSAGES.idempotencyInProgress, "idempotency_in_progress");
      if (!codes) throw error;
      if (attempt >= MAX_ATTEMPTS) throw ledgerBusy();
      await pause(attempt);
    }
  }
}
