import { useId } from "react";
import { useMeasuredWidth } from "../components/useMeasuredWidth";
import type { AnalyticsSeries } from "../api/types";
import { chartModel, describeSeries, type Bar } from "./chart";

const DEFAULT_WIDTH = 760;
const MIN_WIDTH = 280;

/** Fill colours of the flow bars; the legend uses the same. */
export const FLOW_STYLES: Record<Bar["kind"], { label: string; className: string }> = {
  inflow_posted: { label: "Inflows (posted)", className: "fill-emerald-600 dark:fill-emerald-400" },
  inflow_pending: { label: "Inflows (new, pending)", className: "fill-emerald-300 dark:fill-emerald-800" },
  outflow_posted: { label: "Outflows (posted)", className: "fill-red-600 dark:fill-red-400" },
  outflow_pending: { label: "Outflows (new, pending)", className: "fill-red-300 dark:fill-red-800" },
};

/**
 * Hand-written SVG chart: end-of-day balance (solid) and available (dashed) above, daily flows
 * below. It is one image to assistive technology (role="img" with a summary as its label); the
 * figures themselves are in the data table next to it.
 */
export function BalanceChart({ series, label }: { series: AnalyticsSeries; label: string }) {
  const [containerRef, width] = useMeasuredWidth<HTMLElement>(DEFAULT_WIDTH, MIN_WIDTH);
  const size = { width, height: width < 500 ? 280 : 320 };
  const model = chartModel(series.series, series.currency, size);
  const titleId = useId();
  const description = describeSeries(series, label);
  const lastPoint = model.points[model.points.length - 1];

  return (
    <figure ref={containerRef} className="m-0">
      <svg
        viewBox={`0 0 ${size.width} ${size.height}`}
        role="img"
        aria-labelledby={titleId}
        width={size.width}
        height={size.height}
        className="block h-auto w-full max-w-full text-slate-700 dark:text-slate-300"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={titleId}>{description}</title>
        {/* Grid and axis labels of the balance panel. */}
        {model.balanceTicks.map((tick) => (
          <g key={`b-${tick.y}`}>
            <line
              x1={model.plot.left}
              x2={model.plot.right}
              y1={tick.y}
              y2={tick.y}
              className="stroke-slate-200 dark:stroke-slate-800"
              strokeWidth="1"
            />
            <text
              x={model.plot.left - 8}
              y={tick.y}
              dy="0.32em"
              textAnchor="end"
              className="fill-slate-600 text-[11px] dark:fill-slate-400"
            >
              {tick.label}
            </text>
          </g>
        ))}
        {/* Flow panel grid. */}
        {model.flowTicks.map((tick) => (
          <g key={`f-${tick.y}`}>
            <line
              x1={model.plot.left}
              x2={model.plot.right}
              y1={tick.y}
              y2={tick.y}
              className="stroke-slate-200 dark:stroke-slate-800"
              strokeWidth="1"
            />
            <text
              x={model.plot.left - 8}
              y={tick.y}
              dy="0.32em"
              textAnchor="end"
              className="fill-slate-600 text-[11px] dark:fill-slate-400"
            >
              {tick.label}
            </text>
          </g>
        ))}
        <line
          x1={model.plot.left}
          x2={model.plot.right}
          y1={model.flowZero}
          y2={model.flowZero}
          className="stroke-slate-400 dark:stroke-slate-600"
          strokeWidth="1"
        />
        <text
          x={model.plot.left}
          y={model.balancePanel.top - 4}
          className="fill-slate-600 text-[11px] font-semibold dark:fill-slate-400"
        >
          Balance ({series.currency})
        </text>
        <text
          x={model.plot.left}
          y={model.flowPanel.top - 5}
          className="fill-slate-600 text-[11px] font-semibold dark:fill-slate-400"
        >
          Daily flows
        </text>

        {model.bars.map((bar) => (
          <rect
            key={`${bar.date}-${bar.kind}`}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={Math.max(bar.height, 1)}
            rx="1"
            className={FLOW_STYLES[bar.kind].className}
          />
        ))}

        <path
          d={model.availablePath}
          fill="none"
          strokeWidth="2"
          strokeDasharray="5 4"
          className="stroke-sky-600 dark:stroke-sky-400"
        />
        <path
          d={model.balancePath}
          fill="none"
          strokeWidth="2.5"
          strokeLinejoin="round"
          className="stroke-indigo-600 dark:stroke-indigo-300"
        />
        {lastPoint && (
          <circle cx={lastPoint.x} cy={lastPoint.y} r="4" className="fill-indigo-600 dark:fill-indigo-300" />
        )}

        {model.xLabels.map((tick) => (
          <text
            key={`x-${tick.x}`}
            x={tick.x}
            y={size.height - 8}
            textAnchor="middle"
            className="fill-slate-600 text-[11px] dark:fill-slate-400"
          >
            {tick.label}
          </text>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
        <LegendLine className="stroke-indigo-600 dark:stroke-indigo-300" label="End-of-day balance" />
        <LegendLine className="stroke-sky-600 dark:stroke-sky-400" label="Available" dashed />
        {(Object.keys(FLOW_STYLES) as Bar["kind"][]).map((kind) => (
          <span key={kind} className="inline-flex items-center gap-1.5">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" rx="2" className={FLOW_STYLES[kind].className} />
            </svg>
            {FLOW_STYLES[kind].label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function LegendLine({ className, label, dashed = false }: { className: string; label: string; dashed?: boolean }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <svg width="20" height="6" aria-hidden="true">
        <line
          x1="0"
          x2="20"
          y1="3"
          y2="3"
          strokeWidth="2.5"
          strokeDasharray={dashed ? "5 3" : undefined}
          className={className}
        />
      </svg>
      {label}
    </span>
  );
}
