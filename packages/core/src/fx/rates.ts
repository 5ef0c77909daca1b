import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { parse } from "csv-parse/sync";
import type { CoreContext } from "../shared/context";
import { queryAll } from "../shared/dynamo";
import { badRequest } from "../shared/errors";
import { newId } from "../shared/ids";
import { parseWith } from "../shared/validation";
import type { Currency } from "../money/model";
import { currentRateKey, CURRENT_RATES_PARTITION, rateHistoryKey, rateHistoryPartition } from "./keys";
import {
  baseOf,
  bidAsk,
  FX_CURRENCIES,
  FX_DEFAULT_DAYS,
  FX_MAX_DAYS,
  FX_PAIRS,
  FxPairSchema,
  formatScaled,
  PairRate,
  quoteOf,
  RATE_DECIMALS,
  scaledDecimal,
  SetRateInput,
  type FxPair,
  type RateHistoryReply,
  type RateReply,
} from "./model";
import { seedRate } from "./seed-rates";

/**
 * The rates store: the current rate and spread of each pair, and every rate a pair ever had
 * (each set or import adds a dated history item beside the new current one, in one transaction).
 */

type Who = { id: string; name: string } | null;

/** A pair from a path segment: anything else is a 400 naming the pairs. */
export function parsePair(text: string): FxPair {
  const parsed = FxPairSchema.safeParse(text.trim().toUpperCase().replace(/[-/]/, ""));
  if (!parsed.success) throw badRequest(`Pair must be one of ${FX_PAIRS.join(", ")}`, "invalid_pair");
  return parsed.data;
}

/** `?days=` of the history and revenue reads: absent means 30; anything but 1..366 is a 400. */
export function parseFxDays(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return FX_DEFAULT_DAYS;
  const text = value.trim();
  const days = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(days >= 1 && days <= FX_MAX_DAYS))
    throw badRequest(`days must be a whole number from 1 to ${FX_MAX_DAYS}`, "invalid_days");
  return days;
}

/** The current rate of every pair (a pair never set has its seed rate). */
export async function currentRates(ctx: CoreContext): Promise<Map<FxPair, PairRate>> {
  const items = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": CURRENT_RATES_PARTITION },
  });
  const stored = new Map(items.map((item) => PairRate.parse(item)).map((rate) => [rate.pair, rate] as const));
  return new Map(FX_PAIRS.map((pair) => [pair, stored.get(pair) ?? seedRate(pair)]));
}

export async function currentRate(ctx: CoreContext, pair: FxPair): Promise<PairRate> {
  const reply = await ctx.db.doc.send(
    new GetCommand({ TableName: ctx.db.table, Key: currentRateKey(pair), ConsistentRead: true }),
  );
  return reply.Item ? PairRate.parse(reply.Item) : seedRate(pair);
}

export async function listRates(ctx: CoreContext): Promise<RateReply[]> {
  const rates = await currentRates(ctx);
  return FX_PAIRS.map((pair) => {
    const rate = rates.get(pair)!;
    return { ...rate, ...bidAsk(rate) };
  });
}

const today = (ctx: CoreContext) => ctx.clock().toISOString().slice(0, 10);

/** The current item and a history item of each rate, written together. */
function rateWrites(ctx: CoreContext, rates: PairRate[], who: Who, current: boolean) {
  return rates.flatMap((rate) => [
    ...(current
      ? [{ Put: { TableName: ctx.db.table, Item: { ...currentRateKey(rate.pair), entity: "fx_rate", ...rate } } }]
      : []),
    {
      Put: {
        TableName: ctx.db.table,
        Item: {
          ...rateHistoryKey(rate.pair, rate.as_of, rate.updated_at, newId()),
          entity: "fx_rate_history",
          ...rate,
          recorded_by: who?.name ?? null,
        },
      },
    },
  ]);
}

/** Admin: a new mid rate and/or spread for a pair, effective now, kept in its history. */
export async function setRate(ctx: CoreContext, pairText: string, body: unknown, who: Who): Promise<RateReply> {
  const pair = parsePair(pairText);
  const input = parseWith(SetRateInput, body);
  const before = await currentRate(ctx, pair);
  const rate: PairRate = {
    pair,
    mid: input.rate ?? before.mid,
    spread: input.spread ?? before.spread,
    as_of: today(ctx),
    updated_at: ctx.clock().toISOString(),
    source: "manual",
  };
  await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: rateWrites(ctx, [rate], who, true) }));
  return { ...rate, ...bidAsk(rate) };
}

