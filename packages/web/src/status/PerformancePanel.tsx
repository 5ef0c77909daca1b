import { useId, type ReactNode } from "react";
import type { MetricsReport } from "@fintech/core/metrics/model";
import { inputClass } from "../components/styles";
import { METRICS_WINDOWS, STATUS_MESSAGES, STATUS_METRICS_REFRESH_MS } from "./constants";
import { ActivityIcon } from "./icons";
import { TONE_CLASSES, cardClass } from "./tones";
import { formatCount, formatRate, formatWindow, performanceView, sparkline, type Tone } from "./view";

const SPARK_WIDTH = 600;
const SPARK_HEIGHT = 72;

function Stat({
  label,
  value,
  sub,
  tone,
  testId,
  raw,
}: {
  label: string;
  value: string;
  sub?: ReactNode;
  tone?: Tone;
  testId: string;
  raw?: number | null;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-800 dark:bg-slate-950/60">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</dt>
      <dd
        data-testid={testId}
        data-value={raw ?? ""}
        className={`mt-1 text-2xl font-bold tabular-nums ${tone && tone !== "ok" ? TONE_CLASSES[tone].text : "text-slate-900 dark:text-white"}`}
      >
        {value}
      </dd>
      {sub && <dd className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{sub}</dd>}
    </div>
  );
}

function Sparkline({
  values,
  stepSeconds,
  windowSeconds,
}: {
  values: number[];
  stepSeconds: number;
  windowSeconds: number;
}) {
  const geometry = sparkline(values, SPARK_WIDTH, SPARK_HEIGHT, 4);
  const gradientId = useId();
  const peak = Math.max(0, ...values);
  const label = `Requests per second over the last ${formatWindow(windowSeconds)}, one point per ${stepSeconds === 1 ? "second" : `${stepSeconds} seconds`}; peak ${formatRate(peak)} per second, latest ${formatRate(values.at(-1) ?? 0)}.`;
  return (
    <figure className="mt-5">
      <figcaption className="mb-2 flex items-baseline justify-between text-xs text-slate-600 dark:text-slate-400">
        <span>Requests per second</span>
        <span className="tabular-nums">peak {formatRate(peak)}/s</span>
      </figcaption>
      <svg
        role="img"
        aria-label={label}
        data-testid="metrics-sparkline"
        data-points={values.length}
        viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
        preserveAspectRatio="none"
        className="h-20 w-full overflow-visible rounded-md bg-slate-50 text-indigo-600 dark:bg-slate-950/60 dark:text-indigo-400"
      >
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="currentColor" stopOpacity="0.28" />
            <stop offset="100%" stopColor="currentColor" stopOpacity="0" />
          </linearGradient>
        </defs>
        {geometry.area && <path d={geometry.area} fill={`url(#${gradientId})`} stroke="none" />}
        {geometry.line && (
          <path
            d={geometry.line}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
            vectorEffect="non-scaling-stroke"
          />
        )}
      </svg>
    </figure>
  );
}

export interface PerformancePanelProps {
  report: MetricsReport | undefined;
  error: string | null;
  windowSeconds: number;
  onWindowChange: (seconds: number) => void;
}

/** Live request figures of the API over every instance, polled every 2 s. */
export function PerformancePanel({ report, error, windowSeconds, onWindowChange }: PerformancePanelProps) {
  const view = report ? performanceView(report) : null;
  const selectId = useId();
  const live = view !== null && error === null;
  return (
    <section
      aria-labelledby="performance-title"
      data-testid="performance-panel"
      data-as-of={report?.as_of ?? ""}
      className={cardClass}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
            <ActivityIcon />
          </span>
          <div>
            <h2 id="performance-title" className="text-lg font-semibold text-slate-900 dark:text-white">
              Live performance
            </h2>
            <p className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
              <span
                aria-hidden="true"
                className={`inline-block h-2 w-2 rounded-full ${live ? "bg-emerald-500 motion-safe:animate-pulse" : "bg-slate-400"}`}
              />
              {live ? `Live · updates every ${STATUS_METRICS_REFRESH_MS / 1000} s` : "Connecting…"}
              {view && <span className="tabular-nums"> · as of {view.asOf}</span>}
            </p>
          </div>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm text-slate-700 dark:text-slate-300">
            Window
          </label>
          <select
            id={selectId}
            value={windowSeconds}
            onChange={(event) => onWindowChange(Number(event.target.value))}
            className={`${inputClass} w-auto py-1.5`}
          >
            {METRICS_WINDOWS.map((option) => (
              <option key={option.seconds} value={option.seconds}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800 dark:bg-red-950/60 dark:text-red-200"
        >
          {STATUS_MESSAGES.metricsFailed}: {error}
        </p>
      )}

      <dl className="mt-5 grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat
          label="Requests / s"
          testId="metric-rps"
          raw={report?.requests_per_second ?? null}
          value={view?.requestsPerSecond ?? "—"}
          sub={
            <span data-testid="metric-requests" data-value={report?.requests ?? ""}>
              {report ? `${formatCount(report.requests)} requests` : "—"}
            </span>
          }
        />
        <Stat
          label="p50 latency"
          testId="metric-p50"
          raw={report?.p50_ms ?? null}
          value={view?.p50 ?? "—"}
          sub="median"
        />
        <Stat
          label="p99 latency"
          testId="metric-p99"
          raw={report?.p99_ms ?? null}
          value={view?.p99 ?? "—"}
          sub="slowest 1%"
        />
        <Stat
          label="Error rate"
          testId="metric-error-rate"
          raw={report?.error_rate ?? null}
          value={view?.errorRate ?? "—"}
          tone={view?.errorTone}
          sub={view ? `5xx · 4xx ${view.clientErrorRate}` : "5xx"}
        />
      </dl>

      {view && <Sparkline values={view.series} stepSeconds={view.stepSeconds} windowSeconds={report!.window_seconds} />}

      {report && (
        <div className="mt-4 flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {formatCount(report.requests)} requests in the last {formatWindow(report.window_seconds)} across{" "}
            {report.instances === 1 ? "1 API instance" : `${report.instances} API instances`}
            {report.merged ? "" : " (other instances unavailable)"}.
          </p>
          {report.routes.length > 0 && (
            <details className="text-sm lg:max-w-md lg:flex-1">
              <summary className="cursor-pointer rounded font-medium text-indigo-700 dark:text-indigo-300">
                Busiest endpoints
              </summary>
              <table className="mt-2 w-full text-left">
                <thead>
                  <tr className="text-xs text-slate-600 dark:text-slate-400">
                    <th scope="col" className="py-1 font-medium">
                      Route
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Requests
                    </th>
                    <th scope="col" className="py-1 text-right font-medium">
                      Errors
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.routes.slice(0, 5).map((route) => (
                    <tr key={route.route} className="border-t border-slate-100 dark:border-slate-800">
                      <td
                        className="max-w-0 truncate py-1 pr-2 font-mono text-xs text-slate-800 dark:text-slate-200"
                        title={route.route}
                      >
                        {route.route}
                      </td>
                      <td className="py-1 text-right tabular-nums text-slate-800 dark:text-slate-200">
                        {formatCount(route.requests)}
                      </td>
                      <td className="py-1 text-right tabular-nums text-slate-800 dark:text-slate-200">
                        {formatCount(route.server_errors + route.client_errors)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          )}
        </div>
      )}
    </section>
  );
}
