import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { ANALYTICS_DEFAULT_DAYS, ANALYTICS_MAX_DAYS } from "@fintech/core/ledger/analytics";
import {
  DepositInput,
  LockInput,
  TestBalanceInput,
  ThresholdInput,
  TransactionFilters,
  TransferInput,
} from "@fintech/core/ledger/model";
import { INTEGRITY_SETTLE_MS, IntegrityJob, IntegrityResult } from "@fintech/core/ledger/integrity-model";
import { BATCH_MAX_ITEMS, BatchRequestInput, TRANSACTION_MAX_ITEMS } from "@fintech/core/ledger/batches";
import { EXPORT_MAX_ROWS } from "@fintech/core/ledger/history-export";
import { PageQuery } from "@fintech/core/shared/pagination";
import {
  authenticated,
  errors,
  ErrorReply,
  idempotencyKeyParameter,
  jsonBody,
  jsonReply,
  pathParameter,
  queryParameter,
  queryParameters,
  REPLAYED_HEADER,
  schemaRef,
  TAGS,
} from "../http/openapi";
import {
  accountExample,
  AccountChangedReply,
  AnalyticsReply,
  CreditShardsReply,
  AvailableAccountsReply,
  BalanceReply,
  depositExample,
  EXAMPLE_IDS,
  IntegrityReply,
  JournalDetailReply,
  journalExample,
  JournalPageReply,
  JournalReply,
  JournalWriteReply,
  postedJournalExample,
  savingsExample,
  TrialBalanceReply,
} from "../http/reply-schemas";
import { createAccountRoute, listAccountsRoute } from "./accounts";

/**
 * The OpenAPI declarations of the ledger's routes (ledger.ts): what the document says of each
 * route (path, parameters, replies, examples). The handlers are there, registered in the order the
 * document lists them.
 */

const ledger = {
  tags: [TAGS.ledger] as [typeof TAGS.ledger],
  security: authenticated,
  "x-stability": "stable" as const,
};
/** Longest reason a credit-shard conversion keeps. */
export const CREDIT_SHARDS_REASON_MAX = 200;
const accountId = pathParameter("id", "The account's id", EXAMPLE_IDS.account);
const transactionId = pathParameter("id", "The transaction's (journal's) id", EXAMPLE_IDS.journal);
const asOf = (what: string) =>
  queryParameter(
    "as_of",
    `ISO 8601 date-time: ${what} at that moment (a moment in the future means now)`,
    { type: "string", format: "date-time" },
    "2026-01-15T12:00:00.000Z",
  );
const WRITE_ERRORS = {
  400: [
    "validation_error",
    "invalid_json",
    "invalid_amount",
    "same_account",
    "currency_mismatch",
    "account_inactive",
    "invalid_idempotency_key",
  ],
  401: true,
  404: ["account_not_found"],
  409: ["idempotency_in_progress"],
  413: ["payload_too_large"],
  422: ["insufficient_funds", "idempotency_key_reused"],
  423: ["account_locked"],
  503: true,
} as const;
/** The recorded-refusal rule (core's ledger/decisions.ts), said once for every keyed write. */
const DECISIONS_STAY_DECIDED =
  "Decisions stay decided: with an Idempotency-Key, a refusal for a business rule (`insufficient_funds`, `account_locked`, `account_inactive`, `same_account`, `currency_mismatch`, `limit_exceeded`, and for post/unpost `already_posted` / `not_posted`) is recorded under the key, and every retry with that key gets the same refusal byte for byte (same status and body, with `Idempotent-Replayed: true`) even after the state changed, e.g. funds arrived; use a new key for a new attempt. Validation errors (other 400s), 404s and 409 `idempotency_in_progress` are not recorded: a corrected retry with the same key works.";
const FILTER_DESCRIPTIONS = {
  status: "Only transactions in this status",
  type: "Only transactions of this type",
  account_id: "Only transactions touching this account of yours (unknown or another user's: 404)",
  from: "From this UTC day (YYYY-MM-DD, inclusive) or instant (ISO date-time with zone)",
  to: "Up to this UTC day (YYYY-MM-DD, inclusive) or instant",
  q: "Search in descriptions, counterparties and ids",
};
const PAGE_DESCRIPTIONS = {
  limit: "Page size",
  offset: "Items to skip (offset paging); ignored with a cursor",
  cursor: "The `pagination.next_cursor` of the previous page (signed and bound to this query's filters)",
};
const pageExample = (items: unknown[]) => ({
  data: items,
  pagination: { limit: 50, offset: 0, next_cursor: null, has_more: false },
});

