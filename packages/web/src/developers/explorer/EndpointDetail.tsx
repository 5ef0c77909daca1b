import { useEffect, useMemo, useRef, useState } from "react";
import { inputClass, labelClass, primaryButtonClass } from "../../components/styles";
import { apiBaseUrl } from "../../config";
import { errorTextClass, Spinner, subtleTextClass } from "../../ledger/ui";
import { useLedgerAccounts } from "../../ledger/hooks";
import { randomId } from "../../lib/uuid";
import type { Session } from "../../session/credentials";
import { AuthBadge, ComplexityBadge, MethodBadge, ScopeBadge, StabilityBadge, TimeBadge } from "./Badges";
import type { Endpoint, EndpointParameter } from "./catalogue";
import { CodeBlock } from "./CodeBlock";
import { CopyButton } from "./CopyButton";
import { explorerCurl, API_KEY_VARIABLE } from "./curl";
import { InlineText } from "./InlineText";
import {
  emptyIdFields,
  initialDraft,
  isSampleId,
  prettyJson,
  requestBody,
  requestHeaders,
  requestTarget,
  SAMPLE_ID_HINT,
  withCallerIds,
  type RequestDraft,
} from "./request";
import type { TypicalTime } from "./responseTimes";
import { LiveReply } from "./LiveReply";
import { sendTryIt, type TryItReply } from "./send";

export type AuthMode = "none" | "session" | "key";

interface EndpointDetailProps {
  endpoint: Endpoint;
  time: TypicalTime;
  session: Session | null;
  /** A pasted API key: page state only, never stored. */
  apiKey: string;
  onApiKeyChange: (key: string) => void;
}

const curlBaseUrl = () => apiBaseUrl || window.location.origin;

function defaultAuth(endpoint: Endpoint, session: Session | null): AuthMode {
  if (!endpoint.authenticated) return "none";
  return session ? "session" : "key";
}

/**
 * The selected endpoint: what it is, its request (editable, prefilled from the document's
 * examples), the curl for that request, Try It, and its response (the example, and the live one
 * once sent). Mounted per endpoint (keyed by the screen), so selecting another starts afresh.
 */
