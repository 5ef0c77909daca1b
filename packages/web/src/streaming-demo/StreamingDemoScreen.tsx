import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { LIVE_FEED_PATH } from "@fintech/core/events/feed-paths";
import { api } from "../api";
import { errorMessage } from "../api/errors";
import { useAuthModal } from "../auth/authModalContext";
import { linkButtonClass, primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { cardClass, errorTextClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import type { ConnectionStatus } from "../live/feedState";
import { useSession } from "../session/hooks";
import { ConnectionTestPanel } from "./ConnectionTestPanel";
import { classifyDelivery, classifyEvent, type DemoEventType, type StreamEvent } from "./demoEvents";
import { addArrival, demoCounters, emptyDemoState, entriesOfType, type DemoCounters, type DemoState } from "./demoLog";
import { DEMO_TABS, DemoTabs, demoPanelId, demoTabId, type DemoTab } from "./DemoTabs";
import { EventLog } from "./EventLog";
import { useDemoStream, useWebhookDebug } from "./hooks";
import { TRANSPORT_LABEL } from "./transport";
import { TestPaymentHint } from "../payments/TestPaymentHint";
import { useTestPayment } from "../payments/useTestPayment";
import { WebhookDebug } from "./WebhookDebug";

const DEMO_TEST_PAYMENT_DESCRIPTION = "Test payment from the streaming demo";

type Connection = "disconnected" | "connecting" | "connected";
const CONNECTION_TEXT: Record<Connection, string> = {
  connected: "Connected",
  connecting: "Connecting...",
  disconnected: "Disconnected",
};
/** While streaming, the badge follows the live connection itself. */
const STREAM_CONNECTION: Record<ConnectionStatus, Connection> = {
  live: "connected",
  connecting: "connecting",
  reconnecting: "connecting",
  offline: "disconnected",
};

/** How often the events-per-minute figure is recomputed while streaming. */
const RATE_TICK_MS = 1_000;

const SERVICE_CARDS = [
  {
    title: "Payment processing",
    text: "Your payments as they move: initiated, each status change, completed or failed, from the payment feed.",
  },
  {
    title: "Risk monitoring",
    text: "KYC verification steps, screening holds, low balances and account locks, as they are committed.",
  },
  {
    title: "Account sync",
    text: "Balance and transaction changes of your ledger accounts, and reconciliation results, from the ledger feed.",
  },
  {
    title: "Webhook debug",
    text: "Your webhook endpoints and their latest deliveries, signed per Standard Webhooks with the event's id.",
  },
] as const;

/**
 * /grpc-demo (docs/webhooks.md#the-streaming-demo-and-the-test-suite): the user's own ledger, KYC
 * and payment feeds as they arrive, over the browser's one live connection. Every figure is
 * counted from what arrived; Send Test Payment makes a real payment; Webhook Debug reads the
 * webhooks API; Connection Test makes real requests. Signed out, everything but the stream and
 * the user's own data is there, with a way to sign in.
 */
export function StreamingDemoScreen() {
  const session = useSession();
  const signedIn = session !== null;
  const isAdmin = session?.user.role === "admin";
  const { openAuthModal } = useAuthModal();
  const [tab, setTab] = useState<DemoTab>("overview");
  const [autoScroll, setAutoScroll] = useState(false);
  const [showMetrics, setShowMetrics] = useState(true);
  const [connection, setConnection] = useState<Connection>("disconnected");
  const [connectError, setConnectError] = useState<string | null>(null);
  const [streaming, setStreaming] = useState(false);
  const [state, setState] = useState<DemoState>(emptyDemoState);
  const [now, setNow] = useState(() => Date.now());
  const sequence = useRef(0);
  const streamStartedAt = useRef(0);

  // A sign-out ends the stream and the connection: they were the user's.
  useEffect(() => {
    if (signedIn) return;
    setStreaming(false);
    setConnection("disconnected");
  }, [signedIn]);

  const onEvent = useCallback((event: StreamEvent) => {
    sequence.current += 1;
    const receivedAtMs = Date.now();
    setState((current) =>
      addArrival(current, {
        key: event.id ?? `${event.scope}.${event.name}#${sequence.current}`,
        id: event.id,
        source: `${event.scope}.${event.name}`,
        classified: classifyEvent(event),
        createdAt: event.createdAt,
        receivedAtMs,
      }),
    );
  }, []);
  const streamStatus = useDemoStream(streaming, onEvent);

  const webhooks = useWebhookDebug(
    signedIn && (tab === "webhooks" || streaming),
    signedIn && (tab === "webhooks" || streaming),
  );
  // Deliveries made or attempted since the stream started arrive in the log as webhook events.
  useEffect(() => {
    if (!streaming || !webhooks.data) return;
    const receivedAtMs = Date.now();
    setState((current) => {
      let next = current;
      for (const { deliveries } of webhooks.data) {
        for (const delivery of deliveries) {
          const lastAt = delivery.attempts.at(-1)?.at ?? delivery.created_at;
          if (Date.parse(lastAt) < streamStartedAt.current) continue;
          next = addArrival(next, {
            key: `webhook:${delivery.id}:${delivery.attempts.length}:${delivery.status}`,
            id: delivery.event_id,
            source: "webhook.delivery",
            classified: classifyDelivery(delivery),
            createdAt: null,
            receivedAtMs,
          });
        }
      }
      return next;
    });
  }, [streaming, webhooks.data]);

  useEffect(() => {
    if (!streaming) return;
    const timer = setInterval(() => setNow(Date.now()), RATE_TICK_MS);
    return () => clearInterval(timer);
  }, [streaming]);

  const payment = useTestPayment(DEMO_TEST_PAYMENT_DESCRIPTION);
  const counters = demoCounters(state, now);
  const badge: Connection = streaming ? STREAM_CONNECTION[streamStatus] : connection;

  const connect = async () => {
    setConnection("connecting");
    setConnectError(null);
    try {
      await api.health.getServiceHealth();
      setConnection("connected");
    } catch (error) {
      setConnection("disconnected");
      setConnectError(`Could not connect: ${errorMessage(error, "the API did not answer")}`);
    }
  };

  const start = () => {
    streamStartedAt.current = Date.now();
    setNow(Date.now());
    setStreaming(true);
  };

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="space-y-2">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Developers</p>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Real-time Streaming Demo
        </h1>
        <p className={`max-w-3xl ${subtleTextClass}`}>
          Watch your own payments, risk checks and reconciliation results arrive as they are committed. The URLs read as
          gRPC names, but the wire is plain Server-Sent Events carrying JSON (one connection per browser, resumed after
          a drop): any HTTP client can read it. Every figure here is counted from what arrived.
        </p>
      </header>

      <section aria-labelledby="demo-controls-heading" className={`${cardClass} space-y-4`}>
        <h2 id="demo-controls-heading" className="sr-only">
          Connection and controls
        </h2>
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Status">
          <Badge tone={badge === "connected" ? "good" : badge === "connecting" ? "neutral" : "bad"}>
            {CONNECTION_TEXT[badge]}
          </Badge>
          <Badge tone="neutral">{TRANSPORT_LABEL}</Badge>
          <Badge tone="neutral">
            <span className="break-all font-mono text-xs">{LIVE_FEED_PATH}</span>
          </Badge>
          {streaming && <Badge tone="good">Streaming Active</Badge>}
        </div>

        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <Toggle id="demo-auto-scroll" label="Auto-scroll" checked={autoScroll} onChange={setAutoScroll} />
          <Toggle id="demo-metrics" label="Performance metrics" checked={showMetrics} onChange={setShowMetrics} />
        </div>

        {!signedIn ? (
          <div className="flex flex-wrap items-center gap-3 rounded-xl bg-indigo-50 p-4 dark:bg-indigo-950/50">
            <p className="text-sm text-slate-800 dark:text-slate-100">
              Streaming needs a session: the events are your own. Sign in to connect; the Connection Test works without
              one.
            </p>
            <button type="button" className={primaryButtonClass} onClick={() => openAuthModal("login")}>
              Sign In
            </button>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            {connection !== "connected" && !streaming && (
              <button
                type="button"
                className={primaryButtonClass}
                onClick={() => void connect()}
                disabled={connection === "connecting"}
              >
                {connection === "connecting" ? <Spinner label="Connecting…" /> : "Connect"}
              </button>
            )}
            {streaming ? (
              <button type="button" className={secondaryButtonClass} onClick={() => setStreaming(false)}>
                Stop Streaming
              </button>
            ) : (
              <button
                type="button"
                className={connection === "connected" ? primaryButtonClass : secondaryButtonClass}
                onClick={start}
                disabled={connection !== "connected"}
              >
                Start Real-Time Stream
              </button>
            )}
            {streaming && (
              <button
                type="button"
                className={primaryButtonClass}
                onClick={() => void payment.sendTestPayment()}
                disabled={payment.sending || !payment.plan?.ok}
                aria-describedby="demo-test-payment-hint"
              >
                {payment.sending ? <Spinner label="Sending…" /> : "Send Test Payment"}
              </button>
            )}
          </div>
        )}
        {signedIn && connection !== "connected" && !streaming && !connectError && (
          <p className={subtleTextClass}>Connect checks the API with your session; then start the stream.</p>
        )}
        {connectError && (
          <p role="alert" className={errorTextClass}>
            {connectError}
          </p>
        )}
        {signedIn && streaming && (
          <TestPaymentHint id="demo-test-payment-hint" payment={payment} then="Its events arrive below." />
        )}
        <div role="status" aria-live="polite">
          {payment.notice && (
            <p
              className={
                payment.notice.tone === "error"
                  ? errorTextClass
                  : "break-words text-sm text-slate-700 dark:text-slate-200"
              }
            >
              {payment.notice.text}
            </p>
          )}
        </div>
      </section>

      <DemoTabs current={tab} onSelect={setTab} />
      <section
        id={demoPanelId(tab)}
        role="tabpanel"
        aria-labelledby={demoTabId(tab)}
        className={`${cardClass} space-y-4`}
      >
        <h2 className={sectionTitleClass}>{DEMO_TABS.find((entry) => entry.id === tab)!.label}</h2>
        {tab === "overview" && (
          <>
            <Counters counters={counters} />
            {showMetrics && <Performance counters={counters} />}
            <TypeLog
              state={state}
              type={null}
              autoScroll={autoScroll}
              showLatency={showMetrics}
              streaming={streaming}
            />
            <ul className="grid gap-3 sm:grid-cols-2" aria-label="Services">
              {SERVICE_CARDS.map((card) => (
                <li key={card.title} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                  <h3 className="font-semibold text-slate-900 dark:text-white">{card.title}</h3>
                  <p className={subtleTextClass}>{card.text}</p>
                </li>
              ))}
            </ul>
          </>
        )}
        {tab === "payments" && (
          <>
            <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              <Figure label="Payment events" value={String(counters.byType.payment)} />
              <Figure label="Payments completed" value={String(counters.paymentsCompleted)} />
              <Figure label="Payments failed" value={String(counters.paymentsFailed)} />
              <Figure label="Success rate" value={successRateText(counters)} />
            </dl>
            <TypeLog
              state={state}
              type="payment"
              autoScroll={autoScroll}
              showLatency={showMetrics}
              streaming={streaming}
            />
          </>
        )}
        {tab === "risk" && (
          <>
            <p className={subtleTextClass}>
              KYC verification and risk events, payments held by screening, low balances and account locks.
            </p>
            <TypeLog
              state={state}
              type="risk"
              autoScroll={autoScroll}
              showLatency={showMetrics}
              streaming={streaming}
            />
          </>
        )}
        {tab === "reconciliation" && (
          <>
            <p className={subtleTextClass}>
              Each reconciliation of one of your accounts arrives as a result with its variance. Reconcile an account on
              the{" "}
              <Link to="/ledger" className={linkButtonClass}>
                Ledger
              </Link>{" "}
              page.
              {isAdmin && (
                <>
                  {" "}
                  The platform's reconciliation runs are on the{" "}
                  <Link to="/reconciliation" className={linkButtonClass}>
                    Reconciliation
                  </Link>{" "}
                  page.
                </>
              )}
            </p>
            <TypeLog
              state={state}
              type="reconciliation"
              autoScroll={autoScroll}
              showLatency={showMetrics}
              streaming={streaming}
            />
          </>
        )}
        {tab === "webhooks" &&
          (signedIn ? (
            <WebhookDebug query={webhooks} />
          ) : (
            <p className={subtleTextClass}>
              Sign in to see your webhook endpoints and their latest deliveries.{" "}
              <button type="button" className={linkButtonClass} onClick={() => openAuthModal("login")}>
                Sign In
              </button>
            </p>
          ))}
        {tab === "connection" && <ConnectionTestPanel />}
      </section>
    </div>
  );
}

const successRateText = (counters: DemoCounters) =>
  counters.successRate === null ? "N/A" : `${counters.successRate}%`;

function TypeLog({
  state,
  type,
  autoScroll,
  showLatency,
  streaming,
}: {
  state: DemoState;
  type: DemoEventType | null;
  autoScroll: boolean;
  showLatency: boolean;
  streaming: boolean;
}) {
  const entries = type ? entriesOfType(state, type) : state.entries;
  return (
    <EventLog
      label={type ? `${type[0]!.toUpperCase()}${type.slice(1)} events` : "Stream events"}
      entries={entries}
      autoScroll={autoScroll}
      showLatency={showLatency}
      empty={streaming ? "Streaming: waiting for events." : "No events yet: start the stream."}
    />
  );
}

function Counters({ counters }: { counters: DemoCounters }) {
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Figure label="Events received" value={String(counters.total)} />
      <Figure label="Events per minute" value={String(counters.eventsPerMinute)} />
      <Figure label="Payment events" value={String(counters.byType.payment)} />
      <Figure label="Risk events" value={String(counters.byType.risk)} />
      <Figure label="Reconciliation events" value={String(counters.byType.reconciliation)} />
      <Figure label="Webhook events" value={String(counters.byType.webhook)} />
      <Figure
        label="Payments completed / failed"
        value={`${counters.paymentsCompleted} / ${counters.paymentsFailed}`}
      />
      <Figure label="Success rate" value={successRateText(counters)} />
    </dl>
  );
}

