import { useCallback, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { primaryButtonClass, secondaryButtonClass } from "../components/styles";
import { useLedgerAccounts } from "../ledger/hooks";
import { cardClass, errorTextClass, sectionTitleClass, Spinner, subtleTextClass } from "../ledger/ui";
import type { ConnectionStatus } from "../live/feedState";
import { formatMoney } from "../lib/money";
import { Loaded } from "../rails/Loaded";
import { useSession } from "../session/hooks";
import { addEvent, EVENT_LIST_CAP, eventEntry, type EventEntry, type EventTone, type PaymentLiveEvent } from "./events";
import { usePaymentHealth, usePaymentList, usePaymentStream } from "./hooks";
import { PaymentReviewQueue } from "./PaymentReviewQueue";
import { LimitBanner } from "../limits/LimitBanner";
import { PaymentsList } from "./PaymentsList";
import { WaitingPayments } from "./WaitingPayments";
import { TEST_PAYMENT_DESCRIPTION } from "./testPayment";
import { TestPaymentHint } from "./TestPaymentHint";
import { useTestPayment } from "./useTestPayment";
import { durationText, paymentTiles, rateText, type PaymentTiles } from "./tiles";

/** docs/product/payments.md#messages: calls on the payment service while it is not connected. */
export const NOT_CONNECTED = "Not connected to payment service";

const STREAM_STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  offline: "stopped",
};

/**
 * /payments (docs/product/payments.md#payments-page): no layout wrapper, so the page carries its
 * own header and way back. The Connected badge is the payment service's health check; Send money
 * (the main action) leads to /payments/send; the list finds past payments (filters, search, pages)
 * and opens each one's detail. Start Streaming follows the user's payment stream (the shared live
 * feed client); Send Test Payment, a developer aid, makes a real payment between two of the user's
 * accounts; the four tiles are computed from the user's payments; the event list keeps the 50
 * newest events.
 */
