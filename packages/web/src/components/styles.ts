/** Shared class lists, so every form control and button has the same contrast in both themes. */

export const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 " +
  "focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/30 " +
  "dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:placeholder:text-slate-400 dark:focus:border-indigo-400";

export const labelClass = "mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200";

/**
 * The solid accent fill (primary buttons, selected tabs, avatars, icon chips). Dark theme:
 * indigo-400 under slate-950 text, which clears the 4.5:1 WCAG AA asks of body text (indigo-500
 * falls short).
 */
export const accentFillClass = "bg-indigo-600 text-white dark:bg-indigo-400 dark:text-slate-950";

export const primaryButtonClass =
  `inline-flex items-center justify-center gap-2 rounded-lg ${accentFillClass} px-4 py-2 text-sm font-semibold shadow-sm ` +
  "hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60 dark:hover:bg-indigo-300";

export const secondaryButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 " +
  "hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";

export const linkButtonClass = "font-semibold text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300";

export const iconButtonClass =
  "inline-flex h-9 w-9 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800";
