import { Link } from "react-router-dom";
import { Glyph } from "../art/glyphs";
import { SlideArt } from "../art/SlideArt";
import { useCarousel } from "../hooks";
import { GALLERY_INTERVAL_MS, gallerySlides, showcaseIntro } from "../marketingContent";
import { isLiveScreen } from "../../routes/routeMeta";
import { ComingSoonBadge, containerClass, SectionHeading, sectionClass } from "../ui";
import { SECTION_IDS } from "./sectionIds";

/**
 * docs/product/marketing-site.md#showcase-carousel: the gallery carousel of six slides,
 * auto-advancing every 5000 ms, with a play/pause control (WAI-ARIA carousel pattern: the button's
 * name says what it will do, the rotation holds while the pointer is over it or focus is inside it,
 * slides are announced only while paused, and it starts paused under prefers-reduced-motion).
 */
export function ShowcaseCarousel() {
  const count = gallerySlides.length;
  const { state, dispatch, running, holdProps } = useCarousel({ count, intervalMs: GALLERY_INTERVAL_MS });

  return (
    <section
      id={SECTION_IDS.showcase}
      aria-labelledby="showcase-title"
      aria-roledescription="carousel"
      className={`${sectionClass} bg-slate-50 py-20 sm:py-24 dark:bg-slate-900/40`}
    >
      <div className={containerClass} {...holdProps}>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <SectionHeading id="showcase-title" {...showcaseIntro} align="left" />
          <button
            type="button"
            onClick={() => dispatch({ type: "toggle" })}
            aria-label={state.playing ? "Pause slideshow" : "Play slideshow"}
            data-playing={state.playing}
            className="inline-flex h-10 items-center gap-2 rounded-full border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Glyph name={state.playing ? "pause" : "play"} size={16} />
            {state.playing ? "Pause" : "Play"}
          </button>
        </div>

        <div className="mt-10 grid" aria-live={running ? "off" : "polite"} data-testid="showcase-slides">
          {gallerySlides.map((slide, index) => {
            const current = index === state.index;
            const live = isLiveScreen(slide.to);
            return (
              <div
                key={slide.title}
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${count}: ${slide.title}`}
                aria-hidden={!current}
                data-current={current}
                className={`[grid-area:1/1] grid items-center gap-8 rounded-3xl border border-slate-200 bg-white p-4 shadow-sm transition-[opacity,visibility] duration-500 motion-reduce:transition-none sm:p-6 md:grid-cols-5 dark:border-slate-800 dark:bg-slate-900 ${
                  current ? "visible opacity-100" : "invisible opacity-0"
                }`}
              >
                <div className="aspect-[8/5] md:col-span-3">
                  <SlideArt name={slide.art} />
                </div>
                <div className="md:col-span-2">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
                    <span>
                      {index + 1} / {count} · {slide.category}
                    </span>
                    {!live && <ComingSoonBadge />}
                  </p>
                  <h3 className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">{slide.title}</h3>
                  <p className="mt-3 text-slate-600 dark:text-slate-300">{slide.summary}</p>
                  <Link
                    to={slide.to}
                    tabIndex={current ? undefined : -1}
                    className="mt-6 inline-flex items-center gap-1 font-semibold text-indigo-700 hover:underline dark:text-indigo-300"
                  >
                    {live ? `Open ${slide.title}` : `See what's planned for ${slide.title}`}
                    <Glyph name="arrowRight" size={16} />
                  </Link>
                </div>
              </div>
            );
          })}
        </div>

        <div className="mt-6 flex justify-center gap-2">
          {gallerySlides.map((slide, index) => (
            <button
              key={slide.title}
              type="button"
              aria-label={`Show slide ${index + 1}: ${slide.title}`}
              aria-current={index === state.index ? "true" : undefined}
              onClick={() => dispatch({ type: "go", index })}
              className="group flex h-8 w-8 items-center justify-center rounded-full"
            >
              <span
                className={`block h-2.5 rounded-full transition-[width,background-color] motion-reduce:transition-none ${
                  index === state.index
                    ? "w-6 bg-indigo-600 dark:bg-indigo-400"
                    : "w-2.5 bg-slate-400 group-hover:bg-slate-500 dark:bg-slate-600"
                }`}
              />
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}
