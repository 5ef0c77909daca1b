import { useRef, type KeyboardEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import { accentFillClass, primaryButtonClass } from "../../components/styles";
import { Glyph } from "../art/glyphs";
import { SlideArt } from "../art/SlideArt";
import { tabKeyTarget } from "../carousel";
import { useCarousel } from "../hooks";
import { galleryIntro, gallerySlides } from "../marketingContent";
import { isLiveScreen } from "../../routes/routeMeta";
import { ComingSoonBadge, containerClass, SectionHeading, sectionClass } from "../ui";
import { SECTION_IDS } from "./sectionIds";
import { SummaryStats } from "./SummaryStats";

const PANEL_ID = "gallery-panel";
const tabId = (index: number) => `gallery-tab-${index}`;

const arrowClass =
  "inline-flex h-10 w-10 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * docs/product/marketing-site.md#demo-gallery: the second gallery (anchor "gallery"): one demo at a
 * time with image, category, title, description, feature chips, a Live Demo button and a Try Now
 * link; previous/next arrows wrap around and a tab per demo jumps to it (WAI-ARIA tabs, arrow keys
 * move between tabs).
 */
export function DemoGallery() {
  const count = gallerySlides.length;
  const { state, dispatch } = useCarousel({ count });
  const navigate = useNavigate();
  const tabsRef = useRef<HTMLDivElement>(null);
  const slide = gallerySlides[state.index] ?? gallerySlides[0]!;
  const live = isLiveScreen(slide.to);

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const target = tabKeyTarget(event.key, state.index, count);
    if (target === null) return;
    event.preventDefault();
    dispatch({ type: "go", index: target });
    tabsRef.current?.querySelector<HTMLElement>(`#${tabId(target)}`)?.focus();
  };

  return (
    <section
      id={SECTION_IDS.gallery}
      aria-labelledby="gallery-title"
      aria-roledescription="carousel"
      className={`${sectionClass} py-20 sm:py-24`}
    >
      <div className={containerClass}>
        <SectionHeading id="gallery-title" {...galleryIntro} />

        <div
          ref={tabsRef}
          role="tablist"
          aria-label="Demos"
          className="mt-10 flex gap-2 overflow-x-auto pb-2 [scrollbar-width:thin] lg:justify-center"
        >
          {gallerySlides.map((item, index) => {
            const selected = index === state.index;
            return (
              <button
                key={item.title}
                id={tabId(index)}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls={PANEL_ID}
                tabIndex={selected ? 0 : -1}
                onClick={() => dispatch({ type: "go", index })}
                onKeyDown={onTabKeyDown}
                className={`shrink-0 rounded-full px-4 py-2 text-sm font-semibold transition-colors motion-reduce:transition-none ${
                  selected
                    ? accentFillClass
                    : "bg-slate-100 text-slate-700 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700"
                }`}
              >
                {item.title}
              </button>
            );
          })}
        </div>

        <div
          id={PANEL_ID}
          role="tabpanel"
          aria-labelledby={tabId(state.index)}
          aria-roledescription="slide"
          className="mt-6 grid gap-8 rounded-3xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 lg:grid-cols-2 dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="aspect-[8/5]">
            <SlideArt name={slide.art} />
          </div>
          <div className="flex flex-col">
            <div className="flex items-center justify-between gap-4">
              <span className="flex flex-wrap items-center gap-2">
                <span className="rounded-full bg-indigo-50 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-indigo-800 dark:bg-indigo-500/15 dark:text-indigo-200">
                  {slide.category}
                </span>
                {!live && <ComingSoonBadge />}
              </span>
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  aria-label="Previous demo"
                  onClick={() => dispatch({ type: "prev" })}
                  className={arrowClass}
                >
                  <Glyph name="chevronLeft" size={18} />
                </button>
                <span
                  className="w-12 text-center text-sm tabular-nums text-slate-600 dark:text-slate-400"
                  aria-hidden="true"
                >
                  {state.index + 1} / {count}
                </span>
                <button
                  type="button"
                  aria-label="Next demo"
                  onClick={() => dispatch({ type: "next" })}
                  className={arrowClass}
                >
                  <Glyph name="chevronRight" size={18} />
                </button>
              </div>
            </div>
            <h3 className="mt-4 text-2xl font-bold text-slate-900 dark:text-white">{slide.title}</h3>
            <p className="mt-3 text-slate-600 dark:text-slate-300">{slide.description}</p>
            <ul aria-label="Features" className="mt-5 flex flex-wrap gap-2">
              {slide.chips.map((chip) => (
                <li
                  key={chip}
                  className="inline-flex items-center gap-1 rounded-full border border-slate-200 px-3 py-1 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-200"
                >
                  <Glyph name="check" size={14} className="text-emerald-600 dark:text-emerald-400" />
                  {chip}
                </li>
              ))}
            </ul>
            <div className="mt-auto flex flex-wrap items-center gap-4 pt-8">
              {/* Live Demo and Try Now (docs/product/marketing-site.md#demo-gallery) for live screens; a
                  preview says so. */}
              <button type="button" onClick={() => navigate(slide.to)} className={`${primaryButtonClass} h-11 px-5`}>
                {live ? "Live Demo" : "Coming soon"}
              </button>
              <Link
                to={slide.to}
                className="inline-flex items-center gap-1 font-semibold text-indigo-700 hover:underline dark:text-indigo-300"
              >
                {live ? "Try Now" : "See what's planned"}
                <Glyph name="arrowRight" size={16} />
              </Link>
            </div>
          </div>
        </div>

        <SummaryStats />
      </div>
    </section>
  );
}
