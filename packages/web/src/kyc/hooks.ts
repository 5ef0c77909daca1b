import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { IdentityNumberType } from "@fintech/core/kyc/model";
import { kycApi, type KycState, type StartKycInput } from "../api/kyc";
import { shouldRetry } from "../api/queryClient";
import { startBrowserFeed } from "../live/browserFeed";
import type { ConnectionStatus } from "../live/feedState";
import { useSession } from "../session/hooks";
import { notify, showToast } from "../toast/notify";
import { effectOf, KYC_STREAM, markShownInPlace, toastToRaise, type EventEffect } from "./live/events";

/** Every KYC read is keyed by the signed-in user, so two sessions' data never mix. */
export const kycKeys = {
  all: (userId: string) => ["kyc", userId] as const,
  state: (userId: string) => ["kyc", userId, "state"] as const,
  countries: ["kyc-countries"] as const,
};

/**
 * Without the stream (docs/product/kyc.md#live-updates: REST otherwise) the state is asked for
 * again every 10 s, so checks of an upload and a reviewer's decision still show. With it, every
 * 30 s: a reviewer's Request Info and notes change the state without a stream event (none of the six
 * events has one).
 */
export const REST_REFRESH_MS = { withoutStream: 10_000, withStream: 30_000 } as const;

function useUserId(): string {
  return useSession()?.user.id ?? "signed-out";
}

/**
 * The countries never change while the page is open: loaded once per visit, retried once (when a
 * retry can help) before the step says Loading Error.
 */
export function useKycCountries() {
  return useQuery({
    queryKey: kycKeys.countries,
    queryFn: ({ signal }) => kycApi.countries("", signal),
    staleTime: Infinity,
    retry: (failures, error) => failures < 1 && shouldRetry(failures, error),
  });
}

/** The applicant's KYC state; null before any start. Polled more often when the stream is not live. */
export function useKycState(live: boolean) {
  const userId = useUserId();
  return useQuery<KycState | null>({
    queryKey: kycKeys.state(userId),
    queryFn: ({ signal }) => kycApi.status(signal),
    enabled: userId !== "signed-out",
    refetchInterval: live ? REST_REFRESH_MS.withStream : REST_REFRESH_MS.withoutStream,
  });
}

/** Reloads the applicant's state (after a write, or when the stream says something changed). */
export function useRefreshKyc() {
  const userId = useUserId();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: kycKeys.all(userId) }), [queryClient, userId]);
}

/**
 * Records a verified number in the cached state at once (the reply carries its masked form), so
 * Continue opens with the success toast rather than a refetch later; the refetch then confirms it.
 */
export function useRecordVerifiedNumber() {
  const userId = useUserId();
  const queryClient = useQueryClient();
  return useCallback(
    (type: IdentityNumberType, masked: string) => {
      queryClient.setQueryData<KycState | null>(kycKeys.state(userId), (state) =>
        state
          ? {
              ...state,
              identity_numbers: {
                ...state.identity_numbers,
                [type]: { masked, verified_at: new Date().toISOString() },
              },
            }
          : state,
      );
      void queryClient.invalidateQueries({ queryKey: kycKeys.all(userId) });
    },
    [queryClient, userId],
  );
}

export function useStartKyc() {
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: StartKycInput; idempotencyKey: string }) =>
      kycApi.start(input, { idempotencyKey }),
  });
}

export function useVerifyNumber(type: IdentityNumberType) {
  return useMutation({
    mutationFn: ({ number, country, idempotencyKey }: { number: string; country: string; idempotencyKey: string }) =>
      kycApi.verifyNumber(type, number, country, { idempotencyKey }),
  });
}

export function useResubmit() {
  return useMutation({
    mutationFn: ({ note, idempotencyKey }: { note: string; idempotencyKey: string }) =>
      kycApi.resubmit(note, { idempotencyKey }),
  });
}

/**
 * Follows the KYC stream while the wizard is open (docs/product/kyc.md#live-updates): each event reloads the state and
 * raises its toast; `onEffect` gets the rest (jump to the last step, manual-review warning).
 * Returns the connection state: the state is polled over REST whenever it is not live.
 */
export function useKycLiveFeed(onEffect: (effect: EventEffect) => void): ConnectionStatus {
  const userId = useSession()?.user.id ?? null;
  const refresh = useRefreshKyc();
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const latest = useRef(onEffect);
  useEffect(() => {
    latest.current = onEffect;
  }, [onEffect]);

  useEffect(() => {
    if (!userId || typeof EventSource === "undefined") {
      setStatus("offline");
      return;
    }
    return startBrowserFeed({
      stream: KYC_STREAM,
      scope: "kyc",
      userId,
      healthy: () => kycApi.streamHealthy(),
      onEvent: (event) => {
        const effect = effectOf(event);
        if (effect.refresh) void refresh();
        const toast = toastToRaise(effect.toast);
        if (toast) showToast(toast);
        latest.current(effect);
      },
      onStatus: setStatus,
      onResumed: () => void refresh(),
    });
  }, [userId, refresh]);

  return status;
}

/**
 * While a step shows a message in the page (toast id given), no toast repeats it: one already up
 * is dismissed, and the stream raises none until the step stops showing it.
 */
export function useShownInPlace(toastId: string | null): void {
  useEffect(() => {
    if (toastId === null) return;
    notify.dismiss(toastId);
    return markShownInPlace(toastId);
  }, [toastId]);
}
