import type { CoreContext } from "../shared/context";
import { requireOwnerMayPost } from "../approvals/deposits";
import { badRequest, forbidden, notFound, unprocessable } from "../shared/errors";
import { parseWith } from "../shared/validation";
import { gateMoney, withReservation, type MoneyGate, type MoneyMovement } from "../limits/gate";
import { type PageQuery, queryPage, type Page } from "../shared/pagination";
import { type Currency, parseAmount, toDecimalString } from "../money/model";
import {
  createCustomerAccount,
  getAccounts,
  listAccounts,
  optionalMinor,
  requireOwnedAccount,
  systemAccountId,
  type Account,
} from "./accounts";
import { balanceAsOf, currentBalance, type AccountBalance } from "./balances";
import { changeJournalStatus } from "./journal-status";
import { createJournal, decidedOnce } from "./journal-create";
import { createFxTransfer, quoteForTransfer } from "./fx-journals";
import {
  type Journal,
  journalIdFor,
  requestHash,
  JournalReplay,
  type Actor,
  type Idempotency,
  type JournalDraft,
} from "./journals";
import { journalReply, type JournalReply } from "./journal-view";
import { loadJournal } from "./journal-reads";
import { BALANCE_PREFIX, chainPartition } from "./keys";
import { unfoldVersion, type FoldedVersionItem } from "./folded-versions";
import { cursorBinding, withAccountDetails } from "./history";
import {
  CreateAccountInput,
  DepositInput,
  LEDGER_MESSAGES,
  TEST_BALANCE_DEFAULT_MAJOR,
  TEST_BALANCE_MAX_MAJOR,
  TestBalanceInput,
  TransferInput,
  type JournalType,
} from "./model";

/** The outcome of a write: the reply body, and whether it is the replay of an earlier request. */
export interface WriteResult {
  body: string;
  replayed: boolean;
}

export const asResult = (outcome: string | JournalReplay): WriteResult =>
  outcome instanceof JournalReplay ? { body: outcome.body, replayed: true } : { body: outcome, replayed: false };

export function accountReply(account: Account, balance: AccountBalance) {
  const money = (minor: number) => toDecimalString(minor, account.currency);
  return {
    id: account.id,
    name: account.name,
    account_number: account.account_number,
    description: account.description,
    currency: account.currency,
    type: account.type,
    normal_side: account.normal_side,
    // A lock lives on the balance chain (enforced by every write); the account item keeps the rest.
    status: balance.locked ? ("LOCKED" as const) : account.status,
    lock_reason: balance.lock_reason,
    created_at: account.created_at,
    balance: money(balance.balance),
    available: money(balance.available),
    pending_in: money(balance.pending_in),
    pending_out: money(balance.pending_out),
    balance_minor: balance.balance,
    available_minor: balance.available,
    low_balance_threshold: balance.low_balance_threshold === null ? null : money(balance.low_balance_threshold),
    version: balance.version,
    credit_shards: account.credit_shards,
  };
}
export type AccountReply = ReturnType<typeof accountReply>;

export async function listAccountsWithBalances(ctx: CoreContext, ownerId: string): Promise<AccountReply[]> {
  const accounts = await listAccounts(ctx, ownerId);
  const balances = await Promise.all(accounts.map((account) => currentBalance(ctx, account)));
  return accounts.map((account, index) => accountReply(account, balances[index]!));
}

export async function accountDetail(ctx: CoreContext, ownerId: string, accountId: string): Promise<AccountReply> {
  return describeAccount(ctx, await requireOwnedAccount(ctx, ownerId, accountId));
}

/** The account as its owner sees it now (for replies after a change, by whoever made it). */
export async function describeAccount(ctx: CoreContext, account: Account): Promise<AccountReply> {
  return accountReply(account, await currentBalance(ctx, account));
}

export function minorOrThrow(amount: unknown, currency: Currency, label = "Amount"): number {
  const parsed = parseAmount(amount, currency);
  if (!parsed.ok)
    throw badRequest(label === "Amount" ? parsed.message : `${label}: ${parsed.message}`, "invalid_amount");
  return parsed.minor;
}

export function requireActive(account: Account): void {
  if (account.status !== "ACTIVE")
    throw badRequest(`${LEDGER_MESSAGES.accountInactive}: ${account.name}`, "account_inactive");
}

export function requireCurrency(account: Account, currency: Currency | undefined): void {
  if (currency && currency !== account.currency) {
    throw badRequest(LEDGER_MESSAGES.currencyMismatch(account.currency, currency), "currency_mismatch");
  }
}