export const listLedgerAccountsRoute = listAccountsRoute("listLedgerAccounts", TAGS.ledger, "/accounts");
export const createLedgerAccountRoute = createAccountRoute("createLedgerAccount", TAGS.ledger, "/accounts");

export const availableAccountsRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/accounts/available",
  operationId: "listAvailableAccounts",
  summary: "Accounts that can move money",
  description:
    "The signed-in user's ACTIVE accounts (locked, frozen and closed ones left out): the choices of a transfer form.",
  "x-complexity": "medium",
  responses: {
    200: jsonReply("The active accounts", "AvailableAccountsReply", AvailableAccountsReply, {
      accounts: [accountExample, savingsExample],
    }),
    ...errors({ 401: true, 503: true }),
  },
});

export const updateAccountRoute = createRoute({
  ...ledger,
  method: "patch",
  path: "/accounts/{id}",
  operationId: "updateAccountThreshold",
  summary: "Set the low-balance alert threshold",
  description:
    "The owner's low-balance threshold: a change that leaves the available balance under it raises a `lowBalanceAlert` on the stream. `\"\"` or null removes it. Recorded on the account's history.",
  "x-complexity": "medium",
  parameters: [accountId],
  request: { body: jsonBody("ThresholdInput", ThresholdInput, { low_balance_threshold: "200.00" }) },
  responses: {
    200: jsonReply("The account", "AccountChangedReply", AccountChangedReply, {
      message: "Account updated",
      data: { ...accountExample, low_balance_threshold: "200.00", version: 5 },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "invalid_amount", "system_account"],
      401: true,
      404: ["account_not_found"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const lockRoute = (lock: boolean) =>
  createRoute({
    ...ledger,
    method: "post",
    path: `/accounts/{id}/${lock ? "lock" : "unlock"}`,
    operationId: lock ? "lockAccount" : "unlockAccount",
    summary: lock ? "Lock an account (admin)" : "Unlock an account (admin)",
    description: lock
      ? "Administrators only. A locked account refuses money out (423 `account_locked`) and still receives money in. The reason is kept in the account's history and announced as `accountLocked`."
      : "Administrators only. Lifts a lock; the reason is kept in the account's history and announced as `accountUnlocked`.",
    "x-complexity": "medium",
    parameters: [accountId],
    request: {
      body: jsonBody("LockInput", LockInput, {
        reason: lock ? "Suspected card fraud: customer called" : "Customer identity confirmed",
      }),
    },
    responses: {
      200: jsonReply(lock ? "The locked account" : "The unlocked account", "AccountChangedReply", AccountChangedReply, {
        message: lock ? "Account locked" : "Account unlocked",
        data: lock
          ? { ...accountExample, status: "LOCKED", lock_reason: "Suspected card fraud: customer called", version: 5 }
          : { ...accountExample, version: 6 },
      }),
      ...errors({
        400: ["validation_error", "invalid_json", "system_account"],
        401: true,
        403: ["admin_required"],
        404: ["account_not_found"],
        409: [lock ? "already_locked" : "not_locked"],
        413: ["payload_too_large"],
        503: true,
      }),
    },
  });

/** The optional body of a credit-shard conversion: why, kept in the account's history. */
export const CreditShardsInput = z.object({
  reason: z
    .string({ error: "Reason must be a string" })
    .trim()
    .max(CREDIT_SHARDS_REASON_MAX, `Reason must be at most ${CREDIT_SHARDS_REASON_MAX} characters`)
    .nullish(),
});

export const creditShardsRoute = createRoute({
  ...ledger,
  method: "post",
  path: "/accounts/{id}/credit-shards",
  operationId: "enableCreditShards",
  summary: "Spread an account's incoming credits over balance shards (admin)",
  description:
    "Administrators only. Converts a customer account that many payers credit at once (a merchant, a platform's fee account) so that money coming in lands on balance shards beside its main chain, as system accounts do; debits, holds and controls stay on the main chain, and the balance figures cover every shard. Live and without downtime; it cannot be undone. A repeat answers 200 with `converted: false` and changes nothing, so a retry (with or without an Idempotency-Key) is safe. The ledger also converts an account by itself when concurrent credits contend on it (docs/ledger.md#hot-receiving-accounts).",
  "x-complexity": "medium",
  parameters: [accountId, idempotencyKeyParameter()],
  request: {
    body: {
      ...jsonBody("CreditShardsInput", CreditShardsInput, { reason: "Marketplace payouts land here" }),
      required: false,
    },
  },
  responses: {
    200: jsonReply("The account's credit shards", "CreditShardsReply", CreditShardsReply, {
      message: "Incoming credits now spread over 32 balance shards",
      data: { account_id: EXAMPLE_IDS.account, credit_shards: 32, converted: true, at: "2026-01-15T09:30:00.000Z" },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "system_account", "invalid_idempotency_key"],
      401: true,
      403: ["admin_required"],
      404: ["account_not_found"],
      413: ["payload_too_large"],
      503: true,
    }),
  },
});

export const balanceRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/accounts/{id}/balance",
  operationId: "getAccountBalance",
  summary: "Account balance, now or at a moment",
  description: "The account's balances now, or as they stood at `as_of` (one read of the version in force then).",
  "x-complexity": "low",
  parameters: [accountId, asOf("the balance")],
  responses: {
    200: jsonReply("The balance", "BalanceReply", BalanceReply, {
      data: {
        account_id: EXAMPLE_IDS.account,
        account_name: "Everyday",
        ...accountExample,
        as_of: "2026-01-15T12:00:00.000Z",
      },
    }),
    ...errors({ 400: ["invalid_as_of"], 401: true, 404: ["account_not_found", "account_not_open_yet"], 503: true }),
  },
});

export const accountTransactionsRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/accounts/{id}/transactions",
  operationId: "listAccountTransactions",
  summary: "An account's transactions",
  description:
    "The transactions that touched one account, newest first, a page at a time (offset or cursor paging). Several transactions of one batch that changed this account are one balance change and come on one page together, so such a page may hold more rows than `limit` (and `offset` counts balance changes).",
  "x-complexity": "medium",
  parameters: [accountId, ...queryParameters(PageQuery, PAGE_DESCRIPTIONS)],
  responses: {
    200: jsonReply("A page of transactions", "JournalPageReply", JournalPageReply, pageExample([journalExample])),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 404: ["account_not_found"], 503: true }),
  },
});

