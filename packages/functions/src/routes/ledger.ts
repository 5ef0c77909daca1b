import { Hono, type Context } from "hono";
import { ledgerAnalytics, parseAnalyticsDays } from "@fintech/core/ledger/analytics";
import { setAccountLock, setLowBalanceThreshold } from "@fintech/core/ledger/controls";
import { integrityCheck, trialBalance } from "@fintech/core/ledger/reports";
import {
  accountTransactions,
  balanceOf,
  deposit,
  describeAccount,
  listAccountsWithBalances,
  setJournalStatus,
  testBalance,
  transfer,
} from "@fintech/core/ledger/service";
import { exportTransactions, history, transactionDetail } from "@fintech/core/ledger/transactions";
import { isAppError } from "@fintech/core/shared/errors";
import { PageQuery } from "@fintech/core/shared/pagination";
import type { AppEnv } from "../http/env";
import { idempotencyKey, writeReply } from "../http/idempotency";
import { requireAdmin, requireAuth } from "../http/middleware";
import { actorOf, createAccountHandler, listAccountsHandler } from "./accounts";
import { queryWith, readJson } from "../http/validate";

const pageReply = <T>(page: { items: T[]; next_cursor: string | null; has_more: boolean }, query: PageQuery) => ({
  data: page.items,
  pagination: { limit: query.limit, offset: query.cursor ? null : query.offset, next_cursor: page.next_cursor, has_more: page.has_more },
});

/** Post and unpost replies carry `error` on failure, as the spec's client reads it. */
async function statusChange(c: Context<AppEnv>, operation: "post" | "unpost") {
  try {
    const result = await setJournalStatus(c.get("core"), c.get("auth").userId, c.req.param("id")!, operation, idempotencyKey(c), actorOf(c));
    return writeReply(c, result, 200);
  } catch (error) {
    if (!isAppError(error)) throw error;
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json({ message: error.message, code: error.code, error: error.message }, error.status);
  }
}

export const ledgerRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get("/accounts", listAccountsHandler)
  .post("/accounts", createAccountHandler)
  .get("/accounts/available", async (c) => {
    const accounts = await listAccountsWithBalances(c.get("core"), c.get("auth").userId);
    return c.json({ accounts: accounts.filter((account) => account.status === "ACTIVE") });
  })
  // The owner's low-balance alert threshold ("" or null removes it).
  .patch("/accounts/:id", async (c) => {
    const core = c.get("core");
    const account = await setLowBalanceThreshold(core, c.get("auth").userId, c.req.param("id"), await readJson(c), actorOf(c));
    return c.json({ message: "Account updated", data: await describeAccount(core, account) });
  })
  // Admin: a locked account refuses money out (423) and still receives money in. Audited on its chain.
  .post("/accounts/:id/lock", requireAdmin, async (c) => {
    const core = c.get("core");
    const account = await setAccountLock(core, c.req.param("id"), true, await readJson(c), actorOf(c));
    return c.json({ message: "Account locked", data: await describeAccount(core, account) });
  })
  .post("/accounts/:id/unlock", requireAdmin, async (c) => {
    const core = c.get("core");
    const account = await setAccountLock(core, c.req.param("id"), false, await readJson(c), actorOf(c));
    return c.json({ message: "Account unlocked", data: await describeAccount(core, account) });
  })
  .get("/accounts/:id/balance", async (c) => {
    const asOf = c.req.query("as_of");
    return c.json({ data: await balanceOf(c.get("core"), c.get("auth").userId, c.req.param("id"), asOf === "" ? undefined : asOf) });
  })
  .get("/accounts/:id/transactions", async (c) => {
    const query = queryWith(c, PageQuery);
    return c.json(pageReply(await accountTransactions(c.get("core"), c.get("auth").userId, c.req.param("id"), query), query));
  })
  .post("/transactions/transfer", async (c) =>
    writeReply(c, await transfer(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)), 201),
  )
  .post("/transactions/deposit", async (c) =>
    writeReply(c, await deposit(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)), 201),
  )
  .post("/transactions/test-balance", async (c) =>
    writeReply(c, await testBalance(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)), 201),
  )
  // Filters (status, type, account_id, from, to, q) and paging; cursors are bound to the filters.
  .get("/transactions/history", async (c) => {
    const query = queryWith(c, PageQuery);
    return c.json(pageReply(await history(c.get("core"), c.get("auth").userId, c.req.query(), query), query));
  })
  // The same filters as the history, every match (at most 10,000) as a CSV download.
  .get("/transactions/export", async (c) => {
    const { filename, csv } = await exportTransactions(c.get("core"), c.get("auth").userId, c.req.query());
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  })
  // Registered after the fixed /transactions/* paths, which it would otherwise shadow.
  .get("/transactions/:id", async (c) => c.json({ data: await transactionDetail(c.get("core"), c.get("auth").userId, c.req.param("id")) }))
  .post("/transactions/:id/post", (c) => statusChange(c, "post"))
  .post("/transactions/:id/unpost", (c) => statusChange(c, "unpost"))
  .get("/trial-balance", async (c) => c.json({ data: await trialBalance(c.get("core"), c.get("auth").userId, c.req.query("as_of") || undefined) }))
  .get("/integrity", async (c) => c.json({ data: await integrityCheck(c.get("core"), { ownerId: c.get("auth").userId }) }))
  .get("/integrity/ledger", requireAdmin, async (c) => c.json({ data: await integrityCheck(c.get("core"), "ledger") }))
  // Daily balances and flows per account and per currency over the last `days` (1..365, default 30).
  .get("/analytics", async (c) =>
    c.json({ data: await ledgerAnalytics(c.get("core"), c.get("auth").userId, parseAnalyticsDays(c.req.query("days"))) }),
  );
