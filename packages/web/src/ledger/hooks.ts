import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { api } from "../api";
import type {
  Currency,
  DepositInput,
  LedgerTransaction,
  NewLedgerAccount,
  TestBalanceInput,
  TransactionFilters,
  TransferInput,
} from "../api/types";
import { useSession } from "../session/hooks";
import { HISTORY_LIMIT, HISTORY_OFFSET } from "./constants";

/** Every ledger read is keyed by the signed-in user, so two sessions' data never mix. */
export const ledgerKeys = {
  all: (userId: string) => ["ledger", userId] as const,
  accounts: (userId: string) => ["ledger", userId, "accounts"] as const,
  history: (userId: string) => ["ledger", userId, "history", HISTORY_LIMIT, HISTORY_OFFSET] as const,
  historyPages: (userId: string, filters: TransactionFilters) => ["ledger", userId, "history-pages", filters] as const,
  transaction: (userId: string, id: string) => ["ledger", userId, "transaction", id] as const,
  accountTransactions: (userId: string, accountId: string) =>
    ["ledger", userId, "account-transactions", accountId] as const,
  balanceAt: (userId: string, accountId: string, asOf: string) =>
    ["ledger", userId, "balance", accountId, asOf] as const,
  analytics: (userId: string, days: number) => ["ledger", userId, "analytics", days] as const,
};

function useUserId(): string {
  return useSession()?.user.id ?? "signed-out";
}

export function useLedgerAccounts() {
  const userId = useUserId();
  return useQuery({
    queryKey: ledgerKeys.accounts(userId),
    queryFn: () => api.ledger.listAccounts(),
    enabled: userId !== "signed-out",
  });
}

/** The history page the workspace shows: limit 50, offset 0 (docs/product/ledger-workspace.md#constants). */
export function useTransactionHistory() {
  const userId = useUserId();
  return useQuery({
    queryKey: ledgerKeys.history(userId),
    queryFn: () => api.ledger.transactionHistory({ limit: HISTORY_LIMIT, offset: HISTORY_OFFSET }),
    enabled: userId !== "signed-out",
  });
}

/**
 * The Transactions tab: filtered history, 50 a page, each next page asked for with the previous
 * page's cursor (the server binds cursors to the filters, so a filter change starts over).
 */
export function useTransactionPages(filters: TransactionFilters) {
  const userId = useUserId();
  return useInfiniteQuery({
    queryKey: ledgerKeys.historyPages(userId, filters),
    queryFn: ({ pageParam, signal }) =>
      api.ledger.transactionHistory({ limit: HISTORY_LIMIT, cursor: pageParam }, filters, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) =>
      last.pagination?.has_more && last.pagination.next_cursor ? last.pagination.next_cursor : undefined,
    enabled: userId !== "signed-out",
    // While a new filter loads, the previous rows stay on screen instead of a blank table.
    placeholderData: (previous) => previous,
  });
}

/** One journal for the detail drawer; the row from the list shows at once, the full reply replaces it. */
export function useTransaction(id: string | null, shown?: LedgerTransaction) {
  const userId = useUserId();
  return useQuery({
    queryKey: ledgerKeys.transaction(userId, id ?? ""),
    queryFn: ({ signal }) => api.ledger.getTransaction(id ?? "", signal),
    enabled: userId !== "signed-out" && id !== null,
    placeholderData: shown,
  });
}

export function useAccountTransactions(accountId: string | null, limit = 5) {
  const userId = useUserId();
  return useQuery({
    queryKey: [...ledgerKeys.accountTransactions(userId, accountId ?? ""), limit],
    queryFn: () => api.ledger.listAccountTransactions(accountId ?? "", { limit }),
    enabled: userId !== "signed-out" && accountId !== null,
  });
}

/** The balance at a moment; idle until asked (asOf null). */
export function useBalanceAt(accountId: string, asOf: string | null) {
  const userId = useUserId();
  return useQuery({
    queryKey: ledgerKeys.balanceAt(userId, accountId, asOf ?? ""),
    queryFn: ({ signal }) => api.ledger.getBalance(accountId, asOf ?? undefined, signal),
    enabled: userId !== "signed-out" && asOf !== null,
    // A past moment's figures never change; no need to ask again.
    staleTime: Infinity,
    retry: false,
  });
}

export function useAnalytics(days: number) {
  const userId = useUserId();
  return useQuery({
    queryKey: ledgerKeys.analytics(userId, days),
    queryFn: ({ signal }) => api.ledger.analytics(days, signal),
    enabled: userId !== "signed-out",
    placeholderData: (previous) => previous,
  });
}

/** After any write: every ledger read of this user is stale (balances, history, analytics). */
export function useInvalidateLedger() {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ledgerKeys.all(userId) }), [queryClient, userId]);
}

interface Keyed<T> {
  body: T;
  idempotencyKey: string;
}

export function useCreateAccount() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: Keyed<NewLedgerAccount>) =>
      api.ledger.createAccount(body, { idempotencyKey }),
    onSuccess: () => void invalidate(),
  });
}

export function useTransfer() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: Keyed<TransferInput>) => api.ledger.transfer(body, { idempotencyKey }),
    onSuccess: () => void invalidate(),
  });
}

export function useDeposit() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: Keyed<DepositInput>) => api.ledger.deposit(body, { idempotencyKey }),
    onSuccess: () => void invalidate(),
  });
}

export function useTestBalance() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: Keyed<TestBalanceInput>) =>
      api.ledger.createTestBalance(body, { idempotencyKey }),
    onSuccess: () => void invalidate(),
  });
}

/** reconcileAccount: moves no money, so nothing to refetch (the stream's event refreshes anyway). */
export function useReconcile() {
  return useMutation({
    mutationFn: (input: { accountId: string; expectedBalance: string; currency: Currency }) =>
      api.ledger.reconcileAccount(input),
  });
}

/** Sets or removes the account's low-balance alert threshold. */
export function useUpdateThreshold() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ accountId, threshold }: { accountId: string; threshold: string }) =>
      api.ledger.updateAccount(accountId, { low_balance_threshold: threshold }),
    onSuccess: () => void invalidate(),
  });
}

/** Administrators: spreads an account's incoming credits over balance shards. */
export function useEnableCreditShards() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ accountId }: { accountId: string }) => api.ledger.enableCreditShards(accountId),
    onSuccess: () => void invalidate(),
  });
}

/** Approve (post) or unpost one transaction. */
export function useStatusChange() {
  const invalidate = useInvalidateLedger();
  return useMutation({
    mutationFn: ({ id, operation }: { id: string; operation: "post" | "unpost" }) =>
      operation === "post" ? api.ledger.postTransaction(id) : api.ledger.unpostTransaction(id),
    onSettled: () => void invalidate(),
  });
}
