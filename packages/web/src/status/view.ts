import type { MetricsReport } from "@fintech/core/metrics/model";
import type { ServiceStatus } from "@fintech/core/status/model";

/** Pure view logic of the status page: wording, tones and figures, unit-tested without a DOM. */

export type Tone = "ok" | "degraded" | "down" | "pending";

export interface BannerView {
  tone: Tone;
  title: string;
}

export const BANNER_TITLES = {
  ok: "All Systems Operational",
  degraded: "Partial System Outage",
  down: "Major System Outage",
  pending: "Checking system status…",
} as const;

/**
 * docs/product/status.md#overall-banner: ok → All Systems Operational; degraded → Partial System
 * Outage; anything else → Major System Outage.
 */
export function bannerFor(status: string | null | undefined, loading = false): BannerView {
  if (loading) return { tone: "pending", title: BANNER_TITLES.pending };
  if (status === "ok") return { tone: "ok", title: BANNER_TITLES.ok };
  if (status === "degraded") return { tone: "degraded", title: BANNER_TITLES.degraded };
  return { tone: "down", title: BANNER_TITLES.down };
}

export const SERVICE_STATUS_LABELS: Record<ServiceStatus, string> = {
  operational: "Operational",
  degraded: "Degraded",
  down: "Down",
};

export function toneOfService(status: ServiceStatus): Tone {
  return status === "operational" ? "ok" : status === "degraded" ? "degraded" : "down";
}

/** "—" when there is nothing to show, never NaN. */
export const DASH = "—";

export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  if (value < 10) return `${value.toFixed(1)} ms`;
  if (value < 10_000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(1)} s`;
}

export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return DASH;
  return perSecond < 10 ? perSecond.toFixed(2) : perSecond.toFixed(1);
}

/** A 0..1 share as a percentage with two decimals. */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return DASH;
  return `${(share * 100).toFixed(2)}%`;
}

export function formatCount(value: number): string {
  return new Intl.NumberFormat("en-US").format(value);
}

export function formatWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "minute" : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

export function formatClock(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return DASH;
  return new Date(time).toLocaleTimeString("en-US", { hour12: false });
}

/** Error share from which the panel colours the error rate as a warning, and as an alert. */
const ERROR_RATE_TONES = { degraded: 0.01, down: 0.25 } as const;

export function errorRateTone(share: number, requests: number): Tone {
  if (requests === 0) return "ok";
  if (share >= ERROR_RATE_TONES.down) return "down";
  if (share >= ERROR_RATE_TONES.degraded) return "degraded";
  return "ok";
}

export interface PerformanceView {
  requests: number;
  requestsPerSecond: string;
  p50: string;
  p99: string;
  errorRate: string;
  clientErrorRate: string;
  errorTone: Tone;
  /** Requests per second of each complete series step, oldest first. */
  series: number[];
  stepSeconds: number;
  instances: number;
  merged: boolean;
  asOf: string;
}

export function performanceView(report: MetricsReport): PerformanceView {
  return {
    requests: report.requests,
    requestsPerSecond: formatRate(report.requests_per_second),
    p50: formatMs(report.p50_ms),
    p99: formatMs(report.p99_ms),
    errorRate: formatPercent(report.error_rate),
    clientErrorRate: formatPercent(report.client_error_rate),
    errorTone: errorRateTone(report.error_rate, report.requests),
    series: report.series.map((point) => point.requests / report.step_seconds),
    stepSeconds: report.step_seconds,
    instances: report.instances,
    merged: report.merged,
    asOf: formatClock(report.as_of),
  };
}

export interface SparklineGeometry {
  /** SVG path of the line, "" when there are no points. */
  line: string;
  /** The same line closed down to the baseline, for a soft fill. */
  area: string;
  max: number;
  last: { x: number; y: number } | null;
}

const coordinate = (value: number) => Math.round(value * 100) / 100;

/**
 * Line and area paths of a sparkline in a width × height box. The scale starts at zero and
 * tops at the largest value (at least 1, so idle traffic draws a flat line on the baseline).
 */
export function sparkline(values: readonly number[], width: number, height: number, padding = 2): SparklineGeometry {
  const clean = values.map((value) => (Number.isFinite(value) && value > 0 ? value : 0));
  if (clean.length === 0) return { line: "", area: "", max: 0, last: null };
  const max = Math.max(1, ...clean);
  const innerHeight = height - padding * 2;
  const stepX = clean.length > 1 ? (width - padding * 2) / (clean.length - 1) : 0;
  const points = clean.map((value, index) => ({
    x: coordinate(clean.length > 1 ? padding + index * stepX : width / 2),
    y: coordinate(padding + innerHeight - (value / max) * innerHeight),
  }));
  const line = points.map((point, index) => `${index === 0 ? "M" : "L"}${point.x} ${point.y}`).join(" ");
  const baseline = coordinate(height - padding);
  const area = `${line} L${points[points.length - 1]!.x} ${baseline} L${points[0]!.x} ${baseline} Z`;
  return { line, area, max, last: points[points.length - 1]! };
}
