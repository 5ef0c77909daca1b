import { useEffect, useId, useRef, useState } from "react";
import type { ServiceCheck, ServiceStatus } from "@fintech/core/status/model";
import { secondaryButtonClass } from "../components/styles";
import { useMediaQuery, usePrefersReducedMotion } from "./hooks";
import { PauseIcon, PlayIcon } from "./icons";
import { cardClass } from "./tones";
import {
  EDGES,
  FLOW_DURATION_S,
  HORIZONTAL,
  NODES,
  VERTICAL,
  describeTopology,
  dotBegins,
  edgeGeometry,
} from "./topology";
import { SERVICE_STATUS_LABELS, formatRate } from "./view";

/** Node outline per service status; nodes without a check keep the neutral outline. */
const NODE_STROKE: Record<ServiceStatus | "none", string> = {
  operational: "stroke-emerald-500",
  degraded: "stroke-amber-500",
  down: "stroke-red-500",
  none: "stroke-slate-300 dark:stroke-slate-600",
};

export interface TopologyDiagramProps {
  services: ServiceCheck[] | undefined;
  requestsPerSecond: number | null;
}

/**
 * The stream topology (SVG): dots flow along each edge (SMIL animateMotion) until paused.
 * Pause/Resume stops every animation of the SVG where it is (pauseAnimations), and with
 * prefers-reduced-motion no dot moves at all; the button still records the choice.
 */
export function TopologyDiagram({ services, requestsPerSecond }: TopologyDiagramProps) {
  const [paused, setPaused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const wide = useMediaQuery("(min-width: 640px)");
  const layout = wide ? HORIZONTAL : VERTICAL;
  const svgRef = useRef<SVGSVGElement>(null);
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const descId = `${baseId}-desc`;
  const animating = !paused && !reducedMotion;

  // The SVG is replaced when the layout changes, so the state is re-applied to the new one too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: layout is the trigger: a new layout is a new <svg>.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || typeof svg.pauseAnimations !== "function") return;
    if (animating) svg.unpauseAnimations();
    else svg.pauseAnimations();
  }, [animating, layout]);

  const statusOf = (service: string | null) => services?.find((check) => check.id === service)?.status ?? null;

  return (
    <section aria-labelledby="topology-heading" className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="topology-heading" className="text-lg font-semibold text-slate-900 dark:text-white">
            Stream topology
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            How a request travels, with each node coloured by its live check.
            {reducedMotion && " Flow animation is off because your system asks for reduced motion."}
          </p>
        </div>
        <button
          type="button"
          className={secondaryButtonClass}
          aria-pressed={paused}
          aria-controls={`${baseId}-svg`}
          data-testid="topology-toggle"
          onClick={() => setPaused((value) => !value)}
        >
          {paused ? <PlayIcon width="16" height="16" /> : <PauseIcon width="16" height="16" />}
          {paused ? "Resume flow" : "Pause flow"}
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        {paused ? "Flow paused" : "Flow running"}
      </p>

      <div className="mt-4 flex justify-center">
        <svg
          key={layout.orientation}
          id={`${baseId}-svg`}
          ref={svgRef}
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
          data-testid="topology"
          data-flow={paused ? "paused" : "running"}
          data-motion={reducedMotion ? "reduced" : "full"}
          data-orientation={layout.orientation}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          className={`h-auto w-full ${wide ? "max-w-4xl" : "max-w-sm"}`}
        >
          <title id={titleId}>Stream topology</title>
          <desc id={descId}>{describeTopology()}</desc>
          <defs>
            <marker
              id={`${baseId}-arrow`}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M0 0 L10 5 L0 10 z" className="fill-slate-400 dark:fill-slate-500" />
            </marker>
          </defs>

          {EDGES.map((edge, index) => {
            const geometry = edgeGeometry(layout, edge);
            const pathId = `${baseId}-edge-${edge.id}`;
            const label =
              edge.id === "cloudfront-api" && requestsPerSecond !== null
                ? `${formatRate(requestsPerSecond)} req/s`
                : edge.label;
            return (
              <g key={edge.id} data-edge={edge.id}>
                <path
                  id={pathId}
                  d={geometry.path}
                  fill="none"
                  strokeWidth="2"
                  markerEnd={`url(#${baseId}-arrow)`}
                  className="stroke-slate-300 dark:stroke-slate-600"
                />
                {!reducedMotion &&
                  dotBegins(index).map((begin) => (
                    <circle key={begin} r="4.5" className="fill-indigo-600 dark:fill-indigo-400" data-flow-dot="">
                      <animateMotion dur={`${FLOW_DURATION_S}s`} begin={begin} repeatCount="indefinite" rotate="auto">
                        <mpath href={`#${pathId}`} />
                      </animateMotion>
                    </circle>
                  ))}
                {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a <g> is not focusable; the edge labels stay
                    out of the tree, the <desc> says them. */}
                <g transform={`translate(${geometry.middle.x} ${geometry.middle.y})`} aria-hidden="true">
                  <rect
                    x={-label.length * 3.4 - 6}
                    y="-10"
                    width={label.length * 6.8 + 12}
                    height="20"
                    rx="10"
                    className="fill-white dark:fill-slate-900"
                  />
                  <text
                    textAnchor="middle"
                    dominantBaseline="central"
                    className="fill-slate-600 text-[11px] font-medium dark:fill-slate-300"
                  >
                    {label}
                  </text>
                </g>
              </g>
            );
          })}

          {NODES.map((node) => {
            const centre = layout.centres[node.id];
            const status = statusOf(node.service);
            return (
              <g
                key={node.id}
                data-node={node.id}
                data-status={status ?? "none"}
                transform={`translate(${centre.x - layout.nodeWidth / 2} ${centre.y - layout.nodeHeight / 2})`}
              >
                <title>
                  {status ? `${node.label}: ${SERVICE_STATUS_LABELS[status]}` : `${node.label}: ${node.detail}`}
                </title>
                <rect
                  width={layout.nodeWidth}
                  height={layout.nodeHeight}
                  rx="12"
                  strokeWidth="2"
                  className={`fill-white dark:fill-slate-800 ${NODE_STROKE[status ?? "none"]}`}
                />
                {status && (
                  <circle
                    cx={layout.nodeWidth - 14}
                    cy="14"
                    r="5"
                    className={
                      status === "operational"
                        ? "fill-emerald-500"
                        : status === "degraded"
                          ? "fill-amber-500"
                          : "fill-red-500"
                    }
                  />
                )}
                <text
                  x={layout.nodeWidth / 2}
                  y="24"
                  textAnchor="middle"
                  className="fill-slate-900 text-[15px] font-semibold dark:fill-white"
                >
                  {node.label}
                </text>
                <text
                  x={layout.nodeWidth / 2}
                  y="43"
                  textAnchor="middle"
                  className="fill-slate-600 text-[12px] dark:fill-slate-300"
                >
                  {node.detail}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
    </section>
  );
}
