import type { FxPair } from "./model";

/** Key formats of the FX domain; nothing else builds these keys. */

/** The current rate of every pair: one partition, one item per pair (read together by GET /fx/rates). */
export const CURRENT_RATES_PARTITION = "FX#RATES";
export const currentRateKey = (pair: FxPair) => ({ pk: CURRENT_RATES_PARTITION, sk: `PAIR#${pair}` });

/** Every rate a pair ever had (set by hand or imported), by market day then recording time. */
export const rateHistoryPartition = (pair: FxPair) => `FX#HIST#${pair}`;
export const rateHistoryKey = (pair: FxPair, asOf: string, recordedAt: string, id: string) => ({
  pk: rateHistoryPartition(pair),
  sk: `DAY#${asOf}#${recordedAt}#${id}`,
});
export const RATE_HISTORY_PREFIX = "DAY#";

/** A quote: its own item, consumed by the transfer that uses it (a conditional update). */
export const quoteKey = (quoteId: string) => ({ pk: `FX#QUOTE#${quoteId}`, sk: "QUOTE" });
