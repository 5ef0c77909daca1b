import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { reconcileAccount } from "@fintech/core/ledger/controls";
import { isTransactionEvent, ledgerFeedReader, type LedgerFeedEvent } from "@fintech/core/ledger/events";
import { requireOwnedAccount } from "@fintech/core/ledger/accounts";
import {
  AccountLockedEvent,
  AccountUnlockedEvent,
  BalanceUpdateEvent,
  DepositInput,
  isLedgerId,
  JOURNAL_STATUSES,
  LowBalanceAlertEvent,
  ReconcileInput,
  ReconciliationResultEvent,
  TransactionCreatedEvent,
  TransactionStatusUpdateEvent,
  TransferInput,
} from "@fintech/core/ledger/model";
import { balanceOf, deposit, transfer } from "@fintech/core/ledger/service";
import type { AppEnv } from "../http/env";
import { idempotencyKey } from "../http/idempotency";
import { handleCommand } from "../http/commands";
import { requireAuth } from "../http/middleware";
import { authenticated, errors, idempotencyKeyParameter, jsonReply, lastEventIdParameter, queryParameter, queryParameters, schemaRef, sseReply, STREAM_TICKET_SCHEME, TAGS } from "../http/openapi";
import { accountExample, BalanceData, EXAMPLE_IDS, JournalReply } from "../http/reply-schemas";
import { CURSOR_EVENT, feedOwner, requireStreamAuth, serveFeed } from "../http/sse";
import { parseWith } from "../http/validate";
import { actorOf } from "./accounts";

/**
 * The ledger stream and its commands (spec 000 §3, §7): `/api/grpc/ledger/*`. The names are the
 * spec's (a gRPC-style surface); the transport is SSE and JSON over HTTP.
 */
export const LEDGER_STREAM_PATH = "/api/grpc/ledger/stream";

const MAX_FILTER_ACCOUNTS = 50;

/** A list given as "a,b" or as an array (commands take arrays, URLs take commas). */
const listOf = <S extends z.ZodType>(item: S, max: number, name: string) =>
  z.preprocess(
    (value) => (typeof value === "string" ? value.split(",").map((part) => part.trim()).filter(Boolean) : value),
    z.array(item, { error: `${name} must be a list` }).max(max, `${name} may list at most ${max} values`),
  );

const AccountIdList = listOf(z.string().refine(isLedgerId, "accountIds must be account ids"), MAX_FILTER_ACCOUNTS, "accountIds");
const StatusList = listOf(
  z.preprocess((value) => (typeof value === "string" ? value.toLowerCase() : value), z.enum(JOURNAL_STATUSES, { error: `statusFilter values must be ${JOURNAL_STATUSES.join(" or ")}` })),
  JOURNAL_STATUSES.length,
  "statusFilter",
);
const Flag = z.preprocess((value) => (typeof value === "boolean" ? String(value) : value), z.enum(["true", "false"], { error: "includeTransactions must be true or false" }));

/** What one stream delivers; the subscribe commands build a URL with exactly these. */
const StreamQuery = z.object({
  userId: z.string().min(1).max(64).optional(),
  accountIds: AccountIdList.optional(),
  statusFilter: StatusList.optional(),
  includeTransactions: Flag.optional(),
});
type StreamQuery = z.infer<typeof StreamQuery>;

function streamUrl(query: StreamQuery & { userId: string }): string {
  const params = new URLSearchParams({ userId: query.userId });
  if (query.accountIds?.length) params.set("accountIds", query.accountIds.join(","));
  if (query.statusFilter?.length) params.set("statusFilter", query.statusFilter.join(","));
  if (query.includeTransactions) params.set("includeTransactions", query.includeTransactions);
  return `${LEDGER_STREAM_PATH}?${params.toString()}`;
}

