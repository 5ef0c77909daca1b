import { Hono, type Context } from "hono";
import { accountDetail, createAccount, listAccountsWithBalances, type Actor } from "@fintech/core/ledger/service";
import type { AppEnv } from "../http/env";
import { idempotencyKey } from "../http/idempotency";
import { requireAuth } from "../http/middleware";
import { readJson } from "../http/validate";

/** The signed-in user as the ledger records them in a journal's history: id and name at that time. */
export function actorOf(c: Context<AppEnv>): Actor {
  const { user } = c.get("auth");
  return { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() };
}

/** Shared by /api/v1/accounts and /api/v1/ledger/accounts: one account model, two spellings. */
export const listAccountsHandler = async (c: Context<AppEnv>) =>
  c.json({ data: await listAccountsWithBalances(c.get("core"), c.get("auth").userId) });

export const createAccountHandler = async (c: Context<AppEnv>) => {
  const created = await createAccount(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c));
  if (created.replayed) c.header("Idempotent-Replayed", "true");
  return c.json({ message: "Account created", data: created.account, opening_transaction: created.opening_transaction }, 201);
};

/** The accounts resource (spec 000 §7): the signed-in user's ledger accounts. */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", listAccountsHandler)
  .post("/", createAccountHandler)
  .get("/:id", async (c) => c.json({ data: await accountDetail(c.get("core"), c.get("auth").userId, c.req.param("id")) }));
