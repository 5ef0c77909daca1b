const PROVIDERS = ["Google", "Facebook", "Apple"] as const;

/** docs/product/session.md#sign-in-dialog: present but disabled, with the tooltip 'Coming soon'. The tooltip sits on a
 * wrapper too, because some browsers show no title for a disabled button. */
export function SocialButtons() {
  return (
    <div>
      <div className="my-4 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
        or continue with
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </div>
      <div className="grid grid-cols-3 gap-2">
        {PROVIDERS.map((provider) => (
          <span key={provider} title="Coming soon" className="block">
            <button
              type="button"
              disabled
              title="Coming soon"
              className="w-full cursor-not-allowed rounded-lg border border-slate-300 px-2 py-2 text-sm font-medium text-slate-600 opacity-70 dark:border-slate-600 dark:text-slate-300"
            >
              {provider}
              <span className="sr-only"> (coming soon)</span>
            </button>
          </span>
        ))}
      </div>
    </div>
  );
}
