import { SOURCE_REPOSITORY_URL } from "./support";

const linkClass =
  "font-semibold text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200";

/**
 * The page's closing section: developer support and the public code repository
 * (docs/product/developer-tools.md#documentation).
 */
export function DocsFooter() {
  return (
    <section
      aria-labelledby="docs-support-title"
      className="mt-16 rounded-2xl border border-slate-200 bg-slate-50 p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="docs-support-title" className="font-semibold text-slate-900 dark:text-white">
        Developer support
      </h2>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Stuck, or found a mistake in a guide? Every reply of the API carries an{" "}
        <code className="font-mono">X-Request-Id</code> header: quote it, with the request you sent (never your API
        key), and we can find that request in the logs.
      </p>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {SOURCE_REPOSITORY_URL ? (
          <>
            The code of the platform, these guides and the SDK is in{" "}
            <a href={SOURCE_REPOSITORY_URL} className={linkClass} rel="noopener noreferrer">
              the code repository
            </a>
            , where you can also open an issue.
          </>
        ) : (
          <>
            A link to the public code repository (the platform, these guides and the SDK) will appear here once it is
            published.
          </>
        )}
      </p>
    </section>
  );
}
