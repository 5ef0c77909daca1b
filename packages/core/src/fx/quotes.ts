import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import type { CoreContext } from "../shared/context";
import { isAwsError } from "../shared/dynamo";
import { badRequest, unprocessable } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { Currency, parseAmount } from "../money/model";
import { journalIdFor, requestHash } from "../ledger/journals";
import { isLedgerId } from "../ledger/model";
import { quoteKey } from "./keys";
import { FX_MESSAGES, pairOf, QUOTE_TTL_MS, QuoteInput, quoteFigures, quoteMoney, type QuoteReply } from "./model";
import { currentRate } from "./rates";

/**
 * Quotes: a customer rate locked for QUOTE_TTL_MS, owned by whoever asked for it, used at most
 * once (the transfer that uses it marks it in the same transaction: ledger/fx-journals.ts).
 */

export const StoredQuote = z.object({
  id: z.string(),
  owner_id: z.string(),
  from_currency: Currency,
  to_currency: Currency,
  mid_rate: z.string(),
  customer_rate: z.string(),
  spread: z.string(),
  sell_minor: z.number().int().positive(),
  spread_minor: z.number().int().nonnegative(),
  buy_minor: z.number().int().positive(),
  created_at: z.string(),
  expires_at: z.string(),
  /** The journal (the sell side) of the transfer that used it; absent while unused. */
  used_by: z.string().optional(),
  request_hash: z.string(),
});
export type StoredQuote = z.infer<typeof StoredQuote>;

export function quoteReply(quote: StoredQuote): QuoteReply {
  return {
    id: quote.id,
    fromCurrency: quote.from_currency,
    toCurrency: quote.to_currency,
    midRate: quote.mid_rate,
    customerRate: quote.customer_rate,
    spread: quote.spread,
    sellAmount: quoteMoney(quote.sell_minor, quote.from_currency),
    buyAmount: quoteMoney(quote.buy_minor, quote.to_currency),
    spreadAmount: quoteMoney(quote.spread_minor, quote.from_currency),
    createdAt: quote.created_at,
    expiresAt: quote.expires_at,
    used: quote.used_by !== undefined,
  };
}

export async function loadQuote(ctx: CoreContext, quoteId: string): Promise<StoredQuote | null> {
  if (!isLedgerId(quoteId)) return null;
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: quoteKey(quoteId), ConsistentRead: true }),
  );
  return reply.Item ? StoredQuote.parse(reply.Item) : null;
}

/**
 * A new quote at the pair's current rate. With an Idempotency-Key the quote's id comes from
 * (owner, key): a retry gets the same quote back; the same key with another body is a 422.
 */
export async function createQuote(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  idempotencyKey: string | null,
): Promise<{ quote: QuoteReply; replayed: boolean }> {
  const input = parseWith(QuoteInput, body);
  const parsed = parseAmount(input.amount, input.fromCurrency);
  if (!parsed.ok) throw badRequest(parsed.message, "invalid_amount");
  const hash = requestHash({ op: "fx_quote", from: input.fromCurrency, to: input.toCurrency, amount: parsed.minor });
  const id = journalIdFor(ownerId, idempotencyKey ? `fx-quote\u0000${idempotencyKey}` : null);
  if (idempotencyKey) {
    const earlier = await loadQuote(ctx, id);
    if (earlier) return replayOf(earlier, ownerId, hash);
  }
  const direction = pairOf(input.fromCurrency, input.toCurrency)!;
  const figures = quoteFigures(
    await currentRate(ctx, direction.pair),
    input.fromCurrency,
    input.toCurrency,
    parsed.minor,
  );
  if (!figures) throw unprocessable(FX_MESSAGES.amountTooSmall, "amount_too_small");
  const now = ctx.clock();
  const quote: StoredQuote = {
    id,
    owner_id: ownerId,
    from_currency: input.fromCurrency,
    to_currency: input.toCurrency,
    mid_rate: figures.midRate,
    customer_rate: figures.customerRate,
    spread: figures.spread,
    sell_minor: figures.sellMinor,
    spread_minor: figures.spreadMinor,
    buy_minor: figures.buyMinor,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + QUOTE_TTL_MS).toISOString(),
    request_hash: hash,
  };
  try {
    await ctx.db.doc.send(
      new PutCommand({
        TableName: ctx.db.table,
        Item: { ...quoteKey(id), entity: "fx_quote", ...quote },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  } catch (error) {
    if (!isAwsError(error, "ConditionalCheckFailedException")) throw error;
    const earlier = await loadQuote(ctx, id);
    if (!earlier) throw error;
    return replayOf(earlier, ownerId, hash);
  }
  return { quote: quoteReply(quote), replayed: false };
}

function replayOf(earlier: StoredQuote, ownerId: string, hash: string) {
  if (earlier.owner_id !== ownerId || earlier.request_hash !== hash)
    throw unprocessable("This Idempotency-Key was already used with a different request", "idempotency_key_reused");
  return { quote: quoteReply(earlier), replayed: true };
}

/** The caller's quote, for showing it again (another user's is not found). */
export async function getQuote(ctx: CoreContext, ownerId: string, quoteId: string): Promise<QuoteReply> {
  const quote = await loadQuote(ctx, quoteId);
  if (!quote || quote.owner_id !== ownerId) throw unprocessable(FX_MESSAGES.quoteNotFound, "quote_not_found");
  return quoteReply(quote);
}

/**
 * Why a quote cannot be used now by `ownerId` for this conversion, as the refusal to throw:
 * another user's quote is indistinguishable from a missing one.
 */
export function quoteRefusal(
  ctx: CoreContext,
  quote: StoredQuote | null,
  ownerId: string,
  use: { from: Currency; to: Currency; sellMinor: number },
) {
  if (!quote || quote.owner_id !== ownerId) return unprocessable(FX_MESSAGES.quoteNotFound, "quote_not_found");
  if (quote.used_by !== undefined) return unprocessable(FX_MESSAGES.quoteUsed, "quote_used");
  if (ctx.clock().getTime() >= Date.parse(quote.expires_at))
    return unprocessable(FX_MESSAGES.quoteExpired, "quote_expired");
  if (quote.from_currency !== use.from || quote.to_currency !== use.to || quote.sell_minor !== use.sellMinor)
    return unprocessable(FX_MESSAGES.quoteMismatch, "quote_mismatch");
  return null;
}

/** The conditional update that consumes a quote inside the transfer's transaction. */
export function consumeQuote(ctx: CoreContext, quote: StoredQuote, ownerId: string, journalId: string) {
  return {
    Update: {
      TableName: ctx.db.table,
      Key: quoteKey(quote.id),
      UpdateExpression: "SET used_by = :journal",
      ConditionExpression: "owner_id = :owner AND attribute_not_exists(used_by) AND expires_at > :now",
      ExpressionAttributeValues: {
        ":journal": journalId,
        ":owner": ownerId,
        ":now": ctx.clock().toISOString(),
      },
    },
  };
}
