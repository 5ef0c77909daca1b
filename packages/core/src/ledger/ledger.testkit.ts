/**
 * Test kit for the ledger property tests (ledger.property.test.ts): a command language, an
 * executor that calls the core services, an independent oracle (a model of every account's
 * four totals and every journal's status, with its own arithmetic) and whole-table invariant
 * checks. No vitest, no fast-check and nothing outside packages/core here, so this file
 * type-checks with the core project; the generators and the assertions live in the test file.
 */
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { CoreContext } from "../shared/context";
import { AppError } from "../shared/errors";
import { toDecimalString, type Currency } from "../money/model";
import { Account, getAccounts, systemAccountId } from "./accounts";
import { balanceAsOf, type VersionItem } from "./balances";
import { RECORDED_REFUSALS } from "./decisions";
import { unfoldVersion } from "./folded-versions";
import { Journal } from "./journals";
import { integrityCheck, replayTotals, trialBalance } from "./reports";
import {
  balanceOf,
  createAccount,
  deposit,
  setJournalStatus,
  testBalance,
  transfer,
  type WriteResult,
} from "./service";
import { allowMoneyForTests } from "../limits/limits.testkit";
import { needsSecondApprover } from "../approvals/model";
import { seededThreshold } from "../approvals/thresholds";

/* ------------------------------------------------------------------ commands */

/** An amount as a client might send it: a JSON number, a decimal string, or something invalid. */
export type AmountSpec = { form: "number" | "string"; minor: number } | { form: "bad"; text: string };
export type CurrencyChoice = "right" | "wrong" | "omit";

export type CreateCommand =
  | {
      kind: "deposit";
      account: number;
      amount: AmountSpec;
      currency: CurrencyChoice;
      keyed: boolean;
      description: string | null;
    }
  | { kind: "test_balance"; account: number; amount: AmountSpec | null; keyed: boolean }
  | {
      kind: "transfer";
      from: number;
      to: number;
      amount: AmountSpec;
      currency: CurrencyChoice;
      keyed: boolean;
      description: string | null;
    };
/** `journal` picks among all journals, or among the three newest when `recent`. */
export type StatusCommand = {
  kind: "post" | "unpost";
  journal: number;
  recent: boolean;
  keyed: boolean;
  asStranger: boolean;
};
export type SimpleCommand = CreateCommand | StatusCommand;

export type Step =
  | { kind: "one"; command: SimpleCommand }
  /** Re-send an earlier keyed request: byte-identical, equivalent (amount as string instead of number), or changed. */
  | { kind: "replay"; request: number; variant: "same" | "equivalent" | "different" }
  /** Fire one fresh keyed request several times at once. */
  | { kind: "duplicate"; command: SimpleCommand; copies: number }
  /** Unrelated fresh requests at once. */
  | { kind: "batch"; commands: SimpleCommand[] }
  /** Several transfers out of one account at once, each for a fraction of its available balance. */
  | { kind: "drain"; from: number; copies: number; fraction: number };

/** A concrete call of a core service. */
export interface CreateRequest {
  fn: "deposit" | "test_balance" | "transfer";
  owner: string;
  body: Record<string, unknown>;
  key: string | null;
}
export interface StatusRequest {
  fn: "post" | "unpost";
  owner: string;
  journalId: string;
  key: string | null;
}
export type Request = CreateRequest | StatusRequest;
const isStatus = (request: Request): request is StatusRequest => request.fn === "post" || request.fn === "unpost";
const isStatusCommand = (command: SimpleCommand): command is StatusCommand =>
  command.kind === "post" || command.kind === "unpost";

export type Outcome =
  | { ok: true; body: string; replayed: boolean }
  | { ok: false; status: number; code: string; message: string };

const describeOutcome = (outcome: Outcome) =>
  outcome.ok ? `ok${outcome.replayed ? " (replayed)" : ""}` : `${outcome.status} ${outcome.code}: ${outcome.message}`;

/** How often each kind of outcome was seen (request kind and result), to judge the generators. */
export const outcomeStats = new Map<string, number>();
const tally = (request: Request, outcome: Outcome) => {
  const label = `${request.fn}${request.key ? "+key" : ""} -> ${outcome.ok ? (outcome.replayed ? "replayed" : "ok") : outcome.code}`;
  outcomeStats.set(label, (outcomeStats.get(label) ?? 0) + 1);
  return outcome;
};

