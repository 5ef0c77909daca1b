import { $, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ledgerAnalytics, parseAnalyticsDays } from "@fintech/core/ledger/analytics";
import { setAccountLock, setLowBalanceThreshold } from "@fintech/core/ledger/controls";
import { enableCreditShards } from "@fintech/core/ledger/credit-shards";
import { integrityCheck, trialBalance } from "@fintech/core/ledger/reports";
import {
  getIntegrityJob,
  latestIntegrityJob,
  latestIntegrityResult,
  startIntegrityJob,
} from "@fintech/core/ledger/integrity-jobs";
import { INTEGRITY_MESSAGES } from "@fintech/core/ledger/integrity-model";
import { postBatch } from "@fintech/core/ledger/batches";
import { isItemError } from "@fintech/core/ledger/decisions";
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
import { exportTransactions } from "@fintech/core/ledger/history-export";
import { history, transactionDetail } from "@fintech/core/ledger/history";
import { isAppError } from "@fintech/core/shared/errors";
import { PageQuery } from "@fintech/core/shared/pagination";
import type { AppEnv } from "../http/app-context";
import { idempotencyKey, writeReply } from "../http/idempotency";
import { requireAdmin, requireAuth } from "../http/middleware";
import { actorOf, createAccountHandler, listAccountsHandler } from "./accounts";
import { parseJsonText, parseWith, queryWith, readJson } from "../http/validate";
import {
  accountTransactionsRoute,
  analyticsRoute,
  availableAccountsRoute,
  balanceRoute,
  batchRoute,
  createLedgerAccountRoute,
  CreditShardsInput,
  creditShardsRoute,
  depositRoute,
  exportRoute,
  getIntegrityJobRoute,
  historyRoute,
  integrityRoute,
  latestIntegrityJobRoute,
  ledgerIntegrityRoute,
  listLedgerAccountsRoute,
  lockRoute,
  startIntegrityJobRoute,
  statusRoute,
  testBalanceRoute,
  transactionRoute,
  transferRoute,
  trialBalanceRoute,
  updateAccountRoute,
} from "./ledger.openapi";

/**
 * The ledger's routes, mounted at /api/v1/ledger: accounts and their balances, transfers,
 * deposits and batches, the history and its export, posting, the trial balance, integrity checks
 * and analytics. Each handler parses, calls core (ledger/*) and shapes the reply; what the OpenAPI
 * document says of each route is in ledger.openapi.ts.
 */

const pageReply = <T>(page: { items: T[]; next_cursor: string | null; has_more: boolean }, query: PageQuery) => ({
  data: page.items,
  pagination: {
    limit: query.limit,
    offset: query.cursor ? null : query.offset,
    next_cursor: page.next_cursor,
    has_more: page.has_more,
  },
});

/**
 * Post and unpost replies carry `error` on failure, as the product's client reads it
 * (docs/product/backend-client.md#errors).
 */
async function statusChange(c: Context<AppEnv>, operation: "post" | "unpost") {
  try {
    const result = await setJournalStatus(
      c.get("core"),
      c.get("auth").userId,
      c.req.param("id")!,
      operation,
      idempotencyKey(c),
      actorOf(c),
    );
    return writeReply(c, result, 200);
  } catch (error) {
    if (!isAppError(error)) throw error;
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json({ message: error.message, code: error.code, error: error.message }, error.status);
  }
}

