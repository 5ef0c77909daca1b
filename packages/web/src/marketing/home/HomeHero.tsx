import { primaryButtonClass, secondaryButtonClass } from "../../components/styles";
import { DecorativeBackground } from "../DecorativeBackground";
import { useSectionLink } from "../hooks";
import { homeHero } from "../marketingContent";
import { SECTION_IDS } from "./sectionIds";
import { TileGrid } from "./TileGrid";

const FEATURES_ID = SECTION_IDS.features;
const GALLERY_ID = SECTION_IDS.gallery;

/**
 * docs/product/marketing-site.md#hero: 'Start Building' scrolls to the features section, 'View Documentation' to the
 * gallery. Every box here has a fixed size before any data or script arrives, so nothing shifts.
 */
export function HomeHero() {
  const toFeatures = useSectionLink(FEATURES_ID);
  const toGallery = useSectionLink(GALLERY_ID);
  return (
    <section aria-labelledby="home-title" className="relative overflow-hidden" data-testid="home-hero">
      <DecorativeBackground />
      <div className="relative mx-auto max-w-5xl px-4 pb-12 pt-16 text-center sm:px-6 sm:pt-24">
        <p className="text-sm font-semibold uppercase tracking-widest text-indigo-700 dark:text-indigo-300">
          {homeHero.eyebrow}
        </p>
        <h1
          id="home-title"
          className="mt-4 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl dark:text-white"
        >
          {homeHero.title}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 dark:text-slate-300">{homeHero.lead}</p>
        <div className="mt-10 flex flex-wrap justify-center gap-4">
          <a href={`#${FEATURES_ID}`} onClick={toFeatures} className={`${primaryButtonClass} h-12 px-6 text-base`}>
            {homeHero.primary}
          </a>
          <a href={`#${GALLERY_ID}`} onClick={toGallery} className={`${secondaryButtonClass} h-12 px-6 text-base`}>
            {homeHero.secondary}
          </a>
        </div>
      </div>
      <TileGrid />
    </section>
  );
}
