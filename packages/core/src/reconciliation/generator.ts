import type { SettlementExpectation } from "./expectations";
import { formatSettlementLine, type SettlementLine } from "./file-format";
import { SETTLEMENT_HEADER, type LineClass } from "./model";

/**
 * Settlement files as a rail's processor would send them (docs/money-operations.md#settlement-files),
 * with planted breaks: the CLI (settlement:drop), the golden-file tests and the bench. Pure: the
 * expectations in, the lines out one at a time (a bench file is never held whole).
 */

/** The break classes a file can carry, planted in this order, round robin. */
export const PLANTABLE_CLASSES = [
  "amount_mismatch",
  "fee_mismatch",
  "unknown_to_ledger",
  "duplicate_line",
  "missing_from_file",
] as const satisfies readonly LineClass[];
export type PlantableClass = (typeof PLANTABLE_CLASSES)[number];

export interface PlantedBreak {
  class: PlantableClass;
  reference: string;
}

export interface GeneratedFile {
  planted: PlantedBreak[];
  /** The header, then one row per line, without line breaks. */
  rows(): Generator<string>;
  /** Data lines the file will have. */
  lineCount: number;
}

export interface GenerateOptions {
  railId: string;
  date: string;
  settlementSeconds: number;
  breaks: number;
}

/**
 * A file settling `expectations` (in their order) with `breaks` planted breaks spread over every
 * class: amount and fee mismatches change a line, unknown references are invented, duplicates
 * repeat a clean line, missing attempts are left out. Classes that need an attempt of their own
 * take the first clean ones; fewer attempts than that leave the rest unplanted.
 */
export function generateSettlementFile(
  expectations: readonly SettlementExpectation[],
  options: GenerateOptions,
): GeneratedFile {
  const planted: PlantedBreak[] = [];
  const changed = new Map<number, PlantableClass>();
  const duplicates: number[] = [];
  const unknown: string[] = [];
  let next = 0;
  for (let index = 0; index < options.breaks; index++) {
    const kind = PLANTABLE_CLASSES[index % PLANTABLE_CLASSES.length]!;
    if (kind === "unknown_to_ledger") {
      const reference = `UNK-${options.date.replaceAll("-", "")}-${String(unknown.length + 1).padStart(6, "0")}`;
      unknown.push(reference);
      planted.push({ class: kind, reference });
      continue;
    }
    if (next >= expectations.length) continue;
    const target = next++;
    if (kind === "duplicate_line") duplicates.push(target);
    else changed.set(target, kind);
    planted.push({ class: kind, reference: expectations[target]!.reference });
  }
  const settledAt = (expectation: SettlementExpectation) =>
    new Date(Date.parse(expectation.completedAt) + Math.floor(options.settlementSeconds / 2) * 1000).toISOString();
  const lineOf = (expectation: SettlementExpectation): SettlementLine => ({
    rail: options.railId.toUpperCase(),
    reference: expectation.reference,
    amountMinor: expectation.amountMinor,
    currency: expectation.currency,
    feeMinor: expectation.feeMinor,
    type: "payment",
    settledAt: settledAt(expectation),
  });
  const missing = [...changed.values()].filter((kind) => kind === "missing_from_file").length;
  const first = expectations[0];
  const feeLine: SettlementLine | null = first
    ? {
        rail: options.railId.toUpperCase(),
        reference: `FEES-${options.date.replaceAll("-", "")}`,
        amountMinor: 100,
        currency: first.currency,
        feeMinor: 0,
        type: "fee",
        settledAt: `${options.date}T23:59:00.000Z`,
      }
    : null;
  return {
    planted,
    lineCount: expectations.length - missing + duplicates.length + unknown.length + (feeLine ? 1 : 0),
    *rows() {
      yield SETTLEMENT_HEADER;
      for (let index = 0; index < expectations.length; index++) {
        const expectation = expectations[index]!;
        const kind = changed.get(index);
        if (kind === "missing_from_file") continue;
        const line = lineOf(expectation);
        if (kind === "amount_mismatch") line.amountMinor += Math.max(1, Math.round(line.amountMinor / 20));
        if (kind === "fee_mismatch") line.feeMinor += 1;
        yield formatSettlementLine(line);
      }
      for (const index of duplicates) yield formatSettlementLine(lineOf(expectations[index]!));
      for (const reference of unknown)
        yield formatSettlementLine({ ...lineOf(first ?? placeholder(options.date)), reference, amountMinor: 1_234 });
      if (feeLine) yield formatSettlementLine(feeLine);
    },
  };
}

function placeholder(date: string): SettlementExpectation {
  return {
    railId: "",
    reference: "",
    paymentId: "",
    attempt: 1,
    amountMinor: 1_234,
    currency: "USD",
    feeMinor: 0,
    completedAt: `${date}T12:00:00.000Z`,
  };
}

/** The planted classes counted, for comparing with what reconciliation found. */
export function plantedCounts(planted: readonly PlantedBreak[]): Partial<Record<PlantableClass, number>> {
  const counts: Partial<Record<PlantableClass, number>> = {};
  for (const { class: kind } of planted) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
