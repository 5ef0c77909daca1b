/** Shared building blocks of the marketing sections, so headings and cards look the same everywhere. */

export const sectionClass = "scroll-mt-16";
export const containerClass = "mx-auto max-w-7xl px-4 sm:px-6";

export const cardClass =
  "rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900";

/** Small "Sample data" marker for figures that are not live (docs/product/marketing-site.md#claims-and-sample-data). */
export function SampleBadge() {
  return (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-400/15 dark:text-amber-200">
      Sample data
    </span>
  );
}

/** Marks a demo whose screen is still a coming-soon preview (routeTable `live` is false). */
export function ComingSoonBadge({ className = "" }: { className?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900 dark:bg-sky-400/15 dark:text-sky-200 ${className}`}
    >
      Coming soon
    </span>
  );
}

interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  title: string;
  lead?: string;
  align?: "center" | "left";
}

/** Eyebrow, h2 and lead. The h2 takes focus when a button scrolls to its section. */
export function SectionHeading({ id, eyebrow, title, lead, align = "center" }: SectionHeadingProps) {
  const centered = align === "center";
  return (
    <div className={centered ? "mx-auto max-w-3xl text-center" : "max-w-3xl"}>
      <p className="text-sm font-semibold uppercase tracking-widest text-indigo-700 dark:text-indigo-300">{eyebrow}</p>
      <h2
        id={id}
        data-section-focus
        tabIndex={-1}
        className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white"
      >
        {title}
      </h2>
      {lead && <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{lead}</p>}
    </div>
  );
}
