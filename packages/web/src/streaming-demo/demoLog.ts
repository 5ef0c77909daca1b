import { DEMO_EVENT_TYPES, type Classified, type DemoEventType, type DemoStatus } from "./demoEvents";

/**
 * The demo's log and counters (docs/webhooks.md#the-streaming-demo-and-the-test-suite): everything
 * is computed from what arrived, nothing is sampled or invented. The log keeps the 50 newest
 * entries; the counters count every arrival since the page opened.
 */

/** The event log keeps this many entries, the newest. */
export const DEMO_LOG_CAP = 50;
/** How many recent ids, latencies and arrival times are kept for de-duplication and the figures. */
export const DEMO_MEMORY = 1_000;
/** Events per minute counts the arrivals of the last minute. */
export const RATE_WINDOW_MS = 60_000;

export interface DemoEntry {
  /** The event's stable id when it has one, else a key the page made: unique in the log. */
  key: string;
  /** The stable id as the server sent it (null when it sent none). */
  id: string | null;
  /** Where it came from: `payment.paymentInitiated`, `webhook.delivery`. */
  source: string;
  type: DemoEventType;
  status: DemoStatus;
  title: string;
  detail: string;
  /** When the event was committed (ISO), when known. */
  createdAt: string | null;
  /** When this page received it (ISO). */
  receivedAt: string;
  /** From commit to arrival, when the commit time is known. */
  latencyMs: number | null;
  /** The payment the event is about, when it is about one. */
  paymentId: string | null;
}

export interface DemoState {
  /** Oldest first, at most DEMO_LOG_CAP. */
  entries: DemoEntry[];
  seen: string[];
  byType: Record<DemoEventType, number>;
  /** How each payment that said so ended, by id. */
  payments: Record<string, "completed" | "failed">;
  latencies: number[];
  arrivals: number[];
  total: number;
  duplicates: number;
}

export const emptyDemoState = (): DemoState => ({
  entries: [],
  seen: [],
  byType: { payment: 0, risk: 0, reconciliation: 0, webhook: 0 },
  payments: {},
  latencies: [],
  arrivals: [],
  total: 0,
  duplicates: 0,
});

const keepLast = <T>(list: readonly T[], item: T, cap: number): T[] => [...list, item].slice(-cap);

/** From commit to arrival; a browser clock behind the server's would make it negative, which reads as 0. */
export function latencyOf(createdAt: string | null, receivedAtMs: number): number | null {
  if (!createdAt) return null;
  const committed = Date.parse(createdAt);
  if (!Number.isFinite(committed)) return null;
  return Math.max(0, Math.round(receivedAtMs - committed));
}

export interface Arrival {
  key: string;
  id: string | null;
  source: string;
  classified: Classified;
  createdAt: string | null;
  receivedAtMs: number;
}

/** The state with one more arrival; one whose key was already seen counts as a duplicate and changes nothing else. */
export function addArrival(state: DemoState, arrival: Arrival): DemoState {
  if (state.seen.includes(arrival.key)) return { ...state, duplicates: state.duplicates + 1 };
  const { classified } = arrival;
  const latencyMs = latencyOf(arrival.createdAt, arrival.receivedAtMs);
  const entry: DemoEntry = {
    key: arrival.key,
    id: arrival.id,
    source: arrival.source,
    type: classified.type,
    status: classified.status,
    title: classified.title,
    detail: classified.detail,
    createdAt: arrival.createdAt,
    receivedAt: new Date(arrival.receivedAtMs).toISOString(),
    latencyMs,
    paymentId: classified.payment?.id || null,
  };
  const outcome = classified.payment?.outcome;
  const paymentId = classified.payment?.id;
  return {
    entries: keepLast(state.entries, entry, DEMO_LOG_CAP),
    seen: keepLast(state.seen, arrival.key, DEMO_MEMORY),
    byType: { ...state.byType, [classified.type]: state.byType[classified.type] + 1 },
    payments: outcome && paymentId ? { ...state.payments, [paymentId]: outcome } : state.payments,
    latencies: latencyMs === null ? state.latencies : keepLast(state.latencies, latencyMs, DEMO_MEMORY),
    arrivals: keepLast(state.arrivals, arrival.receivedAtMs, DEMO_MEMORY),
    total: state.total + 1,
    duplicates: state.duplicates,
  };
}

export interface DemoCounters {
  total: number;
  byType: Record<DemoEventType, number>;
  paymentsCompleted: number;
  paymentsFailed: number;
  /** Completed payments over all that ended, as a percentage; null before any ended. */
  successRate: number | null;
  eventsPerMinute: number;
  duplicates: number;
  /** Commit-to-arrival latency over the kept samples; null without any. */
  latency: { p50: number; max: number; samples: number } | null;
}

/** The nearest-rank percentile of `values` (not empty). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function demoCounters(state: DemoState, nowMs: number): DemoCounters {
  const outcomes = Object.values(state.payments);
  const paymentsCompleted = outcomes.filter((outcome) => outcome === "completed").length;
  const paymentsFailed = outcomes.length - paymentsCompleted;
  return {
    total: state.total,
    byType: state.byType,
    paymentsCompleted,
    paymentsFailed,
    successRate: outcomes.length === 0 ? null : Math.round((paymentsCompleted / outcomes.length) * 1000) / 10,
    eventsPerMinute: state.arrivals.filter((at) => at > nowMs - RATE_WINDOW_MS && at <= nowMs).length,
    duplicates: state.duplicates,
    latency:
      state.latencies.length === 0
        ? null
        : {
            p50: percentile(state.latencies, 50),
            max: Math.max(...state.latencies),
            samples: state.latencies.length,
          },
  };
}

/** The log's entries of one type (the monitor tabs), oldest first. */
export const entriesOfType = (state: DemoState, type: DemoEventType): DemoEntry[] =>
  state.entries.filter((entry) => entry.type === type);

export const DEMO_TYPE_LABELS: Record<DemoEventType, string> = {
  payment: "Payment",
  risk: "Risk",
  reconciliation: "Reconciliation",
  webhook: "Webhook",
};

export { DEMO_EVENT_TYPES };
