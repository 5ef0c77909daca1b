import type { Currency } from "@fintech/core/money/model";
import {
  MOVEMENT_LABELS,
  MOVEMENTS,
  WINDOW_LABELS,
  type LimitStatus,
  type LimitUsage,
  type Movement,
} from "@fintech/core/limits/model";
import { formatMoney } from "../lib/money";

/**
 * What the limit banner says, from GET /api/v1/ledger/limits: per movement and currency, what may
 * still move now (the smaller of what the 24-hour and the 30-day windows leave) and the limits
 * behind it; a movement the level may not make says what unlocks it.
 */

export interface LimitLine {
  movement: Movement;
  label: string;
  currency: Currency;
  allowed: boolean;
  /** "$750.00": what may still move now; null when not allowed. */
  remaining: string | null;
  /** "of $1,000.00 per 24 hours · $4,750.00 of $5,000.00 per 30 days", or why it is locked. */
  detail: string;
}

const find = (status: LimitStatus, movement: Movement, window: LimitUsage["window"], currency: Currency) =>
  status.limits.find((row) => row.movement === movement && row.window === window && row.currency === currency);

/** The lines for `currencies` (the caller's accounts' currencies, in order; USD when they have none). */
export function limitLines(status: LimitStatus, currencies: readonly Currency[]): LimitLine[] {
  const shown: Currency[] = currencies.length > 0 ? [...new Set(currencies)] : ["USD"];
  const lines: LimitLine[] = [];
  for (const movement of MOVEMENTS) {
    for (const currency of shown) {
      const day = find(status, movement, "day", currency);
      const month = find(status, movement, "month", currency);
      if (!day || !month) continue;
      const label = MOVEMENT_LABELS[movement];
      if (!day.allowed || !month.allowed || day.remaining_minor === null || month.remaining_minor === null) {
        lines.push({
          movement,
          label,
          currency,
          allowed: false,
          remaining: null,
          detail: status.next_step ? "Not available until your identity is verified" : "Not available at your level",
        });
        continue;
      }
      const money = (minor: number | null) => formatMoney(minor, currency);
      const left = Math.min(day.remaining_minor, month.remaining_minor);
      lines.push({
        movement,
        label,
        currency,
        allowed: true,
        remaining: money(left),
        detail: `of ${money(day.limit_minor)} per ${WINDOW_LABELS.day} · ${money(month.remaining_minor)} of ${money(month.limit_minor)} left per ${WINDOW_LABELS.month}`,
      });
    }
  }
  return lines;
}
