/**
 * The analytics showcase's bar chart of sample volumes
 * (docs/product/marketing-site.md#analytics-showcase): the heights come from a seeded generator, so
 * every render and every test sees the same bars.
 */

/** mulberry32: a tiny, well-distributed 32-bit PRNG. Returns numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chart has 24 bars (docs/product/marketing-site.md#constants). */
export const CHART_BARS = 24;

/** Bar heights as whole percentages in [min, max]. */
export function barHeights(seed: number, count: number = CHART_BARS, min = 20, max = 100): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Math.round(min + random() * (max - min)));
}
