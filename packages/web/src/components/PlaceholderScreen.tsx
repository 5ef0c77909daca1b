import type { ReactNode } from "react";

interface PlaceholderScreenProps {
  title: string;
  /** Name of the issue that brings the real screen, e.g. "ledger workspace". */
  arrivesWith: string;
  children?: ReactNode;
}

/** A titled stand-in for a screen that a later issue builds; that issue replaces its route file. */
export function PlaceholderScreen({ title, arrivesWith, children }: PlaceholderScreenProps) {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h1>
      <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">This screen arrives with the {arrivesWith} issue.</p>
      {children}
    </section>
  );
}
