/**
 * The ledger property tests' independent oracle: a model of every account's four totals and
 * every journal's status, with its own arithmetic and its own amount parser, that says what the
 * engine must answer to each request.
 */
import { needsSecondApprover } from "@fintech/core/approvals/model";
import { seededThreshold } from "@fintech/core/approvals/thresholds";
import { systemAccountId } from "@fintech/core/ledger/accounts";
import { createQuote } from "@fintech/core/fx/quotes";
import { pairOf } from "@fintech/core/fx/model";
import { seedRate } from "@fintech/core/fx/seed-rates";
import type { CoreContext } from "@fintech/core/shared/context";
import { AppError } from "@fintech/core/shared/errors";
import { RECORDED_REFUSALS } from "@fintech/core/ledger/decisions";
import { MAX_AMOUNT_MAJOR, toDecimalString, type Currency } from "@fintech/core/money/model";
import {
  isStatus,
  isStatusCommand,
  type AmountSpec,
  type CreateRequest,
  type CurrencyChoice,
  type FxQuoteChoice,
  type Outcome,
  type Request,
  type SimpleCommand,
} from "./commands";

export type Side = "debit" | "credit";
export interface Totals {
  posted_debits: number;
  posted_credits: number;
  pending_debits: number;
  pending_credits: number;
}
export const zero = (): Totals => ({ posted_debits: 0, posted_credits: 0, pending_debits: 0, pending_credits: 0 });

/** The oracle's own arithmetic (deliberately not the engine's applyEntry/figures). */
export function apply(t: Totals, side: Side, amount: number, op: "create" | "post" | "unpost"): Totals {
  const d = side === "debit";
  const next = { ...t };
  const pendingDelta = op === "create" ? amount : op === "post" ? -amount : amount;
  const postedDelta = op === "create" ? 0 : op === "post" ? amount : -amount;
  if (d) {
    next.pending_debits += pendingDelta;
    next.posted_debits += postedDelta;
  } else {
    next.pending_credits += pendingDelta;
    next.posted_credits += postedDelta;
  }
  return next;
}
/** Spendable: posted balance on the normal side less pending outflows. */
export function availableOf(t: Totals, normal: Side): number {
  return normal === "debit"
    ? t.posted_debits - t.posted_credits - t.pending_credits
    : t.posted_credits - t.posted_debits - t.pending_debits;
}
export const postedOf = (t: Totals, normal: Side) =>
  normal === "debit" ? t.posted_debits - t.posted_credits : t.posted_credits - t.posted_debits;
export const sameTotals = (a: Totals, b: Totals) =>
  a.posted_debits === b.posted_debits &&
  a.posted_credits === b.posted_credits &&
  a.pending_debits === b.pending_debits &&
  a.pending_credits === b.pending_credits;
export const totalsOf = (t: Totals): Totals => ({
  posted_debits: t.posted_debits,
  posted_credits: t.posted_credits,
  pending_debits: t.pending_debits,
  pending_credits: t.pending_credits,
});

export interface ModelAccount {
  id: string;
  owner: string;
  name: string;
  currency: Currency;
  normal: Side;
  kind: "customer" | "system";
}
export interface Leg {
  account: string;
  side: Side;
  amount: number;
}
interface ModelJournal {
  id: string;
  owner: string;
  legs: Leg[];
  status: "draft" | "posted";
  /** A deposit above the seeded four-eyes threshold: its owner's post is refused (approvals/deposits.ts). */
  needsSecondApprover?: boolean;
}
interface CreatePlan {
  legs: Leg[];
  type: string;
  currency: Currency;
  minor: number;
  /** A quoted conversion: its two journals' legs (sell, then buy), whose union is `legs`. */
  fx?: { sell: Leg[]; buy: Leg[]; quoteId: string };
}
/** A quote as the oracle knows it: who asked, for what, and whether a transfer used it. */
interface ModelQuote {
  id: string;
  owner: string;
  from: Currency;
  to: Currency;
  sell: number;
  spread: number;
  buy: number;
  used: boolean;
}

/**
 * The oracle's own quote arithmetic over the seed rates (no rate is set in these runs): spread
 * half-up to the source's minor unit, (sell − spread) × mid rounded down to the target's.
 */
