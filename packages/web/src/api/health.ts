import type { HttpClient } from "./client";
import { API_MESSAGES, ApiError, bodyMessage } from "./errors";
import type { ApiReply } from "./schema";

/** The API document's health states; the reply types below are the screens' normalised view of it. */
export type HealthStatus = ApiReply<"/health", "get">["status"];

export interface DatabaseHealth {
  connected: boolean;
  error: string | null;
  max_open_connections: number;
  open_connections: number;
  in_use: number;
  idle: number;
}

/** GET /health (docs/product/status.md#health-check). */
export interface HealthReply {
  status: HealthStatus | string;
  message: string;
  time: string;
  timestamp: number;
  database: DatabaseHealth;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function isHealthReply(body: unknown): body is HealthReply {
  return isRecord(body) && typeof body.status === "string" && isRecord(body.database);
}

const number = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Missing figures read as 0 so the status page never renders NaN. */
function normalizeHealth(body: HealthReply): HealthReply {
  const db: Record<string, unknown> = { ...body.database };
  return {
    status: body.status,
    message: typeof body.message === "string" ? body.message : "",
    time: typeof body.time === "string" ? body.time : "",
    timestamp: number(body.timestamp),
    database: {
      connected: db.connected === true,
      error: typeof db.error === "string" ? db.error : null,
      max_open_connections: number(db.max_open_connections),
      open_connections: number(db.open_connections),
      in_use: number(db.in_use),
      idle: number(db.idle),
    },
  };
}

/** What the screens show when the check itself failed (docs/product/status.md#health-check). */
export const HEALTH_FAILURE_MESSAGE = "Unable to connect to backend";
export const HEALTH_FAILURE_FALLBACK = "Failed to fetch health status";

export function healthFailure(): HealthReply {
  return {
    status: "error",
    message: HEALTH_FAILURE_MESSAGE,
    time: "",
    timestamp: 0,
    database: { connected: false, error: null, max_open_connections: 0, open_connections: 0, in_use: 0, idle: 0 },
  };
}

export interface DatabaseStats {
  maxConnections: number;
  openConnections: number;
  inUse: number;
  idle: number;
  /** In use divided by max, as a rounded percentage; 0 when there is no maximum. */
  utilization: number;
}

export function databaseStats(database: DatabaseHealth): DatabaseStats {
  const max = database.max_open_connections;
  return {
    maxConnections: max,
    openConnections: database.open_connections,
    inUse: database.in_use,
    idle: database.idle,
    utilization: max > 0 ? Math.round((database.in_use / max) * 100) : 0,
  };
}

export function healthEndpoints(http: HttpClient) {
  return {
    /**
     * GET /health, public. The server answers 503 with a full report when the database is down;
     * that report is the answer, not a failure, so it is returned like a 200.
     */
    async getHealth(signal?: AbortSignal): Promise<HealthReply> {
      const reply = await http.raw("GET", "/health", { signal });
      if (isHealthReply(reply.body)) return normalizeHealth(reply.body);
      if (!reply.ok) throw new ApiError(API_MESSAGES.httpStatus(reply.status), "http-status", reply.status);
      throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response", reply.status);
    },
    /** GET /api/health with the bearer token: proves the token and the ledger store together. */
    async getServiceHealth(signal?: AbortSignal): Promise<HealthReply> {
      const body = await http.authCall<unknown>("GET", "/api/health", { signal });
      if (!isHealthReply(body)) {
        throw new ApiError(bodyMessage(body) ?? API_MESSAGES.invalidResponse, "invalid-response");
      }
      return normalizeHealth(body);
    },
  };
}
