import { Hono } from "hono";
import { accountDetail, createAccount, listAccountsWithBalances } from "@fintech/core/ledger/service";
import type { AppEnv } from "../http/env";
import { idempotencyKey } from "../http/idempotency";
import { requireAuth } from "../http/middleware";
import { readJson } from "../http/validate";

/** The accounts resource (spec 000 §7): the signed-in user's ledger accounts. */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/", async (c) => c.json({ data: await listAccountsWithBalances(c.get("core"), c.get("auth").userId) }))
  .post("/", async (c) => {
    const created = await createAccount(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c));
    return c.json({ message: "Account created", data: created.account, opening_transaction: created.opening_transaction }, 201);
  })
  .get("/:id", async (c) => c.json({ data: await accountDetail(c.get("core"), c.get("auth").userId, c.req.param("id")) }));
