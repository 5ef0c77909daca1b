import { useRef, type CSSProperties, type MouseEvent } from "react";
import { useMediaQuery, WIDE_SCREEN_QUERY } from "../../components/useMediaQuery";
import { useScrolledPast } from "../../hooks/useScrolledPast";
import { Glyph } from "../art/glyphs";
import { useReducedMotion, useScrollProgressVar } from "../hooks";
import { isPlainClick, scrollToSection } from "../scroll";
import { productTiles, type ProductTile } from "../marketingContent";
import { rowDirection, rowsOf, TILE_ACTIVATION_PX, TILE_ANIMATION_RANGE_PX } from "../tiles";

const HINT_ID = "tile-grid-hint";

interface TileProps {
  tile: ProductTile;
  active: boolean;
  targetId: string;
}

function Tile({ tile, active, targetId }: TileProps) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!active) {
      // Inert until the page has scrolled past 40 px (spec 000 §2.5, §9).
      event.preventDefault();
      return;
    }
    // A plain click scrolls to the features section; a modified click (new tab) keeps the link.
    if (!isPlainClick(event)) return;
    event.preventDefault();
    scrollToSection(targetId);
  };
  return (
    <li className="shrink-0 snap-start">
      <a
        href={tile.link}
        onClick={onClick}
        aria-disabled={active ? undefined : "true"}
        tabIndex={active ? undefined : -1}
        aria-describedby={HINT_ID}
        data-tile={tile.link}
        className={`group block w-48 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-[transform,box-shadow,border-color] duration-200 motion-reduce:transition-none md:w-52 lg:w-56 dark:border-slate-800 dark:bg-slate-900 ${
          active
            ? "cursor-pointer hover:-translate-y-1 hover:border-indigo-400 hover:shadow-lg motion-reduce:hover:translate-y-0 dark:hover:border-indigo-500"
            : "cursor-default"
        }`}
      >
        <span className={`relative flex h-20 items-center justify-between bg-gradient-to-br px-4 text-white md:h-24 ${tile.tint}`}>
          <Glyph name={tile.glyph} size={32} />
          <span className="rounded-md bg-black/50 px-1.5 py-0.5 font-mono text-xs">{tile.link}</span>
        </span>
        <span className="block px-4 py-3">
          <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">{tile.title}</span>
          <span className="mt-0.5 block truncate text-xs text-slate-600 dark:text-slate-400">{tile.blurb}</span>
        </span>
      </a>
    </li>
  );
}

/**
 * Spec 000 §2.5 / spec 001 "Home hero": fourteen product tiles in rows of 5. Scrolling tilts the
 * grid flat and slides the rows apart in alternate directions (transforms only, so no layout shift);
 * tiles are inert until the page has scrolled more than 40 px, then a click scrolls to the
 * features section. Below md the rows scroll sideways instead of animating.
 */
export function TileGrid({ targetId }: { targetId: string }) {
  const gridRef = useRef<HTMLDivElement>(null);
  const reducedMotion = useReducedMotion();
  const active = useScrolledPast(TILE_ACTIVATION_PX);
  // Below md each row scrolls sideways. While the tiles are inert (not focusable) a keyboard user
  // could not reach that scrolling, so the rows themselves take focus then (arrow keys scroll).
  const rowsScroll = !useMediaQuery(WIDE_SCREEN_QUERY);
  const rowsFocusable = rowsScroll && !active;
  useScrollProgressVar(gridRef, "--tile-p", TILE_ANIMATION_RANGE_PX, !reducedMotion);

  return (
    <div className="relative pb-16 [perspective:1200px]">
      <p id={HINT_ID} className="sr-only">
        Opens the features section.
      </p>
      <div
        ref={gridRef}
        data-active={active}
        role="group"
        aria-label="Product areas"
        className="origin-top space-y-4 md:[transform:rotateX(calc((1_-_var(--tile-p,1))*10deg))]"
      >
        {rowsOf(productTiles).map((row, index) => (
          <ul
            key={index}
            tabIndex={rowsFocusable ? 0 : undefined}
            aria-label={rowsFocusable ? `Product areas, row ${index + 1}` : undefined}
            style={{ "--tile-dir": rowDirection(index) } as CSSProperties}
            className="flex snap-x scroll-px-4 gap-4 overflow-x-auto px-4 pb-1 [scrollbar-width:none] md:justify-center md:overflow-visible md:px-0 md:[translate:calc(var(--tile-dir)*var(--tile-p,0)*48px)_0]"
          >
            {row.map((tile) => (
              <Tile key={tile.link} tile={tile} active={active} targetId={targetId} />
            ))}
          </ul>
        ))}
      </div>
    </div>
  );
}
