import type { ConnectionStatus } from "../../live/feedState";

export const CONNECTION_LABELS: Record<ConnectionStatus, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
};

const DOT_CLASS: Record<ConnectionStatus, string> = {
  connecting: "bg-amber-500",
  live: "bg-emerald-500",
  reconnecting: "bg-amber-500 motion-safe:animate-pulse",
  offline: "bg-slate-400",
};

/**
 * The live-updates state beside the workspace header. A polite status region: a screen reader
 * hears "Reconnecting…" or "Live" when it changes, without interrupting. The dot is decoration;
 * the word carries the meaning, so colour is never the only cue.
 */
export function LiveIndicator({ status }: { status: ConnectionStatus }) {
  const label = CONNECTION_LABELS[status];
  return (
    <p
      role="status"
      aria-live="polite"
      aria-label={`Live updates: ${label}`}
      data-status={status}
      className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1.5 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200"
    >
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${DOT_CLASS[status]}`} />
      {label}
    </p>
  );
}