/** Calls the service; client errors become outcomes, anything else (a would-be 500) propagates. */
export async function execute(ctx: CoreContext, request: Request): Promise<Outcome> {
  return tally(request, await executeUntallied(ctx, request));
}

async function executeUntallied(ctx: CoreContext, request: Request): Promise<Outcome> {
  try {
    let result: WriteResult;
    switch (request.fn) {
      case "deposit":
        result = await deposit(ctx, request.owner, request.body, request.key);
        break;
      case "test_balance":
        result = await testBalance(ctx, request.owner, request.body, request.key);
        break;
      case "transfer":
        result = await transfer(ctx, request.owner, request.body, request.key);
        break;
      case "post":
      case "unpost":
        result = await setJournalStatus(ctx, request.owner, request.journalId, request.fn, request.key);
        break;
    }
    return { ok: true, body: result.body, replayed: result.replayed };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, status: error.status, code: error.code, message: error.message };
    throw error;
  }
}

/* ------------------------------------------------------------------ oracle */

type Side = "debit" | "credit";
interface Totals {
  posted_debits: number;
  posted_credits: number;
  pending_debits: number;
  pending_credits: number;
}
const zero = (): Totals => ({ posted_debits: 0, posted_credits: 0, pending_debits: 0, pending_credits: 0 });