export function EndpointDetail({ endpoint, time, session, apiKey, onApiKeyChange }: EndpointDetailProps) {
  const accounts = useLedgerAccounts();
  const accountIds = useMemo(() => accounts.data?.map((account) => account.id), [accounts.data]);
  const [draft, setDraft] = useState<RequestDraft>(() =>
    initialDraft(endpoint, { userId: session?.user.id, accountIds, newIdempotencyKey: randomId }),
  );
  // The caller's accounts usually load after the endpoint opens: their ids fill the fields still empty.
  useEffect(() => {
    if (accountIds) setDraft((current) => withCallerIds(endpoint, current, { userId: session?.user.id, accountIds }));
  }, [endpoint, accountIds, session?.user.id]);
  const unfilledBodyIds = emptyIdFields(endpoint, draft.body);
  const [auth, setAuth] = useState<AuthMode>(() => defaultAuth(endpoint, session));
  const [reply, setReply] = useState<{ result: TryItReply; sequence: number } | null>(null);
  const sends = useRef(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);
  // Signed out while "session" was chosen: fall back to what still works.
  const effectiveAuth: AuthMode = auth === "session" && !session ? defaultAuth(endpoint, null) : auth;

  const curl = useMemo(() => explorerCurl(endpoint, draft, curlBaseUrl()), [endpoint, draft]);
  const headingId = `endpoint-detail-${endpoint.key}`;
  const field = (where: "path" | "query" | "headers", name: string) => `tryit-${endpoint.key}-${where}-${name}`;

  const send = async () => {
    setProblem(null);
    const target = requestTarget(endpoint, draft);
    if (!target.ok) return setProblem(target.message);
    const body = requestBody(endpoint, draft);
    if (!body.ok) return setProblem(body.message);
    const headers = requestHeaders(draft);
    if (effectiveAuth === "session" && session) headers.Authorization = `Bearer ${session.token}`;
    if (effectiveAuth === "key") {
      if (!apiKey.trim()) return setProblem("Paste an API key, or choose another way to authenticate");
      headers.Authorization = `Bearer ${apiKey.trim()}`;
    }
    inFlight.current?.abort();
    // The last reply goes as this request leaves: what shows is never an older request's answer.
    setReply(null);
    const sequence = ++sends.current;
    const controller = new AbortController();
    inFlight.current = controller;
    setSending(true);
    try {
      const result = await sendTryIt(
        {
          method: endpoint.method,
          url: `${apiBaseUrl}${target.value}`,
          headers,
          body: body.value,
          streaming: endpoint.streaming,
        },
        { fetch: (url, init) => globalThis.fetch(url, init), now: () => performance.now(), signal: controller.signal },
      );
      if (!controller.signal.aborted) setReply({ result, sequence });
    } catch (error) {
      if (!controller.signal.aborted)
        setProblem(`The request failed before a reply: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setSending(false);
      }
    }
  };

  const parameterInput = (parameter: EndpointParameter) => {
    const where = parameter.in === "header" ? "headers" : parameter.in;
    const id = field(where, parameter.name);
    const value = draft[where][parameter.name] ?? "";
    const needsOwnId = value === "" && isSampleId(parameter.example);
    return (
      <div key={id}>
        <label htmlFor={id} className={labelClass}>
          <span className="font-mono">{parameter.name}</span>{" "}
          <span className="font-normal text-slate-600 dark:text-slate-300">
            ({parameter.in}
            {parameter.required ? ", required" : ""})
          </span>
        </label>
        <input
          id={id}
          className={`${inputClass} font-mono`}
          value={value}
          placeholder={parameter.example}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={
            [parameter.description ? `${id}-hint` : "", needsOwnId ? `${id}-own` : ""].filter(Boolean).join(" ") ||
            undefined
          }
          onChange={(event) =>
            setDraft((current) => ({
              ...current,
              [where]: { ...current[where], [parameter.name]: event.target.value },
            }))
          }
        />
        {parameter.description && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            <InlineText text={parameter.description} />
          </p>
        )}
        {needsOwnId && (
          <p id={`${id}-own`} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            {SAMPLE_ID_HINT}
          </p>
        )}
      </div>
    );
  };

  const authChoices: { value: AuthMode; label: string; disabled?: boolean }[] = [
    { value: "none", label: endpoint.authenticated ? "None (expect a 401)" : "None (public endpoint)" },
    {
      value: "session",
      label: session ? `My session (${session.user.email})` : "My session (sign in first)",
      disabled: !session,
    },
    { value: "key", label: "An API key" },
  ];

  return (
    <article aria-labelledby={headingId} className="space-y-5">
      <header>
        <h3
          id={headingId}
          tabIndex={-1}
          className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900 outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 dark:text-white"
        >
          <MethodBadge method={endpoint.method} />
          <span className="break-all font-mono">{endpoint.path}</span>
        </h3>
        <p className="mt-1 font-medium text-slate-800 dark:text-slate-100">{endpoint.summary}</p>
        <div className="mt-2 flex flex-wrap gap-2">
          <StabilityBadge stability={endpoint.stability} />
          <ComplexityBadge complexity={endpoint.complexity} />
          <AuthBadge authenticated={endpoint.authenticated} />
          {endpoint.authenticated && <ScopeBadge scope={endpoint.scope} sessionOnly={endpoint.sessionOnly} />}
          <TimeBadge time={time} />
        </div>
        <p className={`mt-3 ${subtleTextClass}`}>
          <InlineText text={endpoint.description} />
        </p>
        {endpoint.streaming && endpoint.sseEvents.length > 0 && (
          <p className={`mt-2 ${subtleTextClass}`}>
            Events: <InlineText text={endpoint.sseEvents.map((name) => `\`${name}\``).join(", ")} />
          </p>
        )}
      </header>

      <section aria-label="Request" className="space-y-3">
        {endpoint.parameters.length > 0 && (
          <div className="grid gap-3 sm:grid-cols-2">{endpoint.parameters.map(parameterInput)}</div>
        )}
        {endpoint.hasRequestBody && (
          <div className="rounded-xl border border-slate-200 dark:border-slate-700">
            <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1 dark:border-slate-700">
              <label
                htmlFor={`tryit-${endpoint.key}-body`}
                className="text-sm font-semibold text-slate-800 dark:text-slate-100"
              >
                Request body (JSON)
              </label>
              <CopyButton text={draft.body} label="Copy request body" />
            </div>
            <textarea
              id={`tryit-${endpoint.key}-body`}
              aria-describedby={unfilledBodyIds.length > 0 ? `tryit-${endpoint.key}-body-ids` : undefined}
              value={draft.body}
              rows={Math.min(14, Math.max(4, draft.body.split("\n").length + 1))}
              spellCheck={false}
              onChange={(event) => setDraft((current) => ({ ...current, body: event.target.value }))}
              className="block w-full resize-y rounded-b-xl border-0 bg-slate-100 p-3 font-mono text-xs leading-relaxed text-slate-900 focus:outline-none focus:ring-2 focus:ring-inset focus:ring-indigo-600 dark:bg-slate-950 dark:text-slate-100"
            />
            {unfilledBodyIds.length > 0 && (
              <p
                id={`tryit-${endpoint.key}-body-ids`}
                className="border-t border-slate-200 px-3 py-2 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300"
              >
                Fill in your own <span className="font-mono">{unfilledBodyIds.join(", ")}</span>: the document's sample
                ids belong to nobody and would answer 404.
                {!session && " Signed in, your own accounts fill them."}
              </p>
            )}
          </div>
        )}
        <CodeBlock title="curl" code={curl} copyLabel="Copy curl command">
          {endpoint.authenticated && (
            <p className="px-3 pt-2 text-xs text-slate-600 dark:text-slate-300">
              Set <code className="font-mono">{API_KEY_VARIABLE}</code> to one of your API keys first (Developers › API
              keys).
            </p>
          )}
        </CodeBlock>
      </section>

      <section
        aria-labelledby={`${headingId}-try`}
        className="space-y-3 rounded-xl border border-indigo-200 p-4 dark:border-indigo-900"
      >
        <h4 id={`${headingId}-try`} className="text-sm font-semibold text-slate-900 dark:text-white">
          Try it
        </h4>
        <fieldset>
          <legend className={labelClass}>Authentication</legend>
          <div className="flex flex-col gap-1">
            {authChoices.map((choice) => (
              <label
                key={choice.value}
                className={`flex items-center gap-2 text-sm ${choice.disabled ? "text-slate-500 dark:text-slate-400" : "text-slate-800 dark:text-slate-100"}`}
              >
                <input
                  type="radio"
                  name={`tryit-${endpoint.key}-auth`}
                  value={choice.value}
                  checked={effectiveAuth === choice.value}
                  disabled={choice.disabled}
                  onChange={() => setAuth(choice.value)}
                  className="h-4 w-4 accent-indigo-600 dark:accent-indigo-400"
                />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
        {effectiveAuth === "key" && (
          <div>
            <label htmlFor={`tryit-${endpoint.key}-key`} className={labelClass}>
              API key
            </label>
            <input
              id={`tryit-${endpoint.key}-key`}
              type="password"
              autoComplete="off"
              data-1p-ignore
              data-lpignore="true"
              spellCheck={false}
              className={`${inputClass} font-mono`}
              placeholder="fpk_…"
              value={apiKey}
              aria-describedby={`tryit-${endpoint.key}-key-hint`}
              onChange={(event) => onApiKeyChange(event.target.value)}
            />
            <p id={`tryit-${endpoint.key}-key-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
              Kept only while this page is open; never saved.
            </p>
          </div>
        )}
        {endpoint.idempotent && (
          <p className="text-xs text-slate-600 dark:text-slate-300">
            The same Idempotency-Key with the same body replays the first reply; change the key for a new write.
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={primaryButtonClass} disabled={sending} onClick={() => void send()}>
            Send request
          </button>
          {sending && (
            <span className={subtleTextClass} role="status">
              <Spinner label={endpoint.streaming ? "Reading the first events…" : "Waiting for the reply…"} />
            </span>
          )}
        </div>
        {problem && (
          <p role="alert" className={errorTextClass}>
            {problem}
          </p>
        )}
        {reply && <LiveReply reply={reply.result} sequence={reply.sequence} />}
      </section>

      {endpoint.responseExample !== undefined && (
        <CodeBlock
          title={`Response example${endpoint.responseStatus ? ` (${endpoint.responseStatus})` : ""}`}
          code={
            typeof endpoint.responseExample === "string"
              ? endpoint.responseExample
              : prettyJson(endpoint.responseExample)
          }
          copyLabel="Copy response example"
        />
      )}
    </article>
  );
}