function Performance({ counters }: { counters: DemoCounters }) {
  const { latency } = counters;
  return (
    <section aria-labelledby="demo-performance-heading" className="space-y-2">
      <h3 id="demo-performance-heading" className="font-semibold text-slate-900 dark:text-white">
        Performance metrics
      </h3>
      <p className={subtleTextClass}>
        From each event's commit to its arrival in this page, over the last{" "}
        {latency ? `${latency.samples} ${latency.samples === 1 ? "event" : "events"}` : "events"} that carried their
        commit time.
      </p>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Latency p50" value={latency ? `${latency.p50} ms` : "N/A"} />
        <Figure label="Latency max" value={latency ? `${latency.max} ms` : "N/A"} />
        <Figure label="Duplicates dropped" value={String(counters.duplicates)} />
      </dl>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 break-words text-xl font-bold tabular-nums text-slate-900 dark:text-white">{value}</dd>
    </div>
  );
}

type BadgeTone = "good" | "bad" | "neutral";
const BADGE_TONES: Record<BadgeTone, string> = {
  good: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  bad: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  neutral: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};

function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex max-w-full items-center rounded-full px-3 py-1 text-sm font-semibold ${BADGE_TONES[tone]}`}
    >
      {children}
    </span>
  );
}

function Toggle({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-slate-800 dark:text-slate-100">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="h-4 w-4 accent-indigo-600"
      />
      {label}
    </label>
  );
}