/** The journal draft of money entering a customer account from a system account: deposits, test balances, openings. */
export function fundingDraft(
  ownerId: string,
  account: Account,
  counterparty: Account,
  type: JournalType,
  amount: number,
  description: string,
  actor: Actor | null,
): JournalDraft {
  // The customer account grows on its normal side; the system account takes the other side.
  const customerSide = account.normal_side;
  return {
    type,
    ownerId,
    currency: account.currency,
    description,
    actor,
    legs: [
      { account, side: customerSide, amount },
      { account: counterparty, side: customerSide === "debit" ? "credit" : "debit", amount },
    ],
  };
}

/** Money entering a customer account from a system account: deposits, test balances, openings. */
async function fundFromSystem(
  ctx: CoreContext,
  ownerId: string,
  account: Account,
  source: "funding" | "sandbox",
  type: JournalType,
  amount: number,
  description: string,
  idempotency: Idempotency,
  actor: Actor | null,
  gate: MoneyGate,
  askedCurrency?: Currency,
): Promise<WriteResult> {
  const counterparty = await requireSystemAccount(ctx, systemAccountId(source, account.currency));
  return asResult(
    await decided(ctx, ownerId, idempotency, () => {
      requireActive(account);
      requireCurrency(account, askedCurrency);
      return withReservation(gate, (limitItems) =>
        createJournal(
          ctx,
          fundingDraft(ownerId, account, counterparty, type, amount, description, actor),
          idempotency,
          { extraItems: limitItems },
        ),
      );
    }),
  );
}

/** Money in from outside, as the limits count it (limits/gate.ts). */
const depositInto = (account: Account, amount: number): MoneyMovement[] => [
  { movement: "deposit", currency: account.currency, amountMinor: amount },
];

/**
 * A keyed create-style write whose business refusals are recorded under its key (decisions.ts):
 * the checks inside `write` are decisions about the accounts; validation happens before.
 */
const decided = (
  ctx: CoreContext,
  ownerId: string,
  idempotency: Idempotency,
  write: () => Promise<string | JournalReplay>,
) => decidedOnce(ctx, { journalId: journalIdFor(ownerId, idempotency.key), ownerId, idempotency }, write);

export async function requireSystemAccount(ctx: CoreContext, id: string): Promise<Account> {
  const found = (await getAccounts(ctx, [id])).get(id);
  if (!found) throw new Error(`System account ${id} is missing: run the seed (it runs at start-up)`);
  return found;
}

/** The Idempotency-Key of an account's opening deposit, derived from the account request's key. */
const openingKey = (idempotencyKey: string) => `${idempotencyKey}:opening`;

export type { Actor } from "./journals";

export async function createAccount(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  idempotencyKey: string | null,
  actor: Actor | null = null,
) {
  const input = parseWith(CreateAccountInput, body);
  const opening = optionalMinor(input.initial_balance, input.currency, "Initial balance");
  // A key names the account (as it names a journal): a retry finds it instead of opening another.
  const idempotency = idempotencyKey
    ? {
        id: journalIdFor(ownerId, `account\u0000${idempotencyKey}`),
        hash: requestHash({ op: "create_account", ...input }),
      }
    : null;
  const openingHash = (accountId: string) => requestHash({ opening: accountId, amount: opening });
  let openingBooked = false;
  if (idempotency && idempotencyKey && opening !== null) {
    // The opening deposit's key is derived from this one; if the client already used it for
    // another request, refuse now, before the account is written: a refused request writes
    // nothing, rather than leaving an account whose opening deposit was refused.
    const earlier = await loadJournal(ctx, journalIdFor(ownerId, openingKey(idempotencyKey)));
    if (earlier && earlier.request_hash !== openingHash(idempotency.id)) {
      throw unprocessable(LEDGER_MESSAGES.idempotencyMismatch, "idempotency_key_reused");
    }
    openingBooked = earlier !== null;
  }
  // An opening balance is a deposit: the caller's level and limits are checked before the
  // account is written, so a refused opening leaves nothing behind (a retry whose opening was
  // booked already replays it: its amount is in the totals once).
  const gate =
    opening === null
      ? null
      : await gateMoney(ctx, ownerId, [{ movement: "deposit", currency: input.currency, amountMinor: opening }]);
  if (gate && !openingBooked) await gate.reserve();
  const { account, replayed } = await createCustomerAccount(ctx, ownerId, input, idempotency);
  let openingJournal: JournalReply | null = null;
  if (opening !== null && gate) {
    // On a retry this replays the opening deposit, or books it if the first attempt stopped short.
    const result = await fundFromSystem(
      ctx,
      ownerId,
      account,
      "funding",
      "deposit",
      opening,
      "Opening balance",
      {
        key: idempotencyKey ? openingKey(idempotencyKey) : null,
        hash: openingHash(account.id),
      },
      actor,
      gate,
    );
    openingJournal = (JSON.parse(result.body) as { data: JournalReply }).data;
  }
  return {
    account: accountReply(account, await currentBalance(ctx, account)),
    opening_transaction: openingJournal,
    replayed,
  };
}

