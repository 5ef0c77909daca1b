import { useId } from "react";
import { useMeasuredWidth } from "../components/useMeasuredWidth";
import { railTotals, throughputChart, type Throughput } from "./throughput";

/** One colour per rail (by its place in the series), AA-visible on both themes' card backgrounds. */
export const RAIL_COLOURS: readonly string[] = [
  "fill-indigo-600 dark:fill-indigo-400",
  "fill-emerald-600 dark:fill-emerald-400",
  "fill-amber-600 dark:fill-amber-300",
  "fill-sky-600 dark:fill-sky-400",
  "fill-rose-600 dark:fill-rose-400",
  "fill-violet-600 dark:fill-violet-400",
  "fill-teal-700 dark:fill-teal-300",
];
const colourOf = (index: number) => RAIL_COLOURS[index % RAIL_COLOURS.length]!;

const DEFAULT_WIDTH = 640;
const MIN_WIDTH = 260;

/**
 * Hand-written SVG, as the ledger's chart: attempts per time bucket stacked by rail. It is one
 * image to assistive technology (its label sums it up); the table below it has the figures.
 */
export function ThroughputChart({ throughput, description }: { throughput: Throughput; description: string }) {
  const [containerRef, width] = useMeasuredWidth<HTMLDivElement>(DEFAULT_WIDTH, MIN_WIDTH);
  const size = { width, height: width < 500 ? 200 : 240 };
  const chart = throughputChart(throughput, size);
  const titleId = useId();
  const totals = railTotals(throughput);
  return (
    <div ref={containerRef} className="min-w-0">
      <svg
        viewBox={`0 0 ${size.width} ${size.height}`}
        role="img"
        aria-labelledby={titleId}
        width={size.width}
        height={size.height}
        className="block h-auto w-full max-w-full"
      >
        <title id={titleId}>{description}</title>
        {chart.yTicks.map((tick) => (
          <g key={tick.label}>
            <line
              x1={chart.plot.left}
              x2={chart.plot.right}
              y1={tick.y}
              y2={tick.y}
              className="stroke-slate-200 dark:stroke-slate-800"
              strokeWidth="1"
            />
            <text
              x={chart.plot.left - 6}
              y={tick.y}
              dy="0.32em"
              textAnchor="end"
              className="fill-slate-600 text-[11px] dark:fill-slate-400"
            >
              {tick.label}
            </text>
          </g>
        ))}
        {chart.segments.map((segment) => (
          <rect
            key={`${segment.at}-${segment.railId}`}
            x={segment.x}
            y={segment.y}
            width={segment.width}
            height={Math.max(segment.height, 1)}
            className={colourOf(segment.colour)}
          />
        ))}
        {chart.xLabels.map((label) => (
          <text
            key={label.x}
            x={label.x}
            y={size.height - 8}
            textAnchor="middle"
            className="fill-slate-600 text-[11px] dark:fill-slate-400"
          >
            {label.label}
          </text>
        ))}
      </svg>
      <ul aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
        {totals.map((total, index) => (
          <li key={total.railId} className="inline-flex items-center gap-1.5">
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" rx="2" className={colourOf(index)} />
            </svg>
            {total.rail}
          </li>
        ))}
      </ul>
    </div>
  );
}
