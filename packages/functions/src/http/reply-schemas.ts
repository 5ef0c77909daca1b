import { z } from "zod";

/**
 * Zod schemas of replies whose shape core describes only as TypeScript types. They document the
 * replies (the contract test checks real replies against them); core builds the replies.
 */

const ConnectionStats = {
  max_open_connections: z.number().nullable().describe("The HTTP agent's socket limit (null when unlimited)"),
  open_connections: z.number(),
  in_use: z.number(),
  idle: z.number(),
};

export const HealthReport = z.object({
  status: z.enum(["ok", "degraded", "error"]),
  message: z.string(),
  time: z.string(),
  timestamp: z.number(),
  database: z.object({
    connected: z.boolean(),
    error: z.string().nullable(),
    table_status: z.string().nullable(),
    latency_ms: z.number(),
    ...ConnectionStats,
  }),
  storage: z.object({ connected: z.boolean(), error: z.string().nullable(), latency_ms: z.number() }),
});

export const AuthenticatedHealthReport = HealthReport.extend({ user_id: z.string() });

export const healthExample = {
  status: "ok",
  message: "All systems operational",
  time: "2026-01-15T09:30:00.000Z",
  timestamp: 1768469400000,
  database: { connected: true, error: null, table_status: "ACTIVE", latency_ms: 4, max_open_connections: 50, open_connections: 1, in_use: 0, idle: 1 },
  storage: { connected: true, error: null, latency_ms: 3 },
};