const moneyWrite = (options: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  input: {
    name: string;
    schema: typeof TransferInput | typeof DepositInput | typeof TestBalanceInput;
    example: object;
  };
  example: object;
  errors?: Parameters<typeof errors>[0];
}) =>
  createRoute({
    ...ledger,
    method: "post",
    path: options.path,
    operationId: options.operationId,
    summary: options.summary,
    description: `${options.description} The transaction is created as a draft (pending); POST /transactions/{id}/post posts it. Send an Idempotency-Key to retry safely. ${DECISIONS_STAY_DECIDED}`,
    "x-complexity": "medium",
    parameters: [idempotencyKeyParameter()],
    request: { body: jsonBody(options.input.name, options.input.schema, options.input.example) },
    responses: {
      201: jsonReply(
        "The transaction (a replay with the same Idempotency-Key is byte for byte the first reply)",
        "JournalWriteReply",
        JournalWriteReply,
        { message: "Transaction created", data: options.example },
        REPLAYED_HEADER,
      ),
      ...errors(options.errors ?? WRITE_ERRORS),
    },
  });

export const transferRoute = moneyWrite({
  path: "/transactions/transfer",
  operationId: "createTransfer",
  summary: "Transfer between two accounts",
  description:
    "Moves money between two of the signed-in user's accounts in the same currency: the source is credited, the destination debited, in one balanced journal. The available balance of the source must cover it.",
  input: {
    name: "TransferInput",
    schema: TransferInput,
    example: {
      from_account_id: EXAMPLE_IDS.account,
      to_account_id: EXAMPLE_IDS.savings,
      amount: "100.00",
      currency: "USD",
      description: "Rent share",
    },
  },
  example: journalExample,
});

