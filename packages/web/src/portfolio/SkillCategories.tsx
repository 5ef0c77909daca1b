import type { SkillCategory } from "./portfolioSeed";
import { cardClass, chipClass } from "./styles";

/**
 * Technical Expertise (docs/product/portfolio.md#technical-expertise): one card per category with
 * its skills as chips.
 */
export function SkillCategories({ categories }: { categories: readonly SkillCategory[] }) {
  return (
    <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="skill-categories">
      {categories.map((category) => {
        const headingId = `skills-${category.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
        return (
          <section key={category.name} aria-labelledby={headingId} className={cardClass}>
            <h3 id={headingId} className="text-base font-semibold text-slate-900 dark:text-white">
              {category.name}
            </h3>
            <ul className="mt-3 flex flex-wrap gap-2">
              {category.skills.map((skill) => (
                <li key={skill} className={chipClass}>
                  {skill}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
