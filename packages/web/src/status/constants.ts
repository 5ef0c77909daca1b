/** Constants of the status page (docs/product/status.md#constants). */

/** The live performance panel polls the metrics endpoint this often. */
export const STATUS_METRICS_REFRESH_MS = 2000;
/** The Refresh button's icon spins this long after a click. */
export const REFRESH_SPIN_MS = 1000;
/** Service checks refresh with the health banner. */
export { HEALTH_REFRESH_MS as SERVICES_REFRESH_MS } from "../constants";

/** Windows the performance panel offers, in seconds. */
export const METRICS_WINDOWS = [
  { seconds: 60, label: "Last minute" },
  { seconds: 300, label: "Last 5 minutes" },
  { seconds: 900, label: "Last 15 minutes" },
  { seconds: 3600, label: "Last hour" },
] as const;

export const STATUS_MESSAGES = {
  subscribeUnavailable: "Status notifications are not available yet",
  servicesFailed: "Could not check the services",
  metricsFailed: "Live metrics are unavailable",
} as const;