/** The oracle's own arithmetic (deliberately not the engine's applyEntry/figures). */
function apply(t: Totals, side: Side, amount: number, op: "create" | "post" | "unpost"): Totals {
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
function availableOf(t: Totals, normal: Side): number {
  return normal === "debit"
    ? t.posted_debits - t.posted_credits - t.pending_credits
    : t.posted_credits - t.posted_debits - t.pending_debits;
}
const postedOf = (t: Totals, normal: Side) =>
  normal === "debit" ? t.posted_debits - t.posted_credits : t.posted_credits - t.posted_debits;
const sameTotals = (a: Totals, b: Totals) =>
  a.posted_debits === b.posted_debits &&
  a.posted_credits === b.posted_credits &&
  a.pending_debits === b.pending_debits &&
  a.pending_credits === b.pending_credits;
const totalsOf = (t: Totals): Totals => ({
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
interface Leg {
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
}
type Expected =
  | { ok: true; replay: string }
  | { ok: true; create: CreatePlan }
  | { ok: true; status: { journalId: string; op: "post" | "unpost" } }
  | { ok: false; status: number; code: string };

const CURRENCIES: Currency[] = ["USD", "EUR", "GBP", "JPY"];
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
    const expected = this.createLegs(request);
    for (const leg of expected)
      this.totals.set(leg.account, apply(this.totals.get(leg.account)!, leg.side, leg.amount, "create"));
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

  private createLegs(request: Request): Leg[] {
    const built = isStatus(request) ? null : this.build(request);
    if (!built || "error" in built)
      throw new Error(`engine accepted ${JSON.stringify(request)} which the oracle refuses`);
    return built.legs;
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

/* ------------------------------------------------------------------ setup */

export interface World {
  model: Model;
  owners: string[];
}

/** Two users: a few accounts in USD (one credit-normal), JPY (no decimals), EUR; one with an opening balance. */
export async function setUpWorld(ctx: CoreContext, runId: string): Promise<World> {
  const owners = [`${runId}-u1`, `${runId}-u2`];
  // Verified owners under limits no command reaches: the money limits have tests of their own.
  await allowMoneyForTests(ctx, ...owners);
  const specs: { owner: string; body: Record<string, unknown> }[] = [
    { owner: owners[0]!, body: { name: "Checking", currency: "USD", type: "bank" } },
    { owner: owners[0]!, body: { name: "Savings", currency: "USD", type: "bank", initial_balance: "250.00" } },
    { owner: owners[0]!, body: { name: "Credit line", currency: "USD", type: "liability" } },
    { owner: owners[0]!, body: { name: "Yen wallet", currency: "JPY", type: "bank" } },
    { owner: owners[0]!, body: { name: "Yen savings", currency: "JPY", type: "asset" } },
    { owner: owners[0]!, body: { name: "Euro", currency: "EUR", type: "bank" } },
    { owner: owners[1]!, body: { name: "Other checking", currency: "USD", type: "bank" } },
    { owner: owners[1]!, body: { name: "Other yen", currency: "JPY", type: "bank" } },
  ];
  const accounts: ModelAccount[] = [];
  const openings: { owner: string; id: string; accountId: string; minor: number }[] = [];
  for (const spec of specs) {
    const created = await createAccount(ctx, spec.owner, spec.body, null);
    accounts.push({
      id: created.account.id,
      owner: spec.owner,
      name: created.account.name,
      currency: created.account.currency,
      normal: created.account.normal_side,
      kind: "customer",
    });
    if (created.opening_transaction)
      openings.push({
        owner: spec.owner,
        id: created.opening_transaction.id,
        accountId: created.account.id,
        minor: created.opening_transaction.total_amount_minor,
      });
  }
  const systemIds = CURRENCIES.flatMap((currency) => [
    systemAccountId("funding", currency),
    systemAccountId("sandbox", currency),
  ]);
  const found = await getAccounts(ctx, systemIds);
  const system = new Map<string, ModelAccount>();
  for (const id of systemIds) {
    const account = found.get(id);
    if (!account) throw new Error(`system account ${id} missing`);
    system.set(id, {
      id,
      owner: account.owner_id,
      name: account.name,
      currency: account.currency,
      normal: account.normal_side,
      kind: "system",
    });
  }
  const model = new Model(accounts, system, runId);
  for (const opening of openings) {
    const account = model.account(opening.accountId);
    const legs: Leg[] = [
      { account: account.id, side: account.normal, amount: opening.minor },
      {
        account: systemAccountId("funding", account.currency),
        side: account.normal === "debit" ? "credit" : "debit",
        amount: opening.minor,
      },
    ];
    for (const leg of legs)
      model.totals.set(leg.account, apply(model.totals.get(leg.account)!, leg.side, leg.amount, "create"));
    model.journals.set(opening.id, { id: opening.id, owner: opening.owner, legs, status: "draft" });
    model.journalOrder.push(opening.id);
    model.countDepositTotals(opening.owner, account.currency);
  }
  return { model, owners };
}

/* ------------------------------------------------------------------ running steps */

export async function countItems(ctx: CoreContext): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new ScanCommand({ TableName: ctx.db.table, Select: "COUNT", ConsistentRead: true, ExclusiveStartKey: start }),
    );
    count += reply.Count ?? 0;
    start = reply.LastEvaluatedKey;
  } while (start);
  return count;
}

const sameOutcome = (a: Outcome, b: Outcome) =>
  a.ok && b.ok
    ? a.body === b.body
    : !a.ok && !b.ok
      ? a.status === b.status && a.code === b.code && a.message === b.message
      : false;

/** What a retry under a key gets: the stored reply, or the stored refusal. */
function storedOutcome(stored: { body?: string; refusal?: { status: number; code: string } }): Expected {
  return stored.refusal ? { ok: false, ...stored.refusal } : { ok: true, replay: stored.body ?? "" };
}

function matches(expected: Expected, outcome: Outcome): boolean {
  if (!expected.ok) return !outcome.ok && outcome.status === expected.status && outcome.code === expected.code;
  if (!outcome.ok) return false;
  if ("replay" in expected) return outcome.replayed && outcome.body === expected.replay;
  return !outcome.replayed;
}

const show = (request: Request) => JSON.stringify(request);

/**
 * Runs one step against the engine and the oracle; returns every violation seen. Sequential
 * steps must match the oracle exactly (and change the item count by exactly what they wrote);
 * concurrent steps must give outcomes the oracle allows, with their own exact properties.
 *
 * `instances` are contexts on the same table with their own clients and per-process state
 * (account and head caches, chain queues), like separate Lambda instances: the requests of a
 * concurrent step are spread over them, so writers really race through DynamoDB's conditions
 * and not only through one process's queues; one-by-one requests rotate over them, so a
 * cached head is often stale.
 */
export async function runStep(instances: CoreContext[], model: Model, step: Step): Promise<string[]> {
  const problems: string[] = [];
  const ctx = instances[0]!;
  const on = (index: number) => instances[index % instances.length]!;
  const before = await countItems(ctx);
  const writesBefore = model.expectedWrites;

  if (step.kind === "one" || step.kind === "replay") {
    let request: Request | null;
    if (step.kind === "one") request = model.request(step.command);
    else {
      if (model.keyedRequests.length === 0) return problems;
      request = model.variant(model.keyedRequests[step.request % model.keyedRequests.length]!, step.variant);
    }
    if (!request) return problems;
    const expected = model.expect(request);
    const outcome = await execute(on(model.nextInstance()), request);
    if (!matches(expected, outcome)) {
      problems.push(
        `${step.kind === "replay" ? `replay(${step.variant}) ` : ""}${show(request)}: got ${describeOutcome(outcome)}, oracle wants ${JSON.stringify(expected)}`,
      );
    }
    if (outcome.ok && !outcome.replayed) problems.push(...model.checkReply(request, outcome));
    model.record(request, outcome);
  } else if (step.kind === "duplicate") {
    const request = model.request(step.command, true);
    if (!request) return problems;
    const expected = model.expect(request);
    const outcomes = await Promise.all(Array.from({ length: step.copies }, (_, index) => execute(on(index), request)));
    const answered = outcomes.filter((outcome) => outcome.ok || outcome.code !== "idempotency_in_progress");
    const fresh = outcomes.filter((outcome) => outcome.ok && !outcome.replayed);
    const label = `${step.copies}x ${show(request)}`;
    // If every copy saw another in flight (all 409) and none committed, the item count check
    // below proves nothing was written.
    if (answered.some((outcome) => !sameOutcome(outcome, answered[0]!)))
      problems.push(`duplicate ${label}: replies differ: ${outcomes.map(describeOutcome).join(" | ")}`);
    if (fresh.length > 1) problems.push(`duplicate ${label}: ${fresh.length} copies executed`);
    if (answered.some((outcome) => outcome.ok) && fresh.length !== 1)
      problems.push(
        `duplicate ${label}: success without exactly one execution: ${outcomes.map(describeOutcome).join(" | ")}`,
      );
    const first = fresh[0] ?? answered[0];
    if (first && !matches(expected, first))
      problems.push(`duplicate ${label}: got ${describeOutcome(first)}, oracle wants ${JSON.stringify(expected)}`);
    if (fresh[0] && fresh[0].ok) problems.push(...model.checkReply(request, fresh[0]));
    model.record(request, fresh[0] ?? answered[0] ?? outcomes[0]!);
  } else if (step.kind === "batch") {
    const requests = step.commands
      .map((command) => model.request(command))
      .filter((request): request is Request => request !== null);
    const expectations = requests.map((request) => model.expect(request));
    const statusBefore = new Map([...model.journals].map(([id, journal]) => [id, journal.status]));
    const outcomes = await Promise.all(requests.map((request, index) => execute(on(index), request)));
    const counts = new Map<string, { post: number; unpost: number }>();
    requests.forEach((request, index) => {
      const outcome = outcomes[index]!;
      const expected = expectations[index]!;
      // State-dependent refusals may legitimately differ from the pre-batch oracle; validation may not.
      const stateful = new Set(["insufficient_funds", "already_posted", "not_posted"]);
      const allowed =
        matches(expected, outcome) ||
        (outcome.ok && !outcome.replayed && (expected.ok || stateful.has(expected.code))) ||
        (!outcome.ok && stateful.has(outcome.code) && (expected.ok || stateful.has(expected.code)));
      if (!allowed)
        problems.push(
          `batch ${show(request)}: got ${describeOutcome(outcome)}, oracle (before the batch) wants ${JSON.stringify(expected)}`,
        );
      if (outcome.ok && !outcome.replayed) {
        problems.push(...(isStatus(request) ? [] : model.checkReply(request, outcome)));
        if (isStatus(request)) {
          const count = counts.get(request.journalId) ?? { post: 0, unpost: 0 };
          count[request.fn] += 1;
          counts.set(request.journalId, count);
        }
      }
    });
    // Apply creates first, then status changes in an order the engine could have run them.
    requests.forEach((request, index) => {
      if (request.fn !== "post" && request.fn !== "unpost") model.record(request, outcomes[index]!);
    });
    for (const [journalId, count] of counts) {
      const initial = statusBefore.get(journalId)!;
      const net = count.post - count.unpost;
      if (initial === "draft" ? net !== 0 && net !== 1 : net !== 0 && net !== -1) {
        problems.push(
          `batch: journal ${journalId} (${initial}) had ${count.post} posts and ${count.unpost} unposts succeed`,
        );
      }
      const order: ("post" | "unpost")[] = [];
      let status = initial;
      for (let remaining = count.post + count.unpost; remaining > 0; remaining--) {
        order.push(status === "draft" ? "post" : "unpost");
        status = status === "draft" ? "posted" : "draft";
      }
      const pool = requests
        .map((request, index) => ({ request, outcome: outcomes[index]! }))
        .filter(
          ({ request, outcome }) =>
            "journalId" in request && request.journalId === journalId && outcome.ok && !outcome.replayed,
        );
      for (const op of order) {
        const at = pool.findIndex(({ request }) => request.fn === op);
        if (at < 0) break;
        const [{ request, outcome }] = pool.splice(at, 1) as [{ request: Request; outcome: Outcome }];
        problems.push(...(outcome.ok ? model.checkReply(request, outcome) : []));
        model.record(request, outcome);
      }
    }
    requests.forEach((request, index) => {
      const outcome = outcomes[index]!;
      if (isStatus(request) && (!outcome.ok || outcome.replayed) && request.key) model.record(request, outcome);
    });
  } else {
    const from = model.accounts[step.from % model.accounts.length]!;
    const targets = model.accounts.filter(
      (account) =>
        account.id !== from.id &&
        account.owner === from.owner &&
        account.currency === from.currency &&
        account.normal === "debit",
    );
    if (from.normal !== "debit" || targets.length === 0) return problems;
    const available = model.available(from.id);
    const amount = Math.max(1, Math.floor(available * step.fraction));
    const requests: Request[] = Array.from({ length: step.copies }, (_, index) => ({
      fn: "transfer",
      owner: from.owner,
      body: {
        from_account_id: from.id,
        to_account_id: targets[index % targets.length]!.id,
        amount: toDecimalString(amount, from.currency),
      },
      key: model.freshKey(),
    }));
    const outcomes = await Promise.all(requests.map((request, index) => execute(on(index), request)));
    const successes = outcomes.filter((outcome) => outcome.ok).length;
    const want = Math.min(step.copies, Math.floor(available / amount));
    if (successes !== want) {
      problems.push(
        `drain: ${step.copies} transfers of ${amount} from ${from.name} (available ${available}): ${successes} succeeded, want ${want}: ${outcomes.map(describeOutcome).join(" | ")}`,
      );
    }
    for (const outcome of outcomes)
      if (!outcome.ok && outcome.code !== "insufficient_funds")
        problems.push(`drain: unexpected ${describeOutcome(outcome)}`);
    requests.forEach((request, index) => model.record(request, outcomes[index]!));
  }

  const after = await countItems(ctx);
  if (after - before !== model.expectedWrites - writesBefore) {
    problems.push(
      `step ${JSON.stringify(step)} wrote ${after - before} items, the acknowledged writes account for ${model.expectedWrites - writesBefore}`,
    );
  }
  return problems;
}

/* ------------------------------------------------------------------ invariants */

interface TableSnapshot {
  accounts: Account[];
  journals: Journal[];
  chains: Map<string, VersionItem[]>;
}

export async function snapshot(ctx: CoreContext): Promise<TableSnapshot> {
  const accounts: Account[] = [];
  const journals: Journal[] = [];
  const chains = new Map<string, VersionItem[]>();
  let start: Record<string, unknown> | undefined;
  do {
    const reply = await ctx.db.doc.send(
      new ScanCommand({ TableName: ctx.db.table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    for (const item of reply.Items ?? []) {
      if (item.entity === "account") accounts.push(Account.parse(item));
      else if (item.entity === "journal") journals.push(Journal.parse(item));
      else if (item.entity === "balance") {
        const version = item as VersionItem;
        chains.set(version.chain, [...(chains.get(version.chain) ?? []), version]);
      }
    }
    start = reply.LastEvaluatedKey;
  } while (start);
  for (const versions of chains.values()) versions.sort((a, b) => a.version - b.version);
  return { accounts, journals, chains };
}

const minus1ms = (iso: string) => new Date(Date.parse(iso) - 1).toISOString();

/**
 * Every invariant of the ledger over the whole table:
 * (a) per currency, debits = credits over all journals and over all chain heads (posted and
 *     pending separately); (b) no customer version anywhere has available < 0; chains are
 *     contiguous, time-ordered and each version follows from the previous by its entry;
 * (c) every version belongs to a journal operation and every operation wrote one version per
 *     leg; (d) balance as of every recorded time equals the replay of journal history;
 * (e) trial balances balanced, integrity check ok; and the oracle's totals and statuses match.
 */
export async function checkInvariants(ctx: CoreContext, world: World, sampledTimes: number): Promise<string[]> {
  const problems: string[] = [];
  const { model } = world;
  const { accounts, journals, chains } = await snapshot(ctx);
  const accountById = new Map(accounts.map((account) => [account.id, account]));
  const journalById = new Map(journals.map((journal) => [journal.id, journal]));

  // (a) over journals
  const journalSums = new Map<string, { debit: number; credit: number }>();
  for (const journal of journals) {
    let debit = 0;
    let credit = 0;
    for (const entry of journal.entries) {
      if (accountById.get(entry.account_id)?.currency !== journal.currency)
        problems.push(`journal ${journal.id}: entry in another currency`);
      if (entry.side === "debit") debit += entry.amount;
      else credit += entry.amount;
    }
    if (debit !== credit) problems.push(`journal ${journal.id} unbalanced: ${debit} vs ${credit}`);
    const sum = journalSums.get(journal.currency) ?? { debit: 0, credit: 0 };
    sum.debit += debit;
    sum.credit += credit;
    journalSums.set(journal.currency, sum);
  }
  for (const [currency, sum] of journalSums)
    if (sum.debit !== sum.credit) problems.push(`${currency}: journals debit ${sum.debit} != credit ${sum.credit}`);

  // (a) over chain heads, (b) every version, chain integrity, (c) version <-> operation accounting
  const headSums = new Map<string, Totals>();
  const versionsByOperation = new Map<string, number>();
  let nonGenesis = 0;
  let markers = 0;
  for (const [chain, versions] of chains) {
    const account = accountById.get(versions[0]!.account_id);
    if (!account) {
      problems.push(`chain ${chain} of unknown account`);
      continue;
    }
    versions.forEach((item, index) => {
      if (item.version !== index) problems.push(`chain ${chain}: version ${item.version} at position ${index}`);
      if (item.currency !== account.currency)
        problems.push(`chain ${chain} v${item.version}: currency ${item.currency}`);
      if (
        availableOf(item, account.normal_side) !== item.available ||
        postedOf(item, account.normal_side) !== item.balance
      ) {
        problems.push(`chain ${chain} v${item.version}: stored balance/available disagree with its totals`);
      }
      if (account.kind === "customer" && item.available < 0) {
        problems.push(
          `customer chain ${chain} (${account.name}) v${item.version}: available ${item.available} < 0 after ${item.operation} of ${item.tx_id}`,
        );
      }
      if (index === 0) {
        if (item.operation !== "open" || !sameTotals(totalsOf(item), zero()))
          problems.push(`chain ${chain}: genesis is not an empty open`);
        return;
      }
      nonGenesis += 1;
      const previous = versions[index - 1]!;
      if (!(item.committed_at > previous.committed_at))
        problems.push(
          `chain ${chain} v${item.version}: committed_at ${item.committed_at} not after ${previous.committed_at}`,
        );
      if (item.operation !== "create" && item.operation !== "post" && item.operation !== "unpost") {
        // A lock, reconciliation or threshold change: no money moves.
        if (item.side !== null || item.tx_id !== null || !sameTotals(totalsOf(item), totalsOf(previous)))
          problems.push(`chain ${chain} v${item.version}: marker ${item.operation} changes totals`);
        markers += 1;
        return;
      }
      // A batch's folded version stands for several legs (folded-versions.ts): each is checked as a version of its own.
      const legs = unfoldVersion(item);
      nonGenesis += legs.length - 1;
      let expected = totalsOf(previous);
      for (const leg of legs) {
        if (leg.side === null || leg.tx_id === null) {
          problems.push(`chain ${chain} v${item.version}: not a journal operation`);
          return;
        }
        expected = apply(expected, leg.side, leg.amount, leg.operation as "create" | "post" | "unpost");
        const journal = journalById.get(leg.tx_id);
        if (!journal)
          problems.push(`chain ${chain} v${item.version}: journal ${leg.tx_id} does not exist (orphan version)`);
        else if (
          !journal.entries.some(
            (entry) => entry.account_id === leg.account_id && entry.side === leg.side && entry.amount === leg.amount,
          )
        ) {
          problems.push(`chain ${chain} v${item.version}: not a leg of journal ${leg.tx_id}`);
        }
        const key = `${leg.tx_id}|${leg.account_id}|${leg.operation}`;
        versionsByOperation.set(key, (versionsByOperation.get(key) ?? 0) + 1);
      }
      if (!sameTotals(totalsOf(item), expected)) {
        problems.push(
          `chain ${chain} v${item.version}: totals do not follow from v${previous.version} and its ${legs.length} change(s)`,
        );
      }
    });
    const head = versions[versions.length - 1]!;
    const sum = headSums.get(account.currency) ?? zero();
    headSums.set(account.currency, {
      posted_debits: sum.posted_debits + head.posted_debits,
      posted_credits: sum.posted_credits + head.posted_credits,
      pending_debits: sum.pending_debits + head.pending_debits,
      pending_credits: sum.pending_credits + head.pending_credits,
    });
  }
  for (const [currency, sum] of headSums) {
    if (sum.posted_debits !== sum.posted_credits)
      problems.push(`${currency}: chains posted debits ${sum.posted_debits} != credits ${sum.posted_credits}`);
    if (sum.pending_debits !== sum.pending_credits)
      problems.push(`${currency}: chains pending debits ${sum.pending_debits} != credits ${sum.pending_credits}`);
  }
  let operations = 0;
  for (const journal of journals) {
    for (const entry of journal.entries) {
      for (const op of ["create", "post", "unpost"] as const) {
        const want = journal.history.filter((record) => record.operation === op).length;
        const got = versionsByOperation.get(`${journal.id}|${entry.account_id}|${op}`) ?? 0;
        if (want !== got)
          problems.push(
            `journal ${journal.id}: ${want} ${op} in its history but ${got} ${op} versions on ${entry.account_id}`,
          );
      }
    }
    operations += journal.entries.length * journal.history.length;
    if (journal.status !== journal.history[journal.history.length - 1]!.status)
      problems.push(`journal ${journal.id}: status ${journal.status} differs from its last history record`);
  }
  if (operations !== nonGenesis - markers)
    problems.push(`${nonGenesis} versions but journals account for ${operations}`);

  // The oracle: every acknowledged effect, nothing else.
  for (const [id, want] of model.totals) {
    const chainsOfAccount = [...chains.values()].filter((versions) => versions[0]!.account_id === id);
    const got = chainsOfAccount
      .map((versions) => totalsOf(versions[versions.length - 1]!))
      .reduce(
        (sum, t) => ({
          posted_debits: sum.posted_debits + t.posted_debits,
          posted_credits: sum.posted_credits + t.posted_credits,
          pending_debits: sum.pending_debits + t.pending_debits,
          pending_credits: sum.pending_credits + t.pending_credits,
        }),
        zero(),
      );
    if (!sameTotals(got, want))
      problems.push(
        `account ${model.account(id).name}: recorded ${JSON.stringify(got)}, oracle ${JSON.stringify(want)}`,
      );
  }
  for (const [id, journal] of model.journals) {
    const stored = journalById.get(id);
    if (!stored) problems.push(`journal ${id} acknowledged but missing`);
    else if (stored.status !== journal.status)
      problems.push(`journal ${id}: status ${stored.status}, oracle ${journal.status}`);
  }
  if (journals.length !== model.journals.size)
    problems.push(`${journals.length} journals in the table, ${model.journals.size} acknowledged`);

  // (d) point in time, in memory over every recorded instant and the millisecond before it
  const instants = new Set<string>();
  for (const versions of chains.values()) for (const item of versions) instants.add(item.committed_at);
  for (const journal of journals) for (const record of journal.history) instants.add(record.at);
  const times = [...instants].flatMap((at) => [at, minus1ms(at)]).sort();
  const chainsByAccount = new Map<string, VersionItem[][]>();
  for (const versions of chains.values())
    chainsByAccount.set(versions[0]!.account_id, [...(chainsByAccount.get(versions[0]!.account_id) ?? []), versions]);
  const asOfInMemory = (accountId: string, at: string): Totals | null => {
    let found = false;
    const sum = zero();
    for (const versions of chainsByAccount.get(accountId) ?? []) {
      let last: VersionItem | undefined;
      for (const item of versions) if (item.committed_at <= at) last = item;
      if (!last) continue;
      found = true;
      sum.posted_debits += last.posted_debits;
      sum.posted_credits += last.posted_credits;
      sum.pending_debits += last.pending_debits;
      sum.pending_credits += last.pending_credits;
    }
    return found ? sum : null;
  };
  const pitProblems: string[] = [];
  for (const at of times) {
    const replayed = replayTotals(journals, at);
    for (const account of accounts) {
      const recorded = asOfInMemory(account.id, at);
      const want = replayed.get(account.id) ?? zero();
      if (recorded === null) {
        if (!sameTotals(want, zero()))
          pitProblems.push(`as of ${at}: ${account.name} did not exist yet but journals moved it`);
        continue;
      }
      if (!sameTotals(recorded, want))
        pitProblems.push(
          `as of ${at}: ${account.name} versions say ${JSON.stringify(recorded)}, journal replay says ${JSON.stringify(want)}`,
        );
    }
  }
  problems.push(...pitProblems.slice(0, 5));

  // (d) the same through the read paths, at a few sampled instants; (e) trial balances then
  const sample = times
    .filter((_, index) => index % Math.max(1, Math.floor(times.length / sampledTimes)) === 0)
    .slice(0, sampledTimes);
  for (const at of sample) {
    const replayed = replayTotals(journals, at);
    for (const account of accounts) {
      const used = account.kind === "customer" || replayed.has(account.id);
      if (!used) continue;
      const recorded = await balanceAsOf(ctx, account, at);
      const want = replayed.get(account.id) ?? zero();
      if (recorded && !sameTotals(totalsOf(recorded), want))
        problems.push(
          `balanceAsOf(${account.name}, ${at}) = ${JSON.stringify(totalsOf(recorded))}, replay ${JSON.stringify(want)}`,
        );
      if (account.kind === "customer" && recorded) {
        const reply = await balanceOf(ctx, account.owner_id, account.id, at);
        if (
          reply.balance_minor !== postedOf(want, account.normal_side) ||
          reply.available_minor !== availableOf(want, account.normal_side)
        ) {
          problems.push(
            `balanceOf(${account.name}, ${at}) = ${reply.balance_minor}/${reply.available_minor}, replay ${postedOf(want, account.normal_side)}/${availableOf(want, account.normal_side)}`,
          );
        }
      }
    }
    for (const owner of world.owners) {
      const trial = await trialBalance(ctx, owner, at);
      if (!trial.is_balanced)
        problems.push(
          `trial balance of ${owner} as of ${at} is not balanced: ${JSON.stringify(trial.accounts.filter((line) => !line.is_balanced))} ${JSON.stringify(trial.totals)}`,
        );
    }
  }

  // (e) now
  for (const owner of world.owners) {
    const trial = await trialBalance(ctx, owner);
    if (!trial.is_balanced) problems.push(`trial balance of ${owner} is not balanced: ${JSON.stringify(trial.totals)}`);
    const integrity = await integrityCheck(ctx, { ownerId: owner });
    if (!integrity.ok) problems.push(`integrity of ${owner}: ${JSON.stringify(integrity.drift)}`);
  }
  const integrity = await integrityCheck(ctx, "ledger");
  if (!integrity.ok || integrity.drift.length > 0)
    problems.push(
      `ledger integrity: ${JSON.stringify(integrity.drift)} ${JSON.stringify(integrity.unbalanced_journals)}`,
    );
  if (integrity.journals_checked !== journals.length)
    problems.push(`integrity checked ${integrity.journals_checked} journals of ${journals.length}`);
  return problems;
}
