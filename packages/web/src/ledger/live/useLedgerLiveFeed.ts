import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "../../api";
import { LEDGER_STREAM_PATH } from "../../api/ledger";
import type { LedgerAccount } from "../../api/types";
import { apiBaseUrl } from "../../config";
import { useSession } from "../../session/hooks";
import { showToast } from "../../toast/notify";
import { ledgerKeys } from "../hooks";
import { startLedgerFeed } from "./feedClient";
import type { ConnectionStatus } from "./feedState";
import { liveToastFor } from "./toasts";

/**
 * A burst of events (one approval announces a balance change per leg and a status change) is
 * answered with one refetch: the first event schedules it, the rest of the burst rides along.
 */
const REFRESH_COALESCE_MS = 50;

/**
 * Subscribes to the ledger stream while the workspace is open: every event marks the user's
 * balances, lists and analytics stale (the visible ones refetch at once, so another tab's change
 * shows here within a second) and raises its toast. Returns the connection state for the indicator.
 */
export function useLedgerLiveFeed(): ConnectionStatus {
  const userId = useSession()?.user.id ?? null;
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ConnectionStatus>("connecting");

  useEffect(() => {
    if (!userId || typeof EventSource === "undefined") return;
    let refreshTimer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      refreshTimer ??= setTimeout(() => {
        refreshTimer = null;
        // A balance at a past moment never changes; everything else of this user may have.
        void queryClient.invalidateQueries({ queryKey: ledgerKeys.all(userId), predicate: (query) => query.queryKey[2] !== "balance" });
      }, REFRESH_COALESCE_MS);
    };
    const accountName = (accountId: string) =>
      queryClient.getQueryData<LedgerAccount[]>(ledgerKeys.accounts(userId))?.find((account) => account.id === accountId)?.name;

    const feed = startLedgerFeed({
      userId,
      baseUrl: apiBaseUrl,
      streamPath: LEDGER_STREAM_PATH,
      getTicket: async () => (await api.ledger.streamTicket()).ticket,
      openStream: (url) => new EventSource(url),
      onEvent: (event) => {
        refresh();
        const toast = liveToastFor(event, accountName);
        if (toast) showToast(toast);
      },
      onStatus: setStatus,
      onResumed: refresh,
      warn: (message, detail) => console.warn(message, ...(detail === undefined ? [] : [detail])),
      online: navigator.onLine,
    });
    const goOnline = () => feed.setOnline(true);
    const goOffline = () => feed.setOnline(false);
    window.addEventListener("online", goOnline);
    window.addEventListener("offline", goOffline);
    return () => {
      window.removeEventListener("online", goOnline);
      window.removeEventListener("offline", goOffline);
      feed.stop();
      if (refreshTimer !== null) clearTimeout(refreshTimer);
    };
  }, [userId, queryClient]);

  return status;
}
