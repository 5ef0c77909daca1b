import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { accentFillClass } from "../../components/styles";
import { isLiveScreen } from "../../routes/routeMeta";
import { Glyph } from "../art/glyphs";
import { featureCards, featuresIntro, type FeatureCard } from "../marketingContent";
import { ComingSoonBadge, containerClass, SectionHeading, sectionClass } from "../ui";
import { SECTION_IDS } from "./sectionIds";

const cardBase = "flex h-full flex-col rounded-2xl border p-6 text-left";

function CardBody({ card, index, badge = null }: { card: FeatureCard; index: number; badge?: ReactNode }) {
  return (
    <>
      <span
        className={`inline-flex h-11 w-11 items-center justify-center rounded-xl ${
          card.action ? accentFillClass : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
        }`}
      >
        <Glyph name={card.glyph} />
      </span>
      <h3 id={`feature-${index}-title`} className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">
        {card.title}
        {badge}
      </h3>
      <p id={`feature-${index}-text`} className="mt-2 flex-1 text-sm text-slate-600 dark:text-slate-300">
        {card.description}
      </p>
    </>
  );
}

/**
 * A card with an action. Only the call to action is the link, so the link's name is exactly its
 * visible text; its ::after overlay stretches over the card, so a click anywhere still opens it.
 */
function ActionCard({
  card,
  action,
  index,
}: {
  card: FeatureCard;
  action: NonNullable<FeatureCard["action"]>;
  index: number;
}) {
  const live = isLiveScreen(action.to);
  return (
    <article
      aria-labelledby={`feature-${index}-title`}
      className={`${cardBase} group relative border-slate-200 bg-white shadow-sm transition-[border-color,box-shadow,transform] duration-200 hover:-translate-y-0.5 hover:border-indigo-400 hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-indigo-600 motion-reduce:transition-none motion-reduce:hover:translate-y-0 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500 dark:has-[a:focus-visible]:outline-indigo-400`}
    >
      <CardBody card={card} index={index} badge={live ? null : <ComingSoonBadge className="ml-2 align-middle" />} />
      <Link
        to={action.to}
        data-feature-card="action"
        className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-indigo-700 outline-none after:absolute after:inset-0 after:rounded-2xl after:content-[''] dark:text-indigo-300"
      >
        {live ? action.label : "See what's coming"}
        {!live && <span className="sr-only"> to {card.title}</span>}
        <Glyph
          name="arrowRight"
          size={16}
          className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
        />
      </Link>
    </article>
  );
}

function InertCard({ card, index }: { card: FeatureCard; index: number }) {
  return (
    <article
      aria-labelledby={`feature-${index}-title`}
      data-feature-card="inert"
      className={`${cardBase} cursor-default border-dashed border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900/50`}
    >
      <CardBody card={card} index={index} />
      <span className="mt-4 text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">
        Part of the platform
      </span>
    </article>
  );
}

/**
 * docs/product/marketing-site.md#features: twelve cards. The six with an action are links to their
 * screen; the other six describe a capability that has no screen, so they are plain content: not
 * focusable, no pointer.
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
                <ActionCard card={card} action={card.action} index={index} />
              ) : (
                <InertCard card={card} index={index} />
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
