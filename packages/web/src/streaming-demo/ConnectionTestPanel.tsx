import { useEffect, useRef, useState } from "react";
import { LIVE_FEED_PATH } from "@fintech/core/events/feed-paths";
import { apiBaseUrl } from "../config";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { useSession } from "../session/hooks";
import {
  CONNECTION_TEST_MESSAGES,
  corsVerdict,
  runConnectionTest,
  type ConnectionTestResult,
  type LogLine,
} from "./connectionTest";
import { apiOrigin } from "./transport";

const LINE_TONES: Record<LogLine["level"], string> = {
  info: "text-slate-700 dark:text-slate-200",
  success: "text-emerald-800 dark:text-emerald-300",
  error: "text-red-700 dark:text-red-300",
};

/**
 * Run Connection Test: a real, timed request to the API's health route and the API's answer to a
 * CORS preflight from this page's origin (connectionTest.ts); Clear Logs empties the log box.
 */
export function ConnectionTestPanel() {
  const token = useSession()?.token ?? null;
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [lines, setLines] = useState<(LogLine & { at: string })[]>([]);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = async () => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setRunning(true);
    try {
      const outcome = await runConnectionTest({
        fetch: (url, init) => globalThis.fetch(url, init),
        now: () => performance.now(),
        signal: current.signal,
        baseUrl: apiBaseUrl,
        pageOrigin: window.location.origin,
        token,
      });
      if (current.signal.aborted) return;
      const at = new Date().toLocaleTimeString([], { hour12: false });
      setResult(outcome);
      setLines((previous) => [...previous, ...outcome.lines.map((line) => ({ ...line, at }))]);
    } finally {
      if (controller.current === current) setRunning(false);
    }
  };

  const health = result?.health?.body ?? null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        <button type="button" className={primaryButtonClass} onClick={() => void run()} disabled={running}>
          {running ? <Spinner label="Testing…" /> : "Run Connection Test"}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => setLines([])}
          disabled={lines.length === 0}
        >
          Clear Logs
        </button>
      </div>

      <section aria-labelledby="connection-status-heading" className={`${cardClass} space-y-2`}>
        <h3 id="connection-status-heading" className={sectionTitleClass}>
          Status
        </h3>
        <div role="status" aria-live="polite" data-testid="connection-test-status">
          {!result ? (
            <p className={subtleTextClass}>Not run yet.</p>
          ) : result.ok ? (
            <p className="font-semibold text-emerald-800 dark:text-emerald-300">
              {CONNECTION_TEST_MESSAGES.passedTitle}
              {result.health ? `: the API answered in ${Math.round(result.health.durationMs)} ms` : ""}
            </p>
          ) : (
            <>
              <p className="font-semibold text-red-700 dark:text-red-300">{CONNECTION_TEST_MESSAGES.failedTitle}</p>
              <p className="text-sm text-red-700 dark:text-red-300">{CONNECTION_TEST_MESSAGES.failed}</p>
            </>
          )}
        </div>
        {result?.cors && (
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]" aria-label="CORS preflight answer">
            <dt className="font-medium text-slate-700 dark:text-slate-200">Origin tested</dt>
            <dd className="break-all font-mono text-slate-900 dark:text-white">{result.cors.origin}</dd>
            <dt className="font-medium text-slate-700 dark:text-slate-200">Access-Control-Allow-Origin</dt>
            <dd className="break-all font-mono text-slate-900 dark:text-white" data-testid="allow-origin">
              {result.cors.allowOrigin ?? "(none)"}
            </dd>
            <dt className="font-medium text-slate-700 dark:text-slate-200">Access-Control-Allow-Methods</dt>
            <dd className="break-all font-mono text-slate-900 dark:text-white" data-testid="allow-methods">
              {result.cors.allowMethods ?? "(none)"}
            </dd>
            <dt className="font-medium text-slate-700 dark:text-slate-200">Access-Control-Allow-Headers</dt>
            <dd className="break-all font-mono text-slate-900 dark:text-white" data-testid="allow-headers">
              {result.cors.allowHeaders ?? "(none)"}
            </dd>
          </dl>
        )}
        {result?.cors && <p className={subtleTextClass}>{corsVerdict(result.cors, apiOrigin())}</p>}
      </section>

      <pre
        role="log"
        aria-label="Connection test log"
        tabIndex={0}
        className="h-48 overflow-y-auto whitespace-pre-wrap break-words rounded-xl border border-slate-200 bg-slate-50 p-3 font-mono text-xs dark:border-slate-800 dark:bg-slate-950"
      >
        {lines.length === 0 ? (
          <span className="text-slate-600 dark:text-slate-300">The log is empty.</span>
        ) : (
          lines.map((line, index) => (
            <span key={index} className={`block ${LINE_TONES[line.level]}`}>
              [{line.at}] {line.text}
            </span>
          ))
        )}
      </pre>

      <section aria-labelledby="server-info-heading" className={`${cardClass} space-y-2`}>
        <h3 id="server-info-heading" className={sectionTitleClass}>
          Server information
        </h3>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-700 dark:text-slate-200">API origin</dt>
          <dd className="break-all font-mono text-slate-900 dark:text-white" data-testid="api-origin">
            {apiOrigin()}
          </dd>
          <dt className="font-medium text-slate-700 dark:text-slate-200">Transport</dt>
          <dd className="text-slate-900 dark:text-white">Server-Sent Events carrying JSON, over HTTPS (no gRPC)</dd>
          <dt className="font-medium text-slate-700 dark:text-slate-200">Stream path</dt>
          <dd className="break-all font-mono text-slate-900 dark:text-white">{LIVE_FEED_PATH}</dd>
          {health && (
            <>
              <dt className="font-medium text-slate-700 dark:text-slate-200">Health</dt>
              <dd className="break-words text-slate-900 dark:text-white">
                {[health.status, health.message].filter((part) => typeof part === "string" && part).join(": ")}
              </dd>
              {typeof health.time === "string" && (
                <>
                  <dt className="font-medium text-slate-700 dark:text-slate-200">Server time</dt>
                  <dd className="font-mono text-slate-900 dark:text-white">{health.time}</dd>
                </>
              )}
              {["version", "stage"].map((field) =>
                typeof health[field] === "string" ? (
                  <div key={field} className="contents">
                    <dt className="font-medium capitalize text-slate-700 dark:text-slate-200">{field}</dt>
                    <dd className="font-mono text-slate-900 dark:text-white">{health[field] as string}</dd>
                  </div>
                ) : null,
              )}
            </>
          )}
        </dl>
      </section>
    </div>
  );
}
