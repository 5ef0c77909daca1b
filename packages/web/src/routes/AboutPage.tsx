import { CallToAction } from "../portfolio/CallToAction";
import { ContactLinks } from "../portfolio/ContactLinks";
import { ExperienceTimeline } from "../portfolio/ExperienceTimeline";
import { PortfolioBackground } from "../portfolio/PortfolioBackground";
import {
  portfolioContact,
  portfolioExperience,
  portfolioPerson,
  portfolioSkills,
  portfolioSnippet,
} from "../portfolio/portfolioSeed";
import { SkillCategories } from "../portfolio/SkillCategories";
import { panelClass, sectionLeadClass, sectionTitleClass } from "../portfolio/styles";
import { TypedSnippet } from "../portfolio/TypedSnippet";

/**
 * The portfolio page (docs/product/portfolio.md#the-page): a hero with the typed snippet and the
 * contact links, About Me, the Professional Journey, Technical Expertise and the closing call to
 * action, over the decorative background. All of its words come from portfolio/portfolioSeed.ts
 * (sample content).
 */
export default function AboutPage() {
  const person = portfolioPerson;
  return (
    <div className="relative isolate">
      <PortfolioBackground />
      <div className="mx-auto flex max-w-6xl flex-col gap-12 px-4 py-10 sm:px-6 sm:py-16">
        <section aria-labelledby="about-title" className="grid items-center gap-8 lg:grid-cols-[1.15fr_1fr]">
          <div className={panelClass}>
            {/* The screen's title (the route's) and the person's name are one heading:
                "About the Creator: Alex Morgan". */}
            <h1 id="about-title" aria-label={`About the Creator: ${person.name}`}>
              <span className="block text-sm font-semibold uppercase tracking-widest text-indigo-700 dark:text-indigo-300">
                About the Creator
              </span>
              <span className="mt-3 block text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
                {person.name}
              </span>
            </h1>
            <p className="mt-3 text-lg font-medium text-slate-800 dark:text-slate-100">{person.role}</p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{person.location}</p>
            <p className="mt-4 text-slate-600 dark:text-slate-300">{person.tagline}</p>
            <ContactLinks contact={portfolioContact} />
          </div>
          <TypedSnippet snippet={portfolioSnippet} fileName="engineer.ts" />
        </section>

        <section aria-labelledby="about-me-title" className={panelClass}>
          <h2 id="about-me-title" className={sectionTitleClass}>
            About Me
          </h2>
          {person.about.map((paragraph) => (
            <p key={paragraph.slice(0, 32)} className={`${sectionLeadClass} leading-relaxed`}>
              {paragraph}
            </p>
          ))}
        </section>

        <section aria-labelledby="journey-title">
          <h2 id="journey-title" className={sectionTitleClass}>
            Professional Journey
          </h2>
          <ExperienceTimeline items={portfolioExperience} />
        </section>

        <section aria-labelledby="expertise-title">
          <h2 id="expertise-title" className={sectionTitleClass}>
            Technical Expertise
          </h2>
          <SkillCategories categories={portfolioSkills} />
        </section>

        <CallToAction contact={portfolioContact} />
      </div>
    </div>
  );
}
