import { errorMessage } from "./errors";
import { HEALTH_FAILURE_FALLBACK, healthFailure, type HealthReply } from "./health";

export interface HealthView {
  loading: boolean;
  /** The last report, or the failure report (status error, database disconnected). */
  health: HealthReply | null;
  /** The failure's message, or 'Failed to fetch health status'. */
  error: string | null;
}

/** docs/product/status.md#health-check: loading, then loaded or error; a failed refresh shows the failure state. */
export function toHealthView(query: {
  status: "pending" | "success" | "error";
  data: HealthReply | undefined;
  error: unknown;
}): HealthView {
  if (query.status === "error") {
    return { loading: false, health: healthFailure(), error: errorMessage(query.error, HEALTH_FAILURE_FALLBACK) };
  }
  if (query.status === "pending") return { loading: true, health: null, error: null };
  return { loading: false, health: query.data ?? null, error: null };
}
