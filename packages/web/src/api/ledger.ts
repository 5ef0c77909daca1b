import { LEDGER_FEED_PATH } from "@fintech/core/events/feed-paths";
import type { HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment, withPagination, withQuery, type Pagination } from "./query";
import type {
  AccountBalance,
  AccountCreatedReply,
  CreditShardsReply,
  Currency,
  DecimalAmount,
  DepositInput,
  DownloadedFile,
  HistoryPage,
  TransactionFilters,
  LedgerAccount,
  LedgerAnalytics,
  LedgerCommandReply,
  ReconciliationResult,
  StreamTicket,
  LedgerTransaction,
  NewLedgerAccount,
  PageInfo,
  Paged,
  TestBalanceInput,
  TransactionActionReply,
  TransactionWriteReply,
  TransferInput,
  WriteOptions,
} from "./types";

const LEDGER = "/api/v1/ledger";
/** The gRPC-style service of docs/product/ledger-workspace.md#calls: one command endpoint and the event stream. */
export const LEDGER_COMMAND_PATH = "/api/grpc/ledger/command";
export const LEDGER_STREAM_PATH = LEDGER_FEED_PATH;

/** The ledger workspace's page of history (docs/product/ledger-workspace.md#constants). */
export const HISTORY_PAGE: Required<Pagination> = { limit: 50, offset: 0 };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** {data, pagination} as the server pages; a bare array (docs/product/ledger-workspace.md#calls) is accepted too. */
export function toPaged<T>(body: unknown, keys: readonly string[] = ["data"]): Paged<T> {
  const pagination = isRecord(body) && isRecord(body.pagination) ? (body.pagination as unknown as PageInfo) : null;
  return { data: unwrapList<T>(body, keys), pagination };
}

/** A write's reply, {message, data}; a bare transaction is wrapped. */
function toWriteReply(body: unknown): TransactionWriteReply {
  if (isRecord(body) && isRecord(body.data)) {
    return {
      message: typeof body.message === "string" ? body.message : "",
      data: body.data as unknown as LedgerTransaction,
    };
  }
  return { message: "", data: body as LedgerTransaction };
}

/** The query string of the history and export filters; empty values are left out. */
export const filterParams = (filters: TransactionFilters = {}) => ({
  status: filters.status,
  type: filters.type,
  account_id: filters.account_id,
  from: filters.from,
  to: filters.to,
  q: filters.q?.trim(),
});

export function ledgerEndpoints(http: HttpClient) {
  /**
   * One ledger command: {command: {<name>: args}} -> {command, result}. A refusal is 4xx
   * {message: 'Ledger command failed', reason}: the ApiError carries both.
   */
  const command = async <Result>(
    name: string,
    args: Record<string, unknown>,
    options?: WriteOptions,
  ): Promise<Result> => {
    const reply = await http.authCall<LedgerCommandReply<Result>>("POST", LEDGER_COMMAND_PATH, {
      ...options,
      body: { command: { [name]: args } },
    });
    return reply.result;
  };

  return {
    /** GET /ledger/accounts -> {data: [...]} with balances. */
    async listAccounts(): Promise<LedgerAccount[]> {
      return unwrapList<LedgerAccount>(await http.authCall<unknown>("GET", `${LEDGER}/accounts`), ["data", "accounts"]);
    },
    /** POST /ledger/accounts -> 201 {message, data: account, opening_transaction}. */
    async createAccount(account: NewLedgerAccount, options?: WriteOptions): Promise<AccountCreatedReply> {
      const reply = await http.authCall<unknown>("POST", `${LEDGER}/accounts`, { ...options, body: account });
      const opening =
        isRecord(reply) && isRecord(reply.opening_transaction)
          ? (reply.opening_transaction as unknown as LedgerTransaction)
          : null;
      return {
        message: isRecord(reply) && typeof reply.message === "string" ? reply.message : "",
        data: unwrapData<LedgerAccount>(reply),
        opening_transaction: opening,
      };
    },
    /** Reply is an array, or an object holding it under accounts or data. */
    async listAvailableAccounts(): Promise<LedgerAccount[]> {
      const reply = await http.authCall<unknown>("GET", `${LEDGER}/accounts/available`);
      return unwrapList<LedgerAccount>(reply, ["accounts", "data"]);
    },
    async transfer(input: TransferInput, options?: WriteOptions): Promise<TransactionWriteReply> {
      return toWriteReply(
        await http.authCall<unknown>("POST", `${LEDGER}/transactions/transfer`, { ...options, body: input }),
      );
    },
    async deposit(input: DepositInput, options?: WriteOptions): Promise<TransactionWriteReply> {
      return toWriteReply(
        await http.authCall<unknown>("POST", `${LEDGER}/transactions/deposit`, { ...options, body: input }),
      );
    },
    async createTestBalance(input: TestBalanceInput, options?: WriteOptions): Promise<TransactionWriteReply> {
      return toWriteReply(
        await http.authCall<unknown>("POST", `${LEDGER}/transactions/test-balance`, { ...options, body: input }),
      );
    },
    /** The account's figures now, or at `asOf` (ISO 8601); 404 when the account did not exist then. */
    async getBalance(accountId: string, asOf?: string, signal?: AbortSignal): Promise<AccountBalance> {
      const path = withQuery(`${LEDGER}/accounts/${segment(accountId)}/balance`, { as_of: asOf });
      return unwrapData<AccountBalance>(await http.authCall<unknown>("GET", path, { signal }));
    },
    async listAccountTransactions(accountId: string, page?: Pagination): Promise<Paged<LedgerTransaction>> {
      const path = withPagination(`${LEDGER}/accounts/${segment(accountId)}/transactions`, page);
      return toPaged<LedgerTransaction>(await http.authCall<unknown>("GET", path), ["data", "transactions"]);
    },
    /**
     * The caller's journals, newest first: {data, pagination} (a bare array is accepted),
     * optionally filtered; the next page is asked for with the previous page's cursor.
     */
    async transactionHistory(
      page: HistoryPage = {},
      filters?: TransactionFilters,
      signal?: AbortSignal,
    ): Promise<Paged<LedgerTransaction>> {
      const path = withQuery(`${LEDGER}/transactions/history`, {
        limit: page.limit,
        offset: page.cursor ? undefined : page.offset,
        cursor: page.cursor,
        ...filterParams(filters),
      });
      return toPaged<LedgerTransaction>(await http.authCall<unknown>("GET", path, { signal }), [
        "data",
        "transactions",
      ]);
    },
    /** One journal of the caller, with its legs, history and idempotency key. */
    async getTransaction(transactionId: string, signal?: AbortSignal): Promise<LedgerTransaction> {
      return unwrapData<LedgerTransaction>(
        await http.authCall<unknown>("GET", `${LEDGER}/transactions/${segment(transactionId)}`, { signal }),
      );
    },
    /** The filtered journals as CSV (at most 10,000 rows; more is a 422 asking to narrow the filters). */
    async exportTransactions(filters?: TransactionFilters, signal?: AbortSignal): Promise<DownloadedFile> {
      return http.authFile(withQuery(`${LEDGER}/transactions/export`, filterParams(filters)), signal);
    },
    /** Approve: draft -> posted. Failures carry the server's `error`. */
    async postTransaction(transactionId: string, options?: WriteOptions): Promise<TransactionActionReply> {
      const path = `${LEDGER}/transactions/${segment(transactionId)}/post`;
      return http.authCall<TransactionActionReply>("POST", path, options);
    },
    /** posted -> draft. */
    async unpostTransaction(transactionId: string, options?: WriteOptions): Promise<TransactionActionReply> {
      const path = `${LEDGER}/transactions/${segment(transactionId)}/unpost`;
      return http.authCall<TransactionActionReply>("POST", path, options);
    },
    /** Sets (or with "" clears) the account's low-balance alert threshold. */
    async updateAccount(
      accountId: string,
      changes: { low_balance_threshold: DecimalAmount | "" | null },
    ): Promise<LedgerAccount> {
      return unwrapData<LedgerAccount>(
        await http.authCall<unknown>("PATCH", `${LEDGER}/accounts/${segment(accountId)}`, { body: changes }),
      );
    },
    /**
     * Administrators: money coming into the account lands on balance shards from now on (cannot
     * be undone). A repeat answers `converted: false` and changes nothing.
     */
    async enableCreditShards(accountId: string, reason?: string): Promise<CreditShardsReply> {
      const path = `${LEDGER}/accounts/${segment(accountId)}/credit-shards`;
      return http.authCall<CreditShardsReply>("POST", path, { body: reason ? { reason } : {} });
    },
    command,
    /** Compares an expected balance with the ledger's posted balance (also announced on the stream). */
    async reconcileAccount(input: {
      accountId: string;
      expectedBalance: DecimalAmount;
      currency: Currency;
    }): Promise<ReconciliationResult> {
      return command<ReconciliationResult>("reconcileAccount", { ...input });
    },
    /** A ticket to open the event stream with (EventSource cannot send the bearer token). */
    async streamTicket(): Promise<StreamTicket> {
      return http.authCall<StreamTicket>("POST", "/api/v1/auth/stream-ticket", { body: {} });
    },
    /** Daily balances and flows per account and per currency over the last `days` (1..365). */
    async analytics(days: number, signal?: AbortSignal): Promise<LedgerAnalytics> {
      return unwrapData<LedgerAnalytics>(
        await http.authCall<unknown>("GET", withQuery(`${LEDGER}/analytics`, { days }), { signal }),
      );
    },
  };
}