export const depositRoute = moneyWrite({
  path: "/transactions/deposit",
  operationId: "createDeposit",
  summary: "Deposit into an account",
  description:
    "Money entering one of the signed-in user's accounts from outside the ledger (the external funding account is the other side). Deposits count against your money limits per currency (GET /api/v1/ledger/limits): 403 `kyc_required` when your verification level may not deposit, 422 `limit_exceeded` when this deposit would pass a rolling limit (the message names the limit, the window, what remains and what raises it; recorded under an Idempotency-Key like `insufficient_funds`).",
  input: {
    name: "DepositInput",
    schema: DepositInput,
    example: { account_id: EXAMPLE_IDS.account, amount: "2500.00", currency: "USD", description: "Salary" },
  },
  example: depositExample,
  errors: {
    ...WRITE_ERRORS,
    403: ["kyc_required"],
    422: ["insufficient_funds", "idempotency_key_reused", "limit_exceeded"],
  },
});

export const testBalanceRoute = moneyWrite({
  path: "/transactions/test-balance",
  operationId: "createTestBalance",
  summary: "Add a test balance (sandbox)",
  description:
    "Free money for trying the product (default 1,000, at most 100,000), from the sandbox faucet; only where the stage allows it (403 `test_balance_disabled` elsewhere).",
  input: {
    name: "TestBalanceInput",
    schema: TestBalanceInput,
    example: { account_id: EXAMPLE_IDS.account, amount: "1000" },
  },
  example: {
    ...depositExample,
    type: "test_balance",
    description: "Test balance",
    amount: "1000.00",
    total_amount: "1000.00",
    total_amount_minor: 100000,
    entries: [
      { ...depositExample.entries[0], debit: "1000.00", amount_minor: 100000 },
      {
        account_id: "sys-sandbox-usd",
        account_name: "Sandbox faucet",
        account_number: null,
        owned: false,
        party: "system",
        side: "credit",
        debit: "0",
        credit: "1000.00",
        amount_minor: 100000,
      },
    ],
    from_account_id: "sys-sandbox-usd",
    counterparty: "Sandbox faucet",
  },
  errors: { ...WRITE_ERRORS, 403: ["test_balance_disabled"] },
});

/** A batch's error names the refused (or malformed) item by its 0-based position. */
const BatchErrorReply = ErrorReply.extend({
  error: z.string().optional().describe("The message again (as post and unpost replies carry it)"),
  index: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "The 0-based position of the item that was refused or is malformed (absent when the batch as a whole is)",
    ),
});
const BatchWriteReply = z.object({
  message: z.string(),
  data: z
    .array(JournalReply)
    .describe(
      "One transaction per item, in the items' order: each what the single request would have answered in `data`",
    ),
});

/** The write errors with the batch's error shape, plus the batch-level 422 batch_too_large. */
function batchErrors(): ReturnType<typeof errors> {
  const responses = errors({
    ...WRITE_ERRORS,
    403: ["kyc_required"],
    422: ["insufficient_funds", "idempotency_key_reused", "batch_too_large", "limit_exceeded"],
  });
  for (const status of [400, 404, 422, 423] as const) {
    const response = responses[status] as {
      description: string;
      content: Record<string, { schema?: unknown; example: Record<string, unknown> }>;
    };
    const example =
      status === 422
        ? { message: "Insufficient available balance in Everyday", code: "insufficient_funds" }
        : response.content["application/json"]!.example;
    response.content = {
      "application/json": {
        schema: schemaRef("BatchError", BatchErrorReply, "output"),
        example: { ...example, error: example.message, index: 3 },
      },
    };
  }
  return responses;
}