export function PaymentsScreen() {
  const _userId = useSession()?.user.id ?? null;
  const health = usePaymentHealth();
  const list = usePaymentList();
  const accounts = useLedgerAccounts();
  const testPayment = useTestPayment(TEST_PAYMENT_DESCRIPTION);
  const { plan, notice, setNotice } = testPayment;
  const [streaming, setStreaming] = useState(false);
  const [events, setEvents] = useState<EventEntry[]>([]);
  const sequence = useRef(0);

  const onEvent = useCallback((event: PaymentLiveEvent) => {
    sequence.current += 1;
    setEvents((current) => addEvent(current, eventEntry(event, `${sequence.current}`, new Date())));
  }, []);
  const streamStatus = usePaymentStream(streaming, onEvent);

  const connected = health.data === true || streamStatus === "live";

  const startStreaming = () => {
    if (!connected) {
      setNotice({ tone: "error", text: NOT_CONNECTED });
      void health.refetch();
      return;
    }
    setNotice(null);
    setStreaming(true);
  };

  const sendTestPayment = async () => {
    if (!connected) {
      setNotice({ tone: "error", text: NOT_CONNECTED });
      return;
    }
    await testPayment.sendTestPayment();
  };

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700 dark:text-indigo-300">Payments</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
            Real-time Payments
          </h1>
          <p className={`mt-2 max-w-2xl ${subtleTextClass}`}>
            Send money to a person or a bank account, find your past payments and follow them as they move.
          </p>
        </div>
        <nav aria-label="Leave payments" className="flex flex-wrap gap-2">
          <Link to="/payments/send" className={primaryButtonClass}>
            Send money
          </Link>
          <Link to="/" className={secondaryButtonClass}>
            Back to Home
          </Link>
          <Link to="/ledger" className={secondaryButtonClass}>
            Ledger
          </Link>
          <Link to="/payment-rails" className={secondaryButtonClass}>
            Payment rails
          </Link>
        </nav>
      </header>

      <LimitBanner currencies={accounts.data?.map((account) => account.currency) ?? []} />

      <Loaded query={list} what="your payments" errorFrame={cardClass}>
        {(data) => <MetricTiles tiles={paymentTiles(data.payments)} complete={data.complete} />}
      </Loaded>

      <PaymentsList />

      <WaitingPayments />
      <PaymentReviewQueue />

      <section aria-labelledby="live-tools-heading" className={`${cardClass} space-y-4`}>
        <div>
          <h2 id="live-tools-heading" className={sectionTitleClass}>
            Live events and a test payment
          </h2>
          <p className={subtleTextClass}>
            For trying the platform: stream your payment events, and send a small test payment between two of your own
            accounts.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Status">
          <Badge tone={health.isPending && streamStatus !== "live" ? "neutral" : connected ? "good" : "bad"}>
            {health.isPending && streamStatus !== "live" ? "Checking…" : connected ? "Connected" : "Disconnected"}
          </Badge>
          <Badge tone={streaming ? "good" : "neutral"}>{streaming ? "Streaming" : "Idle"}</Badge>
          {streaming && (
            <span className="text-xs text-slate-600 dark:text-slate-300">
              Stream {STREAM_STATUS_TEXT[streamStatus]}
            </span>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {streaming ? (
            <button type="button" className={secondaryButtonClass} onClick={() => setStreaming(false)}>
              Stop Streaming
            </button>
          ) : (
            <button type="button" className={primaryButtonClass} onClick={startStreaming}>
              Start Streaming
            </button>
          )}
          <button
            type="button"
            className={streaming ? primaryButtonClass : secondaryButtonClass}
            onClick={() => void sendTestPayment()}
            disabled={!streaming || testPayment.sending || !plan?.ok}
            aria-describedby="test-payment-hint"
          >
            {testPayment.sending ? <Spinner label="Sending…" /> : "Send Test Payment"}
          </button>
        </div>
        <TestPaymentHint
          id="test-payment-hint"
          payment={testPayment}
          notYet={streaming ? null : "Start streaming to send a test payment and see its events arrive."}
        />
        <div role="status" aria-live="polite">
          {notice && (
            <p
              className={
                notice.tone === "error" ? errorTextClass : "break-words text-sm text-slate-700 dark:text-slate-200"
              }
            >
              {notice.text}
            </p>
          )}
        </div>
      </section>

      <EventList events={events} streaming={streaming} onClear={() => setEvents([])} />
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
    <span className={`inline-flex items-center rounded-full px-3 py-1 text-sm font-semibold ${BADGE_TONES[tone]}`}>
      {children}
    </span>
  );
}

function Tile({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <div className={`${cardClass} min-w-0 !p-4`}>
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="mt-1 break-words text-2xl font-bold tabular-nums text-slate-900 dark:text-white">{value}</dd>
      <dd className="mt-1 text-xs text-slate-600 dark:text-slate-300">{note}</dd>
    </div>
  );
}

/** What the Active Payments tile says beside its count: payments parked, or waiting for a decision. */
function activeNote(tiles: PaymentTiles): string {
  const extra = [
    tiles.waiting > 0 ? `${tiles.waiting} awaiting a decision` : null,
    tiles.parked > 0 ? `${tiles.parked} parked` : null,
  ].filter(Boolean);
  return ["Pending or processing", ...extra].join(" · ");
}

/**
 * The four tiles of docs/product/payments.md#payments-page, from the user's payments (see tiles.ts
 * for what each counts).
 */
function MetricTiles({ tiles, complete }: { tiles: PaymentTiles; complete: boolean }) {
  const volume =
    tiles.volume.length === 0
      ? "None yet"
      : tiles.volume.map((entry) => formatMoney(entry.minor, entry.currency)).join(" · ");
  return (
    <section aria-labelledby="payment-metrics-heading">
      <h2 id="payment-metrics-heading" className="sr-only">
        Payment metrics
      </h2>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Tile label="Total Volume" value={volume} note={`Completed payments (${tiles.completed})`} />
        <Tile
          label="Success Rate"
          value={tiles.successRate === null ? "N/A" : rateText(tiles.successRate)}
          note={`${tiles.completed} completed of ${tiles.total} payments`}
        />
        <Tile
          label="Avg Processing"
          value={tiles.avgProcessingMs === null ? "N/A" : durationText(tiles.avgProcessingMs)}
          note={tiles.avgProcessingMs === null ? "No completed payment yet" : "Created to completed, mean"}
        />
        <Tile label="Active Payments" value={String(tiles.active)} note={activeNote(tiles)} />
      </dl>
      {!complete && (
        <p className={`mt-2 ${subtleTextClass}`}>From your latest {tiles.total.toLocaleString("en-US")} payments.</p>
      )}
    </section>
  );
}

const TONE_DOT: Record<EventTone, string> = {
  info: "bg-indigo-600 dark:bg-indigo-400",
  success: "bg-emerald-600 dark:bg-emerald-400",
  error: "bg-red-600 dark:bg-red-400",
};
const TONE_TITLE: Record<EventTone, string> = {
  info: "text-slate-900 dark:text-white",
  success: "text-emerald-800 dark:text-emerald-300",
  error: "text-red-700 dark:text-red-300",
};

/** The stream's events, newest first, the 50 newest kept (docs/product/payments.md#constants). */
function EventList({
  events,
  streaming,
  onClear,
}: {
  events: readonly EventEntry[];
  streaming: boolean;
  onClear: () => void;
}) {
  return (
    <section aria-labelledby="payment-events-heading" className={`${cardClass} min-w-0`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="payment-events-heading" className={sectionTitleClass}>
          Payment events
        </h2>
        <div className="flex items-center gap-3">
          <span className="text-xs text-slate-600 dark:text-slate-300">
            {events.length} of at most {EVENT_LIST_CAP}
          </span>
          {events.length > 0 && (
            <button type="button" className={`${secondaryButtonClass} !px-3 !py-1`} onClick={onClear}>
              Clear
            </button>
          )}
        </div>
      </div>
      {/* The log region is there from the start, so the first entries are announced too (politely); the
          list inside keeps its list semantics. */}
      <div role="log" aria-label="Payment events, newest first" className="mt-3">
        {events.length === 0 ? (
          <p className={subtleTextClass}>
            {streaming
              ? "Waiting for events: send a test payment or make a payment elsewhere."
              : "No events yet. Start streaming to see your payments' events as they happen."}
          </p>
        ) : (
          <ol className="divide-y divide-slate-200 dark:divide-slate-800">
            {events.map((entry) => (
              <li key={entry.key} className="flex min-w-0 gap-3 py-2" data-event-type={entry.type}>
                <span
                  aria-hidden="true"
                  className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${TONE_DOT[entry.tone]}`}
                />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className={`font-semibold ${TONE_TITLE[entry.tone]}`}>{entry.title}</span>
                    <time
                      dateTime={entry.receivedAt}
                      className="text-xs tabular-nums text-slate-600 dark:text-slate-300"
                    >
                      {new Date(entry.receivedAt).toLocaleTimeString("en-US")}
                    </time>
                  </p>
                  {entry.detail && (
                    <p className="break-words text-sm text-slate-700 dark:text-slate-200">{entry.detail}</p>
                  )}
                  <p className="break-all font-mono text-xs text-slate-600 dark:text-slate-300">{entry.paymentId}</p>
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
