/**
 * docs/product/portfolio.md#professional-journey: the Professional Journey alternates left and
 * right by index, starting left.
 */
export type TimelineSide = "left" | "right";

export function timelineSide(index: number): TimelineSide {
  return index % 2 === 0 ? "left" : "right";
}
