import { CodeBlock } from "./CodeBlock";
import { formatMs } from "./responseTimes";
import type { TryItReply } from "./send";

const statusTone = (status: number) =>
  status < 300
    ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
    : status < 500
      ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200"
      : "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200";

/**
 * The real reply of a Try It request (`sequence`: which send of this endpoint it answers, for
 * tests): status, measured time, the useful headers, the body or the first events.
 */
export function LiveReply({ reply, sequence }: { reply: TryItReply; sequence: number }) {
  const body =
    reply.kind === "events"
      ? reply.events
          .map((event) =>
            [event.id !== null ? `id: ${event.id}` : null, `event: ${event.event}`, `data: ${event.data}`]
              .filter(Boolean)
              .join("\n"),
          )
          .join("\n\n")
      : reply.text;
  const timing = reply.kind === "events" ? `${formatMs(reply.durationMs)} to first byte` : formatMs(reply.durationMs);
  return (
    <section aria-label="Live response" data-testid="live-response" data-sequence={sequence} className="space-y-2">
      <p role="status" className="flex flex-wrap items-center gap-2 text-sm text-slate-800 dark:text-slate-100">
        <span
          className={`rounded-full px-2 py-0.5 font-mono text-xs font-bold ${statusTone(reply.status)}`}
          data-testid="live-status"
        >
          {reply.status} {reply.statusText}
        </span>
        <span data-testid="live-time">{timing}</span>
        {reply.headers.map(([name, value]) => (
          <span key={name} className="break-all font-mono text-xs text-slate-600 dark:text-slate-300">
            {name}: {value}
          </span>
        ))}
      </p>
      {reply.kind === "empty" ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No body.</p>
      ) : (
        <CodeBlock
          title={
            reply.kind === "events"
              ? `First ${reply.events.length} ${reply.events.length === 1 ? "event" : "events"}${reply.truncated ? " (stream closed by the explorer)" : ""}`
              : `Response body${reply.truncated ? " (cut)" : ""}`
          }
          code={body || "(no events yet)"}
          copyLabel="Copy live response"
        />
      )}
    </section>
  );
}
