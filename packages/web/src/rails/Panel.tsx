import { useId, type ReactNode } from "react";
import { cardClass, sectionTitleClass, subtleTextClass } from "../ledger/ui";

/**
 * The frame every panel of the rails console uses. The panels show real traffic
 * (docs/product/payment-rails.md#console): without traffic they say so plainly in an EmptyState;
 * none shows a sample figure.
 */

/** A titled card of the console. */
export function Panel({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  id?: string;
}) {
  const generated = useId();
  const headingId = id ?? generated;
  return (
    <section aria-labelledby={headingId} className={`${cardClass} min-w-0`}>
      <h2 id={headingId} className={sectionTitleClass}>
        {title}
      </h2>
      {description && <p className={`mt-1 ${subtleTextClass}`}>{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A dashed box saying what will appear here and when. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-4 text-center dark:border-slate-700">
      <p className="font-semibold text-slate-800 dark:text-slate-100">{title}</p>
      {children && <p className={`mt-1 ${subtleTextClass}`}>{children}</p>}
    </div>
  );
}
