import type { ResponseTimesReport } from "@fintech/core/metrics/response-times";

/**
 * Shown, labelled as such, for endpoints with no measured replies yet
 * (docs/product/developer-tools.md#api-explorer: default 50 ms).
 */
export const DEFAULT_RESPONSE_MS = 50;

export type TypicalTime =
  | { measured: true; ms: number; p95Ms: number; requests: number }
  | { measured: false; ms: number };

export function typicalTimeOf(
  endpoint: { method: string; path: string },
  report: ResponseTimesReport | undefined,
): TypicalTime {
  const route = report?.routes.find((entry) => entry.method === endpoint.method && entry.path === endpoint.path);
  if (!route) return { measured: false, ms: DEFAULT_RESPONSE_MS };
  return { measured: true, ms: route.typical_ms, p95Ms: route.p95_ms, requests: route.requests };
}

/** "12 ms", "0.8 ms", "1.3 s": a figure at a glance, not a benchmark. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1).replace(/\.0$/, "")} ms`;
}

export function typicalTimeLabel(time: TypicalTime): string {
  if (!time.measured) return `default ${formatMs(time.ms)} (no measurements yet)`;
  return `typical ${formatMs(time.ms)} (p95 ${formatMs(time.p95Ms)}, ${time.requests.toLocaleString("en-US")} ${time.requests === 1 ? "reply" : "replies"})`;
}
