import type { Currency } from "../money/model";

/** Key formats of the limits domain; nothing else builds these keys. */

const SEQ_DIGITS = 12;
const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, "0");

/** The limits in force (absent: the seeded defaults) and one item per admin change, by the version it made. */
export const LIMITS_PARTITION = "LIMITS";
export const moneyLimitsKey = () => ({ pk: LIMITS_PARTITION, sk: "CURRENT" });
export const LIMITS_CHANGE_PREFIX = "CHG#";
export const moneyLimitsChangeKey = (version: number) => ({
  pk: LIMITS_PARTITION,
  sk: `${LIMITS_CHANGE_PREFIX}${padSeq(version)}`,
});

/**
 * What one user moved in one currency, in hourly and daily buckets: the rolling totals the limits
 * are checked against. Written in the same transaction as the movement, under its version.
 */
export const usageKey = (userId: string, currency: Currency) => ({
  pk: `USER#${userId}`,
  sk: `LIMITS#USAGE#${currency}`,
});

/** A level an administrator set for one user, and the audit trail of such decisions. */
export const manualLevelKey = (userId: string) => ({ pk: `USER#${userId}`, sk: "LIMITS#LEVEL" });
export const MANUAL_LEVEL_CHANGE_PREFIX = "LIMITS#LEVEL#CHG#";
export const manualLevelChangeKey = (userId: string, seq: number) => ({
  pk: `USER#${userId}`,
  sk: `${MANUAL_LEVEL_CHANGE_PREFIX}${padSeq(seq)}`,
});
