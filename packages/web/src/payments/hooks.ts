import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isWaitingForDecision } from "@fintech/core/payments/model";
import { paymentsApi, type CreatePaymentRequest } from "../api/payments";
import { ledgerKeys } from "../ledger/hooks";
import { startBrowserFeed } from "../live/browserFeed";
import type { ConnectionStatus } from "../live/feedState";
import { useSession } from "../session/hooks";
import { PAYMENT_STREAM, type PaymentLiveEvent } from "./events";

/** Every payments read is keyed by the signed-in user, so two sessions' data never mix. */
export const paymentKeys = {
  all: (userId: string) => ["payments", userId] as const,
  list: (userId: string) => ["payments", userId, "list"] as const,
  health: (userId: string) => ["payments", userId, "health"] as const,
};

/** How often the Connected badge asks the service again. */
export const HEALTH_POLL_MS = 15_000;
/**
 * While a payment is pending or processing, the tiles are asked again this often (the stream, when
 * on, refreshes them at once).
 */
export const ACTIVE_POLL_MS = 5_000;

export function usePaymentsUser(): string {
  return useSession()?.user.id ?? "signed-out";
}

/** GET /api/grpc/payment/health, asked on open and every 15 s: the Connected/Disconnected badge. */
export function usePaymentHealth() {
  const userId = usePaymentsUser();
  return useQuery({
    queryKey: paymentKeys.health(userId),
    queryFn: async ({ signal }) => {
      const healthy = await paymentsApi.healthy(signal);
      // docs/product/payments.md#messages: a failed health check is logged, not shown beyond the badge.
      if (!healthy) console.warn("Health check failed: the payment service did not answer OK");
      return healthy;
    },
    refetchInterval: HEALTH_POLL_MS,
    retry: false,
    enabled: userId !== "signed-out",
  });
}

/** The user's payments (all pages, bounded), for the tiles; polled while any is still moving. */
export function usePaymentList() {
  const userId = usePaymentsUser();
  return useQuery({
    queryKey: paymentKeys.list(userId),
    queryFn: ({ signal }) => paymentsApi.all(signal),
    // Payments waiting for an administrator are asked after too: their payer sees the decision land.
    refetchInterval: (query) =>
      query.state.data?.payments.some(
        (payment) =>
          payment.status === "pending" || payment.status === "processing" || isWaitingForDecision(payment.status),
      )
        ? ACTIVE_POLL_MS
        : false,
    retry: false,
    enabled: userId !== "signed-out",
  });
}

/** Asks the payments (and the accounts, whose balances a payment changes) again. */
export function useRefreshPayments() {
  const queryClient = useQueryClient();
  const userId = usePaymentsUser();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: paymentKeys.list(userId) });
    void queryClient.invalidateQueries({ queryKey: ledgerKeys.accounts(userId) });
  }, [queryClient, userId]);
}

/**
 * The payment stream while `streaming` is on (Start/Stop Streaming), through the browser's one
 * live connection (live/browserFeed.ts): the service's health check before joining it, resume from
 * the last event id. Each event goes to `onEvent` and refreshes the tiles; a resumed connection refreshes
 * them too (events of the gap may not replay). Returns the connection's state, "offline" when off.
 */
export function usePaymentStream(streaming: boolean, onEvent: (event: PaymentLiveEvent) => void): ConnectionStatus {
  const userId = usePaymentsUser();
  const refresh = useRefreshPayments();
  const [status, setStatus] = useState<ConnectionStatus>("offline");
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  }, [onEvent]);

  useEffect(() => {
    if (!streaming || userId === "signed-out" || typeof EventSource === "undefined") {
      setStatus("offline");
      return;
    }
    return startBrowserFeed({
      stream: PAYMENT_STREAM,
      scope: "payment",
      userId,
      healthy: () => paymentsApi.healthy(),
      onEvent: (event) => {
        latest.current(event);
        refresh();
      },
      onStatus: setStatus,
      onResumed: refresh,
    });
  }, [streaming, userId, refresh]);

  return status;
}

/** POST /v1/payments with the action's Idempotency-Key; the tiles and balances are asked again after. */
export function useSendPayment() {
  const refresh = useRefreshPayments();
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CreatePaymentRequest; idempotencyKey: string }) =>
      paymentsApi.create(input, idempotencyKey),
    onSettled: refresh,
  });
}
