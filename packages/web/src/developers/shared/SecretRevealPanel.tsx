import { type ReactNode, useEffect, useId, useRef } from "react";
import toast from "react-hot-toast";
import { primaryButtonClass, secondaryButtonClass } from "../../components/styles";

/**
 * A secret shown this once (a new API key, a webhook signing secret): the server keeps no way to
 * show it again. Focus moves here so a screen reader hears the warning before anything else.
 */
export function SecretRevealPanel({
  title,
  warning,
  secret,
  testId,
  copyLabel,
  doneLabel,
  onDone,
  children,
}: {
  title: string;
  warning: string;
  secret: string;
  testId: string;
  copyLabel: string;
  doneLabel: string;
  onDone: () => void;
  /** What to do with the secret (a sample), under the buttons. */
  children?: ReactNode;
}) {
  const titleId = useId();
  const warningId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: secret is the trigger: each new secret takes the focus.
  useEffect(() => headingRef.current?.focus(), [secret]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success("Code copied to clipboard!");
    } catch {
      toast.error("Could not copy; select the secret and copy it");
    }
  };

  return (
    <section
      aria-labelledby={titleId}
      aria-describedby={warningId}
      className="mt-4 rounded-xl border-2 border-amber-500 bg-amber-50 p-4 dark:border-amber-400 dark:bg-amber-950/60"
    >
      <h3
        id={titleId}
        ref={headingRef}
        tabIndex={-1}
        className="font-semibold text-slate-900 outline-none dark:text-white"
      >
        {title}
      </h3>
      <p id={warningId} className="mt-1 text-sm font-semibold text-amber-900 dark:text-amber-200">
        {warning}
      </p>
      <code
        data-testid={testId}
        className="mt-3 block break-all rounded-lg border border-amber-300 bg-white p-3 font-mono text-sm text-slate-900 dark:border-amber-800 dark:bg-slate-950 dark:text-slate-100"
      >
        {secret}
      </code>
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="button" className={primaryButtonClass} onClick={() => void copy()}>
          {copyLabel}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onDone}>
          {doneLabel}
        </button>
      </div>
      {children}
    </section>
  );
}
