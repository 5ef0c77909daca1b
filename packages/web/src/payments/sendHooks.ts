import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import {
  isActiveStatus,
  isWaitingForDecision,
  type CreatePaymentRequest,
  type PaymentListFilters,
  type PaymentStatus,
} from "@fintech/core/payments/model";
import { ledgerKeys } from "../ledger/hooks";
import { sendMoneyApi } from "./api";
import { ACTIVE_POLL_MS, paymentKeys, usePaymentsUser } from "./hooks";

/** Reads of Send money, the payments list and the detail; all under paymentKeys.all, so one event refreshes them. */
export const sendKeys = {
  page: (userId: string, filters: PaymentListFilters) => [...paymentKeys.all(userId), "page", filters] as const,
  payment: (userId: string, paymentId: string) => [...paymentKeys.all(userId), "one", paymentId] as const,
  detail: (userId: string, paymentId: string) => [...paymentKeys.all(userId), "detail", paymentId] as const,
  recipients: (userId: string) => [...paymentKeys.all(userId), "recipients"] as const,
};

/** Still moving or waiting for a decision: worth asking again. */
const stillChanging = (status: PaymentStatus | undefined) =>
  status !== undefined && (isActiveStatus(status) || isWaitingForDecision(status));

/** Every payments read and the balances are stale (after a payment event or a send). */
export function useRefreshAllPayments() {
  const queryClient = useQueryClient();
  const userId = usePaymentsUser();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: paymentKeys.all(userId) });
    void queryClient.invalidateQueries({ queryKey: ledgerKeys.accounts(userId) });
  }, [queryClient, userId]);
}

/** The caller's payments through the list's filters, page after page (signed cursors). */
export function usePaymentPages(filters: PaymentListFilters) {
  const userId = usePaymentsUser();
  return useInfiniteQuery({
    queryKey: sendKeys.page(userId, filters),
    queryFn: ({ pageParam, signal }) => sendMoneyApi.page(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: userId !== "signed-out",
    retry: false,
    placeholderData: (previous) => previous,
  });
}

/** One payment, asked again while it moves or waits (the stream, when on, refreshes it at once). */
export function useFollowedPayment(paymentId: string | null) {
  const userId = usePaymentsUser();
  return useQuery({
    queryKey: sendKeys.payment(userId, paymentId ?? ""),
    queryFn: ({ signal }) => sendMoneyApi.payment(paymentId!, signal),
    enabled: paymentId !== null && userId !== "signed-out",
    refetchInterval: (query) => (stillChanging(query.state.data?.status) ? ACTIVE_POLL_MS : false),
    retry: false,
  });
}

export function usePaymentDetail(paymentId: string) {
  const userId = usePaymentsUser();
  return useQuery({
    queryKey: sendKeys.detail(userId, paymentId),
    queryFn: ({ signal }) => sendMoneyApi.detail(paymentId, signal),
    enabled: userId !== "signed-out",
    refetchInterval: (query) => (stillChanging(query.state.data?.payment.status) ? ACTIVE_POLL_MS : false),
    retry: false,
  });
}

export function useQuote() {
  return useMutation({ mutationFn: (input: CreatePaymentRequest) => sendMoneyApi.quote(input) });
}

export function useCreatePayment() {
  const refresh = useRefreshAllPayments();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CreatePaymentRequest; idempotencyKey: string }) =>
      sendMoneyApi.create(input, idempotencyKey),
    onSettled: refresh,
  });
}

export function useRecipients() {
  const userId = usePaymentsUser();
  return useQuery({
    queryKey: sendKeys.recipients(userId),
    queryFn: ({ signal }) => sendMoneyApi.recipients.list(signal),
    enabled: userId !== "signed-out",
    retry: false,
  });
}

/** Add, rename and delete a saved recipient; the list is asked again after each. */
export function useRecipientChanges() {
  const queryClient = useQueryClient();
  const userId = usePaymentsUser();
  const refresh = () => queryClient.invalidateQueries({ queryKey: sendKeys.recipients(userId) });
  const add = useMutation({ mutationFn: sendMoneyApi.recipients.add, onSettled: refresh });
  const rename = useMutation({
    mutationFn: ({ recipientId, label }: { recipientId: string; label: string }) =>
      sendMoneyApi.recipients.rename(recipientId, label),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (recipientId: string) => sendMoneyApi.recipients.remove(recipientId),
    onSettled: refresh,
  });
  return { add, rename, remove };
}
