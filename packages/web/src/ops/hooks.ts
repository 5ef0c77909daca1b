import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { OVERVIEW_DEFAULT_LIMIT, type OpsRow } from "@fintech/core/ops/model";
import { startBrowserFeed } from "../live/browserFeed";
import type { ConnectionStatus } from "../live/feedState";
import { useSession } from "../session/hooks";
import { opsApi } from "./api";
import { OPS_STREAM } from "./live";

/** Breaks and analytics are not on the feed: the overview is asked again this often while the console is open. */
export const OPS_REFRESH_MS = 30_000;

/** The signed-in user and whether the console is theirs to see (the server checks the role again). */
export function useOpsViewer(): { userId: string; isAdmin: boolean } {
  const user = useSession()?.user ?? null;
  return { userId: user?.id ?? "signed-out", isAdmin: user?.role === "admin" };
}

export const opsKeys = { overview: (userId: string) => ["ops", userId, "overview"] as const };

export function useOpsOverview(enabled: boolean) {
  const { userId } = useOpsViewer();
  return useQuery({
    queryKey: opsKeys.overview(userId),
    queryFn: ({ signal }) => opsApi.overview(OVERVIEW_DEFAULT_LIMIT, signal),
    enabled,
    retry: false,
    refetchInterval: OPS_REFRESH_MS,
  });
}

/**
 * Follows the ops feed through the browser's one live connection while `enabled` (an
 * administrator's console is open): each row goes to `onRow`; after a gap the stream could not
 * replay, `onResumed` asks for the overview again. Returns the connection's state.
 */
export function useOpsLive(enabled: boolean, onRow: (row: OpsRow) => void, onResumed: () => void): ConnectionStatus {
  const { userId } = useOpsViewer();
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const latest = useRef({ onRow, onResumed });
  useEffect(() => {
    latest.current = { onRow, onResumed };
  }, [onRow, onResumed]);

  useEffect(() => {
    if (!enabled || userId === "signed-out" || typeof EventSource === "undefined") {
      setStatus("offline");
      return;
    }
    return startBrowserFeed({
      stream: OPS_STREAM,
      scope: "ops",
      userId,
      onEvent: (row) => latest.current.onRow(row),
      onStatus: setStatus,
      onResumed: () => latest.current.onResumed(),
    });
  }, [enabled, userId]);

  return status;
}
