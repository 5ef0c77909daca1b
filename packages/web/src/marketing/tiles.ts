/** The scroll-animated product tile grid of the home hero (docs/product/marketing-site.md#product-tiles). */

/** Tiles become clickable once the page has scrolled further than this (docs/product/marketing-site.md#constants). */
export const TILE_ACTIVATION_PX = 40;

/** Tiles per row (docs/product/marketing-site.md#constants). */
export const TILES_PER_ROW = 5;

/** Tiles per row below md: two fit a 390 px phone, so every tile is reachable without sideways scrolling. */
export const TILES_PER_ROW_NARROW = 2;

/** The badge of a tile whose product area has no screen yet. */
export const PLANNED_TILE_LABEL = "Planned";

/** Scroll distance over which the rows settle from their tilted start to flat. */
export const TILE_ANIMATION_RANGE_PX = 600;

/** Strictly more than 40 px: at exactly 40 the tiles are still inert. */
export function tilesActive(scrollY: number): boolean {
  return scrollY > TILE_ACTIVATION_PX;
}

/** Splits items into rows of `size` (the last row may be shorter). */
export function rowsOf<T>(items: readonly T[], size: number = TILES_PER_ROW): T[][] {
  if (size < 1) throw new RangeError("row size must be at least 1");
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}

/** Animation progress 0..1 for a scroll position; NaN and negative positions read as 0. */
export function tileProgress(scrollY: number, range: number = TILE_ANIMATION_RANGE_PX): number {
  if (!(scrollY > 0) || !(range > 0)) return 0;
  return Math.min(1, scrollY / range);
}

/** Rows drift in alternating directions as the page scrolls: +1 right, -1 left. */
export function rowDirection(rowIndex: number): 1 | -1 {
  return rowIndex % 2 === 0 ? 1 : -1;
}
