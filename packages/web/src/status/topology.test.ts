import { describe, expect, it } from "vitest";
import {
  DOTS_PER_EDGE,
  EDGES,
  FLOW_DURATION_S,
  HORIZONTAL,
  NODES,
  VERTICAL,
  describeTopology,
  dotBegins,
  edgeGeometry,
  type Layout,
} from "./topology";

const boxes = (layout: Layout) =>
  NODES.map((node) => {
    const centre = layout.centres[node.id];
    return {
      id: node.id,
      left: centre.x - layout.nodeWidth / 2,
      right: centre.x + layout.nodeWidth / 2,
      top: centre.y - layout.nodeHeight / 2,
      bottom: centre.y + layout.nodeHeight / 2,
    };
  });

describe("topology", () => {
  it("is client → CloudFront → API / Feeds → DynamoDB / S3", () => {
    const ids = new Set(NODES.map((node) => node.id));
    for (const edge of EDGES) {
      expect(ids.has(edge.from)).toBe(true);
      expect(ids.has(edge.to)).toBe(true);
    }
    expect(EDGES.filter((edge) => edge.from === "client").map((edge) => edge.to)).toEqual(["cloudfront"]);
    expect(
      EDGES.filter((edge) => edge.from === "cloudfront")
        .map((edge) => edge.to)
        .sort(),
    ).toEqual(["api", "feeds"]);
    expect(
      EDGES.filter((edge) => edge.to === "dynamodb")
        .map((edge) => edge.from)
        .sort(),
    ).toEqual(["api", "feeds"]);
    expect(EDGES.filter((edge) => edge.to === "s3").map((edge) => edge.from)).toEqual(["api"]);
    expect(describeTopology()).toContain("Client to CloudFront (HTTPS)");
  });

  for (const layout of [HORIZONTAL, VERTICAL]) {
    it(`${layout.orientation}: nodes fit the view box without overlapping`, () => {
      const all = boxes(layout);
      for (const box of all) {
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.top).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(layout.width);
        expect(box.bottom).toBeLessThanOrEqual(layout.height);
      }
      for (const a of all) {
        for (const b of all) {
          if (a.id >= b.id) continue;
          const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          expect(overlap, `${a.id} overlaps ${b.id}`).toBe(false);
        }
      }
    });

    it(`${layout.orientation}: edges run forward from the source's side to the target's side`, () => {
      for (const edge of EDGES) {
        const geometry = edgeGeometry(layout, edge);
        expect(geometry.path.startsWith(`M${geometry.start.x} ${geometry.start.y} C`)).toBe(true);
        expect(geometry.path.endsWith(`${geometry.end.x} ${geometry.end.y}`)).toBe(true);
        if (layout.orientation === "horizontal") expect(geometry.end.x).toBeGreaterThan(geometry.start.x);
        else expect(geometry.end.y).toBeGreaterThan(geometry.start.y);
        expect(geometry.middle.x).toBeGreaterThanOrEqual(Math.min(geometry.start.x, geometry.end.x));
        expect(geometry.middle.x).toBeLessThanOrEqual(Math.max(geometry.start.x, geometry.end.x));
      }
    });
  }

  it("starts every dot already under way, spread over the loop", () => {
    const begins = dotBegins(0).map((begin) => Number.parseFloat(begin));
    expect(begins).toHaveLength(DOTS_PER_EDGE);
    for (const begin of begins) {
      expect(begin).toBeLessThanOrEqual(0);
      expect(begin).toBeGreaterThan(-FLOW_DURATION_S * 2);
    }
    expect(new Set(begins).size).toBe(DOTS_PER_EDGE);
  });
});
