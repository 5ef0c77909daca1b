/**
 * Panels of the portfolio page. They sit over the moving background, so they are nearly opaque:
 * text contrast is decided by the panel, never by whatever shape drifts behind it.
 */
export const cardClass =
  "rounded-2xl border border-slate-200 bg-white/95 p-5 shadow-sm backdrop-blur-sm dark:border-slate-800 dark:bg-slate-900/95";

/** A card with more room, for the page's big blocks (hero, About Me, call to action). */
export const panelClass = `${cardClass} sm:p-8`;

export const sectionTitleClass = "text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white";

export const sectionLeadClass = "mt-2 text-slate-600 dark:text-slate-300";

export const chipClass =
  "inline-flex items-center rounded-full border border-indigo-200 bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-900 dark:border-indigo-400/30 dark:bg-indigo-400/10 dark:text-indigo-100";