/**
 * The business checks of a transfer, in order: the same account twice, an inactive account, the
 * currencies. Each refusal is a decision about the accounts, recorded under a key.
 */
export function checkTransfer(from: Account, to: Account, currency: Currency | undefined): void {
  if (from.id === to.id) throw badRequest(LEDGER_MESSAGES.sameAccount, "same_account");
  requireActive(from);
  requireActive(to);
  requireCurrency(from, currency);
  requireCurrency(to, currency ?? from.currency);
}

/** The journal draft of a transfer: value leaves the source (credit) and arrives at the destination (debit). */
export function transferDraft(
  ownerId: string,
  from: Account,
  to: Account,
  amount: number,
  description: string,
  actor: Actor | null,
): JournalDraft {
  return {
    type: "transfer",
    ownerId,
    actor,
    currency: from.currency,
    description: description || `Transfer from ${from.name} to ${to.name}`,
    legs: [
      { account: from, side: "credit", amount },
      { account: to, side: "debit", amount },
    ],
  };
}

/**
 * Validation comes first (shape, then the accounts exist and are the caller's, then the amount
 * in the source's currency): those errors are never recorded, so a corrected retry works. The
 * business checks after it are decisions, recorded under a key.
 */
export async function transfer(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  idempotencyKey: string | null,
  actor: Actor | null = null,
): Promise<WriteResult> {
  const input = parseWith(TransferInput, body);
  const [from, to] = await Promise.all([
    requireOwnedAccount(ctx, ownerId, input.from_account_id),
    requireOwnedAccount(ctx, ownerId, input.to_account_id),
  ]);
  const amount = minorOrThrow(input.amount, from.currency);
  const idempotency = { key: idempotencyKey, hash: requestHash({ op: "transfer", ...input, amount }) };
  if (input.quote_id !== undefined) {
    // A quoted conversion: the quote names the two currencies; without one, they must agree.
    const quote = await quoteForTransfer(ctx, input.quote_id);
    return asResult(
      await decided(ctx, ownerId, idempotency, () =>
        createFxTransfer(
          ctx,
          { ownerId, from, to, sellMinor: amount, quote, description: input.description, actor },
          idempotency,
          () => {
            if (from.id === to.id) throw badRequest(LEDGER_MESSAGES.sameAccount, "same_account");
            requireActive(from);
            requireActive(to);
            requireCurrency(from, input.currency);
          },
        ),
      ),
    );
  }
  return asResult(
    await decided(ctx, ownerId, idempotency, () => {
      checkTransfer(from, to, input.currency);
      return createJournal(ctx, transferDraft(ownerId, from, to, amount, input.description, actor), idempotency);
    }),
  );
}

export async function deposit(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  idempotencyKey: string | null,
  actor: Actor | null = null,
): Promise<WriteResult> {
  const input = parseWith(DepositInput, body);
  const account = await requireOwnedAccount(ctx, ownerId, input.account_id);
  const amount = minorOrThrow(input.amount, account.currency);
  const idempotency = { key: idempotencyKey, hash: requestHash({ op: "deposit", ...input, amount }) };
  const gate = await gateMoney(ctx, ownerId, depositInto(account, amount));
  return fundFromSystem(
    ctx,
    ownerId,
    account,
    "funding",
    "deposit",
    amount,
    input.description || "Deposit",
    idempotency,
    actor,
    gate,
    input.currency,
  );
}

