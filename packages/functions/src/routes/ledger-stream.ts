import { Hono, type Context } from "hono";
import { z } from "zod";
import { reconcileAccount } from "@fintech/core/ledger/controls";
import { isTransactionEvent, ledgerFeedReader, type LedgerFeedEvent } from "@fintech/core/ledger/events";
import { requireOwnedAccount } from "@fintech/core/ledger/accounts";
import { isLedgerId, JOURNAL_STATUSES } from "@fintech/core/ledger/model";
import { balanceOf, deposit, transfer } from "@fintech/core/ledger/service";
import { AppError, badRequest, isAppError } from "@fintech/core/shared/errors";
import type { AppEnv } from "../http/env";
import { idempotencyKey } from "../http/idempotency";
import { requireAuth } from "../http/middleware";
import { feedOwner, requireStreamAuth, serveFeed } from "../http/sse";
import { parseWith, readJson } from "../http/validate";
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

const CommandEnvelope = z.object({
  command: z
    .record(z.string(), z.record(z.string(), z.unknown(), { error: "Command arguments must be an object" }), { error: "Body must be {command: {<name>: {...arguments}}}" })
    .refine((command) => Object.keys(command).length === 1, "Send exactly one command"),
});

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

export const ledgerStreamRoutes = new Hono<AppEnv>()
  .get("/stream", requireStreamAuth, (c) => {
    const query = parseWith(StreamQuery, c.req.query());
    const owner = feedOwner(c, query.userId);
    return serveFeed(c, {
      scope: `ledger:${owner}`,
      reader: ledgerFeedReader(c.get("core"), owner),
      present: (entry, at) => (matches(query, entry) ? { event: entry.event.type, data: { ...entry.event, at } } : null),
    });
  })
  .post("/command", requireAuth, async (c) => {
    try {
      const { command } = parseWith(CommandEnvelope, await readJson(c));
      const [name, args] = Object.entries(command)[0]!;
      if (!(COMMANDS as readonly string[]).includes(name)) throw badRequest(`Unknown command ${name.slice(0, 64)}; commands are ${COMMANDS.join(", ")}`, "unknown_command");
      return c.json({ command: name, result: await runCommand(c, name as CommandName, args) });
    } catch (error) {
      if (!isAppError(error)) throw error;
      return commandFailure(c, error);
    }
  });

/** 'Ledger command failed' (spec 000 §8) with the reason and the status of the underlying refusal. */
function commandFailure(c: Context<AppEnv>, error: AppError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json({ message: "Ledger command failed", reason: error.message, code: error.code }, error.status);
}
