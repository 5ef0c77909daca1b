import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { FxPair } from "@fintech/core/fx/model";
import { useSession } from "../session/hooks";
import { fxApi } from "./api";

/** Days of history the chart and the revenue table show. */
export const TREASURY_DAYS = 30;

export function useTreasuryViewer(): { userId: string; isAdmin: boolean } {
  const user = useSession()?.user ?? null;
  return { userId: user?.id ?? "signed-out", isAdmin: user?.role === "admin" };
}

export const treasuryKeys = {
  all: (userId: string) => ["treasury", userId] as const,
  rates: (userId: string) => ["treasury", userId, "rates"] as const,
  history: (userId: string, pair: FxPair) => ["treasury", userId, "history", pair] as const,
  positions: (userId: string) => ["treasury", userId, "positions"] as const,
  revenue: (userId: string) => ["treasury", userId, "revenue"] as const,
};

export function useRates() {
  const { userId } = useTreasuryViewer();
  return useQuery({ queryKey: treasuryKeys.rates(userId), queryFn: ({ signal }) => fxApi.rates(signal) });
}

export function useRateHistory(pair: FxPair) {
  const { userId } = useTreasuryViewer();
  return useQuery({
    queryKey: treasuryKeys.history(userId, pair),
    queryFn: ({ signal }) => fxApi.history(pair, TREASURY_DAYS, signal),
  });
}

export function usePositions(enabled: boolean) {
  const { userId } = useTreasuryViewer();
  return useQuery({
    queryKey: treasuryKeys.positions(userId),
    queryFn: ({ signal }) => fxApi.positions(signal),
    enabled,
  });
}

export function useRevenue(enabled: boolean) {
  const { userId } = useTreasuryViewer();
  return useQuery({
    queryKey: treasuryKeys.revenue(userId),
    queryFn: ({ signal }) => fxApi.revenue(TREASURY_DAYS, signal),
    enabled,
  });
}

/** After a rate change or an import every treasury read is stale. */
export function useTreasuryRefresh() {
  const client = useQueryClient();
  const { userId } = useTreasuryViewer();
  return () => client.invalidateQueries({ queryKey: treasuryKeys.all(userId) });
}

export function useSetRate() {
  const refresh = useTreasuryRefresh();
  return useMutation({
    mutationFn: (input: { pair: FxPair; rate?: string; spread?: string }) =>
      fxApi.setRate(input.pair, { rate: input.rate, spread: input.spread }),
    onSuccess: refresh,
  });
}

/** The current time, ticking once a second while `active` (a quote's countdown). */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
