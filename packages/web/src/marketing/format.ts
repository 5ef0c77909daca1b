import { databaseStats, HEALTH_FAILURE_MESSAGE, type DatabaseStats } from "../api/health";
import type { HealthView } from "../api/healthView";

export type HealthTone = "loading" | "ok" | "degraded" | "error";

/** What the panel's status pill says for each tone: words for people, not the API's raw value. */
export const HEALTH_STATUS_LABELS: Record<HealthTone, string> = {
  loading: "Checking",
  ok: "Healthy",
  degraded: "Degraded",
  error: "Unavailable",
};

export interface HealthPanelModel {
  tone: HealthTone;
  /** The server's status word (ok, degraded, error), or "checking" while loading. */
  status: string;
  /** The status in words (HEALTH_STATUS_LABELS). */
  statusLabel: string;
  message: string;
  connected: boolean;
  stats: DatabaseStats | null;
  /** The failure's own message when the check itself failed. */
  detail: string | null;
}

const toneOf = (status: string): HealthTone => (status === "ok" ? "ok" : status === "degraded" ? "degraded" : "error");

/** What the live health panel shows for a useHealth() view. */
export function healthPanelModel(view: HealthView): HealthPanelModel {
  if (view.loading || !view.health) {
    return {
      tone: "loading",
      status: "checking",
      statusLabel: HEALTH_STATUS_LABELS.loading,
      message: "Checking backend…",
      connected: false,
      stats: null,
      detail: null,
    };
  }
  const { health } = view;
  if (view.error !== null) {
    return {
      tone: "error",
      status: health.status,
      statusLabel: HEALTH_STATUS_LABELS.error,
      message: HEALTH_FAILURE_MESSAGE,
      connected: false,
      stats: null,
      detail: view.error === HEALTH_FAILURE_MESSAGE ? null : view.error,
    };
  }
  const tone = toneOf(health.status);
  return {
    tone,
    status: health.status,
    statusLabel: HEALTH_STATUS_LABELS[tone],
    message: health.message,
    connected: health.database.connected,
    stats: databaseStats(health.database),
    detail: health.database.error,
  };
}
