import type { Tone } from "./view";

/** Colour sets per tone, checked for contrast in both themes (text on its own background ≥ 4.5:1). */
export const TONE_CLASSES: Record<Tone, { panel: string; pill: string; dot: string; icon: string; text: string }> = {
  ok: {
    panel:
      "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-50",
    pill: "bg-emerald-100 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-900/60 dark:text-emerald-200 dark:ring-emerald-400/30",
    dot: "bg-emerald-500",
    icon: "text-emerald-700 dark:text-emerald-300",
    text: "text-emerald-700 dark:text-emerald-300",
  },
  degraded: {
    panel: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-50",
    pill: "bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/60 dark:text-amber-100 dark:ring-amber-400/30",
    dot: "bg-amber-500",
    icon: "text-amber-700 dark:text-amber-300",
    text: "text-amber-800 dark:text-amber-300",
  },
  down: {
    panel: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950/50 dark:text-red-50",
    pill: "bg-red-100 text-red-800 ring-red-600/20 dark:bg-red-900/60 dark:text-red-100 dark:ring-red-400/30",
    dot: "bg-red-500",
    icon: "text-red-700 dark:text-red-300",
    text: "text-red-700 dark:text-red-300",
  },
  pending: {
    panel: "border-slate-300 bg-slate-50 text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
    pill: "bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-400/30",
    dot: "bg-slate-400",
    icon: "text-slate-600 dark:text-slate-300",
    text: "text-slate-600 dark:text-slate-300",
  },
};

export const cardClass =
  "rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900";
