import type { CoreContext } from "../shared/context";
import { badRequest, forbidden, isAppError, AppError } from "../shared/errors";
import { consumeRateLimit, rateLimitSubject } from "../shared/rate-limit";
import { parseWith } from "../shared/validation";
import { parseAmount, toDecimalString, type Currency } from "../money/model";
import { gateMoney } from "../limits/gate";
import { arrivalEstimate } from "../rails/eligibility";
import { railCostMinor } from "../rails/cost";
import { destinationCountry } from "../rails/regions";
import { chooseRail } from "../rails/routing";
import { listRails } from "../rails/store";
import { gatePayment } from "./gate";
import { CreatePaymentInput, PAYMENT_MESSAGES, type PaymentCaller } from "./model";
import { paysSomeoneElse, requirePayerCanCover, resolvePayee, resolvePayer, type ResolvedPayee } from "./payees";
import { paymentIdFor } from "./service";

/**
 * The payment quote (POST /v1/payments/quote): what creating this payment now would do, without
 * doing it. The same body as POST /v1/payments, and the same refusals in the same order
 * (service.ts initiatePayment): shape (400), the caller (403), the amount (400), the payer's
 * accounts (404/422), the level (403 kyc_required), the routing (422 rail_ineligible /
 * no_eligible_rail / no_rail_available), the payer's funds (422 insufficient_funds, 423) and
 * limits (422 limit_exceeded), then the payee (422 payee_cannot_receive) and its screening (422
 * embargoed_country). So a quote tells the payer nothing a payment attempt would not: it is no
 * oracle. Nothing is written (the limits' totals are read, not reserved), and it is rate limited
 * per user like payment creation (its own allowance: QUOTES_PER_PAYMENT × the payment limit).
 *
 * The fee is the fee of the rail routing would pick now, in the payment's currency; total is
 * amount + fee, what the payment would hold. Routing's exploration share is decided from the
 * payment id, and a quote has none: it shows the best rail (preferredRail or forceRail apply).
 * The payment holds this same fee (rails/routing.ts routePayment) and never charges more
 * (worker.ts chargedFee), so the fee quoted is the most the payer pays, whichever rail carries it.
 */

export const QUOTES_PER_PAYMENT = 3;

export interface QuotedRail {
  rail: string;
  fee: string;
  feeCurrency: Currency;
  settlementSeconds: number;
}

export type QuotePayee =
  | { kind: "own"; name: string; accountId: string }
  | { kind: "user"; name: string; email: string }
  | { kind: "external"; name: string; accountLast4: string; country: string };

export interface PaymentQuote {
  amount: string;
  currency: Currency;
  rail: string;
  fee: string;
  feeCurrency: Currency;
  total: string;
  settlementSeconds: number;
  arrivalEstimate: string;
  payee: QuotePayee;
  eligible: QuotedRail[];
  excluded: { rail: string; reason: string }[];
}

/** The id routing hashes for a quote: fixed per caller (a quote never explores, so it only names the decision). */
const QUOTE_KEY = "quote";

async function limitQuotes(ctx: CoreContext, userId: string): Promise<void> {
  const limit = ctx.config.PAYMENT_RATE_LIMIT_PER_MINUTE * QUOTES_PER_PAYMENT;
  try {
    await consumeRateLimit(
      ctx.db,
      { scope: "payment:quote", limit, windowSeconds: 60 },
      rateLimitSubject(userId),
      ctx.clock(),
    );
  } catch (error) {
    if (!isAppError(error) || error.status !== 429) throw error;
    throw new AppError(
      429,
      error.code,
      `Too many quotes: at most ${limit} a minute. Try again in ${error.headers["Retry-After"] ?? "a few"} s.`,
      error.headers,
    );
  }
}

function payeeOf(payee: ResolvedPayee): QuotePayee {
  if (payee.view.kind === "account") return { kind: "own", name: payee.account.name, accountId: payee.account.id };
  if (payee.view.kind === "user") return { kind: "user", name: payee.view.email, email: payee.view.email };
  return {
    kind: "external",
    name: payee.view.name,
    accountLast4: payee.view.accountLast4,
    country: payee.view.country,
  };
}

export async function quotePayment(ctx: CoreContext, caller: PaymentCaller, body: unknown): Promise<PaymentQuote> {
  await limitQuotes(ctx, caller.userId);
  const input = parseWith(CreatePaymentInput, body);
  if (input.userId !== caller.userId) throw forbidden(PAYMENT_MESSAGES.userIdNotCaller, "not_your_user_id");
  const amount = parseAmount(input.amount, input.currency);
  if (!amount.ok) throw badRequest(amount.message, "invalid_amount");
  const amountMinor = amount.minor;

  const payerSide = await resolvePayer(ctx, caller, input);
  const moneyGate = await gateMoney(
    ctx,
    caller.userId,
    paysSomeoneElse(input) ? [{ movement: "outgoing", currency: input.currency, amountMinor }] : [],
  );
  const paymentId = paymentIdFor(caller.userId, QUOTE_KEY);
  const [decision, rails] = await Promise.all([
    chooseRail(ctx, {
      paymentId,
      amountMinor,
      currency: input.currency,
      country: destinationCountry(input),
      preferredRail: input.preferredRail,
      forceRail: input.forceRail,
      explore: false,
    }),
    listRails(ctx),
  ]);
  const rail = rails.find((candidate) => candidate.id === decision.chosenRailId);
  if (!rail) throw new Error(`quotePayment: rail ${decision.chosenRailId} vanished`);
  const fee = railCostMinor(rail, amountMinor, input.currency);
  await requirePayerCanCover(ctx, payerSide.payer, amountMinor + fee.totalMinor);
  await moneyGate.reserve();
  const payee = await resolvePayee(ctx, input, payerSide);
  await gatePayment(ctx, payee, input.currency, amountMinor);

  const money = (minor: number) => toDecimalString(minor, input.currency);
  const excludedIds = new Set(decision.excluded.map((entry) => entry.railId));
  const byId = new Map(rails.map((candidate) => [candidate.id, candidate]));
  const eligible = decision.candidates
    .filter((candidate) => candidate.status === "active" && !excludedIds.has(candidate.railId))
    .sort((a, b) => b.score - a.score)
    .map((candidate) => ({
      rail: candidate.rail,
      fee: candidate.cost,
      feeCurrency: input.currency,
      settlementSeconds: byId.get(candidate.railId)?.settlementSeconds ?? 0,
    }));
  return {
    amount: money(amountMinor),
    currency: input.currency,
    rail: rail.name,
    fee: money(fee.totalMinor),
    feeCurrency: input.currency,
    total: money(amountMinor + fee.totalMinor),
    settlementSeconds: rail.settlementSeconds,
    arrivalEstimate: arrivalEstimate(rail.settlementSeconds),
    payee: payeeOf(payee),
    eligible,
    excluded: decision.excluded.map((entry) => ({ rail: entry.rail, reason: entry.reason })),
  };
}