export const batchRoute = createRoute({
  ...ledger,
  method: "post",
  path: "/transactions/batch",
  operationId: "createBatch",
  summary: "Transfers and deposits, all or nothing",
  description: [
    `Up to ${BATCH_MAX_ITEMS} transfers and deposits (\`type\` plus that request's own fields, validated with its own schema and messages) committed all or nothing in one DynamoDB transaction, as drafts, in order: an item is checked against the balances the earlier items leave (two transfers out of one account must both be covered; a deposit in the batch is pending and, as always, not yet available).`,
    "The reply lists one transaction per item, in order. A refused or malformed item refuses the whole batch and nothing is written: the error is the single request's status, code and message plus the item's 0-based `index` (and `error`, repeating the message). Checks run in three rounds, each over the items in order: validation (shape, the accounts exist and are yours, the amount), then the business checks (same account, inactive account, currency), then the balances and locks; the first failing item of the first failing round is the one named.",
    `Size: the transaction holds one item per transaction plus one balance version per distinct account the batch changes (all of its legs on an account are folded into one version), at most ${TRANSACTION_MAX_ITEMS}: e.g. a ${BATCH_MAX_ITEMS}-transfer payout from one account fits with up to ${TRANSACTION_MAX_ITEMS - BATCH_MAX_ITEMS - 1} distinct payees; more is a 422 \`batch_too_large\` naming the count (split the batch).`,
    "The batch's deposits count against your money limits as single deposits do (403 `kyc_required`; 422 `limit_exceeded` naming the deposit item that passes a limit); its transfers, between your own accounts, are never limited.",
    `With an Idempotency-Key the batch is replayed as a whole, exactly like a single write. ${DECISIONS_STAY_DECIDED}`,
  ].join(" "),
  "x-complexity": "high",
  parameters: [idempotencyKeyParameter()],
  request: {
    body: jsonBody("BatchInput", BatchRequestInput, {
      items: [
        { type: "deposit", account_id: EXAMPLE_IDS.account, amount: "2500.00", description: "Salary" },
        {
          type: "transfer",
          from_account_id: EXAMPLE_IDS.account,
          to_account_id: EXAMPLE_IDS.savings,
          amount: "100.00",
          description: "Rent share",
        },
      ],
    }),
  },
  responses: {
    201: jsonReply(
      "One transaction per item, in order (a replay with the same Idempotency-Key is byte for byte the first reply)",
      "BatchWriteReply",
      BatchWriteReply,
      { message: "Batch created", data: [depositExample, journalExample] },
      REPLAYED_HEADER,
    ),
    ...batchErrors(),
  },
});

export const historyRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/transactions/history",
  operationId: "listTransactions",
  summary: "Transaction history",
  description:
    "The signed-in user's transactions, newest first, filtered (status, type, account, date range, search) and paged (offset or cursor; cursors are bound to the filters).",
  "x-complexity": "medium",
  parameters: [
    ...queryParameters(TransactionFilters, FILTER_DESCRIPTIONS),
    ...queryParameters(PageQuery, PAGE_DESCRIPTIONS),
  ],
  responses: {
    200: jsonReply(
      "A page of transactions",
      "JournalPageReply",
      JournalPageReply,
      pageExample([postedJournalExample, depositExample]),
    ),
    ...errors({ 400: ["validation_error", "invalid_cursor"], 401: true, 404: ["account_not_found"], 503: true }),
  },
});

export const exportRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/transactions/export",
  operationId: "exportTransactions",
  summary: "Export transactions as CSV",
  description: `Every transaction matching the history's filters (at most ${EXPORT_MAX_ROWS.toLocaleString("en-US")}; more is a 422 \`export_too_large\`) as a CSV download. Cells that a spreadsheet would run as formulas are escaped.`,
  "x-complexity": "high",
  parameters: queryParameters(TransactionFilters, FILTER_DESCRIPTIONS),
  responses: {
    200: {
      description: "The CSV file (Content-Disposition: attachment)",
      headers: {
        "Content-Disposition": {
          description: 'attachment; filename="transactions-....csv"',
          schema: { type: "string" },
        },
      },
      content: {
        "text/csv": {
          schema: { type: "string" },
          example:
            "id,date,type,status,description,amount,currency\nd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70,2026-01-15T10:00:00.000Z,transfer,draft,Rent share,100.00,USD\n",
        },
      },
    },
    ...errors({
      400: ["validation_error"],
      401: true,
      404: ["account_not_found"],
      422: ["export_too_large"],
      503: true,
    }),
  },
});

export const transactionRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/transactions/{id}",
  operationId: "getTransaction",
  summary: "Get a transaction",
  description:
    "One of the signed-in user's transactions with its entries and its full status history (who posted or unposted it, when).",
  "x-complexity": "low",
  parameters: [transactionId],
  responses: {
    200: jsonReply("The transaction", "JournalDetailReply", JournalDetailReply, { data: postedJournalExample }),
    ...errors({ 401: true, 404: ["transaction_not_found"], 503: true }),
  },
});

