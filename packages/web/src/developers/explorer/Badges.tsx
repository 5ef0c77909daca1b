import type { Complexity, HttpMethod, Stability } from "./catalogue";
import { typicalTimeLabel, type TypicalTime } from "./responseTimes";

const pill = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold";

const METHOD_TONES: Record<HttpMethod, string> = {
  GET: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  POST: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  PUT: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  PATCH: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  DELETE: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

export function MethodBadge({ method }: { method: HttpMethod }) {
  return (
    <span
      className={`inline-flex w-16 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-xs font-bold ${METHOD_TONES[method]}`}
    >
      {method}
    </span>
  );
}

const STABILITY_TONES: Record<Stability, string> = {
  stable: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  beta: "bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-200",
  deprecated: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

export function StabilityBadge({ stability }: { stability: Stability }) {
  return <span className={`${pill} ${STABILITY_TONES[stability]}`}>{stability}</span>;
}

export function ComplexityBadge({ complexity }: { complexity: Complexity | null }) {
  if (!complexity) return null;
  return (
    <span className={`${pill} bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200`}>
      {complexity} complexity
    </span>
  );
}

export function AuthBadge({ authenticated }: { authenticated: boolean }) {
  return (
    <span className={`${pill} bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200`}>
      {authenticated ? "bearer auth" : "public"}
    </span>
  );
}

/** What an API key needs: a scope, or nothing will do (a session only); nothing shown when any key may call it. */
export function ScopeBadge({ scope, sessionOnly }: { scope: string | null; sessionOnly: boolean }) {
  if (sessionOnly)
    return (
      <span className={`${pill} bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200`}>
        session only: no API keys
      </span>
    );
  if (!scope) return null;
  return (
    <span className={`${pill} bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200`}>
      <span className="sr-only">API key scope: </span>
      <span aria-hidden="true">scope </span>
      <code className="font-mono">{scope}</code>
    </span>
  );
}

/** The typical response time; the default reads as a default, never as a measurement. */
export function TimeBadge({ time, compact = false }: { time: TypicalTime; compact?: boolean }) {
  const label = typicalTimeLabel(time);
  const short = label.replace(/ \(.*\)$/, "");
  return (
    <span
      title={label}
      className={`${pill} ${time.measured ? "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300"}`}
    >
      {compact ? (
        <>
          <span aria-hidden="true">{short}</span>
          <span className="sr-only">{label}</span>
        </>
      ) : (
        label
      )}
    </span>
  );
}
