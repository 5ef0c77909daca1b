import type { Payment } from "../api/payments";

/**
 * The four metric tiles of the /payments page (docs/product/payments.md#metric-tiles), computed from the user's real
 * payments (GET /v1/payments), never from fixed figures:
 * - Total Volume: the amounts of completed payments, per currency (money that really moved).
 * - Success Rate: completed payments divided by all payments (docs/product/payments.md#constants), null with none.
 * - Avg Processing: the mean of completedAt − createdAt over completed payments, null with none.
 * - Active Payments: payments pending or processing (a payment held for review is not active:
 *   nothing happens to it until an admin closes it; the tile says how many there are), and
 *   payments waiting for an administrator's decision (held for review, awaiting approval), said
 *   beside it.
 */

export interface CurrencyVolume {
  currency: string;
  minor: number;
  count: number;
}

export interface PaymentTiles {
  total: number;
  completed: number;
  failed: number;
  active: number;
  /** Parked for review (their hold released). */
  parked: number;
  /** Held for review or awaiting approval (their hold in place). */
  waiting: number;
  /** Largest volume first. */
  volume: CurrencyVolume[];
  /** 0..1; null when there is no payment. */
  successRate: number | null;
  /** Milliseconds; null when no payment has completed (or none has readable times). */
  avgProcessingMs: number | null;
}

/** completedAt − createdAt in ms, or null when either is missing or unreadable (or negative). */
export function processingMs(payment: Pick<Payment, "createdAt" | "completedAt">): number | null {
  if (!payment.completedAt) return null;
  const started = Date.parse(payment.createdAt);
  const finished = Date.parse(payment.completedAt);
  if (!Number.isFinite(started) || !Number.isFinite(finished) || finished < started) return null;
  return finished - started;
}

/** What the tiles read of a payment. */
export type TilePayment = Pick<Payment, "status" | "amountMinor" | "currency" | "createdAt" | "completedAt">;

export function paymentTiles(payments: readonly TilePayment[]): PaymentTiles {
  const completed = payments.filter((payment) => payment.status === "completed");
  const volumes = new Map<string, CurrencyVolume>();
  for (const payment of completed) {
    const entry = volumes.get(payment.currency) ?? { currency: payment.currency, minor: 0, count: 0 };
    entry.minor += payment.amountMinor;
    entry.count += 1;
    volumes.set(payment.currency, entry);
  }
  const durations = completed.map(processingMs).filter((value): value is number => value !== null);
  return {
    total: payments.length,
    completed: completed.length,
    failed: payments.filter((payment) => payment.status === "failed").length,
    active: payments.filter((payment) => payment.status === "pending" || payment.status === "processing").length,
    parked: payments.filter((payment) => payment.status === "parked").length,
    waiting: payments.filter(
      (payment) => payment.status === "held_for_review" || payment.status === "awaiting_approval",
    ).length,
    volume: [...volumes.values()].sort((a, b) => b.minor - a.minor || a.currency.localeCompare(b.currency)),
    successRate: payments.length === 0 ? null : completed.length / payments.length,
    avgProcessingMs:
      durations.length === 0 ? null : durations.reduce((sum, value) => sum + value, 0) / durations.length,
  };
}

/** A duration as people read it: "850 ms", "2.3 s", "4 min 5 s", "2 h 10 min". */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "N/A";
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1_000).toFixed(1))} s`;
  const totalSeconds = Math.round(ms / 1_000);
  if (totalSeconds < 3_600) {
    const seconds = totalSeconds % 60;
    return `${Math.floor(totalSeconds / 60)} min${seconds ? ` ${seconds} s` : ""}`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  const minutes = totalMinutes % 60;
  return `${Math.floor(totalMinutes / 60)} h${minutes ? ` ${minutes} min` : ""}`;
}

/** A 0..1 rate as a percentage with at most one decimal: 0.5 -> "50%", 2/3 -> "66.7%". */
export function rateText(rate: number): string {
  return `${Number((rate * 100).toFixed(1))}%`;
}