export const statusRoute = (operation: "post" | "unpost") =>
  createRoute({
    ...ledger,
    method: "post",
    path: `/transactions/{id}/${operation}`,
    operationId: operation === "post" ? "postTransaction" : "unpostTransaction",
    summary: operation === "post" ? "Post a transaction" : "Unpost a transaction",
    description:
      operation === "post"
        ? `Moves a draft transaction to posted: its amounts leave the pending totals for the posted balance. Error replies repeat the message in \`error\`. ${DECISIONS_STAY_DECIDED}`
        : `Moves a posted transaction back to draft (recorded in its history, never erased). Error replies repeat the message in \`error\`. ${DECISIONS_STAY_DECIDED}`,
    "x-complexity": "medium",
    parameters: [transactionId, idempotencyKeyParameter()],
    responses: {
      200: jsonReply(
        "The transaction after the change",
        "JournalWriteReply",
        JournalWriteReply,
        operation === "post"
          ? { message: "Transaction posted", data: postedJournalExample }
          : {
              message: "Transaction unposted",
              data: {
                ...journalExample,
                history: [
                  ...postedJournalExample.history,
                  {
                    operation: "unpost",
                    status: "draft",
                    at: "2026-01-15T10:10:00.000Z",
                    by: { id: EXAMPLE_IDS.user, name: "Ada Lovelace" },
                  },
                ],
              },
            },
        REPLAYED_HEADER,
      ),
      ...errors({
        400: ["invalid_idempotency_key"],
        401: true,
        404: ["transaction_not_found"],
        // payment_hold: a payment's hold is settled only by its payment; voided: a released hold is final.
        409: [
          operation === "post" ? "already_posted" : "not_posted",
          "payment_hold",
          "voided",
          "idempotency_in_progress",
        ],
        422: ["insufficient_funds", "idempotency_key_reused"],
        423: ["account_locked"],
        503: true,
      }),
    },
  });

export const trialBalanceRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/trial-balance",
  operationId: "getTrialBalance",
  summary: "Trial balance",
  description:
    "The signed-in user's accounts plus one counterparty line per system account their journals touched, so debits equal credits per currency; now or at `as_of`. Each line says whether its recorded balance equals the replay of its journals.",
  "x-complexity": "high",
  parameters: [asOf("the balances")],
  responses: {
    200: jsonReply("The trial balance", "TrialBalanceReply", TrialBalanceReply, {
      data: {
        as_of: "2026-01-15T12:00:00.000Z",
        accounts: [
          {
            account_id: EXAMPLE_IDS.account,
            account_name: "Everyday",
            account_type: "bank",
            kind: "customer",
            currency: "USD",
            debit_balance: "2500.00",
            credit_balance: "0.00",
            total_debits: "2500.00",
            total_credits: "0.00",
            is_balanced: true,
            as_of: "2026-01-15T12:00:00.000Z",
          },
          {
            account_id: "sys-funding-usd",
            account_name: "External funding",
            account_type: "liability",
            kind: "counterparty",
            currency: "USD",
            debit_balance: "0.00",
            credit_balance: "2500.00",
            total_debits: "0.00",
            total_credits: "2500.00",
            is_balanced: true,
            as_of: "2026-01-15T12:00:00.000Z",
          },
        ],
        totals: [
          { currency: "USD", total_debit_balance: "2500.00", total_credit_balance: "2500.00", is_balanced: true },
        ],
        is_balanced: true,
      },
    }),
    ...errors({ 400: ["invalid_as_of"], 401: true, 503: true }),
  },
});

const integrityExample = {
  data: {
    checked_at: "2026-01-15T12:00:00.000Z",
    scope: "owner" as const,
    accounts_checked: 2,
    journals_checked: 3,
    drift: [],
    unbalanced_journals: [],
    ok: true,
  },
};

export const integrityRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/integrity",
  operationId: "checkIntegrity",
  summary: "Check your ledger's integrity",
  description:
    "Recomputes every balance of the signed-in user's accounts from their journals and compares it with the recorded balances; lists any drift and any unbalanced journal. Reads only the user's own accounts, journals and the payments they received, never the rest of the ledger.",
  "x-complexity": "high",
  responses: {
    200: jsonReply("The check", "IntegrityReply", IntegrityReply, integrityExample),
    ...errors({ 401: true, 503: true }),
  },
});

