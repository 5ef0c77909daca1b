import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { statusApi } from "../api/status";
import { useSession } from "../session/hooks";
import { REFRESH_SPIN_MS, SERVICES_REFRESH_MS, STATUS_METRICS_REFRESH_MS } from "./constants";

export const statusQueryKeys = {
  metrics: (userId: string, windowSeconds: number) => ["status", "metrics", userId, windowSeconds] as const,
  services: (userId: string) => ["status", "services", userId] as const,
};

/** The live performance figures, polled every 2 s (docs/product/status.md#constants) while the page is open. */
export function useStatusMetrics(windowSeconds: number) {
  const userId = useSession()?.user.id ?? null;
  return useQuery({
    queryKey: statusQueryKeys.metrics(userId ?? "signed-out", windowSeconds),
    queryFn: ({ signal }) => statusApi.getMetrics(windowSeconds, signal),
    enabled: userId !== null,
    refetchInterval: STATUS_METRICS_REFRESH_MS,
    // Switching the window keeps the old figures on screen until the new ones arrive.
    placeholderData: (previous) => previous,
  });
}

/** The four service checks, refreshed with the health banner (30 s). */
export function useServiceChecks() {
  const userId = useSession()?.user.id ?? null;
  return useQuery({
    queryKey: statusQueryKeys.services(userId ?? "signed-out"),
    queryFn: ({ signal }) => statusApi.getServices(signal),
    enabled: userId !== null,
    refetchInterval: SERVICES_REFRESH_MS,
  });
}

/** True for `durationMs` after each trigger (a new trigger restarts it): the Refresh icon's spin. */
export function useSpinFor(durationMs: number = REFRESH_SPIN_MS): [spinning: boolean, trigger: () => void] {
  const [spinning, setSpinning] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const trigger = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    setSpinning(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setSpinning(false);
    }, durationMs);
  }, [durationMs]);
  return [spinning, trigger];
}

function mediaStore(query: string) {
  return {
    subscribe(listener: () => void) {
      if (typeof window === "undefined" || !window.matchMedia) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener("change", listener);
      return () => list.removeEventListener("change", listener);
    },
    get: () => (typeof window !== "undefined" && window.matchMedia ? window.matchMedia(query).matches : false),
  };
}

const stores = new Map<string, ReturnType<typeof mediaStore>>();

/** Whether a media query matches, following changes (OS setting, window resize). */
export function useMediaQuery(query: string): boolean {
  let store = stores.get(query);
  if (!store) {
    store = mediaStore(query);
    stores.set(query, store);
  }
  return useSyncExternalStore(store.subscribe, store.get, () => false);
}

export const usePrefersReducedMotion = () => useMediaQuery("(prefers-reduced-motion: reduce)");
