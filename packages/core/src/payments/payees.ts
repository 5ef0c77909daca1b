// The package without its Node entry, which registers every language with a computed require
// that a bundle cannot serve; checking a code needs no language.
import countries from "i18n-iso-countries/index.js";
import { findUserByEmail, findUserById, isEmailVerified } from "../auth/users";
import type { CoreContext } from "../shared/context";
import { badRequest, locked, unprocessable } from "../shared/errors";
import type { Currency } from "../money/model";
import {
  ensureSystemAccounts,
  getAccounts,
  listAccounts,
  requireOwnedAccount,
  systemAccountId,
  type Account,
  type SystemAccountCode,
} from "../ledger/accounts";
import { currentBalance } from "../ledger/balances";
import { LEDGER_MESSAGES } from "../ledger/model";
import { last4, PAYMENT_MESSAGES, type CreatePaymentInput, type PaymentPayee, type PaymentCaller } from "./model";

/**
 * Who pays and who receives (docs/payments-and-rails.md#payments). The payer's account must be the
 * caller's (404 like any other account of another user). The payee is exactly one of:
 * - toAccountId: another account of the caller (another user's account id is the same 404 as an
 *   unknown one: account ids never tell whether they exist);
 * - toEmail: another user of the platform; the money lands in their oldest active account of the
 *   currency. An unknown email and a user without such an account get the SAME 422, so the
 *   payment form cannot be used to find out who has an account here. Paying yourself by email is
 *   refused (422 self_payment_by_email): you know your own accounts, use toAccountId, which also
 *   says which of them receives;
 * - beneficiary: an external account; the money goes to the clearing system account of the
 *   currency until settlement with the rail.
 * Payer and payee accounts must hold money (debit-normal: bank, cash, asset, expense), as a
 * transfer's accounts do: a payment takes from and adds to their balance.
 */

export interface ResolvedPayee {
  payer: Account;
  /** The account that receives the amount: the payee's own, or the clearing account. */
  account: Account;
  /** What the payment shows of the payee (never the account id of another user). */
  view: PaymentPayee;
}

function requireUsable(account: Account, currency: Currency, role: "payer" | "payee"): void {
  if (account.status !== "ACTIVE")
    throw unprocessable(
      PAYMENT_MESSAGES.accountInactive(role === "payer" ? "paying" : "payee", account.name),
      "account_inactive",
    );
  if (account.currency !== currency) {
    throw unprocessable(
      role === "payer"
        ? PAYMENT_MESSAGES.payerCurrency(account.currency, currency)
        : PAYMENT_MESSAGES.payeeCurrency(account.currency, currency),
      "currency_mismatch",
    );
  }
  if (account.normal_side !== "debit")
    throw unprocessable(PAYMENT_MESSAGES.notMoneyAccount(account.name), "account_type_not_payable");
}

/** The system accounts of a currency (created when an older deployment lacks one, e.g. clearing). */
export async function requireSystemAccounts<C extends SystemAccountCode>(
  ctx: CoreContext,
  currency: Currency,
  codes: readonly C[],
): Promise<Record<C, Account>> {
  const ids = codes.map((code) => systemAccountId(code, currency));
  let found = await getAccounts(ctx, ids);
  if (ids.some((id) => !found.has(id))) {
    await ensureSystemAccounts(ctx);
    found = await getAccounts(ctx, ids);
  }
  const entries = codes.map((code) => {
    const account = found.get(systemAccountId(code, currency));
    if (!account) throw new Error(`System account ${code} of ${currency} is missing`);
    return [code, account] as const;
  });
  return Object.fromEntries(entries) as Record<C, Account>;
}

/** The user's default account of a currency: their oldest active money account in it. */
async function defaultAccountOf(ctx: CoreContext, userId: string, currency: Currency): Promise<Account | null> {
  const accounts = await listAccounts(ctx, userId);
  const usable = accounts
    .filter(
      (account) =>
        account.kind === "customer" &&
        account.status === "ACTIVE" &&
        account.currency === currency &&
        account.normal_side === "debit",
    )
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  return usable[0] ?? null;
}

