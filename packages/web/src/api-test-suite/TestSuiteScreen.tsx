import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { PAYMENT_REST_FEED_PATH } from "@fintech/core/events/feed-paths";
import { api } from "../api";
import { useAuthModal } from "../auth/authModalContext";
import { apiBaseUrl } from "../config";
import { sendTryIt } from "../developers/explorer/send";
import {
  inputClass,
  labelClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "../components/styles";
import { cardClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import { randomId } from "../lib/uuid";
import { planTestPayment } from "../payments/testPayment";
import { useSession } from "../session/hooks";
import { apiOrigin } from "../streaming-demo/transport";
import { initialResults, runSuite, type ProfileDetails, type TestResult, type TestState } from "./suite";

/** The disconnected notice, word for word (docs/product/developer-tools.md#streaming-demo-and-test-suite). */
export const DISCONNECTED_NOTICE = "Unable to connect to the backend server.";

const STATE_TEXT: Record<TestState, string> = {
  pending: "Not run",
  running: "Running…",
  passed: "Passed",
  failed: "Failed",
  "needs-session": "Needs a session",
  "not-run": "Not run",
};
const STATE_TONES: Record<TestState, string> = {
  pending: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  running: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  passed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  "needs-session": "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  "not-run": "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
};

/** GET /health, public: the connection status (any reply with a JSON report means the server is there). */
function useBackendStatus() {
  return useQuery({
    queryKey: ["api-test-suite", "health"],
    queryFn: ({ signal }) => api.health.getHealth(signal),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/**
 * /grpc-test (docs/webhooks.md#the-streaming-demo-and-the-test-suite): the connection to the API
 * with Refresh, and Run All Tests: real requests as the signed-in user, in order, each with its
 * status, time and reply (suite.ts). Signed out, the health check runs and the rest say they need a
 * session, with a way to sign in.
 */
export function TestSuiteScreen() {
  const session = useSession();
  const signedIn = session !== null;
  const { openAuthModal } = useAuthModal();
  const backend = useBackendStatus();
  const [results, setResults] = useState<TestResult[]>(() => initialResults(signedIn));
  const [running, setRunning] = useState(false);
  const [summary, setSummary] = useState<string | null>(null);
  const [profile, setProfile] = useState<ProfileDetails>(() => ({
    name: session ? `${session.user.firstName} ${session.user.lastName}`.trim() : "",
    email: session?.user.email ?? "",
    phone: "",
    country: "US",
  }));
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  // Signing in or out changes which tests can run: the last run's results were someone else's.
  const shownFor = useRef(signedIn);
  useEffect(() => {
    if (shownFor.current === signedIn) return;
    shownFor.current = signedIn;
    controller.current?.abort();
    setResults(initialResults(signedIn));
    setSummary(null);
    if (session)
      setProfile((current) => ({
        ...current,
        name: current.name || `${session.user.firstName} ${session.user.lastName}`.trim(),
        email: current.email || session.user.email,
      }));
  }, [signedIn, session]);

  const runAll = async () => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setRunning(true);
    setSummary(null);
    setResults(initialResults(signedIn));
    try {
      const final = await runSuite({
        send: (request, options) =>
          sendTryIt(request, {
            fetch: (url, init) => globalThis.fetch(url, init),
            now: () => performance.now(),
            signal: current.signal,
            ...options,
          }),
        baseUrl: apiBaseUrl,
        token: session?.token ?? null,
        user: session ? { id: session.user.id, name: profile.name, email: profile.email } : null,
        profile,
        planPayment: async () => planTestPayment(await api.ledger.listAccounts()),
        newIdempotencyKey: randomId,
        onResult: (result) => {
          if (!current.signal.aborted)
            setResults((previous) => previous.map((entry) => (entry.id === result.id ? result : entry)));
        },
      });
      if (current.signal.aborted) return;
      const passed = final.filter((result) => result.state === "passed").length;
      const failed = final.filter((result) => result.state === "failed").length;
      setSummary(
        failed > 0
          ? `Test suite failed: ${failed} of ${final.length} failed, ${passed} passed.`
          : `${passed} of ${final.length} tests passed${passed < final.length ? "; the others did not run" : ""}.`,
      );
      void backend.refetch();
    } finally {
      if (controller.current === current) setRunning(false);
    }
  };

  const connected = backend.data !== undefined && backend.data.status !== "error";
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-2">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">API Test Suite</h1>
        <p className={`max-w-3xl ${subtleTextClass}`}>
          Run All Tests makes real requests to this platform's API as you, in order, and shows each reply. It creates
          your KYC profile if you have none (starting your verification) and sends a real test payment between two of
          your own accounts.
        </p>
      </header>

      <section aria-labelledby="suite-connection-heading" className={`${cardClass} space-y-3`}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="suite-connection-heading" className={sectionTitleClass}>
            Connection status
          </h2>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => void backend.refetch()}
            disabled={backend.isFetching}
          >
            {backend.isFetching ? <Spinner label="Checking…" /> : "Refresh"}
          </button>
        </div>
        <div role="status" aria-live="polite">
          {backend.isPending ? (
            <p className={subtleTextClass}>Checking the connection…</p>
          ) : connected ? (
            <p className="font-semibold text-emerald-800 dark:text-emerald-300">
              Connected: the API answered {backend.data?.status}
              {backend.data?.message ? ` (${backend.data.message})` : ""}.
            </p>
          ) : (
            <p className="font-semibold text-red-700 dark:text-red-300">{DISCONNECTED_NOTICE}</p>
          )}
        </div>
        <div className="rounded-xl bg-slate-50 p-4 text-sm text-slate-700 dark:bg-slate-950 dark:text-slate-200">
          <p>
            The API answers at <code className="break-all font-mono">{apiOrigin()}</code> (health:{" "}
            <code className="font-mono">/health</code>). Its streams are Server-Sent Events carrying JSON on the same
            origin; the payment stream is <code className="break-all font-mono">{PAYMENT_REST_FEED_PATH}</code>. Run
            locally with <code className="font-mono">npm start</code>, which serves the API and this app on one port.
          </p>
        </div>
      </section>

      <section aria-labelledby="suite-run-heading" className={`${cardClass} space-y-4`}>
        <h2 id="suite-run-heading" className={sectionTitleClass}>
          Tests
        </h2>
        {signedIn ? (
          <fieldset className="grid gap-3 sm:grid-cols-2" disabled={running}>
            <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">
              Your details for the KYC profile
            </legend>
            <ProfileField
              id="suite-name"
              label="Name"
              value={profile.name}
              autoComplete="name"
              onChange={(name) => setProfile({ ...profile, name })}
            />
            <ProfileField
              id="suite-email"
              label="Email"
              type="email"
              value={profile.email}
              autoComplete="email"
              onChange={(email) => setProfile({ ...profile, email })}
            />
            <ProfileField
              id="suite-phone"
              label="Phone"
              type="tel"
              value={profile.phone}
              autoComplete="tel"
              onChange={(phone) => setProfile({ ...profile, phone })}
            />
            <ProfileField
              id="suite-country"
              label="Country (ISO code)"
              value={profile.country}
              autoComplete="country"
              onChange={(country) => setProfile({ ...profile, country })}
            />
          </fieldset>
        ) : (
          <div className="flex flex-wrap items-center gap-3 rounded-xl bg-indigo-50 p-4 dark:bg-indigo-950/50">
            <p className="text-sm text-slate-800 dark:text-slate-100">
              Signed out, only the health check runs: the KYC, payment and stream tests act as you and need a session.
            </p>
            <button type="button" className={primaryButtonClass} onClick={() => openAuthModal("login")}>
              Sign In
            </button>
          </div>
        )}
        <button type="button" className={primaryButtonClass} onClick={() => void runAll()} disabled={running}>
          {running ? <Spinner label="Running…" /> : "Run All Tests"}
        </button>
        <p role="status" aria-live="polite" className="text-sm font-semibold text-slate-900 dark:text-white">
          {summary}
        </p>
        <ol className="space-y-3" aria-label="Test results">
          {results.map((result) => (
            <ResultItem key={result.id} result={result} onSignIn={() => openAuthModal("login")} />
          ))}
        </ol>
      </section>
    </div>
  );
}

function ProfileField({
  id,
  label,
  value,
  onChange,
  type = "text",
  autoComplete,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  autoComplete: string;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        maxLength={254}
        onChange={(event) => onChange(event.target.value)}
        className={inputClass}
      />
    </div>
  );
}

function ResultItem({ result, onSignIn }: { result: TestResult; onSignIn: () => void }) {
  return (
    <li
      className="min-w-0 rounded-xl border border-slate-200 p-3 dark:border-slate-800"
      data-test-id={result.id}
      data-test-state={result.state}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${STATE_TONES[result.state]}`}>
          {STATE_TEXT[result.state]}
        </span>
        <span className="font-semibold text-slate-900 dark:text-white">{result.name}</span>
        <code className="break-all font-mono text-xs text-slate-600 dark:text-slate-300">{result.path}</code>
        {result.status !== null && (
          <span className="font-mono text-xs text-slate-700 dark:text-slate-200" data-testid="result-status">
            HTTP {result.status}
          </span>
        )}
        {result.durationMs !== null && (
          <span className="text-xs text-slate-700 dark:text-slate-200" data-testid="result-duration">
            {result.durationMs} ms
          </span>
        )}
      </div>
      {result.message && (
        <p
          className={`mt-1 break-words text-sm ${result.state === "failed" ? "text-red-700 dark:text-red-300" : "text-slate-700 dark:text-slate-200"}`}
        >
          {result.message}{" "}
          {result.help && (
            <Link to={result.help.to} className={linkButtonClass}>
              {result.help.label}
            </Link>
          )}
          {result.state === "needs-session" && (
            <button type="button" className={linkButtonClass} onClick={onSignIn}>
              Sign In
            </button>
          )}
        </p>
      )}
      {result.data && (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-semibold text-indigo-700 dark:text-indigo-300">
            Response data
          </summary>
          <pre
            // A long reply scrolls in its own box; keyboard users can reach it.
            tabIndex={0}
            className="mt-2 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-800 dark:bg-slate-950 dark:text-slate-100"
          >
            {result.data}
          </pre>
        </details>
      )}
    </li>
  );
}