/** The filters of a subscription: accounts concerned, transaction statuses, transactions at all. */
function matches(query: StreamQuery, { event, accounts, transactionStatus }: LedgerFeedEvent): boolean {
  if (query.accountIds?.length && !accounts.some((account) => query.accountIds!.includes(account))) return false;
  if (isTransactionEvent(event)) {
    if (query.includeTransactions === "false") return false;
    if (query.statusFilter?.length && (!transactionStatus || !query.statusFilter.includes(transactionStatus))) return false;
  }
  return true;
}

const COMMANDS = ["subscribeToAccount", "subscribeToTransactions", "createTransaction", "getBalance", "reconcileAccount"] as const;
type CommandName = (typeof COMMANDS)[number];

const SubscribeToAccount = z.object({
  accountId: z.string({ error: "accountId is required" }).min(1, "accountId is required").max(64, "accountId is not valid"),
  userId: z.string().min(1).max(64).optional(),
  includeTransactions: Flag.optional(),
});
const SubscribeToTransactions = z.object({
  userId: z.string().min(1).max(64).optional(),
  accountIds: AccountIdList.optional(),
  statusFilter: StatusList.optional(),
});
const CreateTransaction = z.looseObject({ type: z.enum(["transfer", "deposit"], { error: "type must be transfer or deposit" }) });
const GetBalance = z.object({ accountId: z.string({ error: "accountId is required" }).min(1, "accountId is required").max(64, "accountId is not valid") });

