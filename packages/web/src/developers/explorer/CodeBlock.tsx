import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";

/** A titled, scrollable (and so focusable) code block with a copy button. */
export function CodeBlock({
  title,
  code,
  copyLabel,
  children,
}: {
  title: string;
  code: string;
  copyLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="rounded-xl border border-slate-200 dark:border-slate-700">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1 dark:border-slate-700">
        <h4 className="text-sm font-semibold text-slate-800 dark:text-slate-100">{title}</h4>
        <CopyButton text={code} label={copyLabel} />
      </div>
      {children}
      <pre
        role="group"
        tabIndex={0}
        aria-label={title}
        className="max-h-80 overflow-auto rounded-b-xl bg-slate-100 p-3 font-mono text-xs leading-relaxed text-slate-900 dark:bg-slate-950 dark:text-slate-100"
      >
        {code}
      </pre>
    </div>
  );
}
