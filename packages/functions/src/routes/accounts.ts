import { $, createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { CreateAccountInput } from "@fintech/core/ledger/model";
import { accountDetail, createAccount, listAccountsWithBalances, type Actor } from "@fintech/core/ledger/service";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey } from "../http/idempotency";
import { requireAuth } from "../http/middleware";
import {
  authenticated,
  errors,
  idempotencyKeyParameter,
  jsonBody,
  jsonReply,
  pathParameter,
  REPLAYED_HEADER,
  TAGS,
  type Tag,
} from "../http/openapi";
import {
  accountExample,
  AccountCreatedReply,
  AccountDetailReply,
  AccountListReply,
  depositExample,
  EXAMPLE_IDS,
  savingsExample,
} from "../http/reply-schemas";
import { readJson } from "../http/validate";

/** The signed-in user as the ledger records them in a journal's history: id and name at that time. */
export function actorOf(c: Context<AppEnv>): Actor {
  const { user } = c.get("auth");
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() };
}

/** Shared by /api/v1/accounts and /api/v1/ledger/accounts: one account model, two spellings. */
export const listAccountsHandler = async (c: Context<AppEnv>) =>
  c.json({ data: await listAccountsWithBalances(c.get("core"), c.get("auth").userId) }, 200);

export const createAccountHandler = async (c: Context<AppEnv>) => {
  const created = await createAccount(
    c.get("core"),
    c.get("auth").userId,
    await readJson(c),
    idempotencyKey(c),
    actorOf(c),
  );
  if (created.replayed) c.header("Idempotent-Replayed", "true");
  return c.json(
    { message: "Account created", data: created.account, opening_transaction: created.opening_transaction },
    201,
  );
};

/** The two spellings are two operations (one per tag), declared from one description. */
export const listAccountsRoute = (operationId: string, tag: Tag, path: "/" | "/accounts") =>
  createRoute({
    method: "get",
    path,
    operationId,
    summary: "List accounts",
    description:
      "The signed-in user's ledger accounts, each with its balances (decimal strings, minor units beside them) and status.",
    tags: [tag],
    "x-stability": "stable",
    "x-complexity": "medium",
    security: authenticated,
    responses: {
      200: jsonReply("The accounts", "AccountListReply", AccountListReply, { data: [accountExample, savingsExample] }),
      ...errors({ 401: true, 503: true }),
    },
  });

export const createAccountRoute = (operationId: string, tag: Tag, path: "/" | "/accounts") =>
  createRoute({
    method: "post",
    path,
    operationId,
    summary: "Open an account",
    description:
      "Opens a ledger account for the signed-in user (currency USD and type bank by default). An optional `initial_balance` is booked as a draft deposit, returned as `opening_transaction`; it is a deposit for your money limits (GET /api/v1/ledger/limits): over them the account is not opened (422 `limit_exceeded`, or 403 `kyc_required` when your level may not deposit). With an Idempotency-Key, a retry finds the same account.",
    tags: [tag],
    "x-stability": "stable",
    "x-complexity": "medium",
    security: authenticated,
    parameters: [idempotencyKeyParameter()],
    request: {
      body: jsonBody("CreateAccountInput", CreateAccountInput, {
        name: "Everyday",
        description: "Day-to-day spending",
        currency: "USD",
        type: "bank",
        initial_balance: "2500.00",
      }),
    },
    responses: {
      201: jsonReply(
        "The account (and its opening deposit, if any)",
        "AccountCreatedReply",
        AccountCreatedReply,
        {
          message: "Account created",
          data: {
            ...accountExample,
            balance: "0.00",
            available: "0.00",
            pending_in: "2500.00",
            pending_out: "0.00",
            balance_minor: 0,
            available_minor: 0,
            version: 2,
          },
          opening_transaction: { ...depositExample, description: "Opening balance" },
        },
        REPLAYED_HEADER,
      ),
      ...errors({
        400: ["validation_error", "invalid_json", "invalid_amount", "invalid_idempotency_key"],
        401: true,
        403: ["kyc_required"],
        409: ["account_number_taken", "idempotency_in_progress"],
        413: ["payload_too_large"],
        422: ["idempotency_key_reused", "limit_exceeded"],
        503: true,
      }),
    },
  });

const getAccountRoute = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getAccount",
  summary: "Get an account",
  description:
    "One of the signed-in user's accounts with its current balances. Another user's account is a 404, as an unknown one.",
  tags: [TAGS.accounts],
  "x-stability": "stable",
  "x-complexity": "low",
  security: authenticated,
  parameters: [pathParameter("id", "The account's id", EXAMPLE_IDS.account)],
  responses: {
    200: jsonReply("The account", "AccountDetailReply", AccountDetailReply, { data: accountExample }),
    ...errors({ 401: true, 404: ["account_not_found"], 503: true }),
  },
});

/** The accounts resource (docs/product/backend-client.md#authenticated-calls): the signed-in user's ledger accounts. */
export const accountRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(listAccountsRoute("listAccounts", TAGS.accounts, "/"), listAccountsHandler)
  .openapi(createAccountRoute("createAccount", TAGS.accounts, "/"), createAccountHandler)
  .openapi(getAccountRoute, async (c) =>
    c.json({ data: await accountDetail(c.get("core"), c.get("auth").userId, c.req.param("id")) }, 200),
  );
