import type { HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment } from "./query";
import type { LedgerAccount, NewLedgerAccount, WriteOptions } from "./types";

/** The accounts resource: the same ledger accounts (with balances) as /api/v1/ledger/accounts. */
export function accountEndpoints(http: HttpClient) {
  return {
    /** GET /api/v1/accounts/ -> {data: [...]} */
    async listAccounts(): Promise<LedgerAccount[]> {
      return unwrapList<LedgerAccount>(await http.authCall<unknown>("GET", "/api/v1/accounts/"), ["data", "accounts"]);
    },
    /** POST /api/v1/accounts/ -> 201 {message, data: account, opening_transaction} */
    async createAccount(account: NewLedgerAccount, options?: WriteOptions): Promise<LedgerAccount> {
      return unwrapData<LedgerAccount>(
        await http.authCall<unknown>("POST", "/api/v1/accounts/", { ...options, body: account }),
      );
    },
    /** GET /api/v1/accounts/{id} -> {data: account} */
    async getAccount(id: string): Promise<LedgerAccount> {
      return unwrapData<LedgerAccount>(await http.authCall<unknown>("GET", `/api/v1/accounts/${segment(id)}`));
    },
  };
}