/* The whole-ledger check runs as a job, a page at a time outside any request (core's ledger/integrity-steps.ts). */

const integrityJobId = pathParameter("id", "The integrity check's (job's) id", "5a0c3e2f-9b1d-4c8e-a7f6-3d2e1c0b9a87");
const integrityResultExample = {
  checked_at: "2026-01-15T12:04:10.000Z",
  scope: "ledger" as const,
  as_of: "2026-01-15T11:59:00.000Z",
  accounts_checked: 58,
  journals_checked: 412,
  drift: [],
  drift_count: 0,
  unbalanced_journals: [],
  unbalanced_count: 0,
  currencies: [
    {
      currency: "USD" as const,
      posted_debits: 1250000,
      posted_credits: 1250000,
      pending_debits: 10000,
      pending_credits: 10000,
      is_balanced: true,
    },
  ],
  ok: true,
};
const integrityJobExample = (status: "queued" | "running" | "succeeded") => ({
  id: "5a0c3e2f-9b1d-4c8e-a7f6-3d2e1c0b9a87",
  scope: "ledger" as const,
  started_by: { id: EXAMPLE_IDS.user, name: "Ada Lovelace" },
  started_at: "2026-01-15T12:00:00.000Z",
  as_of: "2026-01-15T11:59:00.000Z",
  status,
  progress: {
    phase: status === "succeeded" ? ("done" as const) : ("journals" as const),
    pages: status === "queued" ? 0 : status === "running" ? 3 : 14,
    items_examined: status === "queued" ? 0 : status === "running" ? 600 : 2310,
    estimated_items: 2300,
    journals_checked: status === "queued" ? 0 : status === "running" ? 120 : 412,
    accounts_found: status === "queued" ? 0 : status === "running" ? 17 : 58,
    accounts_checked: status === "succeeded" ? 58 : 0,
    percent: status === "queued" ? 0 : status === "running" ? 20 : 100,
  },
  result: status === "succeeded" ? integrityResultExample : null,
  finished_at: status === "succeeded" ? "2026-01-15T12:04:10.000Z" : null,
  error: null,
  updated_at: status === "succeeded" ? "2026-01-15T12:04:10.000Z" : "2026-01-15T12:00:00.000Z",
});
const IntegrityJobReply = z.object({ data: IntegrityJob });
const IntegrityJobStartedReply = z.object({ message: z.string(), data: IntegrityJob });
const LatestIntegrityJobReply = z.object({
  data: IntegrityJob.nullable().describe("The most recently started check, whatever its status; null before the first"),
});
const LedgerIntegrityReply = z.object({
  data: IntegrityResult.nullable().describe("The latest finished check's result; null before the first"),
  job_id: z.string().nullable().describe("The job that produced it"),
  age_seconds: z.number().int().nullable().describe("How long ago it finished"),
  message: z.string(),
});
const ADMIN_ONLY_ERRORS = { 401: true, 403: ["admin_required"], 503: true } as const;

export const ledgerIntegrityRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/integrity/ledger",
  operationId: "checkLedgerIntegrity",
  summary: "The whole ledger's latest integrity result (admin)",
  description:
    "Administrators only. The result of the latest whole-ledger integrity check that finished, and how old it is. The check itself runs as a job outside the request (POST /integrity/jobs), never as a scan here; before the first has finished, `data` is null and `message` says how to start one.",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The latest stored result", "LedgerIntegrityReply", LedgerIntegrityReply, {
      data: integrityResultExample,
      job_id: "5a0c3e2f-9b1d-4c8e-a7f6-3d2e1c0b9a87",
      age_seconds: 3600,
      message:
        "The latest whole-ledger check finished 3600 seconds ago; start a new one with POST /api/v1/ledger/integrity/jobs",
    }),
    ...errors(ADMIN_ONLY_ERRORS),
  },
});

