import { useEffect, useRef } from "react";
import type { DemoStatus } from "./demoEvents";
import { DEMO_TYPE_LABELS, type DemoEntry } from "./demoLog";

const STATUS_TONES: Record<DemoStatus, string> = {
  info: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  success: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  error: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

const timeOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString([], { hour12: false });
};

/**
 * The events that arrived, oldest first (the newest at the bottom, where auto-scroll follows
 * them), each with its stable id, time, demo type, status and the commit-to-arrival latency.
 */
export function EventLog({
  label,
  entries,
  autoScroll,
  showLatency,
  empty,
}: {
  label: string;
  entries: readonly DemoEntry[];
  autoScroll: boolean;
  showLatency: boolean;
  empty: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const newest = entries.at(-1)?.key;
  useEffect(() => {
    if (autoScroll && newest && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [autoScroll, newest]);

  return (
    <div
      ref={box}
      role="log"
      aria-label={label}
      // Scrollable, so keyboard users can reach what scrolled out of view.
      tabIndex={0}
      className="h-96 overflow-y-auto rounded-xl border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-950"
    >
      <ol className="space-y-2">
        {entries.length === 0 ? (
          <li className="text-sm text-slate-600 dark:text-slate-300">{empty}</li>
        ) : (
          entries.map((entry) => (
            <li
              key={entry.key}
              data-event-type={entry.type}
              data-event-status={entry.status}
              data-event-source={entry.source}
              className="min-w-0 rounded-lg border border-slate-200 bg-white p-2 text-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <div className="flex flex-wrap items-center gap-2">
                <time dateTime={entry.receivedAt} className="font-mono text-xs text-slate-600 dark:text-slate-300">
                  {timeOf(entry.receivedAt)}
                </time>
                <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200">
                  {DEMO_TYPE_LABELS[entry.type]}
                </span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONES[entry.status]}`}>
                  {entry.status}
                </span>
                <span className="font-semibold text-slate-900 dark:text-white">{entry.title}</span>
                {showLatency && entry.latencyMs !== null && (
                  <span className="text-xs text-slate-600 dark:text-slate-300">{entry.latencyMs} ms after commit</span>
                )}
              </div>
              {entry.detail && <p className="mt-1 break-words text-slate-700 dark:text-slate-200">{entry.detail}</p>}
              <p className="mt-1 break-all font-mono text-xs text-slate-600 dark:text-slate-300">
                {entry.source} · {entry.id ? <span data-testid="event-id">{entry.id}</span> : "no event id"}
                {entry.paymentId && <> · payment {entry.paymentId}</>}
              </p>
            </li>
          ))
        )}
      </ol>
    </div>
  );
}
