import type { HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment, withPagination, type Pagination } from "./query";
import type {
  AccountBalance,
  DepositInput,
  LedgerAccount,
  LedgerTransaction,
  NewLedgerAccount,
  TestBalanceInput,
  TransactionActionReply,
  TransferInput,
  WriteOptions,
} from "./types";
import { writeRequest } from "./write";

const LEDGER = "/api/v1/ledger";

/** The ledger workspace's page of history (spec 000 §9). */
export const HISTORY_PAGE: Required<Pagination> = { limit: 50, offset: 0 };

export function ledgerEndpoints(http: HttpClient) {
  return {
    async listAccounts(): Promise<LedgerAccount[]> {
      return unwrapList<LedgerAccount>(await http.authCall<unknown>("GET", `${LEDGER}/accounts`), ["data", "accounts"]);
    },
    async createAccount(account: NewLedgerAccount, options?: WriteOptions): Promise<LedgerAccount> {
      return unwrapData<LedgerAccount>(await http.authCall<unknown>("POST", `${LEDGER}/accounts`, writeRequest(account, options)));
    },
    /** Reply is an array, or an object holding it under accounts or data. */
    async listAvailableAccounts(): Promise<LedgerAccount[]> {
      const reply = await http.authCall<unknown>("GET", `${LEDGER}/accounts/available`);
      return unwrapList<LedgerAccount>(reply, ["accounts", "data"]);
    },
    async transfer(input: TransferInput, options?: WriteOptions): Promise<LedgerTransaction> {
      return unwrapData<LedgerTransaction>(
        await http.authCall<unknown>("POST", `${LEDGER}/transactions/transfer`, writeRequest(input, options)),
      );
    },
    async deposit(input: DepositInput, options?: WriteOptions): Promise<LedgerTransaction> {
      return unwrapData<LedgerTransaction>(
        await http.authCall<unknown>("POST", `${LEDGER}/transactions/deposit`, writeRequest(input, options)),
      );
    },
    async createTestBalance(input: TestBalanceInput, options?: WriteOptions): Promise<LedgerTransaction> {
      return unwrapData<LedgerTransaction>(
        await http.authCall<unknown>("POST", `${LEDGER}/transactions/test-balance`, writeRequest(input, options)),
      );
    },
    async getBalance(accountId: string): Promise<AccountBalance> {
      return unwrapData<AccountBalance>(await http.authCall<unknown>("GET", `${LEDGER}/accounts/${segment(accountId)}/balance`));
    },
    async listAccountTransactions(accountId: string, page?: Pagination): Promise<LedgerTransaction[]> {
      const path = withPagination(`${LEDGER}/accounts/${segment(accountId)}/transactions`, page);
      return unwrapList<LedgerTransaction>(await http.authCall<unknown>("GET", path), ["data", "transactions"]);
    },
    /** Reply is an array or an object holding it under data. */
    async transactionHistory(page?: Pagination): Promise<LedgerTransaction[]> {
      const path = withPagination(`${LEDGER}/transactions/history`, page);
      return unwrapList<LedgerTransaction>(await http.authCall<unknown>("GET", path), ["data", "transactions"]);
    },
    /** Approve: draft -> posted. */
    async postTransaction(transactionId: string, options?: WriteOptions): Promise<TransactionActionReply> {
      const path = `${LEDGER}/transactions/${segment(transactionId)}/post`;
      return http.authCall<TransactionActionReply>("POST", path, writeRequest(undefined, options));
    },
    /** posted -> draft. */
    async unpostTransaction(transactionId: string, options?: WriteOptions): Promise<TransactionActionReply> {
      const path = `${LEDGER}/transactions/${segment(transactionId)}/unpost`;
      return http.authCall<TransactionActionReply>("POST", path, writeRequest(undefined, options));
    },
  };
}
