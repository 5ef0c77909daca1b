import { Fragment } from "react";

/** The document's descriptions use `backticks` for code; everything else is plain text. */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 2 ? (
          <code
            key={index}
            className="rounded bg-slate-100 px-1 font-mono [overflow-wrap:anywhere] text-[0.85em] text-slate-900 dark:bg-slate-800 dark:text-slate-100"
          >
            {part.slice(1, -1)}
          </code>
        ) : (
          <Fragment key={index}>{part.replace(/\*\*/g, "")}</Fragment>
        ),
      )}
    </>
  );
}
