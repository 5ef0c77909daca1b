import { useId, useState, type FormEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { inputClass, labelClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { checkRouterTestPath } from "./routerTestPath";

/** docs/product/developer-tools.md#router-test: the screens the page jumps to, in the order given there. */
const DESTINATIONS = ["/", "/ledger", "/kyc", "/developers", "/grpc-demo", "/status"] as const;

const cardClass = "rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900";
const cardTitleClass = "text-lg font-semibold text-slate-900 dark:text-white";

function LocationRow({ term, value, testId }: { term: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:gap-4">
      <dt className="text-sm font-medium text-slate-600 sm:w-32 sm:shrink-0 dark:text-slate-300">{term}</dt>
      <dd data-testid={testId} className="break-all font-mono text-sm text-slate-900 dark:text-slate-100">
        {value}
      </dd>
    </div>
  );
}

/** A same-origin path of the visitor's own, checked before navigate() sees it. */
function TryPathForm() {
  const navigate = useNavigate();
  const fieldId = useId();
  const [path, setPath] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkRouterTestPath(path);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setError(null);
    navigate(checked.to);
  };

  return (
    <form onSubmit={submit} noValidate className="mt-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-[12rem] flex-1">
          <label htmlFor={fieldId} className={labelClass}>
            Path
          </label>
          <input
            id={fieldId}
            type="text"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="/router-test?x=1#frag"
            value={path}
            onChange={(event) => {
              setPath(event.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${fieldId}-error` : undefined}
            className={`${inputClass} font-mono`}
          />
        </div>
        <button type="submit" className={primaryButtonClass}>
          Go
        </button>
      </div>
      {error && (
        <p id={`${fieldId}-error`} role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * docs/product/developer-tools.md#router-test: where the router thinks we are, and buttons to move
 * through the SPA's history.
 */
export default function RouterTestPage() {
  const location = useLocation();
  const navigate = useNavigate();

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10 sm:px-6">
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">Router test</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          The client-side router&apos;s view of this page, and buttons to move around the app.
        </p>
      </header>

      <section aria-labelledby="router-location-title" className={cardClass}>
        <h2 id="router-location-title" className={cardTitleClass}>
          Current location
        </h2>
        <dl className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          <LocationRow term="Path" value={location.pathname} testId="location-path" />
          <LocationRow term="Query" value={location.search || "none"} testId="location-query" />
          <LocationRow term="Hash" value={location.hash || "none"} testId="location-hash" />
          <LocationRow term="History key" value={location.key} testId="location-key" />
        </dl>
      </section>

      <section aria-labelledby="router-navigate-title" className={cardClass}>
        <h2 id="router-navigate-title" className={cardTitleClass}>
          Navigate
        </h2>
        <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
          {DESTINATIONS.map((to) => (
            <li key={to}>
              <button type="button" onClick={() => navigate(to)} className={`${secondaryButtonClass} w-full font-mono`}>
                {to}
              </button>
            </li>
          ))}
        </ul>
        <TryPathForm />
      </section>

      <section aria-labelledby="router-history-title" className={cardClass}>
        <h2 id="router-history-title" className={cardTitleClass}>
          History
        </h2>
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" onClick={() => navigate(-1)} className={secondaryButtonClass}>
            Back
          </button>
          <button type="button" onClick={() => navigate(1)} className={secondaryButtonClass}>
            Forward
          </button>
          <button type="button" onClick={() => window.location.reload()} className={secondaryButtonClass}>
            Reload
          </button>
        </div>
      </section>
    </div>
  );
}
