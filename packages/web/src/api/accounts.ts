import type { HttpClient } from "./client";
import { unwrapData, unwrapList } from "./envelope";
import { segment } from "./query";
import type { BankAccount, NewBankAccount, WriteOptions } from "./types";
import { writeRequest } from "./write";

export function accountEndpoints(http: HttpClient) {
  return {
    /** GET /api/v1/accounts/ */
    async listAccounts(): Promise<BankAccount[]> {
      return unwrapList<BankAccount>(await http.authCall<unknown>("GET", "/api/v1/accounts/"), ["data", "accounts"]);
    },
    /** POST /api/v1/accounts/ */
    async createAccount(account: NewBankAccount, options?: WriteOptions): Promise<BankAccount> {
      return unwrapData<BankAccount>(await http.authCall<unknown>("POST", "/api/v1/accounts/", writeRequest(account, options)));
    },
    /** GET /api/v1/accounts/{id} */
    async getAccount(id: string): Promise<BankAccount> {
      return unwrapData<BankAccount>(await http.authCall<unknown>("GET", `/api/v1/accounts/${segment(id)}`));
    },
  };
}