/** Free money for trying the product: only where the stage allows it, from the sandbox faucet. */
export async function testBalance(
  ctx: CoreContext,
  ownerId: string,
  body: unknown,
  idempotencyKey: string | null,
  actor: Actor | null = null,
): Promise<WriteResult> {
  if (!ctx.config.ALLOW_TEST_BALANCE) throw forbidden(LEDGER_MESSAGES.testBalanceDisabled, "test_balance_disabled");
  const input = parseWith(TestBalanceInput, body);
  const account = await requireOwnedAccount(ctx, ownerId, input.account_id);
  const amount = minorOrThrow(input.amount ?? TEST_BALANCE_DEFAULT_MAJOR, account.currency);
  if (amount > minorOrThrow(TEST_BALANCE_MAX_MAJOR, account.currency)) {
    throw badRequest(
      `A test balance can be at most ${TEST_BALANCE_MAX_MAJOR.toLocaleString("en-US")} ${account.currency}`,
      "invalid_amount",
    );
  }
  const idempotency = { key: idempotencyKey, hash: requestHash({ op: "test_balance", ...input, amount }) };
  // Sandbox money (stages that allow it only) is not money in: no limit counts it, and it can
  // leave the platform only through payments, which the gate holds to the caller's level.
  const gate = await gateMoney(ctx, ownerId, []);
  return fundFromSystem(
    ctx,
    ownerId,
    account,
    "sandbox",
    "test_balance",
    amount,
    input.description || "Test balance",
    idempotency,
    actor,
    gate,
    input.currency,
  );
}

export async function setJournalStatus(
  ctx: CoreContext,
  ownerId: string,
  journalId: string,
  operation: "post" | "unpost",
  idempotencyKey: string | null,
  actor: Actor | null = null,
): Promise<WriteResult> {
  // Four eyes: a deposit above the threshold is posted by another administrator, never its owner.
  if (operation === "post") await requireOwnerMayPost(ctx, ownerId, journalId);
  return asResult(
    await changeJournalStatus(
      ctx,
      ownerId,
      journalId,
      operation,
      { key: idempotencyKey, hash: requestHash({ op: operation, journalId }) },
      actor,
      (ids) => getAccounts(ctx, ids),
    ),
  );
}

export async function balanceOf(ctx: CoreContext, ownerId: string, accountId: string, asOf: string | undefined) {
  const account = await requireOwnedAccount(ctx, ownerId, accountId);
  let balance: AccountBalance | null;
  if (asOf === undefined) {
    balance = await currentBalance(ctx, account);
  } else {
    const moment = Date.parse(asOf);
    if (Number.isNaN(moment)) throw badRequest("as_of must be an ISO 8601 date-time", "invalid_as_of");
    balance = await balanceAsOf(ctx, account, new Date(Math.min(moment, ctx.clock().getTime())).toISOString());
    if (!balance) {
      throw notFound(
        `The account did not exist at ${new Date(moment).toISOString()}; it was opened at ${account.created_at}`,
        "account_not_open_yet",
      );
    }
  }
  return {
    account_id: account.id,
    account_name: account.name,
    ...accountReply(account, balance),
    as_of: balance.as_of,
  };
}

/**
 * The journals that touched an account, newest first: each left a "create" version on its chain
 * (one query of the account's own partition, however many journals its owner has). A batch's
 * folded version stands for all its journals on the account (folded-versions.ts): they are listed
 * together, newest first, so such a page may hold more rows than `limit` (at most a batch's worth),
 * and `offset` counts balance changes. Another customer's payment not posted (yet) is left out, so
 * such a page may also hold fewer.
 */
export async function accountTransactions(
  ctx: CoreContext,
  ownerId: string,
  accountId: string,
  page: PageQuery,
): Promise<Page<JournalReply>> {
  const account = await requireOwnedAccount(ctx, ownerId, accountId);
  const partition = chainPartition(account.id);
  const found = await queryPage(
    ctx.db,
    {
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      FilterExpression: "operation = :create",
      ExpressionAttributeValues: { ":pk": partition, ":prefix": BALANCE_PREFIX, ":create": "create" },
    },
    ["pk", "sk"],
    { name: "pk", value: partition },
    cursorBinding(ctx, { route: "accounts/transactions", owner: ownerId, account: account.id }),
    page,
    (item) => {
      const ids = unfoldVersion(item as unknown as FoldedVersionItem).flatMap((leg) => (leg.tx_id ? [leg.tx_id] : []));
      return ids.length > 0 ? ids.reverse() : null;
    },
  );
  const journals = await Promise.all(found.items.flat().map((id) => loadJournal(ctx, id)));
  // The account's holder may not own the journal (a payment another user sent them): they see it
  // once it is posted (a held payment is the payer's alone), as money received from the payer.
  const visible = journals.filter(
    (journal): journal is Journal => journal !== null && (journal.owner_id === ownerId || journal.status === "posted"),
  );
  const detailed = await withAccountDetails(ctx, visible);
  const viewer = { ownerId, accountIds: new Set([account.id]) };
  return { ...found, items: detailed.map((journal) => journalReply(journal, viewer)) };
}
