import { Link } from "react-router-dom";
import { primaryButtonClass, secondaryButtonClass } from "../../components/styles";
import { Glyph } from "../art/glyphs";
import { DecorativeBackground } from "../DecorativeBackground";
import { landingHero, landingStats } from "../marketingContent";

const NOTE_ID = "landing-coming-soon";

const inertClass =
  "inline-flex h-12 cursor-not-allowed items-center justify-center gap-2 rounded-lg border border-dashed border-slate-400 bg-white/80 px-6 text-base font-semibold text-slate-700 dark:border-slate-600 dark:bg-slate-950/80 dark:text-slate-300";

/**
 * docs/product/marketing-site.md#landing-page: Try Live Demo and Start Building Now lead to /ledger, View
 * Documentation to the built documentation. Schedule Demo has nothing behind it, so it is a
 * button marked aria-disabled that stays focusable and says why (the note below it), rather than
 * a link that goes nowhere.
 */
export function LandingHero() {
  return (
    <section aria-labelledby="landing-title" className="relative overflow-hidden" data-testid="landing-hero">
      <DecorativeBackground count={14} seed={11} />
      <div className="relative mx-auto max-w-5xl px-4 pb-16 pt-16 text-center sm:px-6 sm:pt-24">
        <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/70 px-3 py-1 text-sm font-semibold text-indigo-800 dark:border-indigo-500/30 dark:bg-slate-900/70 dark:text-indigo-200">
          <span className="h-2 w-2 rounded-full bg-emerald-500" aria-hidden="true" />
          {landingHero.eyebrow}
        </p>
        <h1
          id="landing-title"
          className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl dark:text-white"
        >
          {landingHero.title}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 dark:text-slate-300">{landingHero.lead}</p>

        <div className="mt-10 flex flex-wrap justify-center gap-4">
          <Link to={landingHero.to} className={`${primaryButtonClass} h-12 px-6 text-base`}>
            {landingHero.tryDemo}
            <Glyph name="arrowRight" size={18} />
          </Link>
          <Link to={landingHero.to} className={`${secondaryButtonClass} h-12 px-6 text-base`}>
            {landingHero.startBuilding}
          </Link>
        </div>
        <div className="mt-4 flex flex-wrap justify-center gap-4">
          <Link to={landingHero.docsTo} className={`${secondaryButtonClass} h-12 px-6 text-base`}>
            {landingHero.viewDocs}
          </Link>
          <button
            type="button"
            aria-disabled="true"
            aria-describedby={NOTE_ID}
            onClick={(event) => event.preventDefault()}
            className={inertClass}
          >
            {landingHero.scheduleDemo}
          </button>
        </div>
        <p id={NOTE_ID} className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          {landingHero.comingSoon}
        </p>

        <dl className="mx-auto mt-14 grid max-w-4xl grid-cols-2 gap-4 sm:grid-cols-4">
          {landingStats.map((stat) => (
            <div
              key={stat.label}
              className="flex flex-col-reverse rounded-2xl border border-slate-200 bg-white/80 p-5 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80"
            >
              <dt className="mt-1 text-sm font-medium text-slate-600 dark:text-slate-300">{stat.label}</dt>
              <dd className="text-3xl font-extrabold tracking-tight text-slate-900 dark:text-white">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
