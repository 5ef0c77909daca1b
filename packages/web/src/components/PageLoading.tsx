/** Shown while a screen's code loads (after a short delay, so fast loads do not flash). */
export function PageLoading() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[50vh] animate-appear-late items-center justify-center opacity-0"
    >
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-slate-300 border-t-indigo-600 dark:border-slate-700 dark:border-t-indigo-400" />
      <span className="sr-only">Loading…</span>
    </div>
  );
}
