/**
 * The command language of the ledger property tests (ledger.property.test.ts,
 * batches.property.test.ts, ledger.processes.test.ts) and the executor that calls the core
 * services with it. No vitest and no fast-check here: the generators and the assertions live in
 * the test files.
 */
import type { CoreContext } from "@fintech/core/shared/context";
import { AppError } from "@fintech/core/shared/errors";
import { deposit, setJournalStatus, testBalance, transfer, type WriteResult } from "@fintech/core/ledger/service";
import { enableCreditShards, type CreditShardConversion } from "@fintech/core/ledger/credit-shards";

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
    }
  /**
   * A transfer between two accounts of different currencies with a quote: `fresh` asks for one
   * just before, `reused` names one an earlier transfer used, `foreign` one another user asked
   * for, `mismatch` one for another amount.
   */
  | {
      kind: "fx";
      from: number;
      to: number;
      amount: AmountSpec;
      quote: FxQuoteChoice;
      keyed: boolean;
    };
export type FxQuoteChoice = "fresh" | "reused" | "foreign" | "mismatch";
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
  | { kind: "drain"; from: number; copies: number; fraction: number }
  /**
   * An admin converts a customer account to credit shards (several copies at once, from several
   * instances), while unrelated fresh requests run: the conversion of a live account.
   */
  | { kind: "convert"; account: number; copies: number; during: SimpleCommand[] };

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
export const isStatus = (request: Request): request is StatusRequest =>
  request.fn === "post" || request.fn === "unpost";
export const isStatusCommand = (command: SimpleCommand): command is StatusCommand =>
  command.kind === "post" || command.kind === "unpost";

export type Outcome =
  | { ok: true; body: string; replayed: boolean }
  | { ok: false; status: number; code: string; message: string };

export const describeOutcome = (outcome: Outcome) =>
  outcome.ok ? `ok${outcome.replayed ? " (replayed)" : ""}` : `${outcome.status} ${outcome.code}: ${outcome.message}`;

/** How often each kind of outcome was seen (request kind and result), to judge the generators. */
export const outcomeStats = new Map<string, number>();
const tally = (request: Request, outcome: Outcome) => {
  const kind = !isStatus(request) && request.body.quote_id !== undefined ? "fx" : request.fn;
  const label = `${kind}${request.key ? "+key" : ""} -> ${outcome.ok ? (outcome.replayed ? "replayed" : "ok") : outcome.code}`;
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

export const TEST_ADMIN = { id: "ledger-tests-admin", name: "Ledger Tests Admin" };

/** What a conversion to credit shards answered: its result, or a client error (code). */
export type ConversionOutcome = { ok: true; result: CreditShardConversion } | { ok: false; code: string };

/** An admin's conversion of an account to credit shards; client errors become outcomes. */
export async function convertToCreditShards(ctx: CoreContext, accountId: string): Promise<ConversionOutcome> {
  try {
    return { ok: true, result: await enableCreditShards(ctx, accountId, TEST_ADMIN, "ledger tests") };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code };
    throw error;
  }
}
