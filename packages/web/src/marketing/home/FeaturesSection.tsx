import { Link } from "react-router-dom";
import { Glyph } from "../art/glyphs";
import { featureCards, featuresIntro, type FeatureCard } from "../marketingContent";
import { containerClass, SectionHeading, sectionClass } from "../ui";
import { SECTION_IDS } from "./sectionIds";

const cardBase = "flex h-full flex-col rounded-2xl border p-6 text-left";

function CardBody({ card, index }: { card: FeatureCard; index: number }) {
  return (
    <>
      <span
        className={`inline-flex h-11 w-11 items-center justify-center rounded-xl ${
          card.action
            ? "bg-indigo-600 text-white dark:bg-indigo-500 dark:text-slate-950"
            : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
        }`}
      >
        <Glyph name={card.glyph} />
      </span>
      <h3 id={`feature-${index}-title`} className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
        {card.title}
      </h3>
      <p id={`feature-${index}-text`} className="mt-2 flex-1 text-sm text-slate-600 dark:text-slate-300">
        {card.description}
      </p>
    </>
  );
}

/**
 * Spec 000 §2.5: twelve cards. The six with an action are links to their screen; the other six
 * describe a capability that has no screen, so they are plain content: not focusable, no pointer.
 */
export function FeaturesSection() {
  return (
    <section id={SECTION_IDS.features} aria-labelledby="features-title" className={`${sectionClass} py-20 sm:py-24`}>
      <div className={containerClass}>
        <SectionHeading id="features-title" {...featuresIntro} />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {featureCards.map((card, index) => (
            <li key={card.title}>
              {card.action ? (
                <Link
                  to={card.action.to}
                  aria-labelledby={`feature-${index}-title feature-${index}-cta`}
                  aria-describedby={`feature-${index}-text`}
                  data-feature-card="action"
                  className={`${cardBase} group border-slate-200 bg-white shadow-sm transition-[border-color,box-shadow,transform] duration-200 hover:-translate-y-0.5 hover:border-indigo-400 hover:shadow-md motion-reduce:transition-none motion-reduce:hover:translate-y-0 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500`}
                >
                  <CardBody card={card} index={index} />
                  <span id={`feature-${index}-cta`} className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
                    {card.action.label}
                    <Glyph name="arrowRight" size={16} className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none" />
                  </span>
                </Link>
              ) : (
                <article
                  aria-labelledby={`feature-${index}-title`}
                  data-feature-card="inert"
                  className={`${cardBase} cursor-default border-dashed border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900/50`}
                >
                  <CardBody card={card} index={index} />
                  <span className="mt-4 text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Part of the platform</span>
                </article>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
