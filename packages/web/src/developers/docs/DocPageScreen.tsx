import { Link } from "react-router-dom";
import { BeforeYouStart, DocBlocks } from "./Blocks";
import type { DocPage } from "./content";
import { useScrollToHash } from "./DocsScreen";

/**
 * A developer page of its own (quickstart, examples): title, a table of contents from its
 * anchored headings, optionally the exports to run first, then the blocks.
 */
export function DocPageScreen({ page, intro, showPrelude }: { page: DocPage; intro: string; showPrelude: boolean }) {
  useScrollToHash();
  const sections = page.content.flatMap((block) =>
    block.kind === "heading" && block.id ? [{ id: block.id, title: block.text }] : [],
  );
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          <span aria-hidden="true">{page.icon} </span>
          {page.title}
        </h1>
        <p className="mt-3 text-lg text-slate-600 dark:text-slate-300">{intro}</p>
      </header>
      {sections.length > 1 && (
        <nav aria-label="On this page" className="mt-6 rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
          <h2 className="text-sm font-semibold text-slate-900 dark:text-white">On this page</h2>
          <ol className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
            {sections.map((section) => (
              <li key={section.id}>
                <Link
                  to={{ hash: section.id }}
                  className="text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                >
                  {section.title}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {showPrelude && <BeforeYouStart page={page} />}
      <DocBlocks blocks={page.content} headingLevel={2} />
    </div>
  );
}