export const ledgerRoutes = $(new OpenAPIHono<AppEnv>().use(requireAuth))
  .openapi(listLedgerAccountsRoute, listAccountsHandler)
  .openapi(createLedgerAccountRoute, createAccountHandler)
  .openapi(availableAccountsRoute, async (c) => {
    const accounts = await listAccountsWithBalances(c.get("core"), c.get("auth").userId);
    return c.json({ accounts: accounts.filter((account) => account.status === "ACTIVE") }, 200);
  })
  // The owner's low-balance alert threshold ("" or null removes it).
  .openapi(updateAccountRoute, async (c) => {
    const core = c.get("core");
    const account = await setLowBalanceThreshold(
      core,
      c.get("auth").userId,
      c.req.param("id"),
      await readJson(c),
      actorOf(c),
    );
    return c.json({ message: "Account updated", data: await describeAccount(core, account) }, 200);
  })
  // Admin: a locked account refuses money out (423) and still receives money in. Audited on its chain.
  .openapi({ ...lockRoute(true), middleware: [requireAdmin] as const }, async (c) => {
    const core = c.get("core");
    const account = await setAccountLock(core, c.req.param("id"), true, await readJson(c), actorOf(c));
    return c.json({ message: "Account locked", data: await describeAccount(core, account) }, 200);
  })
  .openapi({ ...lockRoute(false), middleware: [requireAdmin] as const }, async (c) => {
    const core = c.get("core");
    const account = await setAccountLock(core, c.req.param("id"), false, await readJson(c), actorOf(c));
    return c.json({ message: "Account unlocked", data: await describeAccount(core, account) }, 200);
  })
  // Admin: money coming in lands on balance shards from now on; a repeat changes nothing (converted: false).
  .openapi({ ...creditShardsRoute, middleware: [requireAdmin] as const }, async (c) => {
    idempotencyKey(c);
    const text = await c.req.text();
    const { reason } = parseWith(CreditShardsInput, text.trim() === "" ? {} : parseJsonText(text));
    const result = await enableCreditShards(c.get("core"), c.req.param("id"), actorOf(c), reason || null);
    const message = result.converted
      ? `Incoming credits now spread over ${result.credit_shards} balance shards`
      : `Already spread over ${result.credit_shards} balance shards`;
    return c.json({ message, data: result }, 200);
  })
  .openapi(balanceRoute, async (c) => {
    const asOf = c.req.query("as_of");
    return c.json(
      { data: await balanceOf(c.get("core"), c.get("auth").userId, c.req.param("id"), asOf === "" ? undefined : asOf) },
      200,
    );
  })
  .openapi(accountTransactionsRoute, async (c) => {
    const query = queryWith(c, PageQuery);
    return c.json(
      pageReply(await accountTransactions(c.get("core"), c.get("auth").userId, c.req.param("id"), query), query),
      200,
    );
  })
  .openapi(transferRoute, async (c) =>
    writeReply(
      c,
      await transfer(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)),
      201,
    ),
  )
  .openapi(depositRoute, async (c) =>
    writeReply(
      c,
      await deposit(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)),
      201,
    ),
  )
  // All or nothing; an item's refusal carries its index.
  .openapi(batchRoute, async (c) => {
    try {
      return writeReply(
        c,
        await postBatch(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)),
        201,
      );
    } catch (error) {
      if (!isItemError(error)) throw error;
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(
        { message: error.message, code: error.code, error: error.message, index: error.index },
        error.status,
      );
    }
  })
  .openapi(testBalanceRoute, async (c) =>
    writeReply(
      c,
      await testBalance(c.get("core"), c.get("auth").userId, await readJson(c), idempotencyKey(c), actorOf(c)),
      201,
    ),
  )
  // Filters (status, type, account_id, from, to, q) and paging; cursors are bound to the filters.
  .openapi(historyRoute, async (c) => {
    const query = queryWith(c, PageQuery);
    return c.json(pageReply(await history(c.get("core"), c.get("auth").userId, c.req.query(), query), query), 200);
  })
  // The same filters as the history, every match (at most 10,000) as a CSV download.
  .openapi(exportRoute, async (c) => {
    const { filename, csv } = await exportTransactions(c.get("core"), c.get("auth").userId, c.req.query());
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  })
  // Registered after the fixed /transactions/* paths, which it would otherwise shadow.
  .openapi(transactionRoute, async (c) =>
    c.json({ data: await transactionDetail(c.get("core"), c.get("auth").userId, c.req.param("id")) }, 200),
  )
  .openapi(statusRoute("post"), (c) => statusChange(c, "post"))
  .openapi(statusRoute("unpost"), (c) => statusChange(c, "unpost"))
  .openapi(trialBalanceRoute, async (c) =>
    c.json({ data: await trialBalance(c.get("core"), c.get("auth").userId, c.req.query("as_of") || undefined) }, 200),
  )
  .openapi(integrityRoute, async (c) =>
    c.json({ data: await integrityCheck(c.get("core"), { ownerId: c.get("auth").userId }) }, 200),
  )
  // The stored result of the latest finished job: never a scan inside the request.
  .openapi({ ...ledgerIntegrityRoute, middleware: [requireAdmin] as const }, async (c) => {
    const latest = await latestIntegrityResult(c.get("core"));
    if (!latest)
      return c.json({ data: null, job_id: null, age_seconds: null, message: INTEGRITY_MESSAGES.noResult }, 200);
    const message = `The latest whole-ledger check finished ${latest.age_seconds} seconds ago; start a new one with POST /api/v1/ledger/integrity/jobs`;
    return c.json({ data: latest.result, job_id: latest.job.id, age_seconds: latest.age_seconds, message }, 200);
  })
  .openapi({ ...startIntegrityJobRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ message: "Integrity check started", data: await startIntegrityJob(c.get("core"), actorOf(c)) }, 202),
  )
  // Registered before /integrity/jobs/{id}, which it would otherwise be taken for.
  .openapi({ ...latestIntegrityJobRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ data: await latestIntegrityJob(c.get("core")) }, 200),
  )
  .openapi({ ...getIntegrityJobRoute, middleware: [requireAdmin] as const }, async (c) =>
    c.json({ data: await getIntegrityJob(c.get("core"), c.req.param("id")) }, 200),
  )
  // Daily balances and flows per account and per currency over the last `days` (1..365, default 30).
  .openapi(analyticsRoute, async (c) =>
    c.json(
      { data: await ledgerAnalytics(c.get("core"), c.get("auth").userId, parseAnalyticsDays(c.req.query("days"))) },
      200,
    ),
  );
