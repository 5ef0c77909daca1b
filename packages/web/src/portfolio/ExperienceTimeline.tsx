import { Glyph } from "../marketing/art/glyphs";
import { cardClass } from "./styles";
import type { ExperienceItem } from "./portfolioSeed";
import { timelineSide } from "./timeline";

/**
 * Professional Journey (docs/product/portfolio.md#professional-journey): the jobs on a vertical
 * line, alternating left and right by index from 768 px up; on a phone every card sits right of the
 * line, in the same order.
 */
export function ExperienceTimeline({ items }: { items: readonly ExperienceItem[] }) {
  return (
    <div className="relative mt-8">
      <div
        aria-hidden="true"
        className="absolute bottom-0 left-5 top-0 w-0.5 -translate-x-1/2 bg-indigo-200 md:left-1/2 dark:bg-indigo-400/30"
      />
      <ol className="relative flex flex-col gap-8" data-testid="experience-timeline">
        {items.map((item, index) => {
          const side = timelineSide(index);
          return (
            <li
              key={`${item.company}-${item.duration}`}
              data-side={side}
              className={`relative pl-14 md:w-1/2 md:pl-0 ${side === "left" ? "md:pr-12" : "md:ml-auto md:pl-12"}`}
            >
              <span
                aria-hidden="true"
                className={`absolute left-0 top-4 inline-flex h-10 w-10 items-center justify-center rounded-full border-2 border-indigo-300 bg-white text-indigo-700 md:top-5 dark:border-indigo-400/60 dark:bg-slate-900 dark:text-indigo-200 ${
                  side === "left" ? "md:left-auto md:-right-5" : "md:-left-5"
                }`}
              >
                <Glyph name={item.icon} size={20} />
              </span>
              <article className={cardClass}>
                <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">{item.duration}</p>
                <h3 className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">{item.title}</h3>
                <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{item.company}</p>
                <p className="mt-3 text-sm leading-relaxed text-slate-600 dark:text-slate-300">{item.description}</p>
              </article>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
