import { Fragment } from "react";
import { Link } from "react-router-dom";
import { CopyButton } from "../explorer/CopyButton";
import {
  environmentPrelude,
  inlineSegments,
  type CodeBlock,
  type CodeLanguage,
  type ContentBlock,
  type DocPage,
} from "./content";

/** How a page renders the shared content blocks (guides, quickstart, examples). */

const LANGUAGE_LABELS: Record<CodeLanguage, string> = {
  shell: "Shell",
  typescript: "TypeScript",
  json: "JSON",
  text: "Text",
  csv: "CSV",
};

// Long identifiers and URLs break anywhere rather than widen a phone screen.
const inlineCodeClass =
  "rounded bg-slate-100 px-1 py-0.5 font-mono [overflow-wrap:anywhere] text-[0.85em] text-slate-900 dark:bg-slate-800 dark:text-slate-100";
const inlineLinkClass =
  "font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200";

/** Paragraph text: `code` and [links](/path); site paths stay in the app, others open as plain links. */
export function InlineText({ text }: { text: string }) {
  return (
    <>
      {inlineSegments(text).map((segment, index) => {
        if (segment.kind === "code")
          return (
            <code key={index} className={inlineCodeClass}>
              {segment.text}
            </code>
          );
        if (segment.kind === "link")
          return segment.href.startsWith("/") ? (
            <Link key={index} to={segment.href} className={inlineLinkClass}>
              {segment.text}
            </Link>
          ) : (
            <a key={index} href={segment.href} className={inlineLinkClass}>
              {segment.text}
            </a>
          );
        return <Fragment key={index}>{segment.text}</Fragment>;
      })}
    </>
  );
}

/** A code block with its language (or caption), a copy button and, for browser-only code, why. */
export function CodeBlockView({
  block,
}: {
  block: Pick<CodeBlock, "language" | "code" | "title" | "notRunnableBecause">;
}) {
  const caption = block.title ?? LANGUAGE_LABELS[block.language];
  return (
    <figure className="my-4 rounded-xl border border-slate-200 dark:border-slate-700" data-language={block.language}>
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-slate-700 dark:border-slate-700 dark:text-slate-300">
        <span>{caption}</span>
        <CopyButton text={block.code} label={`Copy ${caption} code`} />
      </figcaption>
      <pre
        role="group"
        tabIndex={0}
        aria-label={`${caption} code`}
        className="overflow-x-auto rounded-b-xl bg-slate-100 p-3 font-mono text-xs leading-relaxed text-slate-900 dark:bg-slate-950 dark:text-slate-100"
      >
        <code>{block.code}</code>
      </pre>
      {block.notRunnableBecause && (
        <p className="border-t border-slate-200 px-3 py-2 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300">
          Note: {block.notRunnableBecause}
        </p>
      )}
    </figure>
  );
}

const headingClass = {
  2: "mt-8 text-2xl font-bold tracking-tight text-slate-900 dark:text-white",
  3: "mt-8 text-lg font-semibold text-slate-900 dark:text-white",
} as const;

/** Renders blocks; their headings at `headingLevel` (h3 inside a guide section, h2 on a page of its own). */
export function DocBlocks({ blocks, headingLevel }: { blocks: readonly ContentBlock[]; headingLevel: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <>
      {blocks.map((block, index) => {
        switch (block.kind) {
          case "heading":
            return (
              <Heading key={index} id={block.id} className={`${headingClass[headingLevel]} scroll-mt-24`}>
                {block.text}
              </Heading>
            );
          case "paragraph":
            return (
              <p key={index} className="mt-3 leading-7 text-slate-700 dark:text-slate-300">
                <InlineText text={block.text} />
              </p>
            );
          case "list":
            return (
              <ul key={index} className="mt-3 list-disc space-y-2 pl-6 leading-7 text-slate-700 dark:text-slate-300">
                {block.items.map((item) => (
                  <li key={item}>
                    <InlineText text={item} />
                  </li>
                ))}
              </ul>
            );
          case "code":
            return <CodeBlockView key={index} block={block} />;
          default:
            return block satisfies never;
        }
      })}
    </>
  );
}

/** The variables a page's examples read, as the exports to run first. */
export function BeforeYouStart({ page }: { page: Pick<DocPage, "requires"> }) {
  return (
    <div className="mt-4 rounded-xl bg-indigo-50 p-4 dark:bg-indigo-950/40">
      <p className="text-sm font-semibold text-slate-900 dark:text-white">Before you start</p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        The examples read these variables; the shell ones also need <code className={inlineCodeClass}>curl</code> and{" "}
        <code className={inlineCodeClass}>jq</code>.
      </p>
      <CodeBlockView block={{ language: "shell", code: environmentPrelude(page) }} />
    </div>
  );
}