/**
 * The payer's side of a payment: everything about the request and the caller's own accounts,
 * known before anything about another user is looked up. A payment to one of the caller's own
 * accounts resolves that account here (it tells the caller nothing they do not know).
 */
export interface PayerSide {
  payer: Account;
  /** The caller's own receiving account (toAccountId); null when the payee is someone else. */
  ownPayee: Account | null;
}

export async function resolvePayer(
  ctx: CoreContext,
  caller: PaymentCaller,
  input: CreatePaymentInput,
): Promise<PayerSide> {
  // The model checks the shape (two letters); whether it names a country is the ISO list's to say
  // (kept out of the browser-safe model). A validation error: before any account is read.
  if (input.beneficiary && !countries.isValid(input.beneficiary.country))
    throw badRequest(PAYMENT_MESSAGES.beneficiaryCountry, "validation_error");
  const payer = await requireOwnedAccount(ctx, caller.userId, input.fromAccountId);
  if (input.toAccountId !== undefined) {
    const account = await requireOwnedAccount(ctx, caller.userId, input.toAccountId);
    if (account.id === payer.id) throw badRequest(PAYMENT_MESSAGES.sameAccount, "same_account");
    requireUsable(payer, input.currency, "payer");
    requireUsable(account, input.currency, "payee");
    return { payer, ownPayee: account };
  }
  requireUsable(payer, input.currency, "payer");
  if (input.toEmail !== undefined && input.toEmail.toLowerCase() === caller.user.email.toLowerCase())
    throw unprocessable(PAYMENT_MESSAGES.selfByEmail, "self_payment_by_email");
  return { payer, ownPayee: null };
}

/** Whether the money leaves the caller's own accounts (to another user or outside): what the limits count. */
export const paysSomeoneElse = (input: CreatePaymentInput): boolean => input.toAccountId === undefined;

/**
 * The paying account can hold `holdMinor` now (not locked, enough available): checked before the
 * payee is looked up, with the very refusals the hold's own transaction gives (which still
 * decides atomically), so a payer without the money learns nothing about the payee.
 */
export async function requirePayerCanCover(ctx: CoreContext, payer: Account, holdMinor: number): Promise<void> {
  const balance = await currentBalance(ctx, payer);
  if (balance.locked)
    throw locked(LEDGER_MESSAGES.accountLocked(balance.lock_reason ?? "no reason given"), "account_locked");
  if (balance.available < holdMinor)
    throw unprocessable(LEDGER_MESSAGES.insufficientFunds(payer.name), "insufficient_funds");
}

/** A user id no user has (randomUUID never makes the nil UUID): what an unknown address is looked up as. */
const NO_USER_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The payee, once the payer's side passed. Any problem with a payee by email (nobody has the
 * address, or its user has no active account in the currency) is ONE refusal, 422
 * payee_cannot_receive with one message, after the same reads either way (the user record and
 * an accounts query), so neither the reply nor its timing says who is registered.
 */
export async function resolvePayee(
  ctx: CoreContext,
  input: CreatePaymentInput,
  payerSide: PayerSide,
): Promise<ResolvedPayee> {
  const { payer, ownPayee } = payerSide;
  if (ownPayee) return { payer, account: ownPayee, view: { kind: "account", accountId: ownPayee.id } };
  if (input.toEmail !== undefined) {
    const email = input.toEmail.toLowerCase();
    const user = await findUserByEmail(ctx.db, email);
    if (!user) await findUserById(ctx.db, NO_USER_ID);
    const account = await defaultAccountOf(ctx, user?.id ?? NO_USER_ID, input.currency);
    // An address nobody proved they read (auth/email-verification.ts) receives nothing by email.
    if (!user || !account || !isEmailVerified(user))
      throw unprocessable(PAYMENT_MESSAGES.payeeCannotReceive(input.currency), "payee_cannot_receive");
    return { payer, account, view: { kind: "user", email } };
  }
  const beneficiary = input.beneficiary!;
  const { clearing } = await requireSystemAccounts(ctx, input.currency, ["clearing"] as const);
  return {
    payer,
    account: clearing,
    view: {
      kind: "external",
      name: beneficiary.name,
      accountLast4: last4(beneficiary.accountNumber),
      country: beneficiary.country,
    },
  };
}
