import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { reconcileAccount } from "@fintech/core/ledger/controls";
import { requireOwnedAccount } from "@fintech/core/ledger/accounts";
import { DepositInput, ReconcileInput, TransferInput } from "@fintech/core/ledger/model";
import { balanceOf, deposit, transfer } from "@fintech/core/ledger/service";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey } from "../http/idempotency";
import { handleCommand } from "../http/commands";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, idempotencyKeyParameter, jsonReply, schemaRef, TAGS } from "../http/openapi";
import { accountExample, BalanceData, EXAMPLE_IDS, JournalReply } from "../http/reply-schemas";
import { feedOwner } from "../http/feed-response";
import { parseWith } from "../http/validate";
import { actorOf } from "./accounts";
import { AccountIdList, IncludeTransactionsFlag, ledgerFeedUrl, StatusList } from "./feeds";

/**
 * The ledger commands (docs/product/ledger-workspace.md#ledger-commands):
 * `POST /api/grpc/ledger/command`, served by the API beside the ledger stream (ledger-feed.ts) at
 * the same prefix.
 */

const COMMANDS = [
  "subscribeToAccount",
  "subscribeToTransactions",
  "createTransaction",
  "getBalance",
  "reconcileAccount",
] as const;
type CommandName = (typeof COMMANDS)[number];

const SubscribeToAccount = z.object({
  accountId: z
    .string({ error: "accountId is required" })
    .min(1, "accountId is required")
    .max(64, "accountId is not valid"),
  userId: z.string().min(1).max(64).optional(),
  includeTransactions: IncludeTransactionsFlag.optional(),
});
const SubscribeToTransactions = z.object({
  userId: z.string().min(1).max(64).optional(),
  accountIds: AccountIdList.optional(),
  statusFilter: StatusList.optional(),
});
const CreateTransaction = z.looseObject({
  type: z.enum(["transfer", "deposit"], { error: "type must be transfer or deposit" }),
});
const GetBalance = z.object({
  accountId: z
    .string({ error: "accountId is required" })
    .min(1, "accountId is required")
    .max(64, "accountId is not valid"),
});

async function runCommand(c: Context<AppEnv>, name: CommandName, args: Record<string, unknown>): Promise<unknown> {
  const core = c.get("core");
  const userId = c.get("auth").userId;
  switch (name) {
    case "subscribeToAccount": {
      const input = parseWith(SubscribeToAccount, args);
      const owner = feedOwner(c, input.userId);
      await requireOwnedAccount(core, owner, input.accountId);
      return {
        streamUrl: ledgerFeedUrl({
          userId: owner,
          accountIds: [input.accountId],
          includeTransactions: input.includeTransactions,
        }),
      };
    }
    case "subscribeToTransactions": {
      const input = parseWith(SubscribeToTransactions, args);
      const owner = feedOwner(c, input.userId);
      for (const accountId of input.accountIds ?? []) await requireOwnedAccount(core, owner, accountId);
      return {
        streamUrl: ledgerFeedUrl({ userId: owner, accountIds: input.accountIds, statusFilter: input.statusFilter }),
      };
    }
    case "createTransaction": {
      const { type, ...fields } = parseWith(CreateTransaction, args);
      const write = type === "transfer" ? transfer : deposit;
      const result = await write(core, userId, fields, idempotencyKey(c), actorOf(c));
      return { ...(JSON.parse(result.body) as { data: object }).data, replayed: result.replayed };
    }
    case "getBalance":
      return balanceOf(core, userId, parseWith(GetBalance, args).accountId, undefined);
    case "reconcileAccount":
      return reconcileAccount(core, userId, args, actorOf(c));
  }
}

/* ---------- declarations ---------- */

/** A command's body: `{command: {<name>: arguments}}`, each name with the schema its arguments are parsed with. */
const LedgerCommandInput = z.union([
  z.object({ command: z.object({ subscribeToAccount: SubscribeToAccount }).strict() }),
  z.object({ command: z.object({ subscribeToTransactions: SubscribeToTransactions }).strict() }),
  z.object({
    command: z
      .object({
        createTransaction: z.union([
          TransferInput.extend({ type: z.literal("transfer") }),
          DepositInput.extend({ type: z.literal("deposit") }),
        ]),
      })
      .strict(),
  }),
  z.object({ command: z.object({ getBalance: GetBalance }).strict() }),
  z.object({ command: z.object({ reconcileAccount: ReconcileInput }).strict() }),
]);

const LedgerCommandReply = z.object({
  command: z.enum(COMMANDS),
  result: z.union([
    z.object({ streamUrl: z.string().describe("The stream URL with these filters (subscribe commands)") }),
    JournalReply.extend({ replayed: z.boolean() }).describe(
      "createTransaction: the transaction, and whether it replays an earlier request with the same Idempotency-Key",
    ),
    BalanceData.describe("getBalance"),
    z
      .object({
        accountId: z.string(),
        accountName: z.string(),
        reconciled: z.boolean(),
        variance: z.string(),
        expectedBalance: z.string(),
        ledgerBalance: z.string(),
        currency: z.string(),
        at: z.string(),
      })
      .describe("reconcileAccount"),
  ]),
});

const commandRoute = createRoute({
  tags: [TAGS.streaming] as [typeof TAGS.streaming],
  "x-stability": "stable" as const,
  method: "post",
  path: "/command",
  operationId: "runLedgerCommand",
  summary: "Run a ledger command",
  description:
    "One gRPC-style command per request, `{command: {<name>: {...arguments}}}`: `subscribeToAccount` and `subscribeToTransactions` (answer the stream URL with those filters), `createTransaction` (a transfer or deposit; honours Idempotency-Key), `getBalance`, `reconcileAccount` (compares an expected balance with the ledger's and announces `reconciliationResult`). A refusal is 'Ledger command failed' with the `reason` and the status of the underlying error.",
  "x-complexity": "medium",
  security: authenticated,
  parameters: [idempotencyKeyParameter()],
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: schemaRef("LedgerCommandInput", LedgerCommandInput, "input"),
          example: {
            command: {
              createTransaction: {
                type: "transfer",
                from_account_id: EXAMPLE_IDS.account,
                to_account_id: EXAMPLE_IDS.savings,
                amount: "100.00",
              },
            },
          },
        },
      },
    },
  },
  responses: {
    200: jsonReply("The command's result", "LedgerCommandReply", LedgerCommandReply, {
      command: "getBalance",
      result: {
        account_id: EXAMPLE_IDS.account,
        account_name: "Everyday",
        ...accountExample,
        as_of: "2026-01-15T12:00:00.000Z",
      },
    }),
    ...errors({
      400: [
        "validation_error",
        "invalid_json",
        "unknown_command",
        "invalid_amount",
        "same_account",
        "currency_mismatch",
        "invalid_idempotency_key",
      ],
      401: true,
      403: ["forbidden", "kyc_required"],
      404: ["account_not_found"],
      409: ["idempotency_in_progress"],
      413: ["payload_too_large"],
      422: ["insufficient_funds", "idempotency_key_reused", "limit_exceeded"],
      423: ["account_locked"],
      503: true,
    }),
  },
});

export const ledgerCommandRoutes = new OpenAPIHono<AppEnv>().openapi(
  { ...commandRoute, middleware: [requireAuth] as const },
  (c) => handleCommand(c, COMMANDS, "Ledger command failed", (name, args) => runCommand(c, name, args)),
);
