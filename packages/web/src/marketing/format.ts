import { databaseStats, HEALTH_FAILURE_MESSAGE, type DatabaseStats } from "../api/health";
import type { HealthView } from "../api/healthView";

/** Integer minor units to an en-US amount with 2 decimals and the currency's symbol (spec 000 §9). */
export function formatMoney(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(minor / 100);
}

export type HealthTone = "loading" | "ok" | "degraded" | "error";

export interface HealthPanelModel {
  tone: HealthTone;
  /** The server's status word (ok, degraded, error), or "checking" while loading. */
  status: string;
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
    return { tone: "loading", status: "checking", message: "Checking backend…", connected: false, stats: null, detail: null };
  }
  const { health } = view;
  if (view.error !== null) {
    return {
      tone: "error",
      status: health.status,
      message: HEALTH_FAILURE_MESSAGE,
      connected: false,
      stats: null,
      detail: view.error === HEALTH_FAILURE_MESSAGE ? null : view.error,
    };
  }
  return {
    tone: toneOf(health.status),
    status: health.status,
    message: health.message,
    connected: health.database.connected,
    stats: databaseStats(health.database),
    detail: health.database.error,
  };
}
