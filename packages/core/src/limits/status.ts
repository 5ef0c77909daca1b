import { CURRENCIES, toDecimalString, type Currency } from "../money/model";
import type { CoreContext } from "../shared/context";
import { usageOf } from "./gate";
import { userLevel } from "./levels";
import {
  KYC_PATH,
  LEVEL_LABELS,
  LIMIT_MESSAGES,
  LIMIT_WINDOWS,
  MOVEMENTS,
  type LimitStatus,
  type LimitUsage,
} from "./model";
import { getMoneyLimits } from "./settings";

const CURRENCY_LIST = Object.keys(CURRENCIES) as Currency[];

/**
 * GET /api/v1/limits: the caller's level, and for every movement, window and currency the limit,
 * what the window counts and what remains (the same figures the gate decides on).
 */
export async function limitStatus(ctx: CoreContext, userId: string): Promise<LimitStatus> {
  const now = ctx.clock();
  const [level, limits, usage] = await Promise.all([
    userLevel(ctx, userId),
    getMoneyLimits(ctx),
    Promise.all(CURRENCY_LIST.map((currency) => usageOf(ctx, userId, currency, now))),
  ]);
  const allowed = limits[level.level];
  const rows: LimitUsage[] = [];
  for (const movement of MOVEMENTS) {
    for (const window of LIMIT_WINDOWS) {
      CURRENCY_LIST.forEach((currency, index) => {
        const usedMinor = usage[index]![movement][window];
        const limitMinor = allowed[movement]?.[window][currency] ?? null;
        const remainingMinor = limitMinor === null ? null : Math.max(0, limitMinor - usedMinor);
        const money = (minor: number | null) => (minor === null ? null : toDecimalString(minor, currency));
        rows.push({
          movement,
          window,
          currency,
          allowed: limitMinor !== null,
          limit: money(limitMinor),
          used: toDecimalString(usedMinor, currency),
          remaining: money(remainingMinor),
          limit_minor: limitMinor,
          used_minor: usedMinor,
          remaining_minor: remainingMinor,
        });
      });
    }
  }
  return {
    level: level.level,
    level_label: LEVEL_LABELS[level.level],
    source: level.source,
    // A level an administrator holds is not raised by the wizard: no link then.
    next_step:
      level.level === "unverified" && level.source === "kyc"
        ? { href: KYC_PATH, message: LIMIT_MESSAGES.nextStep }
        : null,
    limits: rows,
  };
}
