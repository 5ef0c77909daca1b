import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { LedgerAccount } from "../../api/types";
import { startBrowserFeed } from "../../live/browserFeed";
import type { ConnectionStatus } from "../../live/feedState";
import { useSession } from "../../session/hooks";
import { showToast } from "../../toast/notify";
import { ledgerKeys } from "../hooks";
import { LEDGER_STREAM } from "./events";
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
        void queryClient.invalidateQueries({
          queryKey: ledgerKeys.all(userId),
          predicate: (query) => query.queryKey[2] !== "balance",
        });
      }, REFRESH_COALESCE_MS);
    };
    const accountName = (accountId: string) =>
      queryClient
        .getQueryData<LedgerAccount[]>(ledgerKeys.accounts(userId))
        ?.find((account) => account.id === accountId)?.name;

    const stopFeed = startBrowserFeed({
      stream: LEDGER_STREAM,
      scope: "ledger",
      userId,
      onEvent: (event) => {
        refresh();
        const toast = liveToastFor(event, accountName);
        if (toast) showToast(toast);
      },
      onStatus: setStatus,
      onResumed: refresh,
    });
    return () => {
      stopFeed();
      if (refreshTimer !== null) clearTimeout(refreshTimer);
    };
  }, [userId, queryClient]);

  return status;
}