/** A pair's rates over the last `days` market days, oldest first (each set or import once). */
export async function rateHistory(ctx: CoreContext, pairText: string, days: number): Promise<RateHistoryReply> {
  const pair = parsePair(pairText);
  const since = new Date(ctx.clock().getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const items = await queryAll(ctx.db, {
    KeyConditionExpression: "pk = :pk AND sk >= :since",
    ExpressionAttributeValues: { ":pk": rateHistoryPartition(pair), ":since": `DAY#${since}` },
  });
  return {
    pair,
    days,
    data: items.map((item) => ({
      ...PairRate.parse(item),
      recorded_by: typeof item.recorded_by === "string" ? item.recorded_by : null,
    })),
  };
}

/** The ECB file's largest accepted size: its daily file is under 2 KB, its full history about 600 KB. */
export const ECB_IMPORT_MAX_BYTES = 64 * 1024;
/** Market days one import may carry (a daily file has one; a recent-history extract a few weeks). */
export const ECB_IMPORT_MAX_ROWS = 60;

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** "27 November 2026" (the daily file) or "2026-11-27" (the history file) -> "2026-11-27". */
function ecbDate(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const spelled = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  let date: string | null = null;
  if (iso) date = text;
  else if (spelled) {
    const month = MONTHS.indexOf(spelled[2]!.toLowerCase());
    if (month >= 0) date = `${spelled[3]}-${String(month + 1).padStart(2, "0")}-${spelled[1]!.padStart(2, "0")}`;
  }
  if (!date) return null;
  const parsed = new Date(`${date}T00:00:00.000Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date ? null : date;
}

export interface EcbDay {
  date: string;
  /** Units of each currency one euro buys, scaled by 10^RATE_DECIMALS (EUR itself: 1). */
  perEuro: Map<Currency, bigint>;
}

/**
 * Parses the ECB's reference-rate CSV (eurofxref.csv): a header `Date, USD, JPY, ...` (often with
 * a trailing empty column) and rows of euro-based rates. Currencies the platform does not carry
 * are ignored and reported; a malformed file is a 400 naming the line.
 */
export function parseEcbCsv(text: string): { days: EcbDay[]; ignored: string[] } {
  let rows: string[][];
  try {
    rows = parse(text, { trim: true, relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw badRequest(`Line ${line ?? 1}: not valid CSV`, "invalid_rates_file");
  }
  const [header, ...body] = rows;
  if (header?.[0]?.toLowerCase() !== "date")
    throw badRequest('Line 1: the header must start with "Date" (the ECB eurofxref.csv layout)', "invalid_rates_file");
  if (body.length === 0) throw badRequest("Line 2: the file has no rates", "invalid_rates_file");
  if (body.length > ECB_IMPORT_MAX_ROWS)
    throw badRequest(`The file has ${body.length} days of rates; at most ${ECB_IMPORT_MAX_ROWS}`, "invalid_rates_file");
  const columns = header.slice(1).map((name) => name.toUpperCase());
  const known = new Set<string>(FX_CURRENCIES);
  const ignored = columns.filter((name) => name !== "" && !known.has(name));
  const wanted = FX_CURRENCIES.filter((currency) => currency !== "EUR");
  const days = body.map((row, index) => {
    const line = index + 2;
    const date = ecbDate(row[0] ?? "");
    if (!date) throw badRequest(`Line ${line}: "${(row[0] ?? "").slice(0, 40)}" is not a date`, "invalid_rates_file");
    const perEuro = new Map<Currency, bigint>([["EUR", 10n ** BigInt(RATE_DECIMALS)]]);
    for (const [column, name] of columns.entries()) {
      if (!known.has(name) || name === "EUR") continue;
      const cell = row[column + 1] ?? "";
      // The ECB writes N/A for a currency it did not fix that day: leave the pair as it was.
      if (cell === "" || cell.toUpperCase() === "N/A") continue;
      const scaled = /^\d{1,9}(\.\d+)?$/.test(cell) ? scaledDecimal(cell, RATE_DECIMALS) : null;
      if (!scaled || scaled <= 0n)
        throw badRequest(
          `Line ${line}: ${name} rate "${cell.slice(0, 40)}" is not a positive number`,
          "invalid_rates_file",
        );
      perEuro.set(name as Currency, scaled);
    }
    if (!wanted.some((currency) => perEuro.has(currency)))
      throw badRequest(`Line ${line}: no rate for any of ${wanted.join(", ")}`, "invalid_rates_file");
    return { date, perEuro };
  });
  return { days, ignored };
}

/** The pair's mid on a day of euro rates (a cross rate through EUR, half-up), or null if a currency is missing. */
export function crossRate(day: EcbDay, pair: FxPair): string | null {
  const base = day.perEuro.get(baseOf(pair));
  const quote = day.perEuro.get(quoteOf(pair));
  if (!base || !quote) return null;
  const scale = 10n ** BigInt(RATE_DECIMALS);
  return formatScaled((2n * quote * scale + base) / (2n * base), RATE_DECIMALS);
}

/**
 * Admin: imports an ECB file. Every day's cross rates join the pairs' history; the latest day
 * becomes the current rate unless a rate for a later day is already current (a seed rate never
 * wins over a real one). Spreads stay as set.
 */
export async function importEcbRates(ctx: CoreContext, text: string, who: Who) {
  if (Buffer.byteLength(text, "utf8") > ECB_IMPORT_MAX_BYTES)
    throw badRequest(`The rates file must be at most ${ECB_IMPORT_MAX_BYTES / 1024} KB`, "invalid_rates_file");
  const { days, ignored } = parseEcbCsv(text);
  days.sort((a, b) => a.date.localeCompare(b.date));
  const latest = days.at(-1)!;
  const current = await currentRates(ctx);
  const now = ctx.clock().toISOString();
  const imported = new Set<FxPair>();
  for (const day of days) {
    const rates = FX_PAIRS.flatMap((pair) => {
      const mid = crossRate(day, pair);
      if (!mid) return [];
      imported.add(pair);
      return [
        { pair, mid, spread: current.get(pair)!.spread, as_of: day.date, updated_at: now, source: "ecb" as const },
      ];
    });
    const makeCurrent = day === latest;
    const writes = rates.flatMap((rate) => {
      const before = current.get(rate.pair)!;
      const keepCurrent = makeCurrent && (before.source === "seed" || before.as_of <= rate.as_of);
      return rateWrites(ctx, [rate], who, keepCurrent);
    });
    if (writes.length > 0) await ctx.db.doc.send(new TransactWriteCommand({ TransactItems: writes }));
  }
  return {
    message: `Imported ${days.length === 1 ? "the rates" : `${days.length} days of rates`} of ${latest.date}`,
    as_of: latest.date,
    pairs: FX_PAIRS.filter((pair) => imported.has(pair)),
    ignored,
  };
}