async function runCommand(c: Context<AppEnv>, name: CommandName, args: Record<string, unknown>): Promise<unknown> {
  const core = c.get("core");
  const userId = c.get("auth").userId;
  switch (name) {
    case "subscribeToAccount": {
      const input = parseWith(SubscribeToAccount, args);
      const owner = feedOwner(c, input.userId);
      await requireOwnedAccount(core, owner, input.accountId);
      return { streamUrl: streamUrl({ userId: owner, accountIds: [input.accountId], includeTransactions: input.includeTransactions }) };
    }
    case "subscribeToTransactions": {
      const input = parseWith(SubscribeToTransactions, args);
      const owner = feedOwner(c, input.userId);
      for (const accountId of input.accountIds ?? []) await requireOwnedAccount(core, owner, accountId);
      return { streamUrl: streamUrl({ userId: owner, accountIds: input.accountIds, statusFilter: input.statusFilter }) };
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

const streaming = { tags: [TAGS.streaming] as [typeof TAGS.streaming], "x-stability": "stable" as const };

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
    JournalReply.extend({ replayed: z.boolean() }).describe("createTransaction: the transaction, and whether it replays an earlier request with the same Idempotency-Key"),
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

const STREAM_EXAMPLE = [
  "retry: 3000",
  "id: eyJ0IjoxNzY4NDcxMjAwMDAwfQ.c2ln",
  `event: ${CURSOR_EVENT}`,
  'data: {"at":"2026-01-15T10:00:00.000Z"}',
  "",
  "id: eyJ0IjoxNzY4NDcxMjAwMTAwfQ.c2ln",
  "event: balanceUpdate",
  `data: {"type":"balanceUpdate","accountId":"${EXAMPLE_IDS.account}","accountName":"Everyday","balance":"1250.00","available":"1150.00","changeAmount":"100.00","changeType":"DEBIT","operation":"create","currency":"USD","transactionId":"${EXAMPLE_IDS.journal}","at":"2026-01-15T10:00:00.100Z"}`,
  "",
  "",
].join("\n");

const streamRoute = createRoute({
  ...streaming,
  method: "get",
  path: "/stream",
  operationId: "streamLedgerEvents",
  summary: "Ledger event stream (server-sent events)",
  description:
    "The signed-in user's ledger events as they commit, as `text/event-stream`: first `retry:` and a `cursor` event, then for each event its `id:` (the resume cursor), `event:` (its name) and `data:` (JSON). Quiet streams get a heartbeat comment with a `cursor` event; the stream ends cleanly after a while and the client reconnects with `Last-Event-ID`. Browsers authenticate with `?ticket=` (POST /api/v1/auth/stream-ticket), other clients with the bearer header. An administrator may watch another user's feed with `userId`.",
  "x-complexity": "high",
  security: [...authenticated, { [STREAM_TICKET_SCHEME]: [] }],
  parameters: [
    ...queryParameters(StreamQuery, {
      userId: "Whose feed (default: the caller's; another user's needs the admin role, else 403)",
      accountIds: "Only events concerning these accounts (comma-separated, at most 50)",
      statusFilter: "Only transaction events in these statuses (comma-separated: draft, posted)",
      includeTransactions: "false leaves transaction events out",
    }),
    queryParameter("lastEventId", "Resume point, when the Last-Event-ID header cannot be sent", { type: "string" }),
    lastEventIdParameter(),
  ],
  responses: {
    200: sseReply(
      "The event stream.",
      {
        [CURSOR_EVENT]: { name: "StreamCursorEvent", schema: z.object({ at: z.string() }).describe("Moves the resume point (its id) without an event: at the start, with heartbeats and at the end") },
        balanceUpdate: { name: "BalanceUpdateEvent", schema: BalanceUpdateEvent },
        transactionCreated: { name: "TransactionCreatedEvent", schema: TransactionCreatedEvent },
        transactionStatusUpdate: { name: "TransactionStatusUpdateEvent", schema: TransactionStatusUpdateEvent },
        reconciliationResult: { name: "ReconciliationResultEvent", schema: ReconciliationResultEvent },
        lowBalanceAlert: { name: "LowBalanceAlertEvent", schema: LowBalanceAlertEvent },
        accountLocked: { name: "AccountLockedEvent", schema: AccountLockedEvent },
        accountUnlocked: { name: "AccountUnlockedEvent", schema: AccountUnlockedEvent },
      },
      STREAM_EXAMPLE,
    ),
    ...errors({ 400: ["validation_error", "invalid_event_id"], 401: ["unauthorized", "invalid_token", "invalid_api_key", "invalid_ticket"], 403: ["forbidden"], 503: true }),
  },
});

const commandRoute = createRoute({
  ...streaming,
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
          example: { command: { createTransaction: { type: "transfer", from_account_id: EXAMPLE_IDS.account, to_account_id: EXAMPLE_IDS.savings, amount: "100.00" } } },
        },
      },
    },
  },
  responses: {
    200: jsonReply("The command's result", "LedgerCommandReply", LedgerCommandReply, {
      command: "getBalance",
      result: { account_id: EXAMPLE_IDS.account, account_name: "Everyday", ...accountExample, as_of: "2026-01-15T12:00:00.000Z" },
    }),
    ...errors({
      400: ["validation_error", "invalid_json", "unknown_command", "invalid_amount", "same_account", "currency_mismatch", "invalid_idempotency_key"],
      401: true,
      403: ["forbidden"],
      404: ["account_not_found"],
      409: ["idempotency_in_progress"],
      413: ["payload_too_large"],
      422: ["insufficient_funds", "idempotency_key_reused"],
      423: ["account_locked"],
      503: true,
    }),
  },
});

export const ledgerStreamRoutes = new OpenAPIHono<AppEnv>()
  .openapi({ ...streamRoute, middleware: [requireStreamAuth] as const }, (c) => {
    const query = parseWith(StreamQuery, c.req.query());
    const owner = feedOwner(c, query.userId);
    return serveFeed(c, {
      scope: `ledger:${owner}`,
      reader: ledgerFeedReader(c.get("core"), owner),
      present: (entry, at) => (matches(query, entry) ? { event: entry.event.type, data: { ...entry.event, at } } : null),
    });
  })
  .openapi({ ...commandRoute, middleware: [requireAuth] as const }, (c) => handleCommand(c, COMMANDS, "Ledger command failed", (name, args) => runCommand(c, name, args)));