export function oracleQuote(from: Currency, to: Currency, sell: number): { spread: number; buy: number } {
  const direction = pairOf(from, to)!;
  const scale = 10n ** 8n;
  const [whole, fraction = ""] = seedRate(direction.pair).mid.split(".");
  const mid = BigInt(whole!) * scale + BigInt(fraction.padEnd(8, "0"));
  const rate = direction.inverted ? (2n * scale * scale + mid) / (2n * mid) : mid;
  const spread = (2n * BigInt(sell) * 5_000n + 1_000_000n) / 2_000_000n;
  const buy = ((BigInt(sell) - spread) * rate * 10n ** BigInt(DECIMALS[to])) / (scale * 10n ** BigInt(DECIMALS[from]));
  return { spread: Number(spread), buy: Number(buy) };
}
export type Expected =
  | { ok: true; replay: string }
  | { ok: true; create: CreatePlan }
  | { ok: true; status: { journalId: string; op: "post" | "unpost" } }
  | { ok: false; status: number; code: string };

export const CURRENCIES: Currency[] = ["USD", "EUR", "GBP", "JPY"];
const DECIMALS: Record<Currency, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0, INR: 2 };
const TEST_BALANCE_MAX_MINOR = (currency: Currency) => 100_000 * 10 ** DECIMALS[currency];
const TEST_BALANCE_DEFAULT_MINOR = (currency: Currency) => 1_000 * 10 ** DECIMALS[currency];

/** What a client sends for an amount; numbers are exact decimals (1234 minor USD -> 12.34). */
export function amountValue(spec: AmountSpec, currency: Currency): number | string {
  if (spec.form === "bad") return spec.text;
  return spec.form === "number" ? spec.minor / 10 ** DECIMALS[currency] : toDecimalString(spec.minor, currency);
}

/**
 * The ledger as the oracle expects it: the effects of every acknowledged write, nothing else.
 * Also remembers every keyed request and the stored reply per idempotency scope.
 */
export class Model {
  readonly totals = new Map<string, Totals>();
  readonly journals = new Map<string, ModelJournal>();
  readonly journalOrder: string[] = [];
  readonly keyedRequests: Request[] = [];
  /** scope (owner+key for creates, journal+key for post/unpost) -> request fingerprint and stored reply */
  readonly stored = new Map<
    string,
    { fingerprint: string; body?: string; refusal?: { status: number; code: string } }
  >();
  /** Items every acknowledged write added, to compare with the table. */
  expectedWrites = 0;
  /** Owner#currency pairs with rolling deposit totals (limits/gate.ts): one item each, made by the first deposit. */
  readonly limitTotals = new Set<string>();
  readonly quotes = new Map<string, ModelQuote>();
  /** Accounts converted to credit shards (credit-shards.ts), with the conversion's commit instant. */
  readonly creditShards = new Map<string, string>();
  /** What quote a quoted transfer request wants, until prepareQuote has asked for it. */
  private readonly quoteWanted = new WeakMap<Request, { choice: FxQuoteChoice; sell: number }>();
  private keyCounter = 0;

  constructor(
    readonly accounts: ModelAccount[],
    readonly system: Map<string, ModelAccount>,
    readonly runId: string,
  ) {
    for (const account of [...accounts, ...system.values()]) this.totals.set(account.id, zero());
  }

  account(id: string): ModelAccount {
    const found = this.accounts.find((account) => account.id === id) ?? this.system.get(id);
    if (!found) throw new Error(`unknown account ${id}`);
    return found;
  }

  private instanceCounter = 0;
  /** Which instance serves the next one-by-one request: round robin. */
  nextInstance(): number {
    return this.instanceCounter++;
  }

  freshKey(): string {
    return `${this.runId}-k${++this.keyCounter}`;
  }

  available(id: string): number {
    return availableOf(this.totals.get(id)!, this.account(id).normal);
  }

