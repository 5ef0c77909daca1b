import { useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { useMediaQuery } from "../../components/useMediaQuery";
import { LoadError, Spinner, cardClass, subtleTextClass } from "../../ledger/ui";
import { useSession } from "../../session/hooks";
import type { ResponseTimesReport } from "@fintech/core/metrics/response-times";
import { ComplexityBadge, MethodBadge, StabilityBadge, TimeBadge } from "./Badges";
import type { Category, Endpoint } from "./catalogue";
import { EndpointDetail } from "./EndpointDetail";
import { OPENAPI_DOCUMENT_PATH, useCatalogue, useResponseTimes } from "./hooks";
import { typicalTimeOf } from "./responseTimes";

/** From this width the selected endpoint sits in a sticky column beside the list; below it, under its row. */
const SIDE_PANEL_QUERY = "(min-width: 80rem)";

const sectionId = (category: Category) => `category-${category.slug}`;

/**
 * /developers/api-explorer (docs/product/developer-tools.md#api-explorer), generated from the API's
 * OpenAPI document: the six categories, every endpoint with its badges and typical response time,
 * and for the selected one its request, curl, Try It against the real API, and response.
 */
export function ApiExplorerScreen() {
  const catalogue = useCatalogue();
  const times = useResponseTimes();
  const session = useSession();
  const sidePanel = useMediaQuery(SIDE_PANEL_QUERY);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState("");

  const categories = catalogue.data ?? [];
  const endpoints = categories.flatMap((category) => category.endpoints);
  const selected = endpoints.find((endpoint) => endpoint.key === selectedKey) ?? endpoints[0] ?? null;

  const pickCategory = (category: Category) => {
    const heading = document.getElementById(`${sectionId(category)}-title`);
    heading?.scrollIntoView({ block: "start" });
    // Focus follows, so keyboard and screen-reader users land where the eye does.
    heading?.focus({ preventScroll: true });
  };

  const detail = (endpoint: Endpoint) => (
    <EndpointDetail
      key={endpoint.key}
      endpoint={endpoint}
      time={typicalTimeOf(endpoint, times.data)}
      session={session}
      apiKey={apiKey}
      onApiKeyChange={setApiKey}
    />
  );

  return (
    <div className="mx-auto max-w-[96rem] px-4 py-8 sm:px-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          API Explorer
        </h1>
        <p className={`mt-3 max-w-3xl ${subtleTextClass}`}>
          Every endpoint of the API, read from its live OpenAPI document (
          <a className="font-semibold text-indigo-700 underline dark:text-indigo-300" href={OPENAPI_DOCUMENT_PATH}>
            openapi.json
          </a>
          ). Pick one to see its request, a curl command and its response, and try it against the real API with your
          session or an{" "}
          <Link className="font-semibold text-indigo-700 underline dark:text-indigo-300" to="/developers/api-keys">
            API key
          </Link>
          .
        </p>
      </header>

      {catalogue.isError ? (
        <div className="mt-6">
          <LoadError message="Failed to load the API description." onRetry={() => void catalogue.refetch()} />
        </div>
      ) : catalogue.isPending ? (
        <p className={`mt-6 ${subtleTextClass}`}>
          <Spinner label="Loading the API description…" />
        </p>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[13rem_minmax(0,1fr)] xl:grid-cols-[13rem_minmax(0,1fr)_minmax(0,36rem)]">
          <nav aria-label="API categories" className="min-w-0 lg:sticky lg:top-20 lg:self-start">
            <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">
              Categories
            </h2>
            <ul className="relative mt-2 flex gap-2 overflow-x-auto pb-1 lg:flex-col lg:gap-1 lg:overflow-visible">
              {categories.map((category) => (
                <li key={category.slug} className="shrink-0">
                  <button
                    type="button"
                    onClick={() => pickCategory(category)}
                    className="flex w-full items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-1.5 text-left text-sm font-medium text-slate-800 hover:bg-slate-100 lg:border-0 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
                  >
                    <span>{category.name}</span>
                    <span className="text-xs text-slate-600 dark:text-slate-300">
                      <span aria-hidden="true">{category.endpoints.length}</span>
                      <span className="sr-only">
                        , {category.endpoints.length} {category.endpoints.length === 1 ? "endpoint" : "endpoints"}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>

          <div className="min-w-0 space-y-8">
            {categories.map((category) => (
              <CategorySection
                key={category.slug}
                category={category}
                selectedKey={selected?.key ?? null}
                times={times.data}
                onSelect={setSelectedKey}
                renderDetail={sidePanel ? undefined : detail}
              />
            ))}
          </div>

          {sidePanel && selected && (
            <aside
              aria-label="Selected endpoint"
              className={`${cardClass} xl:sticky xl:top-20 xl:max-h-[calc(100vh-6rem)] xl:self-start xl:overflow-y-auto`}
            >
              {detail(selected)}
            </aside>
          )}
        </div>
      )}
    </div>
  );
}

interface CategorySectionProps {
  category: Category;
  selectedKey: string | null;
  times: ResponseTimesReport | undefined;
  onSelect: (key: string) => void;
  /** Narrow screens: the selected endpoint's detail opens under its row. */
  renderDetail?: (endpoint: Endpoint) => ReactNode;
}

function CategorySection({ category, selectedKey, times, onSelect, renderDetail }: CategorySectionProps) {
  const id = sectionId(category);
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20">
      <h2
        id={`${id}-title`}
        tabIndex={-1}
        className="scroll-mt-20 text-xl font-semibold text-slate-900 outline-none dark:text-white"
      >
        {category.name}
      </h2>
      {category.description && <p className={`mt-1 ${subtleTextClass}`}>{category.description}</p>}
      {category.endpoints.length === 0 ? (
        <p className="mt-3 rounded-xl border border-dashed border-slate-300 p-4 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-200">
          No endpoints in this category yet.
        </p>
      ) : (
        <ul className="mt-3 space-y-2">
          {category.endpoints.map((endpoint) => {
            const selected = endpoint.key === selectedKey;
            return (
              <li key={endpoint.key}>
                <button
                  type="button"
                  aria-pressed={selected}
                  data-endpoint={endpoint.key}
                  onClick={() => onSelect(endpoint.key)}
                  className={`w-full rounded-xl border p-3 text-left transition-colors ${
                    selected
                      ? "border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/50"
                      : "border-slate-200 bg-white hover:border-slate-300 hover:bg-slate-50 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-slate-700 dark:hover:bg-slate-800"
                  }`}
                >
                  <span className="flex flex-wrap items-center gap-2">
                    <MethodBadge method={endpoint.method} />
                    <span className="min-w-0 break-all font-mono text-sm font-semibold text-slate-900 dark:text-white">
                      {endpoint.path}
                    </span>
                  </span>
                  <span className="mt-1 block text-sm text-slate-700 dark:text-slate-200">{endpoint.summary}</span>
                  <span className="mt-2 flex flex-wrap gap-2">
                    <StabilityBadge stability={endpoint.stability} />
                    <ComplexityBadge complexity={endpoint.complexity} />
                    <TimeBadge time={typicalTimeOf(endpoint, times)} compact />
                  </span>
                </button>
                {selected && renderDetail && <div className={`mt-2 ${cardClass}`}>{renderDetail(endpoint)}</div>}
                {selected && !renderDetail && (
                  // The side column comes after every endpoint in tab order: one Tab from the row gets there.
                  <button
                    type="button"
                    onClick={() => document.getElementById(`endpoint-detail-${endpoint.key}`)?.focus()}
                    className="sr-only rounded-lg px-3 py-1.5 text-sm font-semibold text-indigo-700 focus:not-sr-only focus:mt-2 focus:inline-flex focus:ring-2 focus:ring-indigo-600 dark:text-indigo-300"
                  >
                    Go to the details of {endpoint.method} {endpoint.path}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
