import { useEffect, useId, useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { inputClass } from "../../components/styles";
import { scrollToSection } from "../../marketing/scroll";
import { BeforeYouStart, DocBlocks } from "./Blocks";
import { matchesSearch, type DocPage } from "./content";
import { DocsFooter } from "./DocsFooter";
import { guides } from "./guides";

/**
 * /developers/docs (docs/product/developer-tools.md#documentation): guide cards filtered by a
 * search over title and description, then every guide in full under its anchor (#getting-started,
 * #authentication, #ledger, #payments, #realtime), and a footer with developer support and the code
 * repository.
 */
export function DocsScreen() {
  const [query, setQuery] = useState("");
  const shown = guides.filter((guide) => matchesSearch(guide, query));
  useScrollToHash();

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Documentation
        </h1>
        <p className="mt-3 max-w-3xl text-lg text-slate-600 dark:text-slate-300">
          Guides to the API as it is today, with examples you can copy. Every shell and TypeScript example on this page
          is run against the real API by the test suite.
        </p>
      </header>
      <GuideSearch query={query} onQuery={setQuery} shown={shown} />
      {guides.map((guide) => (
        <GuideSection key={guide.id} guide={guide} />
      ))}
      <DocsFooter />
    </div>
  );
}

function GuideSearch({
  query,
  onQuery,
  shown,
}: {
  query: string;
  onQuery: (query: string) => void;
  shown: readonly DocPage[];
}) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="mt-8">
      <h2 id={`${id}-title`} className="text-xl font-semibold text-slate-900 dark:text-white">
        Guides
      </h2>
      <label htmlFor={`${id}-search`} className="mt-3 block text-sm font-medium text-slate-700 dark:text-slate-200">
        Search guides
      </label>
      <input
        id={`${id}-search`}
        type="search"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        placeholder="Title or description, e.g. ledger"
        aria-describedby={`${id}-count`}
        className={`${inputClass} mt-1 max-w-md`}
      />
      <p id={`${id}-count`} role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        {shown.length === 0 ? `No guides match "${query.trim()}".` : `${shown.length} of ${guides.length} guides`}
      </p>
      {shown.length > 0 && (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Guides">
          {shown.map((guide) => (
            <li key={guide.id}>
              <GuideCard guide={guide} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The card's one link stretches over it, so the card is one click target named by its title. */
function GuideCard({ guide }: { guide: DocPage }) {
  return (
    <article className="relative h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm focus-within:ring-2 focus-within:ring-indigo-600 hover:border-indigo-400 dark:border-slate-800 dark:bg-slate-900">
      <span aria-hidden="true" className="text-2xl">
        {guide.icon}
      </span>
      <h3 className="mt-2 font-semibold text-slate-900 dark:text-white">
        <Link to={{ hash: guide.id }} className="outline-none after:absolute after:inset-0 after:content-['']">
          {guide.title}
        </Link>
      </h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{guide.description}</p>
    </article>
  );
}

function GuideSection({ guide }: { guide: DocPage }) {
  return (
    <section
      id={guide.id}
      aria-labelledby={`${guide.id}-title`}
      className="mt-14 scroll-mt-24 border-t border-slate-200 pt-8 dark:border-slate-800"
    >
      <h2
        id={`${guide.id}-title`}
        data-section-focus
        className="text-2xl font-bold tracking-tight text-slate-900 outline-none dark:text-white"
      >
        <span aria-hidden="true">{guide.icon} </span>
        {guide.title}
      </h2>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{guide.description}</p>
      {guide.content.some((block) => block.kind === "code") && <BeforeYouStart page={guide} />}
      <DocBlocks blocks={guide.content} headingLevel={3} />
    </section>
  );
}

/** Opening /developers/docs#ledger (or a card, or a link between guides) brings that guide into view. */
export function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length > 1) scrollToSection(decodeURIComponent(hash.slice(1)));
  }, [hash]);
}