  /** Builds the concrete request of a fresh command (null when it has nothing to act on). */
  request(command: SimpleCommand, forceKey = false): Request | null {
    const key = command.keyed || forceKey ? this.freshKey() : null;
    const n = this.accounts.length;
    if (isStatusCommand(command)) {
      if (this.journalOrder.length === 0) return null;
      const count = this.journalOrder.length;
      const index = command.recent ? count - 1 - (command.journal % Math.min(count, 3)) : command.journal % count;
      const journal = this.journals.get(this.journalOrder[index]!)!;
      const stranger = this.accounts.find((account) => account.owner !== journal.owner)!;
      return {
        fn: command.kind,
        owner: command.asStranger ? stranger.owner : journal.owner,
        journalId: journal.id,
        key,
      };
    }
    if (command.kind === "fx") {
      const from = this.accounts[command.from % n]!;
      const to = this.accounts[command.to % n]!;
      const body: Record<string, unknown> = {
        from_account_id: from.id,
        to_account_id: to.id,
        amount: amountValue(command.amount, from.currency),
        quote_id: "not-asked-yet",
      };
      const request: Request = { fn: "transfer", owner: from.owner, body, key };
      const sell = command.amount.form === "bad" ? 10_000 : command.amount.minor;
      this.quoteWanted.set(request, { choice: command.quote, sell });
      return request;
    }
    if (command.kind === "transfer") {
      const from = this.accounts[command.from % n]!;
      const to = this.accounts[command.to % n]!;
      const body: Record<string, unknown> = {
        from_account_id: from.id,
        to_account_id: to.id,
        amount: amountValue(command.amount, from.currency),
      };
      const currency = currencyFor(command.currency, from.currency);
      if (currency) body.currency = currency;
      if (command.description !== null) body.description = command.description;
      return { fn: "transfer", owner: from.owner, body, key };
    }
    const account = this.accounts[command.account % n]!;
    const body: Record<string, unknown> = { account_id: account.id };
    if (command.kind === "deposit") {
      body.amount = amountValue(command.amount, account.currency);
      const currency = currencyFor(command.currency, account.currency);
      if (currency) body.currency = currency;
      if (command.description !== null) body.description = command.description;
    } else if (command.amount) {
      body.amount = amountValue(command.amount, account.currency);
    }
    return { fn: command.kind, owner: account.owner, body, key };
  }

  /**
   * Asks the engine for the quote a quoted transfer request names (just before it is sent, so it
   * is live): checks the quote's figures against the oracle's own and counts its item.
   */
  async prepareQuote(ctx: CoreContext, request: Request): Promise<string[]> {
    const wanted = isStatus(request) ? undefined : this.quoteWanted.get(request);
    if (!wanted || isStatus(request)) return [];
    this.quoteWanted.delete(request);
    const from = this.account(request.body.from_account_id as string);
    const to = this.account(request.body.to_account_id as string);
    if (wanted.choice === "reused") {
      const used = [...this.quotes.values()].find((quote) => quote.used && quote.owner === request.owner);
      if (used) {
        request.body.quote_id = used.id;
        return [];
      }
    }
    const owner =
      wanted.choice === "foreign"
        ? this.accounts.find((account) => account.owner !== request.owner)!.owner
        : request.owner;
    const sell = wanted.choice === "mismatch" ? wanted.sell + 1 : wanted.sell;
    try {
      const { quote } = await createQuote(
        ctx,
        owner,
        { fromCurrency: from.currency, toCurrency: to.currency, amount: toDecimalString(sell, from.currency) },
        null,
      );
      const minor = (text: string, currency: Currency) => Math.round(Number(text) * 10 ** DECIMALS[currency]);
      const figures = {
        id: quote.id,
        owner,
        from: from.currency,
        to: to.currency,
        sell: minor(quote.sellAmount, from.currency),
        spread: minor(quote.spreadAmount, from.currency),
        buy: minor(quote.buyAmount, to.currency),
        used: false,
      };
      this.quotes.set(quote.id, figures);
      this.expectedWrites += 1;
      request.body.quote_id = quote.id;
      const want = oracleQuote(from.currency, to.currency, sell);
      return figures.spread === want.spread && figures.buy === want.buy && figures.sell === sell
        ? []
        : [`quote ${JSON.stringify(quote)}: oracle wants spread ${want.spread}, buy ${want.buy} (minor)`];
    } catch (error) {
      // Past the largest amount: no quote, and the transfer is refused for its amount (400) first.
      if (
        error instanceof AppError &&
        error.code === "invalid_amount" &&
        sell > MAX_AMOUNT_MAJOR * 10 ** DECIMALS[from.currency]
      ) {
        request.body.quote_id = `${this.runId}-no-quote`;
        return [];
      }
      // Too small to convert: the transfer names a quote that does not exist.
      if (!(error instanceof AppError) || error.code !== "amount_too_small") throw error;
      if (oracleQuote(from.currency, to.currency, sell).buy > 0) return [`quote of ${sell} refused: ${error.message}`];
      request.body.quote_id = `${this.runId}-no-quote`;
      return [];
    }
  }