export const startIntegrityJobRoute = createRoute({
  ...ledger,
  method: "post",
  path: "/integrity/jobs",
  operationId: "startLedgerIntegrityJob",
  summary: "Start a whole-ledger integrity check (admin)",
  description: `Administrators only. Starts the whole-ledger check as a job and answers at once (202): a worker recomputes every balance, system accounts included, from the journals a page at a time and compares it with the recorded balances, as the ledger stood ${INTEGRITY_SETTLE_MS / 1000} s before the start (\`as_of\`), so writes may go on meanwhile. Follow it with GET /integrity/jobs/{id}. One whole-ledger check runs at a time: another start while one runs is 409 \`integrity_check_running\`.`,
  "x-complexity": "medium",
  responses: {
    202: jsonReply("The job, queued", "IntegrityJobStartedReply", IntegrityJobStartedReply, {
      message: "Integrity check started",
      data: integrityJobExample("queued"),
    }),
    ...errors({ ...ADMIN_ONLY_ERRORS, 409: ["integrity_check_running"] }),
  },
});

export const latestIntegrityJobRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/integrity/jobs/latest",
  operationId: "getLatestLedgerIntegrityJob",
  summary: "The latest whole-ledger integrity check (admin)",
  description:
    "Administrators only. The most recently started check with its progress, and its result once it has finished; `data` is null before the first.",
  "x-complexity": "low",
  responses: {
    200: jsonReply("The latest job", "LatestIntegrityJobReply", LatestIntegrityJobReply, {
      data: integrityJobExample("running"),
    }),
    ...errors(ADMIN_ONLY_ERRORS),
  },
});

export const getIntegrityJobRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/integrity/jobs/{id}",
  operationId: "getLedgerIntegrityJob",
  summary: "A whole-ledger integrity check (admin)",
  description:
    "Administrators only. One check: its status (queued, running, succeeded, failed), progress, and its result once it has succeeded.",
  "x-complexity": "low",
  parameters: [integrityJobId],
  responses: {
    200: jsonReply("The job", "IntegrityJobReply", IntegrityJobReply, { data: integrityJobExample("succeeded") }),
    ...errors({ ...ADMIN_ONLY_ERRORS, 400: ["invalid_job_id"], 404: ["integrity_job_not_found"] }),
  },
});

const day = (date: string, balance: string, minor: number) => ({
  date,
  transactions: 1,
  balance,
  balance_minor: minor,
  available: balance,
  available_minor: minor,
  pending_in: "0.00",
  pending_in_minor: 0,
  pending_out: "0.00",
  pending_out_minor: 0,
  inflow_posted: balance,
  inflow_posted_minor: minor,
  outflow_posted: "0.00",
  outflow_posted_minor: 0,
  inflow_pending: "0.00",
  inflow_pending_minor: 0,
  outflow_pending: "0.00",
  outflow_pending_minor: 0,
});

export const analyticsRoute = createRoute({
  ...ledger,
  method: "get",
  path: "/analytics",
  operationId: "getLedgerAnalytics",
  summary: "Daily balances and flows",
  description:
    "Per account and per currency, one point per UTC day over the last `days` days (today included): end-of-day balance, available, pending and the day's inflows and outflows.",
  "x-complexity": "high",
  parameters: [
    queryParameter(
      "days",
      `Days to cover, 1 to ${ANALYTICS_MAX_DAYS} (default ${ANALYTICS_DEFAULT_DAYS})`,
      { type: "integer", minimum: 1, maximum: ANALYTICS_MAX_DAYS, default: ANALYTICS_DEFAULT_DAYS },
      30,
    ),
  ],
  responses: {
    200: jsonReply("The series", "AnalyticsReply", AnalyticsReply, {
      data: {
        days: 1,
        from: "2026-01-15",
        to: "2026-01-15",
        timezone: "UTC",
        generated_at: "2026-01-15T12:00:00.000Z",
        accounts: [
          {
            account_id: EXAMPLE_IDS.account,
            name: "Everyday",
            account_number: "ACC-4821-0093",
            type: "bank",
            currency: "USD",
            normal_side: "debit",
            status: "ACTIVE",
            created_at: "2026-01-15T09:30:00.000Z",
            opening_balance: "0.00",
            opening_balance_minor: 0,
            series: [day("2026-01-15", "2500.00", 250000)],
          },
        ],
        currencies: [
          {
            currency: "USD",
            account_count: 1,
            opening_balance: "0.00",
            opening_balance_minor: 0,
            series: [day("2026-01-15", "2500.00", 250000)],
          },
        ],
      },
    }),
    ...errors({ 400: ["invalid_days"], 401: true, 503: true }),
  },
});
