import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import type { CreatedApiKey } from "../../api/apiKeys";
import { primaryButtonClass, secondaryButtonClass } from "../../components/styles";

/**
 * The new key's secret, shown this once: the server keeps only a hash, so it cannot be shown
 * again. Focus moves here so a screen reader hears the warning before anything else.
 */
export function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: created.id is the trigger: each new key takes the focus.
  useEffect(() => headingRef.current?.focus(), [created.id]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success("Code copied to clipboard!");
    } catch {
      toast.error("Could not copy; select the key and copy it");
    }
  };

  return (
    <section
      aria-labelledby="new-api-key-title"
      aria-describedby="new-api-key-warning"
      className="mt-4 rounded-xl border-2 border-amber-500 bg-amber-50 p-4 dark:border-amber-400 dark:bg-amber-950/60"
    >
      <h3
        id="new-api-key-title"
        ref={headingRef}
        tabIndex={-1}
        className="font-semibold text-slate-900 outline-none dark:text-white"
      >
        Your new key: {created.name}
      </h3>
      <p id="new-api-key-warning" className="mt-1 text-sm font-semibold text-amber-900 dark:text-amber-200">
        Copy this key now. You won&apos;t see it again.
      </p>
      <code
        data-testid="new-api-key"
        className="mt-3 block break-all rounded-lg border border-amber-300 bg-white p-3 font-mono text-sm text-slate-900 dark:border-amber-800 dark:bg-slate-950 dark:text-slate-100"
      >
        {created.key}
      </code>
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="button" className={primaryButtonClass} onClick={() => void copy()}>
          Copy key
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
    </section>
  );
}
