import { useRef, type CSSProperties, type MouseEvent } from "react";
import { Link } from "react-router-dom";
import { useMediaQuery, WIDE_SCREEN_QUERY } from "../../components/useMediaQuery";
import { useScrolledPast } from "../../hooks/useScrolledPast";
import { Glyph } from "../art/glyphs";
import { useReducedMotion, useScrollProgressVar } from "../hooks";
import { productTiles, type ProductTile } from "../marketingContent";
import {
  PLANNED_TILE_LABEL,
  rowDirection,
  rowsOf,
  TILE_ACTIVATION_PX,
  TILE_ANIMATION_RANGE_PX,
  TILES_PER_ROW,
  TILES_PER_ROW_NARROW,
} from "../tiles";

const tileBoxClass =
  "group block h-full w-full overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-[transform,box-shadow,border-color] duration-200 motion-reduce:transition-none md:w-52 lg:w-56 dark:border-slate-800 dark:bg-slate-900";

function TileFace({ tile, badge }: { tile: ProductTile; badge: string }) {
  return (
    <>
      <span
        className={`relative flex h-20 items-center justify-between gap-2 bg-gradient-to-br px-3 text-white md:h-24 md:px-4 ${tile.tint}`}
      >
        <Glyph name={tile.glyph} size={32} />
        <span className="truncate rounded-md bg-black/50 px-1.5 py-0.5 font-mono text-xs">{badge}</span>
      </span>
      <span className="block px-3 py-3 md:px-4">
        <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">{tile.title}</span>
        <span className="mt-0.5 block truncate text-xs text-slate-600 dark:text-slate-400">{tile.blurb}</span>
      </span>
    </>
  );
}

/**
 * A tile with a screen: a link, inert until the page has scrolled past 40 px
 * (docs/product/marketing-site.md#product-tiles, docs/product/marketing-site.md#constants).
 */
function LinkTile({ tile, to, active }: { tile: ProductTile; to: string; active: boolean }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!active) event.preventDefault();
  };
  return (
    <Link
      to={to}
      onClick={onClick}
      aria-disabled={active ? undefined : "true"}
      tabIndex={active ? undefined : -1}
      data-tile={to}
      className={`${tileBoxClass} ${
        active
          ? "cursor-pointer hover:-translate-y-1 hover:border-indigo-400 hover:shadow-lg motion-reduce:hover:translate-y-0 dark:hover:border-indigo-500"
          : "cursor-default"
      }`}
    >
      <TileFace tile={tile} badge={to.split("#")[0]!} />
    </Link>
  );
}

/** A product area without a screen yet: says so, and is not a link at all. */
function PlannedTile({ tile }: { tile: ProductTile }) {
  return (
    <div data-tile-planned={tile.title} className={`${tileBoxClass} cursor-default opacity-80`}>
      <TileFace tile={tile} badge={PLANNED_TILE_LABEL} />
    </div>
  );
}

/**
 * docs/product/marketing-site.md#product-tiles: fourteen product tiles in rows of 5. Scrolling tilts the
 * grid flat and slides the rows apart in alternate directions (transforms only, so no layout shift);
 * tiles are inert until the page has scrolled more than 40 px, then each opens its area's screen.
 * Areas without a screen are marked as planned and are not links. Below md the tiles sit two to a
 * row, so every one is on the page without sideways scrolling.
 */
export function TileGrid() {
  const gridRef = useRef<HTMLDivElement>(null);
  const reducedMotion = useReducedMotion();
  const active = useScrolledPast(TILE_ACTIVATION_PX);
  const wide = useMediaQuery(WIDE_SCREEN_QUERY);
  useScrollProgressVar(gridRef, "--tile-p", TILE_ANIMATION_RANGE_PX, !reducedMotion);

  return (
    <div className="relative pb-16 [perspective:1200px]">
      <div
        ref={gridRef}
        data-active={active}
        role="group"
        aria-label="Product areas"
        className="origin-top space-y-3 md:space-y-4 md:[transform:rotateX(calc((1_-_var(--tile-p,1))*10deg))]"
      >
        {rowsOf(productTiles, wide ? TILES_PER_ROW : TILES_PER_ROW_NARROW).map((row, index) => (
          <ul
            key={index}
            style={{ "--tile-dir": rowDirection(index) } as CSSProperties}
            className="grid grid-cols-2 gap-3 px-4 md:flex md:justify-center md:gap-4 md:px-0 md:[translate:calc(var(--tile-dir)*var(--tile-p,0)*48px)_0]"
          >
            {row.map((tile) => (
              <li key={tile.title} className="min-w-0 md:shrink-0">
                {tile.to ? <LinkTile tile={tile} to={tile.to} active={active} /> : <PlannedTile tile={tile} />}
              </li>
            ))}
          </ul>
        ))}
      </div>
    </div>
  );
}
