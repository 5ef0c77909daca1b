import { Link } from "react-router-dom";
import { accentFillClass, primaryButtonClass } from "../../components/styles";
import { Glyph } from "../art/glyphs";
import { landingBlocks, landingBlocksIntro, landingClosing, landingHero } from "../marketingContent";
import { cardClass, containerClass, SectionHeading } from "../ui";

/** The six marketing blocks of docs/product/marketing-site.md#landing-page and a closing call to action. */
export function LandingBlocks() {
  return (
    <>
      <section aria-labelledby="landing-blocks-title" className="bg-slate-50 py-20 sm:py-24 dark:bg-slate-900/40">
        <div className={containerClass}>
          <SectionHeading id="landing-blocks-title" {...landingBlocksIntro} />
          <ul className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {landingBlocks.map((block) => (
              <li key={block.title} className={`${cardClass} p-6`}>
                <span className={`inline-flex h-11 w-11 items-center justify-center rounded-xl ${accentFillClass}`}>
                  <Glyph name={block.glyph} />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{block.title}</h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{block.description}</p>
                <ul className="mt-4 space-y-2">
                  {block.points.map((point) => (
                    <li key={point} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-200">
                      <Glyph
                        name="check"
                        size={16}
                        className="mt-0.5 shrink-0 text-emerald-600 dark:text-emerald-400"
                      />
                      {point}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section aria-labelledby="landing-closing-title" className="py-20">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
          <h2 id="landing-closing-title" className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">
            {landingClosing.title}
          </h2>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{landingClosing.lead}</p>
          <Link to={landingHero.to} className={`${primaryButtonClass} mt-8 h-12 px-6 text-base`}>
            Open the ledger workspace
          </Link>
        </div>
      </section>
    </>
  );
}