  /** The same request again, or an equivalent one, or one that differs (same key). */
  variant(request: Request, variant: "same" | "equivalent" | "different"): Request {
    if (variant === "same") return request;
    if (isStatus(request)) {
      return variant === "equivalent" ? { ...request } : { ...request, fn: request.fn === "post" ? "unpost" : "post" };
    }
    const body = { ...request.body };
    const currency = this.currencyOfRequest(request);
    const amount = body.amount;
    if (variant === "equivalent") {
      // 12.5 and "12.50" are the same amount: the engine hashes the parsed minor units.
      if (typeof amount === "number")
        body.amount = toDecimalString(Math.round(amount * 10 ** DECIMALS[currency]), currency);
      else if (typeof amount === "string" && /^\d+(\.\d+)?$/.test(amount))
        body.amount = ` ${amount}${DECIMALS[currency] > 0 ? "0" : ""} `;
      return { ...request, body };
    }
    if (typeof amount === "number")
      body.amount = (Math.round(amount * 10 ** DECIMALS[currency]) + 1) / 10 ** DECIMALS[currency];
    else body.description = `${String(body.description ?? "")} (changed)`;
    return { ...request, body };
  }

  private currencyOfRequest(request: CreateRequest): Currency {
    const id = (request.body.account_id ?? request.body.from_account_id) as string;
    return this.account(id).currency;
  }

  /** What the engine must answer to this request, given the model (sequential semantics). */
  expect(request: Request): Expected {
    if (isStatus(request)) {
      const journal = this.journals.get(request.journalId);
      if (!journal || journal.owner !== request.owner) return { ok: false, status: 404, code: "transaction_not_found" };
      if (request.fn === "post" && journal.status === "draft" && journal.needsSecondApprover)
        return { ok: false, status: 403, code: "second_approver_required" };
      if (request.key) {
        const stored = this.stored.get(`J#${journal.id}#${request.key}`);
        if (stored)
          return stored.fingerprint === request.fn
            ? storedOutcome(stored)
            : { ok: false, status: 422, code: "idempotency_key_reused" };
      }
      if (request.fn === "post" && journal.status !== "draft")
        return { ok: false, status: 409, code: "already_posted" };
      if (request.fn === "unpost" && journal.status !== "posted") return { ok: false, status: 409, code: "not_posted" };
      if (!this.fundsAllow(journal.legs, request.fn)) return { ok: false, status: 422, code: "insufficient_funds" };
      return { ok: true, status: { journalId: journal.id, op: request.fn } };
    }
    const built = this.build(request);
    // Validation errors come before the key's earlier decision; business refusals after it.
    if ("error" in built && !RECORDED_REFUSALS.has(built.error.code)) return built.error;
    if (request.key) {
      const stored = this.stored.get(`O#${request.owner}#${request.key}`);
      if (stored)
        return stored.fingerprint === this.fingerprint(request)
          ? storedOutcome(stored)
          : { ok: false, status: 422, code: "idempotency_key_reused" };
    }
    if ("error" in built) return built.error;
    const { legs } = built;
    if (!this.fundsAllow(legs, "create")) return { ok: false, status: 422, code: "insufficient_funds" };
    return { ok: true, create: built };
  }

