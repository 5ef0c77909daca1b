import { z } from "zod";

/** Safe to import from the browser: the vocabulary of GET /api/v1/status/services. */

export const SERVICE_IDS = ["api", "database", "storage", "auth"] as const;
export const ServiceId = z.enum(SERVICE_IDS);
export type ServiceId = z.infer<typeof ServiceId>;

export const SERVICE_STATUSES = ["operational", "degraded", "down"] as const;
export const ServiceStatus = z.enum(SERVICE_STATUSES);
export type ServiceStatus = z.infer<typeof ServiceStatus>;

export const SERVICE_NAMES: Record<ServiceId, string> = {
  api: "API",
  database: "Database",
  storage: "Object Storage",
  auth: "Authentication",
};

/** The overall status is the /health status: ok, degraded (storage down) or error (database down). */
export const OverallStatus = z.enum(["ok", "degraded", "error"]);
export type OverallStatus = z.infer<typeof OverallStatus>;

export const ServiceCheck = z.object({
  id: ServiceId,
  name: z.string(),
  status: ServiceStatus,
  /** How long the check took, except for the API: its recent median request latency. */
  latency_ms: z.number(),
  detail: z.string(),
  checked_at: z.string(),
});
export type ServiceCheck = z.infer<typeof ServiceCheck>;

export const ServicesReport = z.object({
  overall: OverallStatus,
  services: z.array(ServiceCheck),
  checked_at: z.string(),
});
export type ServicesReport = z.infer<typeof ServicesReport>;

/** A check slower than this is degraded even when it succeeds. */
export const SLOW_CHECK_MS = 1000;
/** Share of 5xx replies over the last minute from which the API is degraded, and down. */
export const API_ERROR_RATE = { degraded: 0.01, down: 0.25 } as const;
/** Seconds of traffic the API check looks at. */
export const API_CHECK_WINDOW_SECONDS = 60;
