import { METRICS_WINDOW, MetricsReport } from "@fintech/core/metrics/model";
import { ServicesReport } from "@fintech/core/status/model";
import { appHttp } from "./appClient";
import type { HttpClient } from "./client";
import { API_MESSAGES, ApiError } from "./errors";
import { withQuery } from "./query";

export type { MetricsReport } from "@fintech/core/metrics/model";
export type { ServiceCheck, ServicesReport } from "@fintech/core/status/model";

/** An OK reply that does not match the contract is an invalid response, never half-rendered. */
function parseReply<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  body: unknown,
): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(API_MESSAGES.invalidResponse, "invalid-response");
  return parsed.data;
}

/** The status page's calls, both behind the bearer token (the /status screen is guarded). */
export function statusEndpoints(http: HttpClient) {
  return {
    /** GET /api/v1/status/metrics?window=N: request figures over every API instance. */
    async getMetrics(windowSeconds: number = METRICS_WINDOW.default, signal?: AbortSignal): Promise<MetricsReport> {
      const body = await http.authCall<unknown>("GET", withQuery("/api/v1/status/metrics", { window: windowSeconds }), {
        signal,
      });
      return parseReply(MetricsReport, body);
    },
    /** GET /api/v1/status/services: API, database, object storage and authentication checks. */
    async getServices(signal?: AbortSignal): Promise<ServicesReport> {
      const body = await http.authCall<unknown>("GET", "/api/v1/status/services", { signal });
      return parseReply(ServicesReport, body);
    },
  };
}

export type StatusApi = ReturnType<typeof statusEndpoints>;

/** Over the app's one client, as the app's `api`: same origin, stored token, 401s sign out. */
export const statusApi = statusEndpoints(appHttp);