  /** Validation and legs of a create request, in the engine's order of checks; no funds check. */
  private build(request: CreateRequest): { error: Expected & { ok: false } } | CreatePlan {
    const body = request.body;
    let legs: Leg[];
    let currency: Currency;
    let minor: number;
    const refuse = (status: number, code: string) => ({ error: { ok: false as const, status, code } });
    if (request.fn === "transfer") {
      const from = this.account(body.from_account_id as string);
      const to = this.account(body.to_account_id as string);
      // The engine's order: the accounts exist and are the caller's, the amount, then the business checks.
      if (to.owner !== request.owner) return refuse(404, "account_not_found");
      const parsed = minorOf(body.amount, from.currency);
      if (parsed === null) return refuse(400, "invalid_amount");
      if (from.id === to.id) return refuse(400, "same_account");
      const asked = body.currency as Currency | undefined;
      if (asked && asked !== from.currency) return refuse(400, "currency_mismatch");
      if (body.quote_id !== undefined) {
        const quote = this.quotes.get(body.quote_id as string);
        if (!quote || quote.owner !== request.owner) return refuse(422, "quote_not_found");
        if (quote.used) return refuse(422, "quote_used");
        if (quote.from !== from.currency || quote.to !== to.currency || quote.sell !== parsed)
          return refuse(422, "quote_mismatch");
        const sell: Leg[] = [
          { account: from.id, side: "credit", amount: quote.sell },
          { account: systemAccountId("fx", from.currency), side: "debit", amount: quote.sell - quote.spread },
          ...(quote.spread > 0
            ? [{ account: systemAccountId("fxrevenue", from.currency), side: "debit" as const, amount: quote.spread }]
            : []),
        ];
        const buy: Leg[] = [
          { account: systemAccountId("fx", to.currency), side: "credit", amount: quote.buy },
          { account: to.id, side: "debit", amount: quote.buy },
        ];
        return {
          legs: [...sell, ...buy],
          type: "fx",
          currency: from.currency,
          minor: parsed,
          fx: { sell, buy, quoteId: quote.id },
        };
      }
      if ((asked ?? from.currency) !== to.currency) return refuse(400, "currency_mismatch");
      currency = from.currency;
      minor = parsed;
      legs = [
        { account: from.id, side: "credit", amount: minor },
        { account: to.id, side: "debit", amount: minor },
      ];
    } else {
      const account = this.account(body.account_id as string);
      const asked = body.currency as Currency | undefined;
      const parsed =
        body.amount === undefined && request.fn === "test_balance"
          ? TEST_BALANCE_DEFAULT_MINOR(account.currency)
          : minorOf(body.amount, account.currency);
      if (parsed === null) return refuse(400, "invalid_amount");
      if (request.fn === "test_balance" && parsed > TEST_BALANCE_MAX_MINOR(account.currency))
        return refuse(400, "invalid_amount");
      if (asked && asked !== account.currency) return refuse(400, "currency_mismatch");
      currency = account.currency;
      minor = parsed;
      const counterparty = systemAccountId(request.fn === "deposit" ? "funding" : "sandbox", currency);
      legs = [
        { account: account.id, side: account.normal, amount: minor },
        { account: counterparty, side: account.normal === "debit" ? "credit" : "debit", amount: minor },
      ];
    }
    return { legs, type: request.fn, currency, minor };
  }

  /** Customer accounts refuse a change that lowers their available balance below zero. */
  private fundsAllow(legs: Leg[], op: "create" | "post" | "unpost"): boolean {
    return legs.every((leg) => {
      const account = this.account(leg.account);
      if (account.kind !== "customer") return true;
      const before = availableOf(this.totals.get(leg.account)!, account.normal);
      const after = availableOf(apply(this.totals.get(leg.account)!, leg.side, leg.amount, op), account.normal);
      return !(after < before && after < 0);
    });
  }

  /** What makes two create requests "the same" for the engine: parsed fields, amount in minor units. */
  fingerprint(request: Request): string {
    if (isStatus(request)) return request.fn;
    const body = request.body;
    const currency = this.currencyOfRequest(request);
    return JSON.stringify([
      request.fn,
      body.account_id ?? null,
      body.from_account_id ?? null,
      body.to_account_id ?? null,
      body.amount === undefined ? null : minorOf(body.amount, currency),
      body.currency ?? null,
      body.description ?? (request.fn === "test_balance" ? null : ""),
      body.quote_id ?? null,
    ]);
  }

