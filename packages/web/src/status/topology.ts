import type { ServiceId } from "@fintech/core/status/model";

/**
 * The stream topology of the platform as it is deployed (docs/architecture.md#request-path):
 * browser → CloudFront → the buffered API Lambda or the streaming Feeds Lambda → DynamoDB and S3.
 * Pure geometry, so the diagram is unit-tested without a DOM.
 */

export type NodeId = "client" | "cloudfront" | "api" | "feeds" | "dynamodb" | "s3";

export interface TopologyNode {
  id: NodeId;
  label: string;
  detail: string;
  /** The service check whose status colours this node, if any. */
  service: ServiceId | null;
}

export interface TopologyEdge {
  id: string;
  from: NodeId;
  to: NodeId;
  label: string;
}

export const NODES: readonly TopologyNode[] = [
  { id: "client", label: "Client", detail: "Browser SPA", service: null },
  { id: "cloudfront", label: "CloudFront", detail: "CDN · routing", service: null },
  { id: "api", label: "API", detail: "Lambda · Hono", service: "api" },
  { id: "feeds", label: "Feeds", detail: "Lambda · SSE", service: null },
  { id: "dynamodb", label: "DynamoDB", detail: "Single table", service: "database" },
  { id: "s3", label: "S3", detail: "Documents", service: "storage" },
];

export const EDGES: readonly TopologyEdge[] = [
  { id: "client-cloudfront", from: "client", to: "cloudfront", label: "HTTPS" },
  { id: "cloudfront-api", from: "cloudfront", to: "api", label: "/api/*" },
  { id: "cloudfront-feeds", from: "cloudfront", to: "feeds", label: "stream" },
  { id: "api-s3", from: "api", to: "s3", label: "objects" },
  { id: "api-dynamodb", from: "api", to: "dynamodb", label: "reads · writes" },
  { id: "feeds-dynamodb", from: "feeds", to: "dynamodb", label: "outbox" },
];

export type Orientation = "horizontal" | "vertical";

export interface Layout {
  orientation: Orientation;
  width: number;
  height: number;
  nodeWidth: number;
  nodeHeight: number;
  /** Centre of each node. */
  centres: Record<NodeId, { x: number; y: number }>;
}

/** Wide screens: left to right. */
export const HORIZONTAL: Layout = {
  orientation: "horizontal",
  width: 860,
  height: 300,
  nodeWidth: 132,
  nodeHeight: 58,
  centres: {
    client: { x: 72, y: 150 },
    cloudfront: { x: 300, y: 150 },
    api: { x: 546, y: 70 },
    feeds: { x: 546, y: 230 },
    s3: { x: 786, y: 70 },
    dynamodb: { x: 786, y: 230 },
  },
};

/** Phones: top to bottom, so the labels keep a readable size. */
export const VERTICAL: Layout = {
  orientation: "vertical",
  width: 340,
  height: 520,
  nodeWidth: 136,
  nodeHeight: 58,
  centres: {
    client: { x: 170, y: 38 },
    cloudfront: { x: 170, y: 168 },
    api: { x: 88, y: 316 },
    feeds: { x: 252, y: 316 },
    s3: { x: 88, y: 478 },
    dynamodb: { x: 252, y: 478 },
  },
};

export interface Point {
  x: number;
  y: number;
}

export interface EdgeGeometry {
  start: Point;
  end: Point;
  /** Cubic Bézier from the source's outgoing side to the target's incoming side. */
  path: string;
  /** Point halfway along the curve, for the label. */
  middle: Point;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** Edges leave a node on its right (horizontal) or bottom (vertical) side and enter on the opposite side. */
export function edgeGeometry(layout: Layout, edge: TopologyEdge): EdgeGeometry {
  const from = layout.centres[edge.from];
  const to = layout.centres[edge.to];
  const horizontal = layout.orientation === "horizontal";
  const start = horizontal
    ? { x: from.x + layout.nodeWidth / 2, y: from.y }
    : { x: from.x, y: from.y + layout.nodeHeight / 2 };
  const end = horizontal ? { x: to.x - layout.nodeWidth / 2, y: to.y } : { x: to.x, y: to.y - layout.nodeHeight / 2 };
  const c1 = horizontal ? { x: (start.x + end.x) / 2, y: start.y } : { x: start.x, y: (start.y + end.y) / 2 };
  const c2 = horizontal ? { x: (start.x + end.x) / 2, y: end.y } : { x: end.x, y: (start.y + end.y) / 2 };
  const middle = {
    x: round((start.x + 3 * c1.x + 3 * c2.x + end.x) / 8),
    y: round((start.y + 3 * c1.y + 3 * c2.y + end.y) / 8),
  };
  const path = `M${round(start.x)} ${round(start.y)} C${round(c1.x)} ${round(c1.y)} ${round(c2.x)} ${round(c2.y)} ${round(end.x)} ${round(end.y)}`;
  return { start, end, path, middle };
}

/** Seconds one flow dot takes along an edge, and dots per edge (evenly spaced in time). */
export const FLOW_DURATION_S = 2.4;
export const DOTS_PER_EDGE = 2;

/** The `begin` of each dot: negative, so every dot is already on its way when the diagram appears. */
export function dotBegins(edgeIndex: number): string[] {
  return Array.from({ length: DOTS_PER_EDGE }, (_, dot) => {
    const offset = (dot / DOTS_PER_EDGE) * FLOW_DURATION_S + (edgeIndex % 3) * 0.3;
    return `${-round(offset)}s`;
  });
}

const nodeLabel = (id: NodeId) => NODES.find((node) => node.id === id)!.label;

/** The diagram in words, for its accessible description. */
export function describeTopology(): string {
  return EDGES.map((edge) => `${nodeLabel(edge.from)} to ${nodeLabel(edge.to)} (${edge.label})`).join("; ") + ".";
}
