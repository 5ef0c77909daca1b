import type { ReactNode } from "react";

export type ChipTone = "success" | "warning" | "danger" | "neutral";

const TONES: Record<ChipTone, string> = {
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  danger: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  neutral: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
};

/** A status in a coloured pill; the words carry the meaning, the colour only repeats it. */
export function Chip({ tone, children }: { tone: ChipTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex max-w-full items-center rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