  /**
   * Records what an acknowledged (or refused) request did. A fresh success applies its effect;
   * a replay or an error applies nothing.
   */
  record(request: Request, outcome: Outcome): void {
    if (request.key && !this.keyedRequests.includes(request)) this.keyedRequests.push(request);
    if (!outcome.ok && request.key && RECORDED_REFUSALS.has(outcome.code)) {
      // A keyed business refusal is recorded (one item), unless it replayed an earlier one.
      const scope = isStatus(request) ? `J#${request.journalId}#${request.key}` : `O#${request.owner}#${request.key}`;
      if (!this.stored.has(scope)) {
        this.stored.set(scope, {
          fingerprint: isStatus(request) ? request.fn : this.fingerprint(request),
          refusal: { status: outcome.status, code: outcome.code },
        });
        this.expectedWrites += 1;
      }
      return;
    }
    if (!outcome.ok || outcome.replayed) return;
    const data = (JSON.parse(outcome.body) as { data: { id: string } }).data;
    if (isStatus(request)) {
      const journal = this.journals.get(request.journalId)!;
      for (const leg of journal.legs)
        this.totals.set(leg.account, apply(this.totals.get(leg.account)!, leg.side, leg.amount, request.fn));
      journal.status = request.fn === "post" ? "posted" : "draft";
      if (request.key)
        this.stored.set(`J#${journal.id}#${request.key}`, { fingerprint: request.fn, body: outcome.body });
      // The journal item is overwritten, one new version per leg, and a keyed call adds its OPKEY# record.
      this.expectedWrites += journal.legs.length + (request.key ? 1 : 0);
      return;
    }
    const plan = this.createPlan(request);
    const expected = plan.legs;
    for (const leg of expected)
      this.totals.set(leg.account, apply(this.totals.get(leg.account)!, leg.side, leg.amount, "create"));
    if (plan.fx) {
      // Two journals, one per currency; the quote is marked used in the same transaction.
      const journals = (JSON.parse(outcome.body) as { fx: { journals: { id: string }[] } }).fx.journals;
      for (const [index, legs] of [plan.fx.sell, plan.fx.buy].entries()) {
        const id = journals[index]!.id;
        this.journals.set(id, { id, owner: request.owner, legs, status: "draft" });
        this.journalOrder.push(id);
      }
      this.quotes.get(plan.fx.quoteId)!.used = true;
      if (request.key)
        this.stored.set(`O#${request.owner}#${request.key}`, {
          fingerprint: this.fingerprint(request),
          body: outcome.body,
        });
      this.expectedWrites += 2 + expected.length;
      return;
    }
    const fourEyes =
      request.fn === "deposit" &&
      needsSecondApprover(
        seededThreshold("deposit", this.account(String(request.body.account_id)).currency),
        expected[0]!.amount,
      );
    this.journals.set(data.id, {
      id: data.id,
      owner: request.owner,
      legs: expected,
      status: "draft",
      needsSecondApprover: fourEyes,
    });
    this.journalOrder.push(data.id);
    if (request.key)
      this.stored.set(`O#${request.owner}#${request.key}`, {
        fingerprint: this.fingerprint(request),
        body: outcome.body,
      });
    this.expectedWrites += 1 + expected.length;
    if (request.fn === "deposit")
      this.countDepositTotals(request.owner, this.account(String(request.body.account_id)).currency);
  }

  /** A deposit adds to its owner's totals in its currency: the first one creates that item, later ones replace it. */
  countDepositTotals(owner: string, currency: string): void {
    const key = `${owner}#${currency}`;
    if (this.limitTotals.has(key)) return;
    this.limitTotals.add(key);
    this.expectedWrites += 1;
  }

  private createPlan(request: Request): CreatePlan {
    const built = isStatus(request) ? null : this.build(request);
    if (!built || "error" in built)
      throw new Error(`engine accepted ${JSON.stringify(request)} which the oracle refuses`);
    return built;
  }

