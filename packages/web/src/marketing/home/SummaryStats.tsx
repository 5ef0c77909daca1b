import { summaryStats } from "../marketingContent";
import { SECTION_IDS } from "./sectionIds";

/** docs/product/marketing-site.md#summary-figures: 14 core domains, 80% test coverage, 3 payment rails, 1-CMD setup. */
export function SummaryStats() {
  return (
    <div id={SECTION_IDS.highlights} className="mt-16 scroll-mt-16">
      <h3 className="sr-only">Platform highlights</h3>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {summaryStats.map((stat) => (
          <div
            key={stat.label}
            className="flex flex-col-reverse rounded-2xl border border-slate-200 bg-gradient-to-br from-white to-indigo-50 p-6 text-center dark:border-slate-800 dark:from-slate-900 dark:to-indigo-950/40"
          >
            <dt className="mt-1 text-sm font-medium text-slate-600 dark:text-slate-300">{stat.label}</dt>
            <dd className="text-3xl font-extrabold tracking-tight text-indigo-700 sm:text-4xl dark:text-indigo-300">
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