  /** The journal a successful create/post/unpost reply names must carry what was asked. */
  checkReply(request: Request, outcome: Outcome & { ok: true }): string[] {
    const problems: string[] = [];
    const reply = JSON.parse(outcome.body) as {
      message: string;
      data: {
        id: string;
        type: string;
        status: string;
        amount: string;
        currency: string;
        entries: { account_id: string; side: string; amount_minor: number }[];
      };
    };
    if (isStatus(request)) {
      if (reply.data.id !== request.journalId)
        problems.push(`${request.fn} reply names journal ${reply.data.id}, not ${request.journalId}`);
      const want = request.fn === "post" ? "posted" : "draft";
      if (reply.data.status !== want) problems.push(`${request.fn} reply status ${reply.data.status}, want ${want}`);
      return problems;
    }
    const built = this.build(request);
    if ("error" in built) return [`success for a request the oracle refuses: ${JSON.stringify(request)}`];
    const { legs, currency, minor, type } = built;
    if (built.fx) {
      const journals = (JSON.parse(outcome.body) as { fx?: { journals: (typeof reply.data)[] } }).fx?.journals ?? [];
      const entries = (journal: typeof reply.data | undefined) =>
        (journal?.entries ?? []).map((entry) => `${entry.account_id}/${entry.side}/${entry.amount_minor}`).sort();
      const legsOf = (want: Leg[]) => want.map((leg) => `${leg.account}/${leg.side}/${leg.amount}`).sort();
      for (const [index, want] of [built.fx.sell, built.fx.buy].entries()) {
        const journal = journals[index];
        if (journal?.type !== "fx" || journal.status !== "draft")
          problems.push(`fx journal ${index}: ${journal?.type}`);
        if (JSON.stringify(entries(journal)) !== JSON.stringify(legsOf(want)))
          problems.push(`fx journal ${index} entries ${entries(journal).join(",")}, want ${legsOf(want).join(",")}`);
      }
      if (reply.data.id !== journals[0]?.id) problems.push("fx reply's data is not its sell journal");
      return problems;
    }
    if (reply.data.type !== type) problems.push(`type ${reply.data.type}, want ${type}`);
    if (reply.data.status !== "draft") problems.push(`new journal status ${reply.data.status}`);
    if (reply.data.currency !== currency) problems.push(`currency ${reply.data.currency}, want ${currency}`);
    if (reply.data.amount !== toDecimalString(minor, currency))
      problems.push(`amount ${reply.data.amount}, want ${toDecimalString(minor, currency)}`);
    const got = reply.data.entries.map((entry) => `${entry.account_id}/${entry.side}/${entry.amount_minor}`).sort();
    const want = legs.map((leg) => `${leg.account}/${leg.side}/${leg.amount}`).sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`entries ${got.join(",")}, want ${want.join(",")}`);
    return problems;
  }
}

function currencyFor(choice: CurrencyChoice, own: Currency): Currency | null {
  if (choice === "omit") return null;
  if (choice === "right") return own;
  return CURRENCIES.find((currency) => currency !== own)!;
}

/** The oracle's own amount parser: exact decimal text -> minor units, or null when refused. */
function minorOf(value: unknown, currency: Currency): number | null {
  let text: string;
  if (typeof value === "number") text = String(value);
  else if (typeof value === "string")
    text = value; // decimal notation only: no surrounding spaces
  else return null;
  const match = /^(\d*)(?:\.(?=\d)(\d*[1-9])?0*)?$/.exec(text);
  if (!match || text === "") return null;
  const fraction = match[2] ?? "";
  if (fraction.length > DECIMALS[currency]) return null;
  const minor =
    BigInt(match[1]!) * 10n ** BigInt(DECIMALS[currency]) + BigInt(fraction.padEnd(DECIMALS[currency], "0") || "0");
  if (minor <= 0n || minor > 1_000_000_000n * 10n ** BigInt(DECIMALS[currency])) return null;
  return Number(minor);
}

/** What a retry under a key gets: the stored reply, or the stored refusal. */
function storedOutcome(stored: { body?: string; refusal?: { status: number; code: string } }): Expected {
  return stored.refusal ? { ok: false, ...stored.refusal } : { ok: true, replay: stored.body ?? "" };
}
